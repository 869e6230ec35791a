"""The learned scorer beside the rules: a linear model over words, word pairs and CJK character
pairs of the folded text, its weights trained by bench/_train_instructions.py and shipped as
``scorer_model.json.gz`` (docs/instruction-like.md has the data card).

Features are found the way the rules find their triggers: one Aho-Corasick pass over the text,
the patterns being the model's kept features (" ignore ", " previous instructions ", "忽略"), so
there is no hashing and no per-word Python loop; the score is the bias plus the weight of every
feature found. A text longer than one window is scored by its best window, so an instruction
buried in a long page is scored as if it stood alone. The weights load on first use, not at
import.
"""

from __future__ import annotations

import bisect
import functools
import gzip
import json
import pathlib
import re
from dataclasses import dataclass

import ahocorasick_rs

MODEL_PATH = pathlib.Path(__file__).with_name("scorer_model.json.gz")

# ASCII characters other than letters become spaces, so that every word stands between two
# spaces (a feature " word " cannot match inside another word) and numbers carry no weight.
_ASCII_SEPARATORS = bytes(
    32 if (byte < 128 and not chr(byte).isalpha()) else byte for byte in range(256)
)
# Punctuation outside ASCII that would otherwise stick to a word ("«ignore", "指令，").
_UNICODE_SEPARATORS = re.compile(
    "[“”„‟‘’‚‛«»‹›—–…¡¿、，。：；！？（）【】「」『』《》〈〉·•\u00a0\u3000]"
)
CJK_RANGES = (
    ("\u3040", "\u30ff"),  # kana
    ("\u3400", "\u4dbf"),
    ("\u4e00", "\u9fff"),
    ("\uac00", "\ud7af"),  # hangul
    ("\uf900", "\ufaff"),
)


def normalise(folded: str) -> bytes:
    """The folded text as the features see it: UTF-8, ASCII non-letters and common punctuation
    turned into spaces, a space at each end."""
    if not folded.isascii():
        folded = _UNICODE_SEPARATORS.sub(" ", folded)
    data = (" " + folded + " ").encode("utf-8", "replace")
    return data.translate(_ASCII_SEPARATORS)


@dataclass(frozen=True, slots=True)
class Window:
    """The best-scoring stretch of a text: its score and its byte span in ``normalise``'s output."""

    score: float
    start: int
    end: int


class LinearScorer:
    """Bias plus the weights of the features a window contains; the best window of a long text."""

    def __init__(self, features: dict[str, float], bias: float, window: int) -> None:
        patterns = list(features)
        self.bias = bias
        self.window = window
        self.weights = [features[pattern] for pattern in patterns]
        self.patterns = patterns
        self._automaton = ahocorasick_rs.BytesAhoCorasick(
            [pattern.encode("utf-8") for pattern in patterns]
        )

    def matches(self, data: bytes) -> list[tuple[int, int, int]]:
        """(feature index, start, end) of every feature found in normalised text."""
        return self._automaton.find_matches_as_indexes(data, overlapping=True)

    def best_window(self, data: bytes) -> Window:
        """The best window: the bias plus the weight of each feature found in it (once, however
        often it occurs, so that a repeated word does not add up). A text longer than a window
        is read in windows of a whole and of half a window, each overlapping the next by half,
        so that a short attack inside a page is not drowned by the words around it."""
        found = self._automaton.find_matches_as_indexes(data, overlapping=True)
        weight = self.weights.__getitem__
        if len(data) <= self.window:
            return Window(self.bias + sum(map(weight, {i for i, _, _ in found})), 0, len(data))
        features = [i for i, _, _ in found]
        ends = [end for _, _, end in found]
        best, best_start, best_width = 0.0, 0, self.window
        for width in (self.window, self.window // 2):
            for start in range(0, len(data) - width // 2, width // 2):
                # A window holds the matches that end inside it.
                lo = bisect.bisect_right(ends, start)
                hi = bisect.bisect_right(ends, start + width, lo)
                if hi > lo:
                    total = sum(map(weight, set(features[lo:hi])))
                    if total > best:
                        best, best_start, best_width = total, start, width
        end = min(len(data), best_start + best_width)
        return Window(self.bias + best, best_start, end)

    def score(self, folded: str) -> float:
        return self.best_window(normalise(folded)).score


@dataclass(frozen=True, slots=True)
class Model:
    scorer: LinearScorer
    threshold: float


def load(path: pathlib.Path = MODEL_PATH) -> Model:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    scorer = LinearScorer(data["features"], float(data["bias"]), int(data["window"]))
    return Model(scorer, float(data["threshold"]))


@functools.cache
def model() -> Model:
    """The shipped model, loaded on first use."""
    return load()


def flagged_window(folded: str) -> str | None:
    """The best window of the folded text when its score reaches the shipped threshold."""
    shipped = model()
    data = normalise(folded)
    window = shipped.scorer.best_window(data)
    if window.score < shipped.threshold:
        return None
    return " ".join(data[window.start : window.end].decode("utf-8", "replace").split())
