"""Hostile pages through web_fetch: what each call answers, how long it takes, and how much
CPU is burned after it has answered (work the call left running).

    python bench/hostile_pages.py [--quick] [--window S]
    PYTHONPATH=/path/to/other/checkout python bench/hostile_pages.py   # the same, other code

Pages, served on loopback by bench/_servers.py's child process:

- one <div> with 200,000 distinct attributes (1.9 MB), alone and four at once;
- one <div> with 40,000 valueless attributes;
- 2,000 tags of 300 attributes each;
- a 5 MB page of dense prose with ``[fetch] timeout_ms = 1000``, so that its extraction
  runs into the deadline on purpose.

Each call goes through the library's Fetcher with the default configuration (loopback
allowed). When it has answered, the CPU time of this process and of its children (live and
reaped; the page server's excluded) is sampled over --window seconds (20 by default). A
"thread" row reads the same page the way rypsok did before extraction ran in a child
process: ``build_response`` in an abandoned worker thread under the same deadline, in this
process and with this code, as the in-run baseline for stopping work.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time

import _common as c
import anyio
import psutil
import trio
from _servers import Play, PlayServer, single

from rypsok.config import config_from_dict
from rypsok.errors import ToolError
from rypsok.webfetch.fetcher import EXTRACTION_S, Fetcher

try:  # where build_response lives since extraction runs in a child process
    from rypsok.webfetch.page import RawPage, build_response
except ImportError:  # an older checkout
    from rypsok.webfetch.fetcher import RawPage, build_response  # type: ignore[no-redef]

ROBOTS = b"User-agent: *\nAllow: /\n"
TEXT = "<p>The page text, a paragraph long enough to be read as the content of the page.</p>"


def attributes(count: int, value: str = '="v"') -> str:
    return " ".join(f"a{i}{value}" for i in range(count))


def page(body: str) -> bytes:
    return f"<!doctype html><html><head><title>Hostile</title></head><body>{body}</body></html>".encode()


def prose(size: int) -> str:
    paragraph = (
        "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
        "incididunt ut labore et dolore magna aliqua. <a href='/x'>A link</a> and "
        "<b>bold</b> text.</p>\n"
    )
    return "<article>" + paragraph * (size // len(paragraph)) + "</article>"


PAGES = {
    "/div-200k.html": page(f"<div {attributes(200_000)}>{TEXT}</div>"),
    "/div-40k-valueless.html": page(f"<div {attributes(40_000, '')}>{TEXT}</div>"),
    "/tags-2000x300.html": page(TEXT + f"<b {attributes(300)}>x</b>" * 2000),
    "/prose-5mb.html": page(prose(5_000_000)),
}
# (label, path, calls at once, [fetch] timeout_ms)
CASES = [
    ("div, 200,000 attributes (1.9 MB)", "/div-200k.html", 1, 10_000),
    ("4 of those at once", "/div-200k.html", 4, 10_000),
    ("div, 40,000 valueless attributes", "/div-40k-valueless.html", 1, 10_000),
    ("2,000 tags of 300 attributes", "/tags-2000x300.html", 1, 10_000),
    ("5 MB prose, timeout_ms 1000", "/prose-5mb.html", 1, 1_000),
]
QUICK_CASES = {"div, 200,000 attributes (1.9 MB)", "5 MB prose, timeout_ms 1000"}


def plays() -> dict[str, list[tuple[float, Play]]]:
    found = {"/robots.txt": single(Play(body=ROBOTS, content_type="text/plain"))}
    for path, body in PAGES.items():
        found[path] = single(Play(body=body, content_type="text/html; charset=utf-8"))
    return found


def config(site: PlayServer, timeout_ms: int):
    return config_from_dict(
        {
            "fetch": {
                "allow_http": True,
                "allow_networks": ["127.0.0.0/8"],
                "ports": [site.port],
                "timeout_ms": timeout_ms,
                "byte_limit": 8 << 20,
            },
            "limits": {"web_fetch": c.HIGH},
        },
        env={},
    )


def cpu(exclude: int | None) -> tuple[float, float]:
    """CPU seconds so far: this process, and its children (live ones, plus reaped ones)."""
    me = psutil.Process()
    times = me.cpu_times()
    children = times.children_user + times.children_system
    for child in me.children(recursive=True):
        if child.pid == exclude:
            continue
        with contextlib.suppress(psutil.Error):
            child_times = child.cpu_times()
            children += child_times.user + child_times.system
    return times.user + times.system, children


async def fetch_all(site: PlayServer, path: str, calls: int, timeout_ms: int) -> list:
    answers: list = [None] * calls

    async def one(index: int) -> None:
        started = c.clock()
        try:
            response = await fetcher.fetch(site.url(path), 3000)
            answer = "ok" + (
                " partial" if any(n.code == "extraction_partial" for n in response.notices) else ""
            )
        except ToolError as error:
            answer = f"{error.kind} {error.detail.get('reason', '')}".strip()
        answers[index] = (answer, c.clock() - started)

    async with Fetcher(config(site, timeout_ms)) as fetcher, trio.open_nursery() as nursery:
        for index in range(calls):
            nursery.start_soon(one, index)
    return answers


async def thread_baseline(body: bytes, url: str, timeout_ms: int) -> tuple[str, float]:
    """build_response in an abandoned thread under the fetch's deadline (the network part
    taken as instant): how extraction ran before it ran in a child process."""
    raw = RawPage(url, "text/html", "utf-8", body)
    started = c.clock()
    answer = "deadline"
    with anyio.move_on_after(timeout_ms / 1000 + EXTRACTION_S):
        try:
            await anyio.to_thread.run_sync(build_response, raw, 0, 3000, abandon_on_cancel=True)
            answer = "ok"
        except ToolError as error:
            answer = f"{error.kind} {error.detail.get('reason', '')}".strip()
    return answer, c.clock() - started


def after(window: float, exclude: int | None) -> tuple[float, float]:
    own, children = cpu(exclude)
    time.sleep(window)
    own_later, children_later = cpu(exclude)
    return own_later - own, children_later - children


def measure(index: int, mode: str, window: float) -> dict:
    """One case in one mode, in a process of its own: what an earlier call left running
    must not count against a later one."""
    label, path, calls, timeout_ms = CASES[index]
    with PlayServer(plays()) as site:
        # warm: a normal page first, so that a child (where rypsok uses them) is up and idle
        trio.run(fetch_all, site, "/robots.txt", 1, 10_000)
        time.sleep(2)
        if mode == "fetch":
            answers = trio.run(fetch_all, site, path, calls, timeout_ms)
        else:
            answers = [trio.run(thread_baseline, PAGES[path], site.url(path), timeout_ms)]
        own, children = after(window, site.pid)
    return {
        "answers": sorted({answer for answer, _ in answers}),
        "worst_s": max(took for _, took in answers),
        "own_s": own,
        "children_s": children,
    }


def main() -> int:
    args = c.arguments(
        __doc__.split("\n\n")[0],
        window=(float, 20.0, "seconds of CPU sampling after each call"),
        case=(int, -1, "(internal) run one case"),
        mode=(str, "", "(internal) fetch or thread"),
    )
    if args.case >= 0:
        print(json.dumps(measure(args.case, args.mode, args.window)))
        return 0
    window = 3.0 if args.quick and args.window == 20.0 else args.window
    c.header("hostile pages: CPU burned after the call answered", "python bench/hostile_pages.py")
    rows = []
    for index, (label, _, calls, _) in enumerate(CASES):
        if args.quick and label not in QUICK_CASES:
            continue
        for mode in ("fetch", "thread") if calls == 1 else ("fetch",):
            command = [sys.executable, __file__, "--case", str(index), "--mode", mode]
            done = subprocess.run(
                [*command, "--window", str(window)], capture_output=True, text=True, check=False
            )
            if done.returncode != 0:
                raise SystemExit(f"{label} ({mode}) failed:\n{done.stderr[-2000:]}")
            found = json.loads(done.stdout.strip().splitlines()[-1])
            rows.append(
                [
                    label if mode == "fetch" else "",
                    mode,
                    ", ".join(found["answers"]),
                    f"{found['worst_s']:.2f} s",
                    f"{found['own_s']:.2f}",
                    f"{found['children_s']:.2f}",
                ]
            )
    print(f"\nCPU seconds burned in the {window:.0f} s after each call answered:")
    c.table(
        ["page", "path", "answer", "call (worst)", "CPU after: process", "CPU after: children"],
        rows,
    )
    print(
        "\n(fetch: rypsok's web_fetch path; thread: build_response in an abandoned thread under"
        "\nthe same deadline. Children: rypsok's extraction processes; their CPU after a call"
        "\nis a replacement child starting, when the call's child was killed or retired.)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
