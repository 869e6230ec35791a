"""The held-out probe sets (bench/data/instruction_probes.jsonl and the everyday set,
instruction_probes_everyday.jsonl) stay well formed: every row parses and has the fields,
labels and contexts docs/instruction-probes.md describes. No figure of the detector is asserted
here; bench/instruction_probes.py measures those."""

from __future__ import annotations

import json
import pathlib
import re
from collections import Counter

DATA = pathlib.Path(__file__).resolve().parent.parent / "bench" / "data"
PROBES = DATA / "instruction_probes.jsonl"
EVERYDAY = DATA / "instruction_probes_everyday.jsonl"
EVERYDAY_FAMILIES = {"reset", "reply_rule", "task_swap", "prompt_probe", "rules_off"}
FIELDS = {"id", "label", "family", "language", "context", "text"}
LANGUAGES = {
    *("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk"),
    *("zh", "ja", "ko", "hi", "ar", "tr", "id"),
}


def probe_texts() -> set[str]:
    """Every probe's text of both sets, stripped and case-folded: what no training text may be."""
    return {row["text"].strip().casefold() for row in rows() + rows(EVERYDAY)}


def rows(path: pathlib.Path = PROBES) -> list[dict]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_every_row_has_the_fields_and_a_known_label_language_and_context() -> None:
    for row in rows() + rows(EVERYDAY):
        assert set(row) == FIELDS, row.get("id")
        assert all(isinstance(row[field], str) and row[field] for field in FIELDS), row["id"]
        assert row["label"] in {"attack", "clean"}, row["id"]
        assert row["language"] in LANGUAGES, row["id"]
        assert re.fullmatch(r"bare|in_[a-z_]+", row["context"]), row["id"]
        assert re.fullmatch(r"[a-z_]+", row["family"]), row["id"]


def test_ids_and_texts_are_unique() -> None:
    for every in (rows(), rows(EVERYDAY)):
        assert len({row["id"] for row in every}) == len(every)
        assert len({row["text"] for row in every}) == len(every)
    first = {row["text"] for row in rows()}
    assert not first & {row["text"] for row in rows(EVERYDAY)}


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


def test_the_everyday_set_keeps_its_spread() -> None:
    every = rows(EVERYDAY)
    attacks = [row for row in every if row["label"] == "attack"]
    clean = [row for row in every if row["label"] == "clean"]
    assert len(attacks) >= 180 and len(clean) >= 140
    for language in ("en", "de", "fr", "es"):
        spoken = Counter(row["family"] for row in attacks if row["language"] == language)
        assert set(spoken) == EVERYDAY_FAMILIES and min(spoken.values()) >= 9, language
        assert sum(row["language"] == language for row in clean) >= 35, language
    assert sum(row["context"] != "bare" for row in attacks) >= len(attacks) / 3
