"""How late web_search calls end with many searches in flight. Three engines answer after a
delay drawn from 0 to 3 s (in steps of 250 ms), the deadline is 1000 ms, and
max_concurrent is generous (1024), so only the machine limits what is let in. At each
level (8, 64, 128 and 256 searches in flight) that many callers search back to back
through the library for a while; a caller refused busy waits 500 ms and tries again.

    python bench/concurrency.py [--quick] [--seconds S] [--levels 8,64,128,256]
                                [--deadline-ms MS] [--baseline REV]

Printed per level: calls let in, calls refused busy, p99 and max of (call time - deadline)
over the calls let in, and how many ended past deadline + 300 ms (the spec's bound), for
this tree and for the baseline revision (default c4418e2, the tree before the per-engine
pools and the admission: one pool of 64 connections for all engines, every call let in up
to max_concurrent). Both run in the same run, level by level, against the same engine
server; each measurement is a process of its own (this script with --measure), the
baseline's on `git archive REV` in a temporary directory.

Exits 1 if a call of this tree ended past deadline + 300 ms.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

import _common as c
from _servers import PlayServer, answer_play

ENGINES = ("wikipedia", "mojeek", "marginalia")
DELAYS_S = [step * 0.25 for step in range(13)]
MAX_CONCURRENT = 1024
BUSY_WAIT_S = 0.5
SPEC_SLACK_S = 0.3
DEFAULT_BASELINE = "c4418e2"


class _Endpoints:
    """What ``_common.config_data`` needs of a server: its engine endpoints."""

    def __init__(self, port: int):
        self.port = port

    def endpoint(self, engine: str) -> str:
        return f"http://127.0.0.1:{self.port}/e/{engine}"


# One measurement, in its own process.


async def _callers(config, level: int, seconds: float) -> dict:
    import trio

    from rypsok import Client, ToolError

    deadline_s = config.search.deadline_ms / 1000
    overruns: list[float] = []
    outcomes: dict[str, int] = {}
    busy = 0
    async with Client(config) as client:
        for i in range(3):  # first calls import and compile what searching needs
            with contextlib.suppress(ToolError):
                await client.search(f"warm up {i}")
        end = trio.current_time() + seconds

        async def caller(number: int) -> None:
            nonlocal busy
            call = 0
            while trio.current_time() < end:
                call += 1
                start = trio.current_time()
                try:
                    outcome = (await client.search(f"query {number} {call}")).outcome
                except ToolError as exc:
                    outcome = exc.detail.get("reason", exc.kind)
                    if outcome == "busy":
                        busy += 1
                        await trio.sleep(BUSY_WAIT_S)
                        continue
                overruns.append(trio.current_time() - start - deadline_s)
                outcomes[outcome] = outcomes.get(outcome, 0) + 1

        async with trio.open_nursery() as nursery:
            for number in range(level):
                nursery.start_soon(caller, number)
    return {"overruns": overruns, "outcomes": outcomes, "busy": busy}


def measure(port: int, level: int, seconds: float, deadline_ms: int) -> None:
    import trio

    import rypsok

    data = c.config_data(
        _Endpoints(port),
        ENGINES,
        search={"deadline_ms": deadline_ms, "max_concurrent": MAX_CONCURRENT},
    )
    result = trio.run(_callers, c.library_config(data), level, seconds)
    result["source"] = str(Path(rypsok.__file__).resolve().parent.parent)
    print(json.dumps(result))


# The run: both trees, level by level.


def baseline_tree(revision: str, folder: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(c.ROOT), "archive", revision, "rypsok"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def run_measurement(tree: Path, port: int, level: int, seconds: float, deadline_ms: int) -> dict:
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--measure",
        f"{port},{level},{seconds},{deadline_ms}",
    ]
    env = {**os.environ, **c.BENCH_ENV, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["source"]) != tree.resolve():
        raise RuntimeError(f"measured {result['source']}, not {tree}")
    return result


def row(name: str, level: int, result: dict) -> list[str]:
    overruns = result["overruns"]
    late = sum(1 for overrun in overruns if overrun > SPEC_SLACK_S)
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(result["outcomes"].items()))
    if not overruns:
        return [str(level), name, "0", str(result["busy"]), "-", "-", "0", outcomes]
    return [
        str(level),
        name,
        str(len(overruns)),
        str(result["busy"]),
        c.ms(c.percentile(overruns, 99)),
        c.ms(max(overruns)),
        str(late),
        outcomes,
    ]


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--measure":
        port, level, seconds, deadline_ms = sys.argv[2].split(",")
        measure(int(port), int(level), float(seconds), int(deadline_ms))
        return 0
    args = c.arguments(
        __doc__.splitlines()[0],
        seconds=(float, None, "seconds of calls at each level (default 20, 6 with --quick)"),
        levels=(str, "8,64,128,256", "searches in flight, comma-separated"),
        deadline_ms=(int, 1000, "[search] deadline_ms"),
        baseline=(str, DEFAULT_BASELINE, "git revision to compare with ('' for none)"),
    )
    seconds = args.seconds or (6.0 if args.quick else 20.0)
    levels = [int(level) for level in args.levels.split(",")]
    command = "python bench/concurrency.py" + (" --quick" if args.quick else "")
    c.header("concurrency: call time minus deadline with many searches in flight", command)
    print(
        f"engines {', '.join(ENGINES)} answer after 0-3 s; deadline {args.deadline_ms} ms; "
        f"max_concurrent {MAX_CONCURRENT}; {seconds:g} s of calls per level; "
        f"a caller refused busy waits {BUSY_WAIT_S * 1000:.0f} ms"
    )
    plays = {
        engine: [(1.0, answer_play(engine, delay)) for delay in DELAYS_S] for engine in ENGINES
    }
    rows = []
    worst = 0.0
    with PlayServer(plays) as server, tempfile.TemporaryDirectory() as folder:
        trees = [("this tree", c.ROOT)]
        if args.baseline:
            trees.insert(
                0, (f"baseline {args.baseline}", baseline_tree(args.baseline, Path(folder)))
            )
        for level in levels:
            for name, tree in trees:
                result = run_measurement(tree, server.port, level, seconds, args.deadline_ms)
                rows.append(row(name, level, result))
                if tree == c.ROOT and result["overruns"]:
                    worst = max(worst, max(result["overruns"]))
    c.table(
        [
            "in flight",
            "code",
            "calls let in",
            "busy",
            "p99 ms",
            "max ms",
            "> +300 ms",
            "outcomes of the calls let in",
        ],
        rows,
    )
    print("(p99 and max: call time - deadline, over the calls let in)")
    within = worst <= SPEC_SLACK_S
    print(f"spec  every call of this tree within deadline + 300 ms: {'yes' if within else 'NO'}")
    return 0 if within else 1


if __name__ == "__main__":
    raise SystemExit(main())
