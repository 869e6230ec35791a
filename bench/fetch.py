"""web_fetch end to end on pages of about 50 KB, 1 MB and 5 MB served on loopback: rypsok's
MCP server against mcp-server-fetch's ``fetch`` tool, calls interleaved, each server fresh
for each page size; time per call, and the server process's peak RSS (VmHWM), plus the
peak RSS of its whole process tree sampled every 5 ms (mcp-server-fetch runs Node's
Readability.js in a child process when Node is on PATH). The library path (in-process
``Client.fetch``) is timed too, with tracemalloc's peak of Python allocations (lxml's own
memory is not traced).

A 5 MB text/markdown page (a README written large: links absolute, relative and by
reference, images, code with brackets, raw HTML, a few javascript: links; every construct
judged, issue 25) is timed against the 5 MB HTML page, calls alternating in one rypsok
server and in the library; the ratio is Markdown / HTML.

    python bench/fetch.py [--quick] [--calls N]

With --quick, one call per size and server, and the baselines skip the 5 MB page.

Extraction quality is bench/extraction.py's subject, not this script's.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import tempfile
import threading
import tracemalloc
from pathlib import Path

import _common as c
import trio
from _servers import Play, PlayServer, single

SIZES = {"50 KB": 50_000, "1 MB": 1_000_000, "5 MB": 5_000_000}
CALLS = {"50 KB": 5, "1 MB": 3, "5 MB": 2}
"""Measured calls per server for each size in a full run (the baselines take seconds)."""
QUICK_RYPSOK_ONLY = "5 MB"
"""With --quick, the baselines skip this size (about 30 s a call)."""
MAX_CHARS = 20_000
ROBOTS = b"User-agent: *\nAllow: /\n"
WORDS = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "a",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "this",
    "are",
    "or",
    "his",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "they",
    "you",
    "were",
    "her",
    "she",
    "there",
    "been",
    "one",
    "all",
    "we",
    "their",
    "has",
    "would",
    "when",
    "if",
    "so",
    "no",
    "will",
    "more",
    "can",
    "what",
    "about",
    "out",
    "up",
    "into",
    "only",
    "time",
    "other",
    "some",
    "them",
    "could",
    "these",
    "two",
    "may",
    "first",
    "then",
    "do",
    "any",
    "like",
    "my",
    "now",
    "over",
    "such",
    "our",
    "man",
    "me",
    "even",
    "most",
    "made",
    "after",
    "also",
    "did",
]


def paragraph(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def article_page(size: int, seed: int = 7) -> bytes:
    """An article page of about ``size`` bytes: navigation, sections of prose, lists,
    tables and code, a sidebar, comments and a footer."""
    rng = random.Random(seed)
    nav = "".join(f'<li><a href="/section/{i}">Section {i}</a></li>' for i in range(30))
    head = (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>A long article</title>"
        '<link rel=stylesheet href="/style.css"></head><body>'
        f"<header><nav><ul>{nav}</ul></nav></header><main><article><h1>A long article</h1>"
    )
    tail = (
        "</article><aside><h2>Related</h2><ul>"
        + "".join(f'<li><a href="/related/{i}">Related story {i}</a></li>' for i in range(15))
        + "</ul></aside><section class=comments><h2>Comments</h2>"
        + "".join(f"<div class=comment><b>user{i}</b> {paragraph(rng, 20)}</div>" for i in range(5))
        + "</section></main><footer><p>Copyright. All rights reserved.</p></footer></body></html>"
    )
    parts = [head]
    length = len(head) + len(tail)
    section = 0
    while length < size:
        section += 1
        block = [f"<h2>Part {section}</h2>"]
        block += [f"<p>{paragraph(rng, rng.randint(40, 120))}</p>" for _ in range(4)]
        block.append("<ul>" + "".join(f"<li>{paragraph(rng, 8)}</li>" for _ in range(5)) + "</ul>")
        if section % 3 == 0:
            rows = "".join(
                f"<tr><td>{i}</td><td>{paragraph(rng, 3)}</td><td>{rng.random():.3f}</td></tr>"
                for i in range(6)
            )
            block.append(f"<table><tr><th>n</th><th>name</th><th>value</th></tr>{rows}</table>")
        if section % 4 == 0:
            block.append("<pre><code>for item in items:\n    print(item)\n</code></pre>")
        text = "".join(block)
        parts.append(text)
        length += len(text)
    parts.append(tail)
    return "".join(parts).encode()


NODE_BOUND_PATH = "/node-bound.html"
NODE_BOUND_TIMEOUT_MS = 1000
"""A short configured fetch timeout: the page at the node bound must still come back, cut
(``extraction_partial``), not ``deadline`` (issue 28)."""


def node_bound_page() -> bytes:
    from extraction import NODE_BOUND_PAGE, synthetic_pages

    return synthetic_pages()[NODE_BOUND_PAGE].encode()


MARKDOWN_PATH = "/page-5mb.md"
MARKDOWN_AGAINST = "5 MB"
"""The HTML page the Markdown one is timed against."""


def markdown_page(size: int, seed: int = 7) -> bytes:
    """A Markdown page of about ``size`` bytes, every section holding each kind of construct
    the judging of text/markdown deals with."""
    rng = random.Random(seed)
    parts = ["# A long README\n\n"]
    length = len(parts[0])
    section = 0
    while length < size:
        section += 1
        words = [paragraph(rng, rng.randint(30, 80)) for _ in range(3)]
        block = (
            f"## Part {section}\n\n{words[0]} See [the changelog](https://example.org/log/{section}), "
            f'[the guide](docs/guide-{section}.md "Guide"), [up](../index.md#part-{section}) '
            f"and <https://example.org/{section}>.\n\n"
            f"{words[1]} ![Build status](https://ci.example.org/{section}.svg) The `xs[0]` index, "
            f"`a < b`, `List[int]` and a [reference][ref-{section}] read as written.\n\n"
            f"- {paragraph(rng, 8)} [item](#item-{section})\n- {paragraph(rng, 8)}\n\n"
            "```python\ndef first(xs: List[int]) -> int:\n"
            '    return xs[0] if "<b>" else -1  # [not](a-link)\n```\n\n'
            f"{words[2]} <kbd>Ctrl</kbd>+<kbd>C</kbd>, and [a trap](javascript:alert({section})).\n\n"
            f"[ref-{section}]: /reference/{section}.md\n\n"
        )
        parts.append(block)
        length += len(block)
    return "".join(parts).encode()


def page_plays() -> dict[str, list[tuple[float, Play]]]:
    plays = {
        "/robots.txt": single(Play(body=ROBOTS, content_type="text/plain")),
        "/warm.html": single(
            Play(body=article_page(5_000), content_type="text/html; charset=utf-8")
        ),
    }
    for name, size in SIZES.items():
        plays[page_path(name)] = single(
            Play(body=article_page(size), content_type="text/html; charset=utf-8")
        )
    plays[NODE_BOUND_PATH] = single(
        Play(body=node_bound_page(), content_type="text/html; charset=utf-8")
    )
    plays[MARKDOWN_PATH] = single(
        Play(
            body=markdown_page(SIZES[MARKDOWN_AGAINST]),
            content_type="text/markdown; charset=utf-8",
        )
    )
    return plays


def page_path(name: str) -> str:
    return "/page-" + name.replace(" ", "").lower() + ".html"


class TreePeak:
    """The largest RSS sum of a process and its descendants, sampled in a thread."""

    def __init__(self, pid: int, interval_s: float = 0.005):
        import psutil

        self._process = psutil.Process(pid)
        self._interval_s = interval_s
        self._stop = threading.Event()
        self.peak = 0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> int:
        total = 0
        for process in [self._process, *self._process.children(recursive=True)]:
            with contextlib.suppress(Exception):
                total += process.memory_info().rss
        return total

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            self.peak = max(self.peak, self._sample())

    def __enter__(self) -> TreePeak:
        self.peak = self._sample()
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()


def call_arguments(server: str, url: str) -> tuple[str, dict]:
    if server.startswith("rypsok"):
        return "web_fetch", {"url": url, "max_chars": MAX_CHARS}
    return "fetch", {"url": url, "max_length": MAX_CHARS}


async def mcp_size(servers: dict, url: str, warm_url: str, calls: int) -> dict[str, dict]:
    """Every server fresh, one warm-up call each, then ``calls`` interleaved calls."""
    found: dict[str, dict] = {}
    sessions = {}
    async with contextlib.AsyncExitStack() as stack:
        for name, (parameters, needles) in servers.items():
            sessions[name] = await stack.enter_async_context(c.mcp_session(parameters))
            process = c.child_process(*needles)
            tool, arguments = call_arguments(name, warm_url)
            result = await sessions[name].call_tool(tool, arguments)
            if result.is_error:
                raise RuntimeError(f"{name} warm-up failed: {result.content[0].text[:300]}")
            found[name] = {
                "pid": process.pid,
                "times": [],
                "errors": [],
                "rss_before": c.rss(process.pid),
            }
        with contextlib.ExitStack() as sampling:
            peaks = {
                name: sampling.enter_context(TreePeak(info["pid"])) for name, info in found.items()
            }
            for i in range(calls):
                order = list(sessions) if i % 2 == 0 else list(reversed(sessions))
                for name in order:
                    tool, arguments = call_arguments(name, url)
                    start = c.clock()
                    result = await sessions[name].call_tool(tool, arguments)
                    found[name]["times"].append(c.clock() - start)
                    if result.is_error:
                        text = result.content[0].text if result.content else ""
                        found[name]["errors"].append(text[:200])
        for name, peak in peaks.items():
            found[name]["tree_peak"] = peak.peak
            found[name]["hwm"] = c.peak_rss(found[name]["pid"])
    return found


async def library_sizes(config, urls: dict[str, str], calls: dict[str, int]) -> dict[str, dict]:
    from rypsok import Client, ToolError

    found: dict[str, dict] = {}
    async with Client(config) as client:
        await client.fetch(urls["warm"], max_chars=MAX_CHARS)
        for name in SIZES:
            times, errors = [], []
            for _ in range(max(3, calls[name])):
                start = c.clock()
                try:
                    await client.fetch(urls[name], max_chars=MAX_CHARS)
                except ToolError as exc:
                    errors.append(f"{exc.kind}: {exc.message}")
                times.append(c.clock() - start)
            tracemalloc.start()
            with contextlib.suppress(ToolError):
                await client.fetch(urls[name], max_chars=MAX_CHARS)
            traced_peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            found[name] = {"times": times, "errors": errors, "traced_peak": traced_peak}
    return found


NODE_BOUND_PAUSE_S = 0.0
"""Between two fetches of the node-bound page: none. The child that read it (more than
1 MiB) is retired, and its replacement is started as that call starts (worker.py), so the
next call finds it loaded; before, it started after, and a call back to back waited about
0.65 s for its imports (the pause was then 2 s)."""


async def node_bound_calls(config, url: str, warm_url: str, calls: int) -> dict[str, list]:
    """``calls`` library fetches of the page at the node bound under a short timeout, each
    after NODE_BOUND_PAUSE_S: the time of each, and how each ended (``partial`` with
    extraction_partial, or the error)."""
    import anyio

    from rypsok import Client, ToolError

    found: dict[str, list] = {"times": [], "outcomes": []}
    async with Client(config) as client:
        await client.fetch(warm_url, max_chars=MAX_CHARS)
        for _ in range(calls):
            await anyio.sleep(NODE_BOUND_PAUSE_S)
            start = c.clock()
            try:
                response = await client.fetch(url, max_chars=MAX_CHARS)
            except ToolError as exc:
                outcome = f"{exc.kind} {exc.metric_reason}"
            else:
                codes = {notice.to_json()["code"] for notice in response.notices}
                outcome = "partial" if "extraction_partial" in codes else "whole"
            found["times"].append(c.clock() - start)
            found["outcomes"].append(outcome)
    return found


async def markdown_against_html(parameters, urls: dict[str, str], calls: int) -> dict[str, list]:
    """One fresh rypsok server, one warm-up call, then ``calls`` calls to each page,
    alternating (which goes first alternates too)."""
    times: dict[str, list] = {name: [] for name in urls if name != "warm"}
    async with c.mcp_session(parameters) as session:
        await session.call_tool("web_fetch", {"url": urls["warm"], "max_chars": MAX_CHARS})
        for i in range(calls):
            order = list(times) if i % 2 == 0 else list(reversed(times))
            for name in order:
                start = c.clock()
                result = await session.call_tool(
                    "web_fetch", {"url": urls[name], "max_chars": MAX_CHARS}
                )
                times[name].append((c.clock() - start, result.is_error))
    return times


async def markdown_against_html_library(
    config, urls: dict[str, str], calls: int
) -> dict[str, list]:
    from rypsok import Client, ToolError

    times: dict[str, list] = {name: [] for name in urls if name != "warm"}
    async with Client(config) as client:
        await client.fetch(urls["warm"], max_chars=MAX_CHARS)
        for i in range(calls):
            order = list(times) if i % 2 == 0 else list(reversed(times))
            for name in order:
                start = c.clock()
                failed = False
                try:
                    await client.fetch(urls[name], max_chars=MAX_CHARS)
                except ToolError:
                    failed = True
                times[name].append((c.clock() - start, failed))
    return times


def markdown_rows(path: str, found: dict[str, list]) -> list[list]:
    rows = []
    medians = {}
    for name, calls in found.items():
        seconds = [took for took, _ in calls]
        medians[name] = c.median(seconds)
        errors = sum(failed for _, failed in calls)
        rows.append([path, name, c.ms(medians[name]), c.ms(max(seconds)), errors, ""])
    html, markdown = (medians[name] for name in found)
    rows.append([path, "  ratio Markdown / HTML", "", "", "", f"{markdown / html:.3f}"])
    return rows


def baselines() -> dict[str, tuple]:
    """mcp-server-fetch as installed (Readability.js through Node when Node is on PATH, which
    is readabilipy's default) and with Node off PATH (its pure-Python extractor)."""
    found = {}
    path = os.environ.get("PATH", "")
    without_node = os.pathsep.join(
        d for d in path.split(os.pathsep) if d and not os.access(os.path.join(d, "node"), os.X_OK)
    )
    if shutil.which("node"):
        found["mcp-server-fetch (Node)"] = (
            c.fetch_server_parameters("--allow-private-ips"),
            ("mcp_server_fetch",),
        )
    found["mcp-server-fetch (no Node)"] = (
        c.fetch_server_parameters(
            "--allow-private-ips", env={**c.base_env(), "PATH": without_node}
        ),
        ("mcp_server_fetch",),
    )
    return found


def main() -> int:
    args = c.arguments(
        __doc__.splitlines()[0],
        calls=(int, None, "measured calls per size and server (default 5, 3, 2; 1 with --quick)"),
    )
    calls = dict.fromkeys(SIZES, args.calls or 1) if args.calls or args.quick else dict(CALLS)
    c.header(
        "fetch: web_fetch vs mcp-server-fetch on 50 KB, 1 MB and 5 MB pages",
        f"python bench/fetch.py{' --quick' if args.quick else ''}",
    )
    problem = c.fetch_server_problem()
    if problem:
        print(f"baseline unavailable: {problem}")
    rows, library_rows, failures = [], [], []
    with PlayServer(page_plays()) as site, tempfile.TemporaryDirectory() as folder:
        data = c.config_data(
            None,
            (),
            fetch={
                "allow_http": True,
                "allow_networks": ["127.0.0.0/8"],
                "ports": [80, 443, site.port],
            },
        )
        config_path = c.write_config(data, Path(folder) / "rypsok.toml")
        servers = {"rypsok": (c.rypsok_parameters(config_path), ("rypsok", "serve"))}
        if problem is None:
            servers.update(baselines())
        for name in SIZES:
            url = site.url(page_path(name))
            here = servers
            if args.quick and name == QUICK_RYPSOK_ONLY:
                here = {"rypsok": servers["rypsok"]}
            found = trio.run(mcp_size, here, url, site.url("/warm.html"), calls[name])
            for server, info in found.items():
                failures += [f"{server} {name}: {e}" for e in info["errors"]]
                rows.append(
                    [
                        name,
                        server,
                        c.ms(c.median(info["times"])),
                        c.ms(max(info["times"])),
                        len(info["errors"]),
                        c.mib(info["rss_before"]),
                        c.mib(info["hwm"]),
                        c.mib(info["tree_peak"]),
                    ]
                )
            ours = found["rypsok"]
            for server, info in found.items():
                if server == "rypsok":
                    continue
                time_ratio = c.median(ours["times"]) / c.median(info["times"])
                hwm_ratio = ours["hwm"] / info["hwm"]
                tree_ratio = ours["tree_peak"] / info["tree_peak"]
                rows.append(
                    [
                        name,
                        f"  ratio rypsok / {server}",
                        f"{time_ratio:.3f}",
                        "",
                        "",
                        "",
                        f"{hwm_ratio:.3f}",
                        f"{tree_ratio:.3f}",
                    ]
                )
        pair = {
            "warm": site.url("/warm.html"),
            f"{MARKDOWN_AGAINST} HTML": site.url(page_path(MARKDOWN_AGAINST)),
            f"{MARKDOWN_AGAINST} Markdown": site.url(MARKDOWN_PATH),
        }
        pair_calls = max(3, calls[MARKDOWN_AGAINST])
        found = trio.run(markdown_against_html, servers["rypsok"][0], pair, pair_calls)
        pair_rows = markdown_rows("MCP, stdio", found)
        library_config = c.library_config(data)
        found = trio.run(markdown_against_html_library, library_config, pair, pair_calls)
        pair_rows += markdown_rows("library", found)
        urls = {name: site.url(page_path(name)) for name in SIZES}
        urls["warm"] = site.url("/warm.html")
        for name, info in trio.run(library_sizes, library_config, urls, calls).items():
            failures += [f"library {name}: {e}" for e in info["errors"]]
            library_rows.append(
                [
                    name,
                    c.ms(c.median(info["times"])),
                    c.ms(max(info["times"])),
                    len(info["errors"]),
                    c.mib(info["traced_peak"]),
                ]
            )
        short = c.library_config(
            {**data, "fetch": {**data["fetch"], "timeout_ms": NODE_BOUND_TIMEOUT_MS}}
        )
        node_bound = trio.run(
            node_bound_calls,
            short,
            site.url(NODE_BOUND_PATH),
            site.url("/warm.html"),
            max(3, calls["1 MB"]),
        )
    counts = ", ".join(f"{name} {count}" for name, count in calls.items())
    print(
        f"calls per server ({counts}; library at least 3), interleaved, fresh servers per size, "
        f"after one warm-up call on a 5 KB page; max_chars {MAX_CHARS}"
    )
    c.table(
        [
            "page",
            "server (MCP, stdio)",
            "median ms",
            "max ms",
            "errors",
            "RSS before MiB",
            "peak RSS MiB",
            "tree peak MiB",
        ],
        rows,
    )
    print("library path (rypsok.Client.fetch in this process)")
    c.table(["page", "median ms", "max ms", "errors", "tracemalloc peak MiB"], library_rows)
    outcomes = ", ".join(node_bound["outcomes"])
    spacing = f"{NODE_BOUND_PAUSE_S:.0f} s apart" if NODE_BOUND_PAUSE_S else "back to back"
    print(
        f"list at the node bound (1.2 MB), library, [fetch] timeout_ms "
        f"{NODE_BOUND_TIMEOUT_MS}, {spacing}: median {c.ms(c.median(node_bound['times']))} ms, max "
        f"{c.ms(max(node_bound['times']))} ms; answers: {outcomes} (goal: every one partial)"
    )
    print(f"text/markdown against HTML, rypsok, {pair_calls} calls each, alternating")
    c.table(["path", "page", "median ms", "max ms", "errors", "ratio"], pair_rows)
    for failure in failures[:20]:
        print(f"error: {failure}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
