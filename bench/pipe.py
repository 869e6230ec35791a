"""The stdio pipe under hostile input: lines tried and left unanswered, and peak RSS while
the client reads nothing; rypsok's reader against the SDK's stdio_server (the reader
rypsok used before), both serving the same rypsok Server, in the same run.

    python bench/pipe.py [--quick] [--per-class N] [--pending N] [--pings N] [--flood-mib N]
        [--before DIR]

Part 1 sends N lines of each class (hostile ones, random bytes, ordinary requests),
shuffled, to one fresh server per reader (the classes answered with id null each to a
server of their own, so their answers can be counted), closes stdin and reads stdout to
its end. A line is
owed one answer when JSON-RPC asks for one: a request with a readable id (answered with
that id), a line that is not JSON or not a request (answered with id null; of a run of such
lines, a burst, only the first 10 are owed their answer, the rest at most). Part 2 writes
``--pending`` tools/call requests without reading stdout and samples the server's RSS.
Part 3 times pipelined pings through each reader (3 runs each, interleaved). Part 4 is a
flood: ``--flood-mib`` MiB of random bytes (about 4,000 unreadable lines a MiB), then a
ping, then stdin closed; it times reading the flood, the ping's answer after it and the exit
after stdin closes, and counts the log the server wrote and its replies to the garbage
(``--before DIR``: also a checkout of rypsok from before, as a third reader).

Goal: no line unanswered, no extra answer; RSS flat while replies wait; the flood (20 MiB)
read within 15 s, the ping after it answered within 5 s, the log grown by at most 1 MB, the
exit within 3 s of stdin closing.
"""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import _common as c

from rypsok.serve_stdio.pipe import BURST_ANSWERS

INITIALIZE = c.initialize_request("bench")
INITIALIZED = c.INITIALIZED

Owed = tuple[str, Any] | None  # ("id", the id) | ("null", None) | None: no answer owed


def _call(request_id: int, name: str, arguments: Any) -> str:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
    )


def _nest(rng: random.Random) -> str:
    depth = rng.choice([199, 250, 1000, 5000, 100_000])
    return "[" * depth + "]" * depth


def _random_bytes(rng: random.Random, n: int) -> tuple[bytes, Owed]:
    data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))).replace(b"\n", b"")
    blank = not data.decode("utf-8", "replace").strip(" \t\r")
    return data, None if blank else ("null", None)


def _lines(kind: str, rng: random.Random, n: int) -> tuple[bytes, Owed]:
    """One line of class ``kind`` with id ``n`` where it has one, and the answer it is owed."""
    ask = ("id", n)
    text: str
    if kind == "surrogate in query":
        text = _call(n, "web_search", {"query": "caf\u00e9 " + chr(rng.randrange(0xD800, 0xE000))})
    elif kind == "surrogate in url":
        text = _call(n, "web_fetch", {"url": "https://example.org/\udfff"})
    elif kind == "surrogate in a key":
        text = _call(n, "web_search", {"qu\ud800ery": "x"})
    elif kind == "surrogate in method":
        text = json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/\ud800call"})
    elif kind == "nested 199+ deep":
        text = _call(n, "web_search", {"query": "x"}).replace('"x"', _nest(rng))
    elif kind == "integer of 4301+ digits":
        digits = "9" * rng.randrange(4301, 20_000)
        text = _call(n, "web_search", {"query": "x", "max_results": 7}).replace(
            " 7}", f" {digits}}}"
        )
    elif kind == "invalid JSON":
        whole = _call(n, "engine_status", {})
        text = whole[: rng.randrange(1, len(whole) - 1)]
        return text.encode(), ("null", None)
    elif kind == "batch":
        text = json.dumps([{"jsonrpc": "2.0", "id": n, "method": "ping"}])
        return text.encode(), ("null", None)
    elif kind == "params array or string":
        params = rng.choice([[1], "x"])
        text = json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params})
    elif kind == "non-string method":
        text = json.dumps({"jsonrpc": "2.0", "id": n, "method": rng.choice([5, None, ["x"]])})
    elif kind == "odd id":
        odd = rng.choice([None, 1.5, {"a": 1}, True])
        text = json.dumps({"jsonrpc": "2.0", "id": odd, "method": "ping"})
        return text.encode(), ("null", None)
    elif kind == "lone CR inside":
        text = _call(n, "engine_status", {}).replace(', "method"', ',\r"method"')
    elif kind == "random bytes":
        return _random_bytes(rng, n)
    elif kind == "ordinary":
        text = rng.choice(
            [
                json.dumps({"jsonrpc": "2.0", "id": n, "method": "ping"}),
                json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/list"}),
                _call(n, "engine_status", {}),
                _call(n, "web_search", {"query": ""}),
            ]
        )
    else:
        raise ValueError(kind)
    return text.encode("utf-8", "surrogatepass"), ask


CLASSES = [
    "surrogate in query",
    "surrogate in url",
    "surrogate in a key",
    "surrogate in method",
    "nested 199+ deep",
    "integer of 4301+ digits",
    "invalid JSON",
    "batch",
    "params array or string",
    "non-string method",
    "odd id",
    "lone CR inside",
    "random bytes",
    "ordinary",
]


def start(
    reader: str, config_path: Path, stderr: Any = subprocess.DEVNULL, root: Path = c.ROOT
) -> subprocess.Popen:
    if reader == "sdk":
        argv = [__file__, "--sdk-reader-server", str(config_path)]
    else:
        argv = ["-m", "rypsok", "serve", "--config", str(config_path)]
    return subprocess.Popen(
        [sys.executable, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )


def initialize(process: subprocess.Popen) -> None:
    process.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    process.stdin.write(json.dumps(INITIALIZED).encode() + b"\n")
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["id"] == "init"


def read_to_end(process: subprocess.Popen, timeout: float) -> list[Any]:
    """Every reply until stdout ends (or ``timeout``: the server is then killed)."""
    fd = process.stdout.fileno()
    data = bytearray()
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            data += chunk
    else:
        process.kill()
    process.wait()
    replies = []
    for raw in bytes(data).split(b"\n"):
        if raw:
            try:
                replies.append(json.loads(raw))
            except ValueError:
                replies.append({"id": "unparseable"})
    return replies


def serve_lines(reader: str, config_path: Path, lines: list[tuple[bytes, Owed]]) -> list[Any]:
    """Send ``lines`` to a fresh server, close stdin, and return every reply."""
    process = start(reader, config_path)
    initialize(process)

    def write() -> None:
        try:
            for data, _ in lines:
                process.stdin.write(data + b"\n")
            process.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    writer = threading.Thread(target=write)
    writer.start()
    replies = read_to_end(process, timeout=120)
    writer.join()
    return replies


def null_runs(lines: list[tuple[bytes, Owed]]) -> list[int]:
    """The lengths of the runs of lines owed an answer with id null (a line owed an answer
    under an id ends a run; one owed nothing does not)."""
    runs = [0]
    for _, owed in lines:
        if owed and owed[0] == "id":
            runs.append(0)
        elif owed:
            runs[-1] += 1
    return [run for run in runs if run]


def count(lines: list[tuple[bytes, Owed]], replies: list[Any]) -> dict[str, int]:
    """Answers owed, owed but missing, and given but not owed; null-id answers by number only.

    A run of lines owed an answer with id null is a burst (rypsok/serve_stdio/pipe.py): its
    first BURST_ANSWERS lines are owed their answer, the rest may be answered (a burst
    longer than a second starts anew) but need not be."""
    owed_ids = Counter(json.dumps(owed[1]) for _, owed in lines if owed and owed[0] == "id")
    runs = null_runs(lines)
    least_nulls = sum(min(run, BURST_ANSWERS) for run in runs)
    got = Counter(json.dumps(reply.get("id")) for reply in replies)
    got_nulls = got.pop("null", 0)
    missing = sum(max(0, n - got[k]) for k, n in owed_ids.items()) + max(0, least_nulls - got_nulls)
    extra = sum(max(0, n - owed_ids[k]) for k, n in got.items()) + max(0, got_nulls - sum(runs))
    return {
        "lines": len(lines),
        "owed": sum(owed_ids.values()) + least_nulls,
        "unanswered": missing,
        "extra": extra,
    }


NULL_CLASSES = {"invalid JSON", "batch", "odd id", "random bytes"}
"""Answered with id null: each is sent to a server of its own, so its answers can be counted."""


FIGURES = ("lines", "owed", "unanswered", "extra")


def unanswered_lines(config_path: Path, per_class: int) -> dict[str, dict[str, int]]:
    rng = random.Random(9)
    lines = {
        kind: [_lines(kind, rng, 1000 * k + i) for i in range(per_class)]
        for k, kind in enumerate(CLASSES)
    }
    together = [kind for kind in CLASSES if kind not in NULL_CLASSES]
    owner = {json.dumps(owed[1]): kind for kind in together for _, owed in lines[kind] if owed}
    mixed = [line for kind in together for line in lines[kind]]
    rng.shuffle(mixed)
    figures: dict[str, dict[str, dict[str, int]]] = {}
    for reader in ("sdk", "rypsok"):
        replies: dict[str, list[Any]] = {kind: [] for kind in together}
        stray = 0
        for reply in serve_lines(reader, config_path, mixed):
            kind = owner.get(json.dumps(reply.get("id")))
            if kind is None:
                stray += 1
            else:
                replies[kind].append(reply)
        rows = {kind: count(lines[kind], replies[kind]) for kind in together}
        for kind in sorted(NULL_CLASSES, key=CLASSES.index):
            rows[kind] = count(lines[kind], serve_lines(reader, config_path, lines[kind]))
        rows["(answers to no line)"] = {"lines": 0, "owed": 0, "unanswered": 0, "extra": stray}
        rows["all"] = {name: sum(row[name] for row in rows.values()) for name in FIGURES}
        figures[reader] = rows
    sdk, ours = figures["sdk"], figures["rypsok"]
    c.table(
        [
            "class",
            "lines",
            "owed answers",
            "unanswered (SDK)",
            "extra (SDK)",
            "unanswered (rypsok)",
            "extra (rypsok)",
        ],
        [
            [
                kind,
                row["lines"],
                row["owed"],
                row["unanswered"],
                row["extra"],
                ours[kind]["unanswered"],
                ours[kind]["extra"],
            ]
            for kind, row in sdk.items()
        ],
    )
    return {reader: rows["all"] for reader, rows in figures.items()}


WARM_UP_WAIT_S = 3.0
"""Longer than rypsok's warm-up after tools/list (0.5 s, then about 0.2 s of loading)."""


def rss_while_pending(config_path: Path, reader: str, pending: int) -> dict[str, float]:
    """Write ``pending`` tools/call without reading stdout; sample the server's RSS."""
    import psutil

    process = start(reader, config_path)
    initialize(process)
    # tools/list, then time for the warm-up: rypsok loads the tools' modules after the
    # listing (start-up pays only for tools/list), and that is not memory held for
    # replies nobody reads. Then one call answered, for what a call itself loads.
    process.stdin.write(b'{"jsonrpc":"2.0","id":-2,"method":"tools/list"}\n')
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["id"] == -2
    time.sleep(WARM_UP_WAIT_S)
    process.stdin.write(_call(-1, "engine_status", {}).encode() + b"\n")
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["id"] == -1
    server = psutil.Process(process.pid)
    at_start = server.memory_info().rss
    peak = at_start
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            try:
                peak = max(peak, server.memory_info().rss)
            except psutil.Error:
                return
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    requests = b"".join(_call(n, "engine_status", {}).encode() + b"\n" for n in range(pending))
    fd = process.stdin.fileno()
    os.set_blocking(fd, False)
    written = 0
    while written < len(requests):
        try:
            written += os.write(fd, requests[written : written + 65536])
        except BlockingIOError:
            _, ready, _ = select.select([], [fd], [], 3.0)
            if not ready:
                break  # the server stopped reading
    # Let the server work through what it took, until its RSS stops growing.
    last, still_since = peak, time.monotonic()
    while time.monotonic() - still_since < 3.0:
        time.sleep(0.2)
        if peak > last:
            last, still_since = peak, time.monotonic()
    stop.set()
    sampler.join()
    process.kill()
    process.wait()
    return {
        "start": at_start,
        "peak": peak,
        "accepted": requests[:written].count(b"\n"),
    }


def pings_per_second(config_path: Path, reader: str, pings: int) -> float:
    """``pings`` pings written by one thread while this one reads the answers."""
    process = start(reader, config_path)
    initialize(process)
    requests = b"".join(
        json.dumps({"jsonrpc": "2.0", "id": n, "method": "ping"}).encode() + b"\n"
        for n in range(pings)
    )
    started = time.perf_counter()
    writer = threading.Thread(target=lambda: (process.stdin.write(requests), process.stdin.flush()))
    writer.start()
    for _ in range(pings):
        assert process.stdout.readline()
    took = time.perf_counter() - started
    writer.join()
    process.kill()
    process.wait()
    return pings / took


def flood(config_path: Path, reader: str, mib: int, root: Path = c.ROOT) -> dict[str, float]:
    """``mib`` MiB of random bytes, a ping, stdin closed: seconds to read the flood (until the
    last byte is taken from the pipe), to the ping's answer after that, and to the exit after
    stdin closed; bytes of log; replies with id null."""
    garbage = random.Random(25).randbytes(mib << 20)
    with tempfile.TemporaryFile() as log:
        process = start(reader, config_path, stderr=log, root=root)
        initialize(process)
        logged_before = os.fstat(log.fileno()).st_size
        marks: dict[str, float] = {}

        def write() -> None:
            started = time.monotonic()
            view = memoryview(garbage)
            for at in range(0, len(view), 1 << 16):
                process.stdin.write(view[at : at + (1 << 16)])
            process.stdin.flush()
            marks["read"] = time.monotonic() - started
            process.stdin.write(b'\n{"jsonrpc":"2.0","id":"after","method":"ping"}\n')
            process.stdin.flush()
            marks["sent"] = time.monotonic()

        writer = threading.Thread(target=write)
        writer.start()
        nulls, fd, pending = 0, process.stdout.fileno(), b""
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            replies = [json.loads(line) for line in lines if line]
            nulls += sum(reply.get("id") is None for reply in replies)
            if any(reply.get("id") == "after" for reply in replies):
                break
        writer.join()
        answered = time.monotonic() - marks["sent"]
        closed = time.monotonic()
        process.stdin.close()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        exited = time.monotonic() - closed
        logged = os.fstat(log.fileno()).st_size - logged_before
    return {
        "read": marks["read"],
        "answered": answered,
        "exit": exited,
        "log": logged,
        "nulls": nulls,
    }


async def _sdk_reader_server(config_path: str) -> None:
    """rypsok's Server behind the SDK's stdio_server: the pipe as it was before rypsok.serve_stdio.pipe."""
    from mcp.server.stdio import stdio_server

    from rypsok.config import load_config
    from rypsok.observability.log import setup_logging
    from rypsok.server import build_server

    config = load_config(config_path)
    setup_logging(config.log)
    server = build_server(config)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--sdk-reader-server":
        import trio

        trio.run(_sdk_reader_server, sys.argv[2])
        return 0
    args = c.arguments(
        __doc__.splitlines()[0],
        per_class=(int, None, "lines of each class (default 200, 20 with --quick)"),
        pending=(int, 20_000, "requests written while the client reads nothing"),
        pings=(int, None, "pipelined pings per run (default 5000, 1000 with --quick)"),
        flood_mib=(int, None, "MiB of random bytes in part 4 (default 20, 2 with --quick)"),
        before=(Path, None, "a rypsok checkout from before, flooded as a third reader"),
    )
    args.flood_mib = args.flood_mib or (2 if args.quick else 20)
    per_class = args.per_class or (20 if args.quick else 200)
    args.pings = args.pings or (1000 if args.quick else 5000)
    c.header(
        "pipe: hostile lines answered, and RSS while replies wait (rypsok reader vs SDK reader)",
        f"python bench/pipe.py{' --quick' if args.quick else ''}",
    )
    with tempfile.TemporaryDirectory() as folder:
        config_path = c.write_config({}, Path(folder) / "rypsok.toml")
        print(f"\n## Part 1: {per_class} lines per class\n")
        totals = unanswered_lines(config_path, per_class)
        print(f"\n## Part 2: {args.pending} tools/call engine_status, stdout never read\n")
        rss: dict[str, dict[str, float]] = {}
        for reader in ("sdk", "rypsok"):
            rss[reader] = rss_while_pending(config_path, reader, args.pending)
        c.table(
            ["reader", "RSS before the calls MiB", "peak RSS MiB", "growth MiB", "requests read"],
            [
                [
                    reader,
                    c.mib(figures["start"]),
                    c.mib(figures["peak"]),
                    c.mib(figures["peak"] - figures["start"]),
                    f"{figures['accepted']:.0f} of {args.pending}",
                ]
                for reader, figures in rss.items()
            ],
        )
        growth: Callable[[str], float] = lambda r: rss[r]["peak"] - rss[r]["start"]  # noqa: E731
        print(f"ratio of growth rypsok / SDK: {growth('rypsok') / max(growth('sdk'), 1):.3f}")
        print(f"\n## Part 3: {args.pings} pings pipelined, answers read as they come\n")
        rates = {reader: [] for reader in ("sdk", "rypsok")}
        for round_ in range(3):
            for reader in ("sdk", "rypsok") if round_ % 2 == 0 else ("rypsok", "sdk"):
                rates[reader].append(pings_per_second(config_path, reader, args.pings))
        c.table(
            ["reader", "answers per second (median of 3)"],
            [[reader, f"{c.median(values):.0f}"] for reader, values in rates.items()],
        )
        ratio = c.median(rates["rypsok"]) / c.median(rates["sdk"])
        print(f"ratio rypsok / SDK: {ratio:.2f}")
        print(f"\n## Part 4: {args.flood_mib} MiB of random bytes, then a ping\n")
        readers = ["rypsok", "sdk", *(["before"] if args.before else [])]
        flooded = {
            reader: flood(config_path, reader, args.flood_mib, args.before or c.ROOT)
            if reader == "before"
            else flood(config_path, reader, args.flood_mib)
            for reader in readers
        }
        c.table(
            [
                "reader",
                "flood read s",
                "ping after s",
                "exit after close s",
                "log MB",
                "id-null replies",
            ],
            [
                [
                    reader,
                    f"{f['read']:.2f}",
                    f"{f['answered']:.2f}",
                    f"{f['exit']:.2f}",
                    f"{f['log'] / 1e6:.3f}",
                    f"{f['nulls']:.0f}",
                ]
                for reader, f in flooded.items()
            ],
        )
        for reader in readers[1:]:
            ratio = flooded["rypsok"]["read"] / flooded[reader]["read"]
            print(f"ratio of flood read time rypsok / {reader}: {ratio:.2f}")
    print()
    scale = 20 / args.flood_mib
    met = c.verdict("flood read (rypsok, per 20 MiB)", flooded["rypsok"]["read"] * scale, 15, "s")
    met &= c.verdict("ping after the flood (rypsok)", flooded["rypsok"]["answered"], 5, "s")
    met &= c.verdict("log per 20 MiB (rypsok)", flooded["rypsok"]["log"] * scale / 1e6, 1, "MB")
    met &= c.verdict("exit after stdin closed (rypsok)", flooded["rypsok"]["exit"], 3, "s")
    met &= c.verdict("unanswered lines (rypsok)", totals["rypsok"]["unanswered"], 1, "lines")
    met &= c.verdict("extra answers (rypsok)", totals["rypsok"]["extra"], 1, "answers")
    met &= c.verdict(
        "RSS growth while replies wait (rypsok)", growth("rypsok") / (1 << 20), 20, "MiB"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
