"""Tried, not shipped: a pretrained text embedding in place of the scorer's words (issue 23,
docs/instruction-like.md, "Function words of other languages, and a pretrained embedding").

    pip install -e '.[embedding-experiment]'
    nice -n 10 python bench/_instruction_wordllama.py [--dim 256] [--c 1.0] [--only cyberseceval,garak]

WordLlama (wordllama on PyPI) is the one pretrained text representation this environment can
install whose weights ship inside its wheel (token embeddings of Llama-2-family models, trained
on English paraphrase data; others download theirs from Hugging Face at first use). Each
~300-character piece becomes its mean-pooled, normalised embedding; a logistic regression is
trained on them with the trainer's pieces, folds, sample weights and second round, its
threshold chosen on the same clean texts by the same goals, and each attack source is held out
in turn, as bench/_train_instructions.py does for the shipped scorer. Needs numpy and
scikit-learn (the ``bench`` extra) and wordllama.
"""

from __future__ import annotations

import argparse
import collections
import functools
import logging
import pathlib
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import _instruction_data as data  # noqa: E402
import _train_instructions as trainer  # noqa: E402


def load_embedder(dim: int):
    """WordLlama's default model from its own wheel, never from the network (its loader looks
    for the tokenizer where the wheel does not put it unless told the package's folder)."""
    import wordllama

    logging.getLogger("wordllama").setLevel(logging.WARNING)
    package = pathlib.Path(wordllama.__file__).parent
    return wordllama.WordLlama.load(cache_dir=package, disable_download=True, trunc_dim=dim)


class Embedded:
    """Every training piece's embedding, and the best window of any text by a fitted model."""

    def __init__(self, embedder, corpus: trainer.Corpus) -> None:
        self.embedder = embedder
        pieces = [p for t in corpus.texts for p in trainer._training_pieces(t.text)]
        self.pieces = np.asarray(embedder.embed(pieces, norm=True), dtype=np.float32)
        self._cache: dict[str, np.ndarray] = {}

    def _embed(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            self._cache.update(zip(missing, self.embedder.embed(missing, norm=True), strict=True))
        return np.array([self._cache[t] for t in texts])

    def scores(self, model: LogisticRegression, texts: list[str]) -> list[float]:
        return [
            float(model.decision_function(self._embed(trainer._training_pieces(t))).max())
            for t in texts
        ]


def train(corpus: trainer.Corpus, embedded: Embedded, held_out: str, c: float):
    texts = corpus.texts
    labels = np.array([t.label for t in texts])
    trained = np.zeros(len(texts), dtype=bool)
    trained[trainer.trained_texts(texts, held_out)] = True
    rows = np.flatnonzero(trained[corpus.piece_text_arr])

    def fit(rows: np.ndarray) -> LogisticRegression:
        y = labels[corpus.piece_text_arr[rows]]
        weights = trainer.sample_weights(texts, corpus.piece_text_arr, rows)
        model = LogisticRegression(C=c, max_iter=2000, random_state=trainer.SEED)
        return model.fit(embedded.pieces[rows], y, sample_weight=weights)

    model = fit(rows)
    # The trainer's second round: of each attack, only its best-scoring pieces.
    best: dict[int, list[tuple[float, int]]] = collections.defaultdict(list)
    scores = model.decision_function(embedded.pieces[rows]).tolist()
    for row, score in zip(rows.tolist(), scores, strict=True):
        if labels[corpus.piece_text[row]]:
            best[corpus.piece_text[row]].append((score, row))
    keep = {r for ranked in best.values() for _, r in sorted(ranked)[-trainer.TOP_PIECES :]}
    return fit(
        np.array([r for r in rows.tolist() if not labels[corpus.piece_text[r]] or r in keep])
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dim", type=int, default=256, help="embedding dimensions kept")
    parser.add_argument("--c", type=float, default=1.0, help="inverse regularisation")
    parser.add_argument("--only", help="hold out only these sources (comma-separated)")
    args = parser.parse_args()
    texts = data.positives() + data.clean() + data.fixture()
    corpus = trainer.Corpus(texts)
    clean = trainer.Clean(texts)
    embedded = Embedded(load_embedder(args.dim), corpus)
    print(f"{len(texts)} texts, {len(embedded.pieces)} pieces embedded", flush=True)
    for source in args.only.split(",") if args.only else data.HELD_OUT_SOURCES:
        model = train(corpus, embedded, source, args.c)
        bound = clean.threshold_of(functools.partial(embedded.scores, model))
        held = [t.text for t in texts if t.source == source]
        verdicts = trainer.rules_verdicts(held)
        scores = embedded.scores(model, held)
        both = trainer.combined(verdicts, scores, bound)
        n = len(held)
        print(
            f"  {source:<24} n={n:<5} rules {sum(v is True for v in verdicts) / n:6.1%}  "
            f"embedding {sum(s >= bound for s in scores) / n:6.1%}  both {sum(both) / n:6.1%}  "
            f"(threshold {bound:.2f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
