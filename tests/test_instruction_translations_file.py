"""The sample of this machine's translated software messages and man pages kept as clean training
text for the instruction-like scorer (bench/data/instruction_translations_clean.jsonl, described in
bench/data/TRANSLATIONS.md) stays well formed, and none of its texts is a text of the held-out
probe sets (bench/data/instruction_probes*.jsonl), which must stay unseen by training."""

from __future__ import annotations

import json
import pathlib
from collections import Counter

from tests.test_instruction_probes_file import probe_texts

DATA = pathlib.Path(__file__).resolve().parent.parent / "bench" / "data"
SAMPLE = DATA / "instruction_translations_clean.jsonl"
FIELDS = {"id", "language", "kind", "origin", "text"}


def rows() -> list[dict]:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def synthetic_languages() -> set[str]:
    out = set()
    for path in DATA.glob("instruction_synthetic_*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.add(json.loads(line)["language"])
    return out


def test_every_language_of_the_written_texts_but_english_has_clean_text() -> None:
    counts = Counter(row["language"] for row in rows())
    assert set(counts) == synthetic_languages() - {"en"}
    # Swahili and Urdu have few catalogues on the machine (17 and 9 texts); the rest 300 or more.
    assert all(n >= 5 for n in counts.values()), counts
    assert sum(n >= 300 for n in counts.values()) == len(counts) - 2, counts


def test_every_row_has_the_fields_and_names_where_it_came_from() -> None:
    for row in rows():
        assert set(row) == FIELDS, row.get("id")
        assert all(isinstance(row[field], str) and row[field] for field in FIELDS), row["id"]
        assert row["kind"] in {"message", "man"}, row["id"]
        assert row["origin"].startswith(("/usr/share/locale/", "/usr/share/man/")), row["id"]


def test_ids_are_unique_and_no_text_is_a_probe() -> None:
    every = rows()
    assert len({row["id"] for row in every}) == len(every)
    probes = probe_texts()
    assert not [row["id"] for row in every if row["text"].strip().casefold() in probes]
