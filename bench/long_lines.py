"""Lines over the stdio bound: what reading their two ends costs, in time and memory.

    python bench/long_lines.py [--mib N]

Each shape of line (a long string with the id first, the TypeScript SDK's order with the
id last, a line of nested brackets, random bytes) is fed to rypsok's splitter in 64 KiB
chunks, as serve_stdio/pipe.py reads it, and judged (rypsok.serve_stdio.wire.judge). Baseline, same run: the
bare loop that finds the line ends in the same chunks (what any reader pays). Prints
MB/s, the ratio to the baseline, and the peak of memory allocated (tracemalloc): it
should stay near one chunk and the two kept ends, whatever the line's length.
"""

from __future__ import annotations

import argparse
import json
import os
import time
import tracemalloc

from rypsok.serve_stdio import wire

CHUNK = 1 << 16


def shapes(size: int) -> dict[str, bytes]:
    text = "x" * size
    query = {"query": text, "category": "code"}
    first = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "web_search"}}
    first["params"]["arguments"] = query
    last = {"method": "tools/call", "params": {"name": "web_search", "arguments": query}}
    last.update(jsonrpc="2.0", id=2)
    return {
        "id first, one long string": json.dumps(first).encode(),
        "id last (TypeScript order)": json.dumps(last).encode(),
        "nested brackets": b'{"jsonrpc":"2.0","id":3,"params":' + b"[" * size + b"]" * size + b"}",
        "random bytes": os.urandom(size).replace(b"\n", b" "),
    }


def chunks(line: bytes) -> list[bytes]:
    data = line + b"\n"
    return [data[at : at + CHUNK] for at in range(0, len(data), CHUNK)]


def bare(parts: list[bytes]) -> int:
    ends = 0
    for part in parts:
        ends += part.count(b"\n")
    return ends


def rypsok_reader(parts: list[bytes]) -> wire.Verdict:
    splitter = wire.LineSplitter()
    verdicts = [wire.judge(line) for part in parts for line in splitter.feed(part)]
    return verdicts[-1]


def timed(run, parts: list[bytes], repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run(parts)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="lines of 1 MiB")
    args = parser.parse_args()
    size = (1 if args.quick else args.mib) << 20
    print(
        f"{'line':<30} {'MB':>6} {'baseline MB/s':>14} {'rypsok MB/s':>12} {'ratio':>6}"
        f" {'peak KiB':>9}  answer"
    )
    for name, line in shapes(size).items():
        parts = chunks(line)
        base = timed(bare, parts)
        ours = timed(rypsok_reader, parts)
        tracemalloc.start()
        verdict = rypsok_reader(parts)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        answer = getattr(verdict, "request_id", None)
        megabytes = len(line) / 1e6
        print(
            f"{name:<30} {megabytes:6.1f} {megabytes / base:14.0f} {megabytes / ours:12.0f}"
            f" {ours / base:6.1f} {peak / 1024:9.0f}  id {answer!r}"
        )


if __name__ == "__main__":
    main()
