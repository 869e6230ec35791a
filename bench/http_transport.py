"""web_search over Streamable HTTP against stdio, in the same run: the latency HTTP adds to
one call (interleaved call by call, paired) and searches per second with many in flight.

    python bench/http_transport.py [--quick] [--rounds N] [--searches N] [--concurrency C] [--delay-ms MS]

Both servers are ``rypsok serve`` with one configuration (six loopback fake engines that
answer 20 results after a delay, limits out of the way); the HTTP one checks a bearer
token on every request, as a team server does. One SDK ClientSession per transport.
(The script is not bench/http.py: that name would shadow the standard library's http.)

16 at once is more than rypsok admits by design: its admission window starts at 8 and
follows how late calls end (``rypsok.state.limits.OnTimeLimit``), refusing ``busy`` the calls
it would not end on time. In the throughput rounds a ``busy`` answer is therefore a
reported outcome, not a failure: its caller waits 100 ms (``_common.BUSY_WAIT_S``) and
asks again, searches/s counts answered searches, and the refusals are a column of their
own. (The sequential latency calls are one at a time, which is always admitted.)
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import _common as c
import trio
from _servers import GENERAL_ENGINES, PlayServer, answer_play, single

TOKEN = "bench-token-0123456789abcdef"


def searcher(session, busy: c.BusyCount):
    async def call(i: int) -> float:
        arguments = {"query": f"http bench query {i}", "max_results": 20}
        start = c.clock()
        result = await c.admitted(lambda: session.call_tool("web_search", arguments), busy)
        took = c.clock() - start
        assert not result.is_error, result.structured_content
        assert result.structured_content["outcome"] == "ok", result.structured_content
        return took

    return call


async def measure(config_path: Path, rounds: int, warmup: int, searches: int, concurrency: int):
    env = {"RYPSOK_TOKENS": f"bench:{TOKEN}"}
    latency: dict[str, list[float]] = {
        "stdio": [],
        "http": [],
        "stdio status": [],
        "http status": [],
    }
    per_s: dict[str, list[float]] = {"stdio": [], "http": []}
    cpu: dict[str, list[float]] = {"stdio": [], "http": []}
    client_cpu: dict[str, list[float]] = {"stdio": [], "http": []}
    refused: dict[str, list[int]] = {"stdio": [], "http": []}
    busy = {"stdio": c.BusyCount(), "http": c.BusyCount()}
    async with contextlib.AsyncExitStack() as stack:
        stdio = await stack.enter_async_context(c.mcp_session(c.rypsok_parameters(config_path)))
        stdio_pid = c.child_process("rypsok", "serve", str(config_path)).pid  # before the other
        base, http_pid = await stack.enter_async_context(c.rypsok_http(config_path, env))
        http = await stack.enter_async_context(c.http_mcp_session(f"{base}/mcp", TOKEN))
        calls = {"stdio": searcher(stdio, busy["stdio"]), "http": searcher(http, busy["http"])}
        pids = {"stdio": stdio_pid, "http": http_pid}
        sessions = {"stdio": stdio, "http": http}
        for i in range(warmup):
            await calls["stdio"](i)
            await calls["http"](i)
        for i in range(rounds):
            order = ("stdio", "http") if i % 2 else ("http", "stdio")
            for way in order:
                latency[way].append(await calls[way](i))
            for way in order:
                start = c.clock()
                await sessions[way].call_tool("engine_status", {})
                latency[f"{way} status"].append(c.clock() - start)
        for _ in range(2):
            for way in ("stdio", "http"):
                await c.in_parallel(calls[way], concurrency * 2, concurrency)
                busy[way].refused = 0
                before, own, start = c.cpu_seconds(pids[way]), c.cpu_seconds(), c.clock()
                await c.in_parallel(calls[way], searches, concurrency)
                per_s[way].append(searches / (c.clock() - start))
                refused[way].append(busy[way].refused)
                cpu[way].append((c.cpu_seconds(pids[way]) - before) / searches)
                client_cpu[way].append((c.cpu_seconds() - own) / searches)
    return latency, per_s, cpu, client_cpu, refused


def main() -> int:
    args = c.arguments(
        __doc__.splitlines()[0],
        rounds=(int, None, "sequential calls of each transport (default 300, 40 with --quick)"),
        searches=(int, None, "searches per throughput round (default 600, 100 with --quick)"),
        concurrency=(int, 16, "searches in flight in the throughput rounds"),
        delay_ms=(int, 50, "each engine's delay before answering"),
    )
    rounds = args.rounds or (40 if args.quick else 300)
    searches = args.searches or (100 if args.quick else 600)
    warmup = 5 if args.quick else 20
    c.header(
        "http: web_search over Streamable HTTP (with a bearer token) against stdio",
        f"python bench/http_transport.py{' --quick' if args.quick else ''}",
    )
    plays = {e: single(answer_play(e, delay_s=args.delay_ms / 1000)) for e in GENERAL_ENGINES}
    with PlayServer(plays) as server, tempfile.TemporaryDirectory() as folder:
        data = c.config_data(
            server,
            GENERAL_ENGINES,
            # a long deadline: on a loaded machine a timed-out engine would make calls differ
            search={"max_concurrent": 4 * args.concurrency, "deadline_ms": 10_000},
        )
        data["server"] = {"tokens_env": "RYPSOK_TOKENS"}  # (config_data's first parameter)
        config_path = c.write_config(data, Path(folder) / "rypsok.toml")
        latency, per_s, cpu, client_cpu, refused = trio.run(
            measure, config_path, rounds, warmup, searches, args.concurrency
        )
    added = [h - s for h, s in zip(latency["http"], latency["stdio"], strict=True)]
    status_added = [
        h - s for h, s in zip(latency["http status"], latency["stdio status"], strict=True)
    ]
    print(f"engines: {', '.join(GENERAL_ENGINES)}; 20 results each after {args.delay_ms} ms")
    print(
        f"latency: {rounds} sequential calls of each, interleaved (after {warmup} warm-up); "
        "engine_status asks no engine: the transport alone"
    )
    c.table(
        ["ms", "median", "p90", "p99", "max"],
        [
            [name, *(c.ms(f(values)) for f in c.LATENCY_STATS)]
            for name, values in [
                ("stdio call", latency["stdio"]),
                ("http call", latency["http"]),
                ("added by http (paired)", added),
                ("engine_status, stdio", latency["stdio status"]),
                ("engine_status, http", latency["http status"]),
                ("engine_status added by http", status_added),
            ]
        ],
    )
    print(
        f"throughput: {searches} searches per round, {args.concurrency} in flight, 2 rounds; "
        f"a call refused busy is asked again {c.BUSY_WAIT_S * 1000:.0f} ms later"
    )
    c.table(
        [
            "transport",
            "answered/s",
            "server CPU ms/search",
            "client CPU ms/search",
            "refused busy per round",
        ],
        [
            [
                way,
                f"{c.median(per_s[way]):.1f}",
                c.ms(c.median(cpu[way])),
                c.ms(c.median(client_cpu[way])),
                " ".join(str(n) for n in refused[way]),
            ]
            for way in ("stdio", "http")
        ],
    )
    ratio = c.median(per_s["http"]) / c.median(per_s["stdio"])
    print(f"ratio http/stdio searches per second (medians): {ratio:.3f}")
    print(
        f"ratio http/stdio call latency (medians): {c.median(latency['http']) / c.median(latency['stdio']):.3f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
