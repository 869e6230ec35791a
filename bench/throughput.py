"""Searches per second with many searches in flight, through the library and through the
MCP server (rypsok serve on stdio, one mcp ClientSession, concurrent tools/call), and the
CPU seconds each search costs. Six engines answer 20 results each after a short delay;
the per-minute and concurrency limits are raised out of the way.

    python bench/throughput.py [--quick] [--searches N] [--concurrency C] [--delay-ms MS]

The engine server runs in its own process, so CPU figures are rypsok's (and, for the MCP
rows, the client's separately).

16 at once is more than rypsok admits by design: its admission window starts at 8 and
follows how late calls end (``rypsok.state.limits.OnTimeLimit``), refusing ``busy`` the calls
it would not end on time. A ``busy`` answer is therefore a reported outcome, not a
failure: its caller waits 100 ms (``_common.BUSY_WAIT_S``) and asks again, searches/s
counts answered searches only, CPU per search includes the refusals' share, and the
calls refused are a column of their own.
"""

from __future__ import annotations

import resource
import tempfile
from pathlib import Path

import _common as c
import trio
from _servers import GENERAL_ENGINES, PlayServer, answer_play, single


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def library_round(config, searches: int, concurrency: int) -> dict[str, float]:
    from rypsok import Client

    async with Client(config) as client:
        busy = c.BusyCount()

        async def call(i: int) -> None:
            query = f"throughput query {i}"
            response = await c.admitted(lambda: client.search(query, max_results=20), busy)
            assert response.outcome == "ok", response

        await c.in_parallel(call, concurrency * 2, concurrency)
        busy.refused = 0
        cpu, start = own_cpu(), c.clock()
        await c.in_parallel(call, searches, concurrency)
        wall, cpu = c.clock() - start, own_cpu() - cpu
    return {
        "per_s": searches / wall,
        "server_cpu": cpu / searches,
        "client_cpu": 0.0,
        "busy": busy.refused,
    }


async def mcp_round(config_path: Path, searches: int, concurrency: int) -> dict[str, float]:
    async with c.mcp_session(c.rypsok_parameters(config_path)) as session:
        server = c.child_process("rypsok", "serve")
        busy = c.BusyCount()

        async def call(i: int) -> None:
            arguments = {"query": f"throughput query {i}", "max_results": 20}
            result = await c.admitted(lambda: session.call_tool("web_search", arguments), busy)
            assert not result.is_error, result.structured_content
            assert result.structured_content["outcome"] == "ok"

        await c.in_parallel(call, concurrency * 2, concurrency)
        busy.refused = 0
        server_cpu, client_cpu, start = c.cpu_seconds(server.pid), own_cpu(), c.clock()
        await c.in_parallel(call, searches, concurrency)
        wall = c.clock() - start
        server_cpu = c.cpu_seconds(server.pid) - server_cpu
        client_cpu = own_cpu() - client_cpu
    return {
        "per_s": searches / wall,
        "server_cpu": server_cpu / searches,
        "client_cpu": client_cpu / searches,
        "busy": busy.refused,
    }


def main() -> int:
    args = c.arguments(
        __doc__.splitlines()[0],
        searches=(int, None, "searches per round (default 1000, 150 with --quick)"),
        concurrency=(int, 16, "searches in flight"),
        delay_ms=(int, 50, "each engine's delay before answering"),
        rounds=(int, None, "alternating rounds of each way in (default 3, 1 with --quick)"),
    )
    searches = args.searches or (150 if args.quick else 1000)
    rounds = args.rounds or (1 if args.quick else 3)
    c.header(
        "throughput: concurrent web_search through the library and the MCP server",
        f"python bench/throughput.py{' --quick' if args.quick else ''}",
    )
    plays = {e: single(answer_play(e, delay_s=args.delay_ms / 1000)) for e in GENERAL_ENGINES}
    results: dict[str, list[dict[str, float]]] = {"library": [], "mcp": []}
    with PlayServer(plays) as server, tempfile.TemporaryDirectory() as folder:
        data = c.config_data(
            server, GENERAL_ENGINES, search={"max_concurrent": 4 * args.concurrency}
        )
        config = c.library_config(data)
        config_path = c.write_config(data, Path(folder) / "rypsok.toml")
        for _ in range(rounds):
            results["library"].append(trio.run(library_round, config, searches, args.concurrency))
            results["mcp"].append(trio.run(mcp_round, config_path, searches, args.concurrency))
    print(
        f"{searches} searches per round, {args.concurrency} in flight, {rounds} round(s) each, "
        f"six engines x 20 results after {args.delay_ms} ms"
    )
    rows = []
    for way, found in results.items():
        per_s = c.median([r["per_s"] for r in found])
        server_cpu = c.median([r["server_cpu"] for r in found])
        client_cpu = c.median([r["client_cpu"] for r in found])
        rows.append(
            [
                way,
                f"{per_s:.1f}",
                c.ms(server_cpu),
                c.ms(client_cpu) if way == "mcp" else "-",
                " ".join(f"{r['per_s']:.0f}" for r in found),
                " ".join(str(r["busy"]) for r in found),
            ]
        )
    print(f"a call refused busy is asked again {c.BUSY_WAIT_S * 1000:.0f} ms later")
    c.table(
        [
            "way in",
            "answered/s (median)",
            "rypsok CPU ms/search",
            "client CPU ms/search",
            "rounds",
            "refused busy per round",
        ],
        rows,
    )
    library = c.median([r["per_s"] for r in results["library"]])
    mcp = c.median([r["per_s"] for r in results["mcp"]])
    print(f"ratio mcp/library searches per second: {mcp / library:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
