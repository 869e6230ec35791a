"""Main-content extraction benchmark: rypsok against trafilatura, readability and resiliparse.

Runs the shared scorers once per extractor and data set, each run in its own process, one
after the other, on three sets, so that a rule that wins one set and loses another shows in
one run (issue 18's guard):

- scrapinghub: the ScrapingHub/Zyte article extraction benchmark (181 news and blog pages);
  rows rypsok, trafilatura (with and without comments) and readabilipy + markdownify.
- wcxb-dev: 600 pages of the WCXB development split (articles, documentation, services,
  forums, products, collections, listings); rows rypsok, trafilatura (Markdown, no
  comments), readability-lxml + markdownify and resiliparse, with F1 per page type, the
  collapsed pages (F1 under 0.2 on a truth of 50+ shingles).
- trafilatura-eval: trafilatura's own 990-page evaluation corpus (44% German), scored by
  its snippets (shared/bench/trafilatura-eval/evaluate.py): snippet accuracy and the pages
  at accuracy <= 0.5; rows rypsok, trafilatura (no comments), readability-lxml +
  markdownify and resiliparse.
- synthetic: small pages written by bench/synthetic_pages.py (seeded; 30 kinds, three pages
  each: a lone <article>, a div of paragraphs, a data table, old table layouts, cards,
  German blogs...), generated into a scratch directory and scored like wcxb-dev, F1 per
  kind; the same rows as wcxb-dev.

and checks issue 18's goals against the best peer of the same run.

Then it times rypsok on synthetic pages of about 5 MB.

    python bench/extraction.py                      # all three sets, then the big pages
    python bench/extraction.py --set trafilatura-eval --no-big
    python bench/extraction.py --set wcxb-dev --no-big
    python bench/extraction.py --set synthetic --per-page /tmp/pages
    python bench/extraction.py --only rypsok trafilatura-nocomments --no-big
    python bench/extraction.py --bench-dir /path/to/shared/bench/extraction

Bench-only dependencies: trafilatura (with lxml_html_clean, which its jusText import
needs), readabilipy, readability-lxml, markdownify and resiliparse. readabilipy runs in its
pure-Python mode (use_readability=False): with Node on PATH its default mode would shell
out to Readability.js.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_BENCH_DIR = HERE.parent.parent / "shared" / "bench" / "extraction"

# name -> (--func spec, description)
EXTRACTORS = {
    "readability-lxml": (
        "baselines:readability_lxml_md",
        "readability-lxml Document.summary() + markdownify (ATX headings)",
    ),
    "resiliparse": (
        "baselines:resiliparse_main",
        "resiliparse extract_plain_text(main_content=True)",
    ),
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


# data set -> (directory relative to the ScrapingHub bench directory, rows)
SETS = {
    "scrapinghub": (".", ["rypsok", "trafilatura", "trafilatura-nocomments", "readabilipy"]),
    "wcxb-dev": (
        "../wcxb-dev",
        ["rypsok", "trafilatura-nocomments", "readability-lxml", "resiliparse"],
    ),
}
WCXB_BASELINES = ("trafilatura-nocomments", "readability-lxml", "resiliparse")
SYNTHETIC = "synthetic"
TRAFILATURA_EVAL = "../trafilatura-eval"
# snippet scorer's extractor names for rypsok's rows
TRAFILATURA_EVAL_ROWS = {
    "rypsok": "rypsok",
    "trafilatura-nocomments": "trafilatura-nc",
    "readability-lxml": "readability-md",
    "resiliparse": "resiliparse",
}
LOW_ACCURACY = 0.5  # a page at this snippet accuracy or under is counted as failed
# issue 18's goals (wcxb-dev's are issue 11's, raised to the last round's figures)
GOAL_F1 = 0.786
GOAL_COLLAPSED = 22
GOAL_SNIPPET_ACCURACY = 0.910  # trafilatura's own, no comments, at the start
GOAL_SPEEDUP = 2.0  # rypsok's median ms/page at most half of trafilatura's
GOAL_SCRAPINGHUB_F1 = 0.97


def rypsok_markdown(html: str, url: str) -> str:
    """The function the scorer calls for the rypsok row."""
    from rypsok.webfetch.extract import extract_html

    return extract_html(html, url).markdown


def run_scorer(
    bench_dir: Path, data: Path, func: str, name: str, bootstrap: int, per_page: Path | None
) -> dict:
    command = [
        sys.executable,
        str(bench_dir / "evaluate.py"),
        "--data",
        str(data),
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
    if per_page is not None:
        command += ["--per-page", str(per_page / f"{data.name}-{name}.jsonl")]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{name}: the scorer failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_snippet_scorer(
    data: Path, names: list[str], bootstrap: int, per_page: Path | None
) -> list[tuple[str, dict]]:
    """Run trafilatura-eval's scorer on its 990 pages for these rows, rypsok from this
    checkout; each row's summary gains `low_pages`, its pages at accuracy <= 0.5."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        command = [
            sys.executable,
            str(data / "evaluate.py"),
            "--sets",
            "trafilatura",
            "--extractors",
            *(TRAFILATURA_EVAL_ROWS[name] for name in names),
            "--rypsok-path",
            str(HERE.parent),
            "--out",
            str(out / "outputs"),
            "--bootstrap",
            str(bootstrap),
            "--json",
            str(out / "summary.json"),
            "--per-page",
            str(out / "pages.jsonl"),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0 or "worker failed" in done.stderr:
            raise SystemExit(f"trafilatura-eval: the scorer failed:\n{done.stderr[-2000:]}")
        summary = json.loads((out / "summary.json").read_text())["sets"]["trafilatura"]
        pages = [json.loads(line) for line in (out / "pages.jsonl").read_text().splitlines()]
        if per_page is not None:
            (per_page / "trafilatura-eval.jsonl").write_text((out / "pages.jsonl").read_text())
    rows = []
    for name in names:
        row = summary[TRAFILATURA_EVAL_ROWS[name]]
        mine = [p for p in pages if p["extractor"] == TRAFILATURA_EVAL_ROWS[name]]
        row["low_pages"] = sum(1 for p in mine if p["snip"]["acc"] <= LOW_ACCURACY)
        rows.append((name, row))
    return rows


def print_snippets(rows: list[tuple[str, dict]]) -> None:
    """Snippet accuracy, pages at accuracy <= 0.5 and median ms/page per row, and issue 18's
    goals for this set against trafilatura's row of the same run."""
    print(
        f"\n{'extractor':24s} {'with found':>10s} {'without leaked':>14s} {'accuracy':>8s} "
        f"{'acc<=0.5':>8s} {'median ms':>9s} {'empty':>5s} {'errors':>6s}"
    )
    for name, s in rows:
        sn = s["snip"]
        print(
            f"{name:24s} {sn['with_found']:10.3f} {sn['without_leaked']:14.3f} "
            f"{sn['accuracy']:8.3f} {s['low_pages']:8d} {s['median_ms']:9.1f} "
            f"{s['empty']:5d} {s['errors']:6d}"
        )
    summaries = dict(rows)
    mine, theirs = summaries.get("rypsok"), summaries.get("trafilatura-nocomments")
    if mine is None or theirs is None:
        return
    goal = max(GOAL_SNIPPET_ACCURACY, theirs["snip"]["accuracy"])
    got = mine["snip"]["accuracy"]
    print("\ngoals (issue 18), rypsok against trafilatura (no comments) of this run:")
    verdict = "met" if got >= goal else f"missed by {goal - got:.3f}"
    print(f"  snippet accuracy {got:.3f} vs >= {goal:.3f}: {verdict}")
    low, their_low = mine["low_pages"], theirs["low_pages"]
    verdict = "met" if low < their_low else "missed"
    print(f"  pages at <= {LOW_ACCURACY}  {low} vs < {their_low}: {verdict}")
    print(f"  pages raising    {mine['errors']}: {'met' if not mine['errors'] else 'missed'}")


def synthetic_pages() -> dict[str, str]:
    """Big pages: a list at the node bound (1.2 MB, 120,000 items after a short
    introduction), and pages of about 5 MB: a long article, a long list, a page of
    teasers, and a flat page of 300,000 elements that is cut at the node bound."""
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
    introduction = (
        "<h1>A long list</h1><p>"
        + "A short introduction to the list below, a sentence or two long. " * 3
        + "</p>"
    )

    def page(body: str) -> str:
        return f"<!DOCTYPE html><html><head><title>Big</title></head><body>{body}</body></html>"

    return {
        NODE_BOUND_PAGE: page(
            f"<main>{introduction}<ul>"
            + "".join(f"<li>i{i:05d}" for i in range(120_000))
            + "</ul></main>"
        ),
        DENSE_PAGE: page(nav + "</ul></nav><article>" + paragraph * 30_000),
        "list, 66k items": page("<ul>" + item * 66_000),
        "teasers, 60k elements": page("<main>" + teaser * 15_000),
        "flat, 300k elements": page("<span>word</span> " * 300_000),
    }


NODE_BOUND_PAGE = "list at the node bound"
DENSE_PAGE = "article, 30k paragraphs"
BIG_PAGE_GOALS_S = {NODE_BOUND_PAGE: 1.0, DENSE_PAGE: 1.5}  # issue 28, this machine


def time_big_pages(repeat: int, bench_dir: Path = DEFAULT_BENCH_DIR) -> None:
    """CPU seconds of rypsok's extraction on each big page (``repeat`` runs) and of
    trafilatura's (no comments; one run after rypsok's first: it takes half a minute on
    the 5 MB article), in this process, and their ratio; issue 28's goals are rypsok's."""
    sys.path[:0] = [str(HERE.parent), str(bench_dir)]
    from baselines import trafilatura_markdown_nocomments

    from rypsok.webfetch.extract import extract_html

    print(
        f"\nbig pages, CPU seconds (rypsok: best and median of {repeat} runs; trafilatura "
        "(no comments): one run, after rypsok's first):"
    )
    for name, html in synthetic_pages().items():
        times: list[float] = []
        partial = None
        theirs = 0.0
        for turn in range(repeat):
            start = time.process_time()
            partial = extract_html(html, "https://example.org/big").partial
            times.append(time.process_time() - start)
            if turn == 0:
                start = time.process_time()
                trafilatura_markdown_nocomments(html, "https://example.org/big")
                theirs = time.process_time() - start
        mine = statistics.median(times)
        print(
            f"  {name:24s} {len(html) / 1e6:5.2f} MB  rypsok best {min(times):5.2f} "
            f"median {mine:5.2f} s (partial={partial})  trafilatura {theirs:6.2f} s  "
            f"rypsok / trafilatura {mine / theirs:.3f}"
        )
        goal = BIG_PAGE_GOALS_S.get(name)
        if goal is not None:
            verdict = "met" if mine <= goal else f"missed by {mine - goal:.2f} s"
            print(f"    goal: rypsok median {mine:.2f} s vs <= {goal} s: {verdict}")


def time_interleaved(bench_dir: Path, set_name: str, passes: int) -> None:
    """Median ms/page of rypsok and of trafilatura (no comments) called in turn on each
    page of a set, in this one process: the rows of the scorer run one after another, and
    on a shared machine the load drifts between them by more than the difference."""
    import gzip

    sys.path[:0] = [str(HERE.parent), str(bench_dir)]  # rypsok from this checkout, as the rows
    from baselines import trafilatura_markdown_nocomments

    from rypsok.webfetch.extract import extract_html

    data = (bench_dir / SETS[set_name][0]).resolve()
    pages = []
    for truth in sorted((data / "ground-truth").glob("*.json")):
        url = json.loads(truth.read_text(encoding="utf-8")).get("url", "")
        with gzip.open(data / "html" / (truth.stem + ".html.gz"), "rb") as f:
            pages.append((f.read().decode("utf-8", errors="replace"), url))
    rows = {
        "rypsok": (lambda h, u: extract_html(h, u).markdown),
        "trafilatura-nocomments": (trafilatura_markdown_nocomments),
    }
    times: dict[str, list[float]] = {name: [] for name in rows}
    for func in rows.values():
        func(*pages[0])  # warm-up
    for turn in range(passes):
        for index, (html, url) in enumerate(pages):
            order = list(rows) if (index + turn) % 2 == 0 else list(rows)[::-1]
            for name in order:
                start = time.perf_counter()
                rows[name](html, url)
                times[name].append(time.perf_counter() - start)
    mine = statistics.median(times["rypsok"]) * 1000
    theirs = statistics.median(times["trafilatura-nocomments"]) * 1000
    print(
        f"\n{set_name}, interleaved ({passes} passes, one process): median ms/page rypsok "
        f"{mine:.1f}, trafilatura (no comments) {theirs:.1f}: {theirs / mine:.2f}x faster "
        f"(goal {GOAL_SPEEDUP:.0f}x): {'met' if theirs / mine >= GOAL_SPEEDUP else 'missed'}"
    )


def print_overall(rows: list[tuple[str, dict]]) -> None:
    print(
        f"\n{'extractor':24s} {'precision':>9s} {'recall':>7s} {'F1':>7s} {'± F1':>6s} "
        f"{'median ms':>9s} {'mean ms':>8s} {'p90 ms':>7s} {'empty':>5s} {'errors':>6s}"
    )
    for name, s in rows:
        mean_ms = s["total_s"] * 1000 / s["pages"]
        print(
            f"{name:24s} {s['precision']:9.3f} {s['recall']:7.3f} {s['f1']:7.3f} "
            f"{s.get('f1_std', 0.0):6.3f} {s['median_ms']:9.1f} {mean_ms:8.1f} "
            f"{s['p90_ms']:7.1f} {s['empty_outputs']:5d} {s['errors']:6d}"
        )
    print(f"({rows[0][1]['pages'] if rows else 0} pages; 4-token shingles, Markdown stripped)")


def print_by_type(rows: list[tuple[str, dict]], wcxb_goals: bool = True) -> None:
    """F1 per page type, overall F1, collapsed pages and median ms/page, one column per
    extractor, and whether rypsok meets issue 18's goals against the baselines (every
    type and overall at least the best baseline; on wcxb-dev also the fixed floors)."""
    summaries = dict(rows)
    names = [name for name, _ in rows]
    types = sorted({t for _, s in rows for t in s.get("by_type", {})})
    width = max(14, *(len(name) for name in names))
    print("\n" + f"{'page type':14s}" + "".join(f" {name:>{width}s}" for name in names))

    def line(label: str, values: list[str]) -> None:
        print(f"{label:14s}" + "".join(f" {value:>{width}s}" for value in values))

    for page_type in types:
        line(page_type, [f"{s['by_type'][page_type]['f1']:.3f}" for _, s in rows])
    line(f"all {rows[0][1]['pages']}", [f"{s['f1']:.3f}" for _, s in rows])
    line("collapsed", [str(s["collapsed_pages"]) for _, s in rows])
    line("median ms", [f"{s['median_ms']:.1f}" for _, s in rows])
    line("errors", [str(s["errors"]) for _, s in rows])
    mine = summaries.get("rypsok")
    baselines = [name for name in WCXB_BASELINES if name in summaries]
    if mine is None or not baselines:
        return
    print("\ngoals (issue 18), rypsok against the best baseline of this run:")
    for page_type in types:
        best_name = max(baselines, key=lambda n: summaries[n]["by_type"][page_type]["f1"])
        best = summaries[best_name]["by_type"][page_type]["f1"]
        got = mine["by_type"][page_type]["f1"]
        verdict = "met" if got >= best else f"missed by {best - got:.3f}"
        print(f"  {page_type:14s} {got:.3f} vs {best:.3f} ({best_name}): {verdict}")
    goal_f1 = max(summaries[name]["f1"] for name in baselines)
    if wcxb_goals:
        goal_f1 = GOAL_F1
    verdict = "met" if mine["f1"] >= goal_f1 else f"missed by {goal_f1 - mine['f1']:.3f}"
    print(f"  overall F1     {mine['f1']:.3f} vs >= {goal_f1:.3f}: {verdict}")
    if not wcxb_goals:
        return
    collapsed = mine["collapsed_pages"]
    verdict = "met" if collapsed <= GOAL_COLLAPSED else f"missed by {collapsed - GOAL_COLLAPSED}"
    print(f"  collapsed      {collapsed} vs <= {GOAL_COLLAPSED}: {verdict}")
    if "trafilatura-nocomments" in summaries:
        theirs = summaries["trafilatura-nocomments"]["median_ms"]
        ratio = theirs / mine["median_ms"] if mine["median_ms"] else float("inf")
        verdict = "met" if ratio >= GOAL_SPEEDUP else "missed"
        print(
            f"  median ms/page {mine['median_ms']:.1f} vs trafilatura {theirs:.1f}: "
            f"{ratio:.1f}x faster (goal {GOAL_SPEEDUP:.0f}x): {verdict}"
        )
    print(f"  pages raising  {mine['errors']}: {'met' if not mine['errors'] else 'missed'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument(
        "--set",
        choices=[*SETS, "trafilatura-eval", SYNTHETIC, "both", "all"],
        default="all",
        help="data sets (both: scrapinghub and wcxb-dev, as before issue 18)",
    )
    parser.add_argument("--only", nargs="*", choices=sorted(EXTRACTORS), help="rows to run")
    parser.add_argument("--bootstrap", type=int, default=1000, help="resamples for the ± column")
    parser.add_argument("--no-big", action="store_true", help="skip the 5 MB page timings")
    parser.add_argument("--repeat", type=int, default=3, help="runs per big page")
    parser.add_argument("--quick", action="store_true", help="fewer resamples, no 5 MB pages")
    parser.add_argument("--per-page", type=Path, help="write per-page scores into this directory")
    parser.add_argument(
        "--interleave",
        type=int,
        default=1,
        metavar="PASSES",
        help="then time rypsok and trafilatura in turn on each wcxb-dev page (0: skip)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.bootstrap, args.no_big = 100, True
    if not (args.bench_dir / "evaluate.py").exists():
        raise SystemExit(f"no evaluate.py under {args.bench_dir} (use --bench-dir)")

    scratch = tempfile.TemporaryDirectory()
    sets = dict(SETS)
    if args.set in ("all", SYNTHETIC):
        import synthetic_pages

        synthetic_pages.write(Path(scratch.name))
        sets[SYNTHETIC] = (scratch.name, SETS["wcxb-dev"][1])
    for set_name, (relative, names) in sets.items():
        if args.set not in ("all", set_name) and not (args.set == "both" and set_name in SETS):
            continue
        data = (args.bench_dir / relative).resolve()
        if not (data / "ground-truth").is_dir():
            print(f"\n{set_name}: no data under {data}, skipped", file=sys.stderr)
            continue
        rows = []
        for name in names:
            if args.only and name not in args.only:
                continue
            func, description = EXTRACTORS[name]
            summary = run_scorer(args.bench_dir, data, func, name, args.bootstrap, args.per_page)
            rows.append((name, summary))
            print(f"ran {name} on {set_name}: {description}", file=sys.stderr)
        if not rows:
            continue
        print(f"\n== {set_name} ({data})")
        print_overall(rows)
        if set_name in ("wcxb-dev", SYNTHETIC):
            print_by_type(rows, wcxb_goals=set_name == "wcxb-dev")
        elif "rypsok" in dict(rows):
            f1 = dict(rows)["rypsok"]["f1"]
            verdict = "met" if f1 >= GOAL_SCRAPINGHUB_F1 else "missed"
            print(f"goal: rypsok F1 {f1:.3f} vs >= {GOAL_SCRAPINGHUB_F1}: {verdict}")
    data = (args.bench_dir / TRAFILATURA_EVAL).resolve()
    names = [n for n in TRAFILATURA_EVAL_ROWS if not args.only or n in args.only]
    if args.set in ("all", "trafilatura-eval") and names:
        if (data / "evaluate.py").exists():
            rows = run_snippet_scorer(data, names, args.bootstrap, args.per_page)
            print(f"\n== trafilatura-eval ({data}, 990 pages, snippets)")
            print_snippets(rows)
        else:
            print(f"\ntrafilatura-eval: no scorer under {data}, skipped", file=sys.stderr)
    if args.interleave and args.set in ("all", "both", "wcxb-dev") and not args.only:
        time_interleaved(args.bench_dir, "wcxb-dev", args.interleave)
    if not args.no_big:
        time_big_pages(args.repeat, args.bench_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
