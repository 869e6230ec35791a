"""rypsok's own Markdown renderer against markdownify, interleaved page by page (issue 10).

``bench/extraction.py`` scores each row in its own process, one after the other; on a
shared machine the load drifts between rows by more than the difference measured here.
This script times, on every page of both shared sets, in one process and in rotating
order: rypsok with its own renderer, rypsok with the markdownify converter
(``bench/_markdownify_renderer.py``), and trafilatura (Markdown, links, no comments) as
the goal's yardstick. It also compares the two renderers' output on the same chosen
content: byte for byte, and word for word (the words are what the scorer reads).

    python bench/markdown_renderers.py              # both sets, one pass
    python bench/markdown_renderers.py --passes 3   # medians over three passes
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "bench"
SETS = {"scrapinghub": SHARED / "extraction", "wcxb-dev": SHARED / "wcxb-dev"}
_WORDS = re.compile(r"\w+")


def load(data: Path) -> list[tuple[str, str]]:
    pages = []
    for truth in sorted((data / "ground-truth").glob("*.json")):
        url = json.loads(truth.read_text(encoding="utf-8")).get("url", "")
        html_path = data / "html" / (truth.name[: -len(".json")] + ".html.gz")
        with gzip.open(html_path, "rb") as f:
            pages.append((f.read().decode("utf-8", errors="replace"), url))
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=1, help="timed passes over each set")
    parser.add_argument("--set", choices=[*SETS, "both"], default="both")
    args = parser.parse_args(argv)

    sys.path[:0] = [str(HERE), str(SHARED / "extraction")]
    import _markdownify_renderer
    from baselines import trafilatura_markdown_nocomments

    from rypsok.webfetch.extract import extract_html

    holder = _markdownify_renderer.render_holder()
    own, theirs = holder.own, _markdownify_renderer.render

    def rypsok_with(render: Callable[..., str]) -> Callable[[str, str], str]:
        def run(html: str, url: str) -> str:
            holder.set(render)
            return extract_html(html, url).markdown

        return run

    rows: dict[str, Callable[[str, str], str]] = {
        "rypsok": rypsok_with(own),
        "rypsok-markdownify": rypsok_with(theirs),
        "trafilatura-nocomments": trafilatura_markdown_nocomments,
    }
    for set_name, data in SETS.items():
        if args.set not in ("both", set_name):
            continue
        pages = load(data)
        for run in rows.values():  # warm-up
            run(*pages[0])
        times: dict[str, list[float]] = {name: [] for name in rows}
        for _ in range(args.passes):
            for index, page in enumerate(pages):
                names = list(rows)
                names = names[index % 3 :] + names[: index % 3]
                for name in names:
                    start = time.perf_counter()
                    rows[name](*page)
                    times[name].append(time.perf_counter() - start)
        holder.set(own)

        same = same_words = renders = 0
        for html, url in pages:
            for chosen in holder.captured(lambda html=html, url=url: extract_html(html, url)):
                renders += 1
                mine, other = own(*chosen), theirs(*chosen)
                same += mine == other
                same_words += _WORDS.findall(mine) == _WORDS.findall(other)

        medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
        print(f"\n== {set_name}: {len(pages)} pages, {args.passes} pass(es), interleaved")
        print(
            f"{'extractor':24s} {'median ms':>9s} {'mean ms':>8s} {'x faster than trafilatura':>26s}"
        )
        for name, values in times.items():
            ratio = medians["trafilatura-nocomments"] / medians[name]
            print(
                f"{name:24s} {medians[name]:9.2f} {statistics.mean(values) * 1000:8.2f} "
                f"{ratio:26.2f}"
            )
        deltas = [b - a for a, b in zip(times["rypsok"], times["rypsok-markdownify"], strict=True)]
        print(
            f"markdownify per page: median {statistics.median(deltas) * 1000:+.2f} ms, "
            f"{medians['rypsok-markdownify'] / medians['rypsok']:.2f}x rypsok's median; "
            f"renders {renders}: same bytes {same}, same words {same_words}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
