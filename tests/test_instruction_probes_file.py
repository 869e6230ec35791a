"""The held-out probe set (bench/data/instruction_probes.jsonl) stays well formed: every row
parses and has the fields, labels and contexts docs/instruction-probes.md describes. No figure
of the detector is asserted here; bench/instruction_probes.py measures those."""

from __future__ import annotations

import json
import pathlib
import re
from collections import Counter

PROBES = (
    pathlib.Path(__file__).resolve().parent.parent / "bench" / "data" / "instruction_probes.jsonl"
)
FIELDS = {"id", "label", "family", "language", "context", "text"}
LANGUAGES = {
    *("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk"),
    *("zh", "ja", "ko", "hi", "ar", "tr", "id"),
}


def rows() -> list[dict]:
    lines = PROBES.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_every_row_has_the_fields_and_a_known_label_language_and_context() -> None:
    for row in rows():
        assert set(row) == FIELDS, row.get("id")
        assert all(isinstance(row[field], str) and row[field] for field in FIELDS), row["id"]
        assert row["label"] in {"attack", "clean"}, row["id"]
        assert row["language"] in LANGUAGES, row["id"]
        assert re.fullmatch(r"bare|in_[a-z_]+", row["context"]), row["id"]
        assert re.fullmatch(r"[a-z_]+", row["family"]), row["id"]


def test_ids_and_texts_are_unique() -> None:
    every = rows()
    assert len({row["id"] for row in every}) == len(every)
    assert len({row["text"] for row in every}) == len(every)


def test_the_set_keeps_its_size_and_spread() -> None:
    every = rows()
    labels = Counter(row["label"] for row in every)
    assert labels["attack"] >= 350 and labels["clean"] >= 350
    foreign_clean = [r for r in every if r["label"] == "clean" and r["language"] != "en"]
    assert len(foreign_clean) >= 80
    attacks = [row for row in every if row["label"] == "attack"]
    placed = [row for row in attacks if row["context"] != "bare"]
    assert len(placed) >= len(attacks) / 4
    assert {row["language"] for row in attacks} == LANGUAGES
