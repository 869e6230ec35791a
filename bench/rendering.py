"""Two source trees of rypsok compared on extraction: the same output, and what it costs.

    python bench/rendering.py --before DIR [--after DIR] [--quick] [--rounds N]
        [--only outputs|heavy]

DIR is a checkout (or ``git archive`` of a commit) of rypsok; ``--after`` defaults to this
one. Each tree runs in child processes of its own, one after the other, in alternating
order, so both see about the same load:

- Output: every page of the shared corpora (ScrapingHub, WCXB dev and trafilatura's
  evaluation set) through ``extract_html``; the title, Markdown and ``partial`` of each
  page must be the same bytes from both trees. The pages that differ are listed.
- Normal pages: CPU milliseconds per page on WCXB dev (each page's best of the rounds),
  median and ratio after / before.
- Heavy pages: the synthetic 5 MB pages of bench/extraction.py, one fresh process per tree,
  page and round: the call's wall and CPU time after a warm-up call on a small page, and
  the process's peak resident set (VmHWM) once the call is done.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import _common as c

SHARED = c.SHARED_BENCH
CORPORA = {
    "scrapinghub": SHARED / "extraction",
    "wcxb-dev": SHARED / "wcxb-dev",
    "trafilatura-eval": SHARED / "trafilatura-eval" / "data" / "trafilatura",
}


def _decode(data: bytes) -> str:
    """As trafilatura-eval's scorer reads a page (a browser without a Content-Type charset);
    on the others' UTF-8 pages the same as their scorer's UTF-8 with replacement."""
    from w3lib.encoding import html_body_declared_encoding, read_bom, resolve_encoding, to_unicode

    encoding, bom = read_bom(data)
    if encoding:
        return to_unicode(data[len(bom) :], encoding)
    declared = html_body_declared_encoding(data)
    encoding = resolve_encoding(declared) if declared else None
    if encoding and not encoding.startswith(("utf-16", "utf-32")):
        return to_unicode(data, encoding)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return to_unicode(data, "cp1252")


def corpus_pages(quick: bool) -> list[tuple[str, Path, str]]:
    """(set/id, the gzipped HTML, the page URL) of every page; a tenth of each with --quick."""
    pages = []
    for name, directory in CORPORA.items():
        truths = sorted((directory / "ground-truth").glob("*.json"))
        for truth in truths[:: 10 if quick else 1]:
            page_id = truth.name.removesuffix(".json")
            url = json.loads(truth.read_text(encoding="utf-8")).get("url", "")
            pages.append((f"{name}/{page_id}", directory / "html" / f"{page_id}.html.gz", url))
    return pages


# ---------------------------------------------------------------------------- in the child


def _child_outputs(quick: bool) -> dict:
    """Each page's digest of (title, Markdown, partial) and CPU seconds."""
    from rypsok.webfetch.extract import extract_html

    digests, seconds = {}, {}
    for key, path, url in corpus_pages(quick):
        html = _decode(gzip.decompress(path.read_bytes()))
        started = time.process_time()
        result = extract_html(html, url)
        seconds[key] = time.process_time() - started
        record = json.dumps([result.title, result.markdown, result.partial]).encode()
        digests[key] = hashlib.sha256(record).hexdigest()
    return {"digests": digests, "seconds": seconds}


def _child_heavy(page: str) -> dict:
    from extraction import synthetic_pages

    from rypsok.webfetch.extract import extract_html

    html = synthetic_pages()[page]
    extract_html("<title>t</title><p>" + "word " * 200, "https://example.org/")
    wall, cpu = time.perf_counter(), time.process_time()
    result = extract_html(html, "https://example.org/big")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    digest = hashlib.sha256(json.dumps([result.title, result.markdown, result.partial]).encode())
    return {
        "wall": wall,
        "cpu": cpu,
        "peak": c.peak_rss(os.getpid()),
        "digest": digest.hexdigest(),
    }


# ---------------------------------------------------------------------------- in the parent


def _run_child(tree: Path, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, __file__, "--child", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=str(tree),
    )
    if done.returncode != 0:
        raise SystemExit(f"child {args} on {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _alternating(trees: dict[str, Path], rounds: int, *args: str) -> dict[str, list[dict]]:
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    order = list(trees)
    for index in range(rounds):
        for name in order if index % 2 == 0 else order[::-1]:
            runs[name].append(_run_child(trees[name], *args))
    return runs


def compare_outputs(trees: dict[str, Path], rounds: int, quick: bool) -> None:
    runs = _alternating(trees, rounds, "outputs", *(["--quick"] if quick else []))
    before, after = runs["before"][0]["digests"], runs["after"][0]["digests"]
    for name, tree_runs in runs.items():  # each tree gives the same output every round
        assert all(run["digests"] == tree_runs[0]["digests"] for run in tree_runs), name
    print("\n## Output (title, Markdown, partial), byte for byte")
    rows = []
    for corpus in CORPORA:
        keys = [key for key in before if key.startswith(corpus + "/")]
        same = sum(before[key] == after.get(key) for key in keys)
        rows.append([corpus, len(keys), same, len(keys) - same])
    c.table(["set", "pages", "identical", "different"], rows)
    for key in sorted(key for key in before if before[key] != after.get(key)):
        print(f"  differs: {key}")
    print("\n## Normal pages: CPU ms per page (each page's best of the rounds), median")
    rows = []
    for corpus in CORPORA:
        medians = {}
        for name, tree_runs in runs.items():
            keys = [key for key in tree_runs[0]["seconds"] if key.startswith(corpus + "/")]
            best = [min(run["seconds"][key] for run in tree_runs) for key in keys]
            medians[name] = c.median(best) * 1000
        rows.append(
            [corpus, f"{medians['before']:.2f}", f"{medians['after']:.2f}",
             f"{medians['after'] / medians['before']:.3f}"]
        )  # fmt: skip
    c.table(["set", "before ms", "after ms", "after / before"], rows)


def compare_heavy(trees: dict[str, Path], rounds: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from extraction import synthetic_pages

    print(f"\n## Heavy pages: one process per tree, page and round ({rounds} rounds), median")
    rows = []
    for page in synthetic_pages():
        runs = _alternating(trees, rounds, "heavy", page)
        same = runs["before"][0]["digest"] == runs["after"][0]["digest"]
        figures = {
            name: (
                c.median([run["wall"] for run in tree_runs]),
                c.median([run["cpu"] for run in tree_runs]),
                max(run["peak"] for run in tree_runs),
            )
            for name, tree_runs in runs.items()
        }
        (wall_b, cpu_b, peak_b), (wall_a, cpu_a, peak_a) = figures["before"], figures["after"]
        rows.append(
            [page, f"{wall_b:.2f} / {wall_a:.2f}", f"{cpu_b:.2f} / {cpu_a:.2f}",
             f"{cpu_a / cpu_b:.3f}", f"{c.mib(peak_b)} / {c.mib(peak_a)}",
             "yes" if same else "NO"]
        )  # fmt: skip
    c.table(
        ["page", "wall s before / after", "CPU s before / after", "CPU after / before",
         "peak RSS MiB before / after", "same output"],
        rows,
    )  # fmt: skip


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        kind, rest = sys.argv[2], sys.argv[3:]
        sys.path.insert(1, str(Path(__file__).resolve().parent))
        answer = _child_outputs("--quick" in rest) if kind == "outputs" else _child_heavy(rest[0])
        print(json.dumps(answer))
        return 0
    args = c.arguments(
        __doc__.split("\n\n")[0],
        before=(Path, None, "the tree to compare against (required)"),
        after=(Path, c.ROOT, "the tree measured (default: this one)"),
        rounds=(int, 2, "runs of each tree, alternating"),
        only=(str, "", "'outputs' or 'heavy': that part alone"),
    )
    if args.before is None:
        raise SystemExit("--before DIR is required")
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    c.header(
        f"extraction: {trees['before']} (before) against {trees['after']} (after)",
        "python bench/rendering.py --before DIR",
    )
    if args.only != "heavy":
        compare_outputs(trees, args.rounds, args.quick)
    if args.only != "outputs":
        compare_heavy(trees, 1 if args.quick else max(args.rounds, 3))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
