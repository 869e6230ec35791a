"""Recall and false positives of the instruction-like detector on a held-out probe set
(bench/data/instruction_probes.jsonl; docs/instruction-probes.md says how it was written).

    PYTHONPATH=$PWD python bench/instruction_probes.py               # every row
    PYTHONPATH=$PWD python bench/instruction_probes.py --quick       # every fourth row
    PYTHONPATH=$PWD python bench/instruction_probes.py --show-misses # also the texts it got wrong

The set was written apart from the rules, the scorer and their data, to measure a round of
rules honestly: report its figures before looking at the misses, and never tune on it.
It runs ``find_instruction_like`` on every text and prints recall per attack family, per
language group (English or other) and per context (bare or inside a page, an e-mail, a
review, a tool's output...), false positives per clean family and context, and the totals.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable

from rypsok.hygiene.instructions import find_instruction_like

PROBES = pathlib.Path(__file__).resolve().parent / "data" / "instruction_probes.jsonl"


def load(path: pathlib.Path = PROBES) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def language_group(row: dict[str, str]) -> str:
    return "English" if row["language"] == "en" else "other"


def share(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.1f}%)" if total else "-"


def breakdown(
    title: str,
    rows: Iterable[dict[str, str]],
    flagged: dict[str, bool],
    key: Callable[[dict[str, str]], str],
) -> None:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        counts[key(row)][0] += flagged[row["id"]]
        counts[key(row)][1] += 1
    print(f"\n## {title}")
    width = max(len(name) for name in counts)
    for name in sorted(counts):
        print(f"{name:<{width}}  {share(*counts[name])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every fourth row only")
    parser.add_argument(
        "--file",
        type=pathlib.Path,
        default=PROBES,
        help="another probe set of the same shape (e.g. instruction_probes_everyday.jsonl)",
    )
    parser.add_argument(
        "--show-misses",
        action="store_true",
        help="print every missed attack and every flagged clean text (not for tuning)",
    )
    args = parser.parse_args()
    rows = load(args.file)
    if args.quick:
        rows = rows[::4]
    started = time.perf_counter()
    found = {row["id"]: find_instruction_like(row["text"]) for row in rows}
    elapsed = time.perf_counter() - started
    flagged = {key: match is not None for key, match in found.items()}
    attacks = [row for row in rows if row["label"] == "attack"]
    clean = [row for row in rows if row["label"] == "clean"]

    print(f"# instruction-like probes: {len(attacks)} attacks, {len(clean)} clean texts")
    command = "python bench/instruction_probes.py" + (" --quick" if args.quick else "")
    if args.file != PROBES:
        command += f" --file {args.file}"
    print(f"# command: {command}")
    print(f"# {elapsed:.2f} s for {len(rows)} texts")
    breakdown("recall per attack family", attacks, flagged, lambda row: row["family"])
    breakdown("recall per language group", attacks, flagged, language_group)
    breakdown("recall per language", attacks, flagged, lambda row: row["language"])
    breakdown("recall per context", attacks, flagged, lambda row: row["context"])
    breakdown("false positives per clean family", clean, flagged, lambda row: row["family"])
    breakdown("false positives per language group", clean, flagged, language_group)
    breakdown("false positives per context", clean, flagged, lambda row: row["context"])

    recall = sum(flagged[row["id"]] for row in attacks)
    false_positives = sum(flagged[row["id"]] for row in clean)
    print("\n## totals")
    print(f"recall           {share(recall, len(attacks))}")
    print(f"false positives  {share(false_positives, len(clean))}")

    if args.show_misses:
        print("\n## missed attacks")
        for row in attacks:
            if not flagged[row["id"]]:
                print(
                    f"{row['id']} [{row['family']}/{row['language']}/{row['context']}] {row['text']!r}"
                )
        print("\n## flagged clean texts")
        for row in clean:
            match = found[row["id"]]
            if match is not None:
                print(
                    f"{row['id']} [{row['family']}/{row['language']}] {match.rule}: {row['text']!r}"
                )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
