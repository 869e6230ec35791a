"""Train the instruction-like scorer and judge it leave-one-source-out.

    nice -n 10 python bench/_train_instructions.py            # the run: table, then the shipped model
    nice -n 10 python bench/_train_instructions.py --no-loso  # only train and write the model
    ... --no-write --with-synthetic --with-trafilatura --c 0.1 # the configurations tried, not shipped
    ... --no-write --with-synthetic --with-translations --language-clean-weight 2  # also tried
    ... --keep-function-words                                  # the model before the seventh round

Needs numpy, scipy and scikit-learn (the ``bench`` extra); the shipped scorer needs none of them.
The inputs are ../shared/bench/injection and ../shared/bench/injection-more (bench/instruction_data.py);
their sha256 digests go into the model file, with the seed and every count.

How a model is made (the same for each held-out source and for the shipped model):
1. Texts are cut into ~300-character pieces (a search snippet). Clean pieces of folds 0 and 1 are
   negatives; every piece of a positive text is a positive.
2. Candidate features are the words, word pairs and CJK character pairs of the normalised text
   (scorer.normalise). A feature is kept when it occurs in at least 3 texts of at least 2 of the
   training sources, so no one source's names, passwords or template words survive.
3. Logistic regression (L1, liblinear, fixed seed), positives weighted so that each source counts
   as the square root of its size and each group within it equally.
4. A long positive (a page with one planted paragraph) is a bag of pieces of which one may be the
   attack: a second round trains on the best-scoring pieces of each positive text only.
5. A positive weight on a feature made only of another language's function words ("und",
   "deine", "sans") is taken out (function_words): it learnt the language, not the request.
6. The threshold is chosen on clean text only: the lowest score that keeps the threshold fold
   (fold 2) under half of every clean goal (0.05 per 1,000 WCXB pieces, 0.25% of each hard-negative
   source, 0.5% of deepset's benign prompts).
"""

from __future__ import annotations

import argparse
import collections
import gzip
import importlib.metadata
import json
import math
import pathlib
import sys
import time
from collections.abc import Callable, Iterable

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import _instruction_data as data  # noqa: E402

from rypsok.hygiene.instructions.detector import _fold, _prepare, find_by_rules  # noqa: E402
from rypsok.hygiene.instructions.scorer import (  # noqa: E402
    CJK_RANGES,
    MODEL_PATH,
    LinearScorer,
    normalise,
)

SEED = 23
WINDOW = 400  # bytes of normalised text; a 300-character piece of Latin text fits in one
MIN_TEXTS = 3
MIN_SOURCES = 2
C = 0.25
L1_RATIO = 0.0
MIN_POSITIVE_SOURCES = 4
MAX_CLEAN_SHARE = 0.05
MIN_LANGUAGE_TEXTS = 50
KEEP_WEIGHT = 0.01
TOP_PIECES = 2
GOALS = {"wcxb": 0.05 / 1000, "hard": 0.0025, "deepset": 0.005}
# The project's own ordinary texts about prompts and chatbots (the only clean text on the topic)
# each weigh as much as this many web pieces.
ORDINARY_ABOUT_AI = 10.0
CLEAN_WEIGHT = 2.0
# The function words taken out keep another language's function word this common in English.
ENGLISH_ZIPF = 4.5  # clean pieces weigh this many times the positives in all


def _is_cjk(ch: str) -> bool:
    return any(lo <= ch <= hi for lo, hi in CJK_RANGES)


def candidates(normalised: bytes) -> set[str]:
    """The words, word pairs and CJK character pairs of a normalised piece, as feature patterns."""
    out: set[str] = set()
    previous = ""
    for token in normalised.decode("utf-8", "replace").split(" "):
        if not token or (len(token) == 1 and token.isascii() and token not in "ai"):
            previous = ""
            continue
        out.add(f" {token} ")
        if previous:
            out.add(f" {previous} {token} ")
        previous = token
        if not token.isascii():
            cjk = [ch if _is_cjk(ch) else "" for ch in token]
            for a, b in zip(cjk, cjk[1:], strict=False):
                if a and b:
                    out.add(a + b)
    return out


def function_words() -> frozenset[str]:
    """The function words of every language but English (stopwords-iso's lists), as the
    normalised words the features are made of, less every common English word (wordfreq's
    Zipf frequency in English at least ENGLISH_ZIPF: "word" is Dutch's "become", "die" and
    "hat" are German). A word like "und", "ist" or "deine" says which language a text is in,
    not what it asks, and the clean side has too little text in any language but English for
    the model to learn that: German prose scored as an attack on "sagen", "deine", "auf"."""
    import stopwordsiso
    from wordfreq import zipf_frequency

    def spelt(word: str) -> str:
        return normalise(_fold(f" {word} ")).decode("utf-8").strip()

    english = {spelt(w) for w in stopwordsiso.stopwords("en")}
    words = {
        spelt(word)
        for language in sorted(stopwordsiso.langs())
        if language != "en"
        for word in stopwordsiso.stopwords(language)
        if zipf_frequency(word, "en") < ENGLISH_ZIPF
    }
    return frozenset(words - english - {""})


def is_function_words(feature: str, words: frozenset[str]) -> bool:
    """A feature made only of function words (a word, or a pair of them); a CJK pair counts
    when it is one."""
    parts = feature.split()
    return bool(parts) and all(part in words for part in parts)


class Corpus:
    """Every piece, its normalised bytes, its text and source, and the candidate features."""

    def __init__(
        self,
        texts: list[data.Text],
        language_clean_weight: float = 1.0,
        function_words: frozenset[str] = frozenset(),
    ) -> None:
        self.texts = texts
        self.language_clean_weight = language_clean_weight
        self.function_words = function_words
        self.sources = sorted({t.counted_as for t in texts})
        self.positive_sources = {t.counted_as for t in texts if t.label}
        self.piece_bytes: list[bytes] = []
        self.piece_text: list[int] = []
        for index, text in enumerate(texts):
            for piece in _training_pieces(text.text):
                self.piece_bytes.append(normalise(_fold(piece)))
                self.piece_text.append(index)
        self.piece_text_arr = np.array(self.piece_text)

    def vocabulary(self, trained: list[int]) -> dict[str, int]:
        """Candidate features with their source mask (bit per source), counted on the pieces of
        the texts in ``trained``, kept when in at least MIN_TEXTS texts."""
        bit = {source: 1 << i for i, source in enumerate(self.sources)}
        texts_with: collections.Counter[str] = collections.Counter()
        # The clean texts written for this project, language by language (below).
        language_texts: collections.Counter[str] = collections.Counter()
        in_language: dict[str, collections.Counter[str]] = collections.defaultdict(
            collections.Counter
        )

        def count(text_index: int, seen: set[str]) -> None:
            texts_with.update(seen)
            text = self.texts[text_index]
            # (Only the texts written for this project: the sample of software messages,
            # most of them short, would make every word rarer than the share below.)
            if text.language not in ("", "en") and text.source == "synthetic_clean":
                language_texts[text.language] += 1
                in_language[text.language].update(seen)

        mask: dict[str, int] = {}
        trained_set = set(trained)
        seen_in_text: set[str] = set()
        last = -1
        for piece, text_index in zip(self.piece_bytes, self.piece_text, strict=True):
            if text_index not in trained_set:
                continue
            if text_index != last:
                if last != -1:
                    count(last, seen_in_text)
                seen_in_text = set()
                last = text_index
            seen_in_text |= candidates(piece)
        if last != -1:
            count(last, seen_in_text)
        # Words in more than MAX_CLEAN_SHARE of the clean pieces ("and", "the") would learn the
        # length of a text, not what it says: attacks are short, web pieces full length.
        clean_pieces = sum(
            1 for t in self.piece_text if t in trained_set and not self.texts[t].label
        )
        in_clean: collections.Counter[str] = collections.Counter()
        for piece, text_index in zip(self.piece_bytes, self.piece_text, strict=True):
            if text_index in trained_set and not self.texts[text_index].label:
                in_clean.update(candidates(piece))
        # The same for each language of the clean texts written for this project: the web's
        # clean pieces are mostly English and German, so "है", "bu" or "ako" pass the share
        # above while they are in every other sentence of Hindi, Turkish or Tagalog.
        common = {
            f
            for language, counts in in_language.items()
            if language_texts[language] >= MIN_LANGUAGE_TEXTS
            for f, n in counts.items()
            if n > MAX_CLEAN_SHARE * language_texts[language]
        }
        kept = {
            f
            for f, n in texts_with.items()
            if n >= MIN_TEXTS and in_clean[f] <= MAX_CLEAN_SHARE * clean_pieces and f not in common
        }
        last = -1
        for piece, text_index in zip(self.piece_bytes, self.piece_text, strict=True):
            if text_index not in trained_set:
                continue
            source_bit = bit[self.texts[text_index].counted_as]
            for feature in candidates(piece) & kept:
                mask[feature] = mask.get(feature, 0) | source_bit
        return mask

    def matrix(self, features: list[str], rows: np.ndarray) -> sp.csr_matrix:
        """Feature counts of the pieces in ``rows``, found by the scorer's own automaton."""
        scorer = LinearScorer(dict.fromkeys(features, 0.0), 0.0, WINDOW)
        indptr = [0]
        indices: list[int] = []
        for row in rows.tolist():
            piece = self.piece_bytes[row]
            indices.extend(i for i, _, _ in scorer.matches(piece))
            indptr.append(len(indices))
        values = np.ones(len(indices), dtype=np.float32)
        shape = (len(rows), len(features))
        matrix = sp.csr_matrix((values, np.array(indices), np.array(indptr)), shape=shape)
        matrix.sum_duplicates()
        matrix.data[:] = 1.0  # presence, as the scorer counts a feature once per window
        return matrix


def _training_pieces(text: str) -> list[str]:
    """Pieces for training: ~300 characters, and a run without spaces (Chinese, Japanese) cut
    every 120 characters so that a piece fits the scorer's window."""
    out = []
    for piece in data.pieces(text):
        if len(piece.encode("utf-8")) <= WINDOW:
            out.append(piece)
        else:
            out.extend(piece[i : i + 120] for i in range(0, len(piece), 120))
    return out or [""]


def _popcount(value: int) -> int:
    return bin(value).count("1")


def sample_weights(
    texts: list[data.Text],
    piece_text: np.ndarray,
    rows: np.ndarray,
    language_clean_weight: float = 1.0,
) -> np.ndarray:
    """Positives: each source weighs sqrt(its texts), shared equally by its groups, each group's
    share equally by its texts and each text's by its pieces; then both classes weigh the same."""
    pieces_of = collections.Counter(piece_text[rows].tolist())
    by_source: dict[str, dict[str, set[int]]] = collections.defaultdict(
        lambda: collections.defaultdict(set)
    )
    for text_index in pieces_of:
        text = texts[text_index]
        if text.label:
            by_source[text.source][text.group].add(text_index)
    text_weight: dict[int, float] = {}
    for groups in by_source.values():
        size = sum(len(members) for members in groups.values())
        for members in groups.values():
            for text_index in members:
                text_weight[text_index] = math.sqrt(size) / len(groups) / len(members)
    weights = np.empty(len(rows))
    labels = np.array([texts[t].label for t in piece_text[rows]])
    for k, text_index in enumerate(piece_text[rows].tolist()):
        if labels[k]:
            weights[k] = text_weight[text_index] / pieces_of[text_index]
        else:
            weights[k] = ORDINARY_ABOUT_AI if texts[text_index].source == "fixture" else 1.0
    positive, negative = weights[labels].sum(), weights[~labels].sum()
    weights[labels] *= negative / positive / CLEAN_WEIGHT
    # The texts written for this project, language by language: their clean texts weigh as
    # much as their attacks, or the words of a language with few clean texts anywhere (Hindi,
    # Turkish, Tagalog: "है", "bu", "ako") would learn that the language is an attack.
    language_of = [texts[t].language for t in piece_text[rows].tolist()]
    by_language: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0])
    for k, language in enumerate(language_of):
        if language:
            by_language[language][bool(labels[k])] += weights[k]
    for k, language in enumerate(language_of):
        if language and not labels[k]:
            clean_sum, attack_sum = by_language[language]
            if clean_sum and attack_sum:
                weights[k] *= language_clean_weight * attack_sum / clean_sum
    return weights / weights.mean()


def fit(x: sp.csr_matrix, y: np.ndarray, weights: np.ndarray, c: float) -> LogisticRegression:
    model = LogisticRegression(
        l1_ratio=L1_RATIO, C=c, solver="liblinear", random_state=SEED, max_iter=200
    )
    model.fit(x, y, sample_weight=weights)
    return model


def trained_texts(texts: list[data.Text], held_out: str | None) -> list[int]:
    """The texts a model holding out ``held_out`` trains on: every attack of the other
    sources, the project's labelled dev texts, and the clean training folds (less the
    never-trained sets and the frames of the source held out)."""
    return [
        i
        for i, t in enumerate(texts)
        if (t.label and t.source not in (held_out, "fixture"))
        or t.source == "fixture"
        or (
            not t.label
            and t.source not in data.NEVER_TRAINED
            and t.source != data.FRAMES_OF.get(held_out or "")
            and data.fold_of(t.group) in data.TRAIN_FOLDS
        )
    ]


def train(corpus: Corpus, held_out: str | None, c: float = C) -> tuple[dict[str, float], float]:
    """Features and weights, and the bias, trained on every positive source but ``held_out`` and
    the clean training folds."""
    texts = corpus.texts
    trained = trained_texts(texts, held_out)
    mask = corpus.vocabulary(trained)
    positive_bits = sum(
        1 << i for i, s in enumerate(corpus.sources) if s in corpus.positive_sources
    )
    features = sorted(
        f
        for f, m in mask.items()
        if _popcount(m) >= MIN_SOURCES
        and _popcount(m & positive_bits) in (0, *range(MIN_POSITIVE_SOURCES, 64))
    )
    trained_set = np.zeros(len(texts), dtype=bool)
    trained_set[trained] = True
    rows = np.flatnonzero(trained_set[corpus.piece_text_arr])
    x = corpus.matrix(features, rows)
    labels = np.array([t.label for t in texts])
    y = labels[corpus.piece_text_arr[rows]]
    model = fit(
        x, y, sample_weights(texts, corpus.piece_text_arr, rows, corpus.language_clean_weight), c
    )
    # Second round: of each positive text, only its best-scoring pieces.
    scores = x @ model.coef_[0] + model.intercept_[0]
    best: dict[int, list[tuple[float, int]]] = collections.defaultdict(list)
    for row, score in zip(rows.tolist(), scores.tolist(), strict=True):
        text_index = corpus.piece_text[row]
        if labels[text_index]:
            best[text_index].append((score, row))
    keep = {row for ranked in best.values() for _, row in sorted(ranked)[-TOP_PIECES:]}
    second = np.array(
        [k for k, r in enumerate(rows.tolist()) if not labels[corpus.piece_text[r]] or r in keep]
    )
    rows = rows[second]
    y = labels[corpus.piece_text_arr[rows]]
    model = fit(
        x[second],
        y,
        sample_weights(texts, corpus.piece_text_arr, rows, corpus.language_clean_weight),
        c,
    )
    coef = model.coef_[0]
    kept = {
        features[i]: round(float(coef[i]), 4)
        for i in np.flatnonzero(np.abs(coef) >= KEEP_WEIGHT).tolist()
        if not (coef[i] > 0 and is_function_words(features[i], corpus.function_words))
    }
    return kept, round(float(model.intercept_[0]), 4)


def text_scores(scorer: LinearScorer, texts: list[str]) -> list[float]:
    return [scorer.score(_fold(text)) for text in texts]


def _limit(scores: list[float], rate: float) -> float:
    """The lowest threshold with at most ``rate`` of ``scores`` at or above it."""
    allowed = int(rate * len(scores))
    ranked = sorted(scores, reverse=True)
    return ranked[allowed] + 1e-4 if allowed < len(ranked) else float("-inf")


class Clean:
    """Clean texts by purpose: the threshold fold, the report fold, the never-trained sets."""

    def __init__(self, texts: list[data.Text]) -> None:
        self.by = collections.defaultdict(list)
        for t in texts:
            if t.label:
                continue
            if t.source == "fixture_ordinary":
                self.by[("threshold", t.source)].append(t.text)
            elif t.source == "fixture":
                continue
            elif t.source in data.NEVER_TRAINED:
                self.by[("never", t.source)].append(t.text)
            elif data.fold_of(t.group) == data.THRESHOLD_FOLD:
                if t.source in data.PAGES:
                    self.by[("threshold", t.source)].extend(data.pieces(t.text))
                else:
                    self.by[("threshold", t.source)].append(t.text)
            elif data.fold_of(t.group) == data.REPORT_FOLD:
                self.by[("report", t.source)].append(t.text)

        self.by[("threshold", "near_misses")] = near_misses()
        # Only the texts the scorer decides on (no rule fired or rejected a mention) choose it.
        self.decided = {
            key: scorer_decides(texts) for key, texts in self.by.items() if key[0] == "threshold"
        }

    def threshold(self, scorer: LinearScorer) -> float:
        return self.threshold_of(lambda texts: text_scores(scorer, texts))

    def threshold_of(self, scores: Callable[[list[str]], list[float]]) -> float:
        """The lowest score that keeps every threshold set under half its goal, ``scores``
        giving each text's score (the scorer's, or another model's)."""
        limits = []
        for (_, source), texts in self.decided.items():
            if source in data.FRAMES_OF.values():
                continue
            if source in data.PAGES:
                goal = GOALS["wcxb"]
            elif source.startswith("deepset"):
                goal = GOALS["deepset"]
            else:
                goal = GOALS["hard"]
            limits.append(_limit(scores(texts), goal))
        return max(limits)


def near_misses() -> list[str]:
    """The ordinary texts the tests keep beside the attacks (tests/instruction_families.py,
    tests/test_instructions.py): clean text written for this project, none of it flagged."""
    from tests.instruction_families import FAMILY_PAIRS
    from tests.test_instructions import ORDINARY_TEXT, PAGES_ABOUT_THE_TOPIC

    return [near for _, _, near in FAMILY_PAIRS] + ORDINARY_TEXT + PAGES_ABOUT_THE_TOPIC


def rules_verdicts(texts: list[str]) -> list[bool | None]:
    """For each text: True when a rule fires, None when a rule found its phrase but rejected it as
    a mention (the scorer is then not asked), False when the scorer decides."""
    out: list[bool | None] = []
    for text in texts:
        rejected: list[str] = []
        if find_by_rules(*_prepare(text), rejected) is not None:
            out.append(True)
        else:
            out.append(None if rejected else False)
    return out


def combined(verdicts: list[bool | None], scores: list[float], threshold: float) -> list[bool]:
    """The detector's decision: a rule fired, or no rule rejected and the score reached."""
    return [
        v is True or (v is False and s >= threshold) for v, s in zip(verdicts, scores, strict=True)
    ]


def scorer_decides(texts: list[str]) -> list[str]:
    return [t for t, v in zip(texts, rules_verdicts(texts), strict=True) if v is False]


def loso(
    corpus: Corpus, clean: Clean, sources: Iterable[str], c: float = C
) -> list[tuple[str, int, float, float, float, float]]:
    """For each held-out source: (source, n, rules, scorer, rules or scorer, threshold)."""
    table = []
    for source in sources:
        started = time.perf_counter()
        features, bias = train(corpus, source, c)
        scorer = LinearScorer(features, bias, WINDOW)
        threshold = clean.threshold(scorer)
        texts = [t.text for t in corpus.texts if t.source == source]
        verdicts = rules_verdicts(texts)
        rules = [v is True for v in verdicts]
        scores = text_scores(scorer, texts)
        model = [s >= threshold for s in scores]
        both = combined(verdicts, scores, threshold)
        n = len(texts)
        row = (source, n, sum(rules) / n, sum(model) / n, sum(both) / n, threshold)
        table.append(row)
        print(
            f"  {source:<24} n={n:<5} rules {row[2]:6.1%}  scorer {row[3]:6.1%}  "
            f"both {row[4]:6.1%}  (threshold {threshold:.2f}, {len(features)} features, "
            f"{time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    return table


def clean_report(scorer: LinearScorer, threshold: float, clean: Clean) -> None:
    print("Clean text the model never trained on (fold 3, and the never-trained sets):")
    for (purpose, source), texts in sorted(clean.by.items()):
        if purpose == "threshold" or source in data.FRAMES_OF.values():
            continue
        scores = text_scores(scorer, texts)
        model = [s >= threshold for s in scores]
        both = sum(combined(rules_verdicts(texts), scores, threshold))
        line = f"  {purpose:<6} {source:<22} {len(texts):>5} texts: {both} flagged ({sum(model)} by the scorer)"
        if source in data.PAGES:
            cut = [p for t in texts for p in data.pieces(t)]
            piece_scores = text_scores(scorer, cut)
            piece_model = [s >= threshold for s in piece_scores]
            piece_both = sum(combined(rules_verdicts(cut), piece_scores, threshold))
            line += (
                f"; {len(cut)} pieces: {piece_both} flagged "
                f"({1000 * piece_both / len(cut):.3f} per 1,000; {sum(piece_model)} by the scorer)"
            )
        print(line, flush=True)


def write_model(features: dict[str, float], bias: float, threshold: float, meta: dict) -> None:
    payload = {
        "window": WINDOW,
        "bias": bias,
        "threshold": round(threshold, 4),
        "meta": meta,
        "features": dict(sorted(features.items())),
    }
    raw = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    with gzip.GzipFile(MODEL_PATH, "wb", mtime=0) as handle:
        handle.write(raw.encode("utf-8"))
    print(f"wrote {MODEL_PATH.relative_to(ROOT)}: {MODEL_PATH.stat().st_size / 1e6:.2f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-loso", action="store_true", help="skip the leave-one-source-out run")
    parser.add_argument("--no-write", action="store_true", help="do not write the model file")
    parser.add_argument("--only", help="hold out only these sources (comma-separated)")
    parser.add_argument(
        "--with-synthetic",
        action="store_true",
        help="also train on bench/data/instruction_synthetic_*.jsonl (tried; not shipped: "
        "docs/instruction-like.md, 'Texts written to train on')",
    )
    parser.add_argument(
        "--with-trafilatura",
        action="store_true",
        help="also train on trafilatura's evaluation pages as clean text (tried; not shipped)",
    )
    parser.add_argument(
        "--with-translations",
        action="store_true",
        help="also train on bench/data/instruction_translations_clean.jsonl (software messages and "
        "man pages in the synthetic texts' languages)",
    )
    parser.add_argument(
        "--language-clean-weight",
        type=float,
        default=1.0,
        help="a language's clean texts weigh this many times its attacks (default 1)",
    )
    parser.add_argument(
        "--synthetic-by-language",
        action="store_true",
        help="weigh the synthetic attacks of each language as a source of their own",
    )
    parser.add_argument(
        "--synthetic-one-source",
        action="store_true",
        help="the feature filter counts the written attacks as one source, not one per family",
    )
    parser.add_argument(
        "--keep-function-words",
        action="store_true",
        help="keep the positive weights of features made only of another language's function "
        "words (the model before the seventh round)",
    )
    parser.add_argument(
        "--c", type=float, default=C, help=f"the inverse regularisation (default {C})"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    texts = data.positives() + data.clean(args.with_trafilatura) + data.fixture()
    if args.with_synthetic:
        texts += data.synthetic(args.synthetic_by_language, args.synthetic_one_source)
    if args.with_translations:
        texts += data.translations()
    corpus = Corpus(
        texts,
        args.language_clean_weight,
        frozenset() if args.keep_function_words else function_words(),
    )
    clean = Clean(texts)
    print(
        f"{len(texts)} texts, {len(corpus.piece_bytes)} pieces "
        f"({time.perf_counter() - started:.0f} s)",
        flush=True,
    )
    if not args.no_loso:
        print("Leave one source out (recall on the held-out source):")
        loso(corpus, clean, args.only.split(",") if args.only else data.HELD_OUT_SOURCES, args.c)
    features, bias = train(corpus, None, args.c)
    scorer = LinearScorer(features, bias, WINDOW)
    threshold = clean.threshold(scorer)
    print(f"shipped model: {len(features)} features, bias {bias}, threshold {threshold:.3f}")
    clean_report(scorer, threshold, clean)
    counts = collections.Counter((t.source, t.label) for t in texts)
    meta = {
        "seed": SEED,
        "C": args.c,
        "trainer": "bench/_train_instructions.py",
        "texts": {
            f"{s}{'' if label else ' (clean)'}": n for (s, label), n in sorted(counts.items())
        },
        "inputs_sha256": data.input_digests(
            args.with_synthetic, args.with_trafilatura, args.with_translations
        ),
    }
    if not args.keep_function_words:
        meta["function_words"] = {
            "stopwordsiso": importlib.metadata.version("stopwordsiso"),
            "wordfreq": importlib.metadata.version("wordfreq"),
            "english_zipf": ENGLISH_ZIPF,
            "words": len(corpus.function_words),
        }
    if not args.no_write:
        write_model(features, bias, threshold, meta)


if __name__ == "__main__":
    main()
