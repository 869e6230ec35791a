"""The texts written to train the instruction-like scorer (bench/data/instruction_synthetic_*.jsonl,
described in bench/data/SYNTHETIC.md) stay well formed, and none of them is a text of the
held-out probe sets (bench/data/instruction_probes*.jsonl), which must stay unseen by training."""

from __future__ import annotations

import json
import pathlib
import re
from collections import Counter

from tests.test_instruction_probes_file import probe_texts

DATA = pathlib.Path(__file__).resolve().parent.parent / "bench" / "data"
FIELDS = {"id", "label", "family", "language", "group", "text"}


def rows() -> list[dict]:
    out = []
    for path in sorted(DATA.glob("instruction_synthetic_*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        out.extend(json.loads(line) for line in lines if line.strip())
    return out


def test_the_files_are_there_and_hold_both_labels() -> None:
    labels = Counter(row["label"] for row in rows())
    assert labels["attack"] >= 1000 and labels["clean"] >= 1000


def test_every_row_has_the_fields_and_a_known_label() -> None:
    for row in rows():
        assert set(row) == FIELDS, row.get("id")
        assert all(isinstance(row[field], str) and row[field] for field in FIELDS), row["id"]
        assert row["label"] in {"attack", "clean"}, row["id"]
        assert re.fullmatch(r"[a-z]{2}", row["language"]), row["id"]


def test_ids_are_unique_and_no_text_is_a_probe() -> None:
    every = rows()
    assert len({row["id"] for row in every}) == len(every)
    probes = probe_texts()
    assert not [row["id"] for row in every if row["text"].strip().casefold() in probes]
