"""What reading a page in a child process costs against reading it in a thread.

    python bench/extraction_worker.py [--quick] [--calls N]

For pages of about 50 KB, 1 MB and 5 MB: ``build_response`` run through rypsok's
WorkerPool (a child process, killed at the call's deadline) and through
``anyio.to_thread.run_sync`` (how rypsok ran it before), calls interleaved, medians and their
ratio. Also: how long a new child takes to answer its first call (start-up and imports),
and the resident memory of an idle child and of one that has read a 5 MB page (which the
pool does not keep: a child sent more than 1 MiB is retired after its call).
"""

from __future__ import annotations

import _common as c
import anyio
import psutil
import trio

from rypsok.webfetch.page import RawPage, build_response
from rypsok.webfetch.worker import WorkerPool

PARAGRAPH = (
    "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
    "incididunt ut labore et dolore magna aliqua. <a href='/x'>A link</a> and <b>bold</b>.</p>\n"
)
SIZES = {"50 KB": 50_000, "1 MB": 1_000_000, "5 MB": 5_000_000}


def page(size: int) -> RawPage:
    body = (
        "<html><body><article>" + PARAGRAPH * (size // len(PARAGRAPH)) + "</article></body></html>"
    )
    return RawPage("https://example.org/page", "text/html", "utf-8", body.encode())


async def measure(calls: int) -> tuple[list[list[str]], list[list[str]]]:
    pool = WorkerPool(preload=("rypsok.webfetch.page",), retire_bytes=1 << 30)
    small = page(1000)
    started = c.clock()
    await pool.run(build_response, small, 0, 3000)
    cold = c.clock() - started
    idle_rss = psutil.Process(pool._idle[0].process.pid).memory_info().rss
    rows = []
    for name, size in SIZES.items():
        raw = page(size)
        in_child, in_thread = [], []
        for _ in range(calls):
            started = c.clock()
            await pool.run(build_response, raw, 0, 3000)
            in_child.append(c.clock() - started)
            started = c.clock()
            await anyio.to_thread.run_sync(build_response, raw, 0, 3000)
            in_thread.append(c.clock() - started)
        child_ms, thread_ms = c.median(in_child) * 1000, c.median(in_thread) * 1000
        rows.append(
            [name, f"{child_ms:.1f}", f"{thread_ms:.1f}", f"{child_ms - thread_ms:+.1f}",
             f"{child_ms / thread_ms:.3f}"]
        )  # fmt: skip
    big_rss = psutil.Process(pool._idle[0].process.pid).memory_info().rss
    pool.close()
    startup = [
        ["first call of a new child (start-up, imports, a 1 KB page)", f"{cold * 1000:.0f} ms"],
        ["resident memory of an idle child", f"{c.mib(idle_rss)} MiB"],
        ["resident memory of a child that read the 5 MB page", f"{c.mib(big_rss)} MiB"],
    ]
    return rows, startup


def main() -> int:
    args = c.arguments(__doc__.split("\n\n")[0], calls=(int, 5, "calls per size and path"))
    calls = 2 if args.quick else args.calls
    c.header("extraction in a child process against a thread", "python bench/extraction_worker.py")
    rows, startup = trio.run(measure, calls)
    c.table(["page", "child ms", "thread ms", "difference", "ratio child / thread"], rows)
    print()
    c.table(["child process", "measured"], startup)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
