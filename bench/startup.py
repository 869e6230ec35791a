"""Start-up: time from launching the server to the answer of tools/list (initialize, then
tools/list, through the mcp SDK's stdio client), rypsok against two baselines launched in the
same run, rounds interleaved:

- the floor: the smallest low-level MCP server on the same SDK and Trio, one static tool
  (bench/_floor_server.py). Goal: rypsok within 1.05x of it.
- mcp-server-fetch, the reference MCP fetch server (``python -m``). Goal: rypsok faster.

    python bench/startup.py [--quick] [--rounds N]

If mcp-server-fetch is missing or does not run, the script says why and leaves it out.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import _common as c
import trio


async def time_to_tools(parameters) -> tuple[float, int]:
    start = c.clock()
    async with c.mcp_session(parameters) as session:
        listed = await session.list_tools()
        took = c.clock() - start
    return took, len(listed.tools)


def floor_parameters():
    from mcp import StdioServerParameters

    return StdioServerParameters(
        command=sys.executable,
        args=[str(Path(__file__).with_name("_floor_server.py"))],
        env={**c.base_env(), **c.BENCH_ENV},
        cwd=str(c.ROOT),
    )


def main() -> int:
    args = c.arguments(
        __doc__.splitlines()[0],
        rounds=(int, None, "launches of each server (default 15, 3 with --quick)"),
    )
    rounds = args.rounds or (3 if args.quick else 15)
    c.header(
        "startup: launch to tools/list answer, rypsok vs the floor and mcp-server-fetch",
        f"python bench/startup.py{' --quick' if args.quick else ''}",
    )
    problem = c.fetch_server_problem()
    with tempfile.TemporaryDirectory() as folder:
        config_path = c.write_config({}, Path(folder) / "rypsok.toml")
        servers = {"rypsok": c.rypsok_parameters(config_path), "floor": floor_parameters()}
        if problem is None:
            servers["mcp-server-fetch"] = c.fetch_server_parameters()
            try:
                trio.run(time_to_tools, servers["mcp-server-fetch"])
            except Exception as exc:
                problem = f"mcp-server-fetch did not answer tools/list: {exc!r}"
                del servers["mcp-server-fetch"]
        if problem:
            print(f"baseline unavailable: {problem}")
        times: dict[str, list[float]] = {name: [] for name in servers}
        tool_counts: dict[str, int] = {}
        trio.run(time_to_tools, servers["rypsok"])
        for i in range(rounds):
            order = list(servers) if i % 2 == 0 else list(reversed(servers))
            for name in order:
                took, tool_counts[name] = trio.run(time_to_tools, servers[name])
                times[name].append(took)
    print(f"{rounds} launches each, interleaved, after one unmeasured launch of each")
    c.table(
        ["server", "tools", "median ms", "min ms", "max ms"],
        [
            [name, tool_counts[name], c.ms(c.median(t)), c.ms(min(t)), c.ms(max(t))]
            for name, t in times.items()
        ],
    )
    floor_ratio = c.median(times["rypsok"]) / c.median(times["floor"])
    print(f"ratio rypsok/floor (medians): {floor_ratio:.3f}")
    c.verdict("startup ratio rypsok/floor", floor_ratio, 1.05, "x")
    if "mcp-server-fetch" in times:
        ratio = c.median(times["rypsok"]) / c.median(times["mcp-server-fetch"])
        print(f"ratio rypsok/mcp-server-fetch (medians): {ratio:.3f}")
        c.verdict("startup ratio rypsok/mcp-server-fetch", ratio, 1.0, "x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
