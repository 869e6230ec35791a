"""Main-content extraction benchmark: rypsok against trafilatura and readabilipy+markdownify.

Runs the shared scorer (shared/bench/extraction/evaluate.py, the ScrapingHub/Zyte article
extraction benchmark, 181 pages) once per extractor, each in its own process, one after
the other, and prints precision, recall, F1 and milliseconds per page side by side. Then
times rypsok on synthetic pages of about 5 MB.

    python bench/extraction.py                      # all rows, then the big pages
    python bench/extraction.py --only rypsok --no-big
    python bench/extraction.py --bench-dir /path/to/shared/bench/extraction

Bench-only dependencies: trafilatura (with lxml_html_clean, which its jusText import
needs) and readabilipy. readabilipy runs in its pure-Python mode (use_readability=False):
with Node on PATH its default mode would shell out to Readability.js.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_BENCH_DIR = HERE.parent.parent / "shared" / "bench" / "extraction"

# name -> (--func spec, description)
EXTRACTORS = {
    "rypsok": ("extraction:rypsok_markdown", "rypsok.webfetch.extract.extract_html"),
    "trafilatura": (
        "baselines:trafilatura_markdown",
        "trafilatura.extract(markdown, links), defaults (keeps reader comments)",
    ),
    "trafilatura-nocomments": (
        "baselines:trafilatura_markdown_nocomments",
        "as trafilatura, include_comments=False",
    ),
    "readabilipy": (
        "baselines:readabilipy_python_md",
        "readabilipy (pure Python) + markdownify, as the reference MCP fetch server",
    ),
}


def rypsok_markdown(html: str, url: str) -> str:
    """The function the scorer calls for the rypsok row."""
    from rypsok.webfetch.extract import extract_html

    return extract_html(html, url).markdown


def run_scorer(bench_dir: Path, func: str, name: str, bootstrap: int) -> dict:
    command = [
        sys.executable,
        str(bench_dir / "evaluate.py"),
        "--func",
        func,
        "--name",
        name,
        "--pythonpath",
        str(HERE),
        "--pythonpath",
        str(bench_dir),
        "--bootstrap",
        str(bootstrap),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{name}: the scorer failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def synthetic_pages() -> dict[str, str]:
    """Pages of about 5 MB: a long article, a long list, a page of teasers, and a flat page
    of 300,000 elements that is cut at the node bound."""
    paragraph = (
        "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
        "incididunt ut labore et dolore magna aliqua. <a href='/x'>A link</a> and "
        "<b>bold</b> text.</p>\n"
    )
    nav = "<nav><ul>" + "".join(f"<li><a href='/n{i}'>Nav {i}</a></li>" for i in range(50))
    item = "<li>An item of a very long list, with a few more words in it to read.</li>"
    teaser = (
        "<div class='teaser'><h3><a href='/t'>A teaser headline for another story</a></h3>"
        "<p>A summary of that other story, long enough to look like a paragraph of text, "
        "with commas, clauses, and a full stop at the end of it, like the lead of an "
        "article on a news site's front page, which is where it would be found.</p></div>"
    )

    def page(body: str) -> str:
        return f"<!DOCTYPE html><html><head><title>Big</title></head><body>{body}</body></html>"

    return {
        "article, 30k paragraphs": page(nav + "</ul></nav><article>" + paragraph * 30_000),
        "list, 66k items": page("<ul>" + item * 66_000),
        "teasers, 60k elements": page("<main>" + teaser * 15_000),
        "flat, 300k elements": page("<span>word</span> " * 300_000),
    }


def time_big_pages(repeat: int) -> None:
    from rypsok.webfetch.extract import extract_html

    print(f"\nrypsok on synthetic big pages (best and median of {repeat} runs):")
    for name, html in synthetic_pages().items():
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            result = extract_html(html, "https://example.org/big")
            times.append(time.perf_counter() - start)
        print(
            f"  {name:26s} {len(html) / 1e6:5.2f} MB  best {min(times) * 1000:6.0f} ms  "
            f"median {statistics.median(times) * 1000:6.0f} ms  partial={result.partial}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--only", nargs="*", choices=sorted(EXTRACTORS), help="rows to run")
    parser.add_argument("--bootstrap", type=int, default=1000, help="resamples for the ± column")
    parser.add_argument("--no-big", action="store_true", help="skip the 5 MB page timings")
    parser.add_argument("--repeat", type=int, default=3, help="runs per big page")
    parser.add_argument("--quick", action="store_true", help="fewer resamples, no 5 MB pages")
    args = parser.parse_args(argv)
    if args.quick:
        args.bootstrap, args.no_big = 100, True
    if not (args.bench_dir / "evaluate.py").exists():
        raise SystemExit(f"no evaluate.py under {args.bench_dir} (use --bench-dir)")

    rows = []
    for name in args.only or list(EXTRACTORS):
        func, description = EXTRACTORS[name]
        summary = run_scorer(args.bench_dir, func, name, args.bootstrap)
        rows.append((name, description, summary))
        print(f"ran {name}: {description}", file=sys.stderr)

    print(
        f"\n{'extractor':24s} {'precision':>9s} {'recall':>7s} {'F1':>7s} {'± F1':>6s} "
        f"{'median ms':>9s} {'mean ms':>8s} {'p90 ms':>7s} {'empty':>5s} {'errors':>6s}"
    )
    for name, _, s in rows:
        mean_ms = s["total_s"] * 1000 / s["pages"]
        print(
            f"{name:24s} {s['precision']:9.3f} {s['recall']:7.3f} {s['f1']:7.3f} "
            f"{s.get('f1_std', 0.0):6.3f} {s['median_ms']:9.1f} {mean_ms:8.1f} "
            f"{s['p90_ms']:7.1f} {s['empty_outputs']:5d} {s['errors']:6d}"
        )
    print(f"({rows[0][2]['pages'] if rows else 0} pages; 4-token shingles, Markdown stripped)")
    if not args.no_big:
        time_big_pages(args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
