"""Extraction over every page of the shared benchmark corpora: none may raise.

Reads each page of shared/bench/extraction/html (the ScrapingHub benchmark, 181 pages) and
shared/bench/wcxb-dev/html (600 pages, gzipped) as web_fetch would (charset sniffed from the
bytes, then extraction, cleaning and paging: ``build_response``, in this process), and counts
what came out: content, extraction_failed (nothing to read), or an exception, which is a
bug. Exits 1 if any page raised.

    python bench/extraction_corpus.py [--quick] [--shared-dir PATH]

With --quick, every tenth page.
"""

from __future__ import annotations

import gzip
import statistics
import sys
import time
import traceback
from pathlib import Path

import _common as c

from rypsok.errors import ToolError
from rypsok.webfetch.page import RawPage, build_response

CORPORA = ("extraction/html", "wcxb-dev/html")


def pages(shared: Path, every: int) -> list[Path]:
    found = []
    for corpus in CORPORA:
        folder = shared / "bench" / corpus
        if not folder.is_dir():
            raise SystemExit(f"no corpus at {folder} (use --shared-dir)")
        found += sorted(p for p in folder.iterdir() if p.name.endswith((".html", ".html.gz")))
    return found[::every]


def read(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def main() -> int:
    args = c.arguments(
        __doc__.split("\n\n")[0], shared_dir=(Path, c.SHARED_BENCH.parent, "shared/")
    )
    c.header("extraction over the benchmark corpora", "python bench/extraction_corpus.py")
    found = pages(args.shared_dir, 10 if args.quick else 1)
    outcomes = {"content": 0, "extraction_failed": 0, "raised": 0}
    times: list[tuple[float, str]] = []
    for path in found:
        raw = RawPage("https://example.org/" + path.name, "text/html", None, read(path))
        started = time.perf_counter()
        try:
            build_response(raw, 0, 20_000)
            outcomes["content"] += 1
        except ToolError as error:
            outcomes[str(error.detail.get("reason", error.kind))] = (
                outcomes.get(str(error.detail.get("reason", error.kind)), 0) + 1
            )
        except Exception:
            outcomes["raised"] += 1
            print(f"{path}: raised\n{traceback.format_exc()}", file=sys.stderr)
        times.append((time.perf_counter() - started, path.name))
    slowest = max(times)
    c.table(
        ["pages", "content", "extraction_failed", "raised", "median ms", "slowest"],
        [
            [
                len(found),
                outcomes["content"],
                outcomes["extraction_failed"],
                outcomes["raised"],
                f"{statistics.median(t for t, _ in times) * 1000:.1f}",
                f"{slowest[1]} {slowest[0] * 1000:.0f} ms",
            ]
        ],
    )
    return 1 if outcomes["raised"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
