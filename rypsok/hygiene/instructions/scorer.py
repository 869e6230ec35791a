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
import itertools
import json
import operator
import pathlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

import ahocorasick_rs

_FEATURE = operator.itemgetter(0)

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
_COMMON_SEPARATORS = "—–“”…‘\u00a0"
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
        folded = _separated(folded)
    data = (" " + folded + " ").encode("utf-8", "replace")
    return data.translate(_ASCII_SEPARATORS)


def _separated(folded: str) -> str:
    """The punctuation outside ASCII that ``normalise`` turns into spaces, turned into them."""
    # The separators English text holds first, one by one: what is left is often ASCII,
    # which the expression need not read.
    for separator in _COMMON_SEPARATORS:
        if separator in folded:
            folded = folded.replace(separator, " ")
    if not folded.isascii():
        folded = _UNICODE_SEPARATORS.sub(" ", folded)
    return folded


# Joins texts normalised or scored together: ``normalise`` turns it into a space, so no feature
# holds it and none found in the joined bytes crosses from one text into the next.
_JOIN = b"\x00"
# ``normalise``'s table, but keeping the joining byte.
_ASCII_SEPARATORS_BUT_JOIN = _JOIN + _ASCII_SEPARATORS[1:]


def normalise_joined(folded_texts: Sequence[str]) -> bytes:
    """``_JOIN.join(map(normalise, folded_texts))``, for texts without "\\x00", encoded and
    translated in one pass (``normalise`` works character by character, but for the space it
    puts at each end)."""
    if not folded_texts:
        return b""
    texts = [text if text.isascii() else _separated(text) for text in folded_texts]
    folded = " " + " \x00 ".join(texts) + " "
    if folded.isascii():
        return folded.encode("ascii").translate(_ASCII_SEPARATORS_BUT_JOIN)
    return folded.encode("utf-8", "replace").translate(_ASCII_SEPARATORS_BUT_JOIN)


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
        positive = [i for i, weight in enumerate(self.weights) if weight > 0]
        self._positive_weights = [self.weights[i] for i in positive]
        self._positive_automaton = ahocorasick_rs.BytesAhoCorasick(
            [patterns[i].encode("utf-8") for i in positive]
        )

    def matches(self, data: bytes) -> list[tuple[int, int, int]]:
        """(feature index, start, end) of every feature found in normalised text."""
        return self._automaton.find_matches_as_indexes(data, overlapping=True)

    def positive_matches(self, data: bytes) -> list[tuple[int, int, int]]:
        """(positive feature index, start, end) of every feature of positive weight found."""
        return self._positive_automaton.find_matches_as_indexes(data, overlapping=True)

    def positive_bound(self, positive_features: set[int]) -> float:
        """The bias plus the weights of these positive features: no window holding no other
        positive feature scores more."""
        return self.bias + sum(map(self._positive_weights.__getitem__, positive_features))

    def reaching(
        self,
        found: list[tuple[int, int, int]],
        short: list[int],
        data: list[bytes],
        clear: float,
    ) -> list[int]:
        """The positions in ``short`` of the texts whose ``positive_bound`` reaches ``clear``,
        from ``positive_matches`` of ``data[i] for i in short`` joined: each text's features are
        the matches starting in it. The automaton gives the matches in the order of their ends,
        so text by text; were one out of that order, each match would be placed by bisection
        instead."""
        weights = self._positive_weights
        starts: list[float] = list(
            itertools.accumulate((len(data[i]) + 1 for i in short[:-1]), initial=0)
        )
        starts.append(float("inf"))
        out: list[int] = []
        position, seen, total = 0, set(), 0.0
        for feature, start, _ in found:
            if not starts[position] <= start < starts[position + 1]:
                following = bisect.bisect_right(starts, start) - 1
                if following < position:
                    return self._reaching_by_bisection(found, starts, clear)
                if self.bias + total >= clear and seen:
                    out.append(position)
                position, seen, total = following, set(), 0.0
            if feature not in seen:
                seen.add(feature)
                total += weights[feature]
        if self.bias + total >= clear and seen:
            out.append(position)
        return out

    def _reaching_by_bisection(
        self, found: list[tuple[int, int, int]], starts: list[float], clear: float
    ) -> list[int]:
        per_text: dict[int, set[int]] = {}
        for feature, start, _ in found:
            per_text.setdefault(bisect.bisect_right(starts, start) - 1, set()).add(feature)
        return sorted(
            p for p, features in per_text.items() if self.positive_bound(features) >= clear
        )

    def short_bound(self, data: bytes) -> float:
        """``positive_bound`` of the positive features found in ``data``."""
        found = self._positive_automaton.find_matches_as_indexes(data, overlapping=True)
        return self.bias + sum(map(self._positive_weights.__getitem__, set(map(_FEATURE, found))))

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


# A text whose positive features (each once) add up to less than the threshold less this cannot
# reach it: far more than the rounding of any sum of these weights, far less than any weight.
_BOUND_MARGIN = 1e-6


def flags(folded_texts: Sequence[str]) -> list[bool]:
    """For each folded text (none holding "\\x00"), whether ``flagged_window`` would flag it. A
    text of one window or less (a title, a snippet) scores at most the bias plus its positive
    features, which few features are: one scan for those over all such texts together usually
    shows that none can reach the threshold, and only the texts it cannot clear are scored in
    full."""
    if not folded_texts:
        return []
    shipped = model()
    scorer = shipped.scorer
    joined = normalise_joined(folded_texts)
    data = joined.split(_JOIN)
    out = [False] * len(data)
    short: list[int] = []
    for slot, one in enumerate(data):
        if len(one) <= scorer.window:
            short.append(slot)
        else:
            out[slot] = scorer.best_window(one).score >= shipped.threshold
    if not short:
        return out
    if len(short) < len(data):
        joined = _JOIN.join([data[i] for i in short])
    found = scorer.positive_matches(joined)
    clear = shipped.threshold - _BOUND_MARGIN
    if scorer.positive_bound({i for i, _, _ in found}) < clear:
        return out
    # A text with no positive feature is bounded by the bias alone.
    unbounded = (
        range(len(short)) if scorer.bias >= clear else scorer.reaching(found, short, data, clear)
    )
    for position in unbounded:
        slot = short[position]
        out[slot] = scorer.best_window(data[slot]).score >= shipped.threshold
    return out


def flagged_window(folded: str) -> str | None:
    """The best window of the folded text when its score reaches the shipped threshold. A text
    of one window or less is first bounded as in ``flags`` (its positive features only), which
    clears most texts at less than half the cost of scoring them."""
    shipped = model()
    scorer = shipped.scorer
    data = normalise(folded)
    if len(data) <= scorer.window and scorer.short_bound(data) < shipped.threshold - _BOUND_MARGIN:
        return None
    window = scorer.best_window(data)
    if window.score < shipped.threshold:
        return None
    return " ".join(data[window.start : window.end].decode("utf-8", "replace").split())
