"""A digest of every verdict of the instruction-like detector, to show that a change made for
speed changes no verdict.

    PYTHONPATH=$PWD python bench/instruction_verdicts.py            # digests per set and in all
    PYTHONPATH=$PWD python bench/instruction_verdicts.py --dump v.txt   # also every verdict

Run it before and after a change (or with PYTHONPATH pointing at another checkout) and compare
the digests; with --dump, `diff` the two files to see which texts changed. It hashes, for every
text, the rule name and matched text of ``find_instruction_like`` (or that none fired), and
``instruction_like_flags`` over the same texts in batches of a search's 40; and, separately, the
learned scorer's best window (score and span) so that a change to its arithmetic shows even when
no verdict moves. The texts: every row of ../shared/bench/injection and
../shared/bench/injection-more whole, every ~300-character piece of them (WCXB's pieces among
them), the project's labelled set and family pairs alone and inside a page of ordinary text,
Python documentation snippets, and pages of 10 KB and 100 KB.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import pydoc_data.topics
import re
import sys
import time
from collections.abc import Iterator

ROOT = pathlib.Path(__file__).resolve().parent.parent
# After PYTHONPATH, so that PYTHONPATH=/other/checkout hashes that checkout's detector.
sys.path.append(str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import _instruction_data as data  # noqa: E402

import rypsok  # noqa: E402
from rypsok.hygiene.instructions import (  # noqa: E402
    find_instruction_like,
    instruction_like_flags,
    scorer,
)
from rypsok.hygiene.instructions.detector import _prepare  # noqa: E402

BATCH = 40


def _rows(path: pathlib.Path) -> list[str]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line)["text"] for line in lines if line.strip()]


def _docs() -> str:
    return "\n\n".join(pydoc_data.topics.topics.values())


def _page(source: str, size: int) -> str:
    return (source * (size // max(1, len(source)) + 1))[:size]


def project_texts() -> list[str]:
    """The labelled set, the family pairs and the tests' example lists."""
    from tests.instruction_families import FAMILY_PAIRS, SCORER_PAIRS
    from tests.test_instructions import (
        INSTRUCTIONS,
        ORDINARY_TEXT,
        PAGES_ABOUT_THE_TOPIC,
        load_labelled,
    )

    texts = [row["text"] for row in load_labelled()]
    texts += [t for _, flagged, near in FAMILY_PAIRS + SCORER_PAIRS for t in (flagged, near)]
    return texts + list(INSTRUCTIONS) + list(ORDINARY_TEXT) + list(PAGES_ABOUT_THE_TOPIC)


def text_sets(quick: bool) -> Iterator[tuple[str, list[str]]]:
    files = sorted(data.INJECTION.glob("*/*.jsonl")) + sorted(data.MORE.glob("*.jsonl"))
    every = {path.relative_to(data.SHARED).as_posix(): _rows(path) for path in files}
    if quick:
        every = {name: rows[:200] for name, rows in every.items()}
    yield "whole", [text for rows in every.values() for text in rows]
    yield (
        "pieces",
        [piece for rows in every.values() for text in rows for piece in data.pieces(text)],
    )
    project = project_texts()
    filler = _page(_docs(), 1_000)
    yield "project", project
    yield "project_in_page", [filler + "\n" + text + "\n" + filler for text in project]
    # Shouted, glued to a word before it, one word a line: the trigger gate's word edges.
    yield (
        "project_variants",
        [v for t in project for v in (t.upper(), "re" + t, t.replace(" ", "\n"), t[7:])],
    )
    docs = _docs()
    yield (
        "docs_snippets",
        [p[:300] for p in re.split(r"\n\s*\n", docs) if len(p) > 80],
    )
    pages = [_page(docs, 10_000), _page(docs, 100_000)]
    for lang in ("en", "de", "fr", "es", "zh", "ru"):
        from tests.test_instructions import load_labelled

        hard = [r["text"] for r in load_labelled() if r["lang"] == lang and not r["label"]]
        pages.append(_page("\n".join(hard), 100_000))
    yield "pages", pages


def verdict_line(text: str) -> str:
    found = find_instruction_like(text)
    return "-" if found is None else f"{found.rule}\t{found.matched!r}"


def score_line(text: str) -> str:
    window = scorer.model().scorer.best_window(scorer.normalise(_prepare(text)[0]))
    return f"{window.score!r} {window.start} {window.end}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=pathlib.Path, help="write every verdict to this file")
    parser.add_argument("--quick", action="store_true", help="the first 200 rows of each file")
    args = parser.parse_args()
    dump = args.dump.open("w", encoding="utf-8") if args.dump else None
    everything = hashlib.sha256()
    print(f"rypsok from {pathlib.Path(rypsok.__file__).parent}")
    started = time.perf_counter()
    for name, texts in text_sets(args.quick):
        found, flags, scores = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
        flagged = 0
        for index, text in enumerate(texts):
            line = verdict_line(text)
            flagged += line != "-"
            found.update(line.encode("utf-8") + b"\n")
            scores.update(score_line(text).encode("utf-8") + b"\n")
            if dump:
                dump.write(f"{name}\t{index}\t{line}\n")
        for start in range(0, len(texts), BATCH):
            batch = instruction_like_flags(texts[start : start + BATCH])
            flags.update(bytes(batch))
            if dump:
                dump.write(f"{name}\tbatch {start}\t{''.join('01'[f] for f in batch)}\n")
        for part in (found, flags, scores):
            everything.update(part.digest())
        print(
            f"{name:16s} {len(texts):7d} texts {flagged:6d} flagged  "
            f"verdicts {found.hexdigest()[:16]}  batch {flags.hexdigest()[:16]}  "
            f"scores {scores.hexdigest()[:16]}",
            flush=True,
        )
    print(f"all {everything.hexdigest()}  ({time.perf_counter() - started:.0f} s)")
    if dump:
        dump.close()


if __name__ == "__main__":
    main()
