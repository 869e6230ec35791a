"""web_search's own cost, against the bare HTTP requests it makes, interleaved call by call.

    python bench/search_overhead.py [--quick] [--rounds N] [--delay-ms MS] [--parts 123]
        [--engine NAME] [--before DIR]

Part 1 (issue 28's figures): one engine (wikipedia by default) answers 20 results at once.
Through the library, each search is paired with a bare ``httpx`` GET of the same URL on
one ``AsyncClient``; per call, this process's CPU time (``time.process_time``: the engine
server runs in another process and is not counted) and the wall time. Goals: the search's
CPU at most 1.5 times the bare GET's (ratio of medians), its wall time at most 2 ms over
it (median of the paired differences).

Part 2: the same through MCP, ``rypsok serve`` on stdio driven by the SDK's
``ClientSession``, each call paired with the bare GET from this process. Goal: the median
paired difference under 3 ms. The server's CPU per call (psutil) is shown beside it. With
``--before DIR`` (a checkout of rypsok from before, e.g. ``git worktree add``), a second
``rypsok serve`` runs from DIR, and its calls join the rotation: both trees are measured
against the same bare GETs in one run, so a change shows above the machine's load.

Part 3: six engines answer 20 results each after a fixed delay; the floor is the same six
HTTP requests made bare in one task group (the slowest engine plus the transport). Goals:
median overhead (rypsok - floor, paired) under 5 ms; ratio of medians under 1.10.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import tempfile
import time
from pathlib import Path

import _common as c
import anyio
import httpx
import trio
from _servers import GENERAL_ENGINES, PlayServer, answer_play, single

QUERY = "structured concurrency deadline"


def bare_requests(config) -> list[tuple[str, str, list[tuple[str, str]], bytes]]:
    """(method, url, headers, body) of each engine's request, as rypsok builds it."""
    from rypsok.engines.base import EngineSearch
    from rypsok.engines.registry import engine_module
    from rypsok.version import USER_AGENT

    requests = []
    for engine in config.usable_engines():
        search = EngineSearch(
            query=QUERY,
            category="general",
            max_results=20,
            language="en",
            now=dt.datetime.now(dt.UTC),
            user_agent=USER_AGENT,
        )
        built = engine_module(engine.id).build_request(engine.endpoint, search, engine.credential)
        request = built.as_httpx()
        body = request.read()
        requests.append((request.method, str(request.url), list(request.headers.items()), body))
    return requests


def floor_client() -> httpx.AsyncClient:
    """An httpx client with the engines' settings (no proxy from the environment, no
    redirect, no timeout): the issue's baseline. rypsok itself sends engine requests on
    httpcore, the layer under httpx."""
    return httpx.AsyncClient(
        trust_env=False,
        follow_redirects=False,
        timeout=httpx.Timeout(None),
        limits=httpx.Limits(max_connections=64, max_keepalive_connections=16),
    )


async def bare_call(http: httpx.AsyncClient, requests) -> int:
    received = 0

    async def one(method, url, headers, body) -> None:
        nonlocal received
        response = await http.send(http.build_request(method, url, headers=headers, content=body))
        received += len(response.content)

    async with anyio.create_task_group() as group:
        for request in requests:
            group.start_soon(one, *request)
    return received


# Part 1 and 2: one engine, one bare GET


async def one_engine_library(config, url: str, rounds: int, warmup: int):
    """(search CPU, bare CPU, search wall, bare wall) per round, interleaved."""
    from rypsok import Client

    figures: dict[str, list[float]] = {"cpu": [], "bare_cpu": [], "wall": [], "bare_wall": []}
    async with Client(config) as client, floor_client() as http:

        async def search() -> tuple[float, float]:
            wall, cpu = c.clock(), time.process_time()
            response = await client.search(QUERY, max_results=20)
            cpu, wall = time.process_time() - cpu, c.clock() - wall
            assert response.outcome == "ok" and len(response.results) == 20, response
            return cpu, wall

        async def bare() -> tuple[float, float]:
            wall, cpu = c.clock(), time.process_time()
            response = await http.get(url)
            body = response.content
            cpu, wall = time.process_time() - cpu, c.clock() - wall
            assert response.status_code == 200 and body
            return cpu, wall

        for _ in range(warmup):
            await search()
            await bare()
        for i in range(rounds):
            order = (search, bare) if i % 2 else (bare, search)
            for call in order:
                cpu, wall = await call()
                prefix = "" if call is search else "bare_"
                figures[prefix + "cpu"].append(cpu)
                figures[prefix + "wall"].append(wall)
    return figures


def tree_parameters(config_path: Path, root: Path):
    """``rypsok serve`` of the checkout at ``root`` (``python -m`` finds it in its cwd)."""
    parameters = c.rypsok_parameters(config_path)
    parameters.cwd = str(root)
    return parameters


async def one_engine_mcp(config_path: Path, url: str, rounds: int, warmup: int, before=None):
    """MCP call wall and bare wall per round, interleaved (with ``before``, the calls of
    that tree's server too, in rotating order), and each server's CPU per call (psutil
    counts in clock ticks: one figure over the whole run)."""
    trees = {"": c.ROOT, **({"before_": before} if before else {})}
    figures: dict[str, list[float]] = {"bare_wall": []}
    async with contextlib.AsyncExitStack() as stack:
        http = await stack.enter_async_context(floor_client())
        calls = {}
        servers = {}
        for prefix, root in trees.items():
            params = tree_parameters(config_path, root)
            session = await stack.enter_async_context(c.mcp_session(params))
            servers[prefix] = c.child_process("rypsok", "serve")
            calls[prefix + "wall"] = functools.partial(mcp_search, session)
            figures[prefix + "wall"] = []

        async def bare() -> float:
            start = c.clock()
            response = await http.get(url)
            body = response.content
            took = c.clock() - start
            assert response.status_code == 200 and body
            return took

        calls["bare_wall"] = bare
        for _ in range(warmup):
            for call in calls.values():
                await call()
        cpu = {prefix: c.cpu_seconds(server.pid) for prefix, server in servers.items()}
        names = list(calls)
        for i in range(rounds):
            shift = i % len(names)
            for name in names[shift:] + names[:shift]:
                figures[name].append(await calls[name]())
        for prefix, server in servers.items():
            figures[prefix + "server_cpu"] = [(c.cpu_seconds(server.pid) - cpu[prefix]) / rounds]
    return figures


async def mcp_search(session) -> float:
    start = c.clock()
    result = await session.call_tool("web_search", {"query": QUERY, "max_results": 20})
    took = c.clock() - start
    answer = result.structured_content or {}
    assert not result.is_error and len(answer.get("results", [])) == 20, result
    return took


def one_engine(engine: str, rounds: int, warmup: int, parts: str, before: Path | None) -> None:
    plays = {engine: single(answer_play(engine))}
    with PlayServer(plays) as server, tempfile.TemporaryDirectory() as folder:
        data = c.config_data(server, [engine])
        config = c.library_config(data)
        ((method, url, _, _),) = bare_requests(config)
        assert method == "GET", method
        print(f"\none engine ({engine}), 20 results at once; the bare GET: {url}")
        if "1" in parts:
            got = trio.run(one_engine_library, config, url, rounds, warmup)
            over = [a - b for a, b in zip(got["wall"], got["bare_wall"], strict=True)]
            print(f"part 1, library: {rounds} searches and {rounds} bare GETs, interleaved")
            c.table(
                ["ms", "median", "p90", "p99", "max"],
                [
                    [name, *(c.ms(f(values)) for f in c.LATENCY_STATS)]
                    for name, values in [
                        ("search CPU", got["cpu"]),
                        ("bare GET CPU", got["bare_cpu"]),
                        ("search wall", got["wall"]),
                        ("bare GET wall", got["bare_wall"]),
                        ("wall over (paired)", over),
                    ]
                ],
            )
            ratio = c.median(got["cpu"]) / c.median(got["bare_cpu"])
            print(f"CPU ratio search / bare GET (medians): {ratio:.2f}")
            c.verdict("library: CPU ratio", ratio, 1.5, "x")
            c.verdict("library: wall over the bare GET, median", c.median(over) * 1000, 2, "ms")
        if "2" in parts:
            config_path = c.write_config(data, Path(folder) / "rypsok.toml")
            got = trio.run(one_engine_mcp, config_path, url, rounds, warmup, before)
            over = [a - b for a, b in zip(got["wall"], got["bare_wall"], strict=True)]
            rows = [
                ("MCP call wall", got["wall"]),
                ("bare GET wall", got["bare_wall"]),
                ("wall over (paired)", over),
            ]
            if before:
                rows += [
                    ("before: MCP call wall", got["before_wall"]),
                    ("before: wall over (paired)", paired(got["before_wall"], got["bare_wall"])),
                    ("this tree - before (paired)", paired(got["wall"], got["before_wall"])),
                ]
            print(f"part 2, MCP on stdio: {rounds} calls and {rounds} bare GETs, interleaved")
            if before:
                print(f"  and {rounds} calls of the tree at {before} in the same rotation")
            c.table(
                ["ms", "median", "p90", "p99", "max"],
                [[name, *(c.ms(f(values)) for f in c.LATENCY_STATS)] for name, values in rows],
            )
            for prefix in ("", "before_") if before else ("",):
                cpu = got[prefix + "server_cpu"][0] * 1000
                print(
                    f"{prefix.replace('_', ': ')}server CPU per call (mean over the run): {cpu:.2f} ms"
                )
            c.verdict("MCP stdio: wall over the bare GET, median", c.median(over) * 1000, 3, "ms")


def paired(ours: list[float], theirs: list[float]) -> list[float]:
    return [a - b for a, b in zip(ours, theirs, strict=True)]


# Part 3: six engines


async def measure(config, rounds: int, warmup: int):
    from rypsok import Client

    requests = bare_requests(config)
    ours: list[float] = []
    floor: list[float] = []
    after_last_engine: list[float] = []
    before_first_request: list[float] = []
    async with Client(config) as client, floor_client() as http:

        async def rypsok_call() -> float:
            start = c.clock()
            response = await client.search(QUERY, max_results=20)
            took = c.clock() - start
            assert response.outcome == "ok" and len(response.results) == 20, response
            return took

        async def floor_call() -> float:
            start = c.clock()
            await bare_call(http, requests)
            return c.clock() - start

        for _ in range(warmup):
            await rypsok_call()
            await floor_call()
        for i in range(rounds):
            if i % 2:
                ours.append(await rypsok_call())
                floor.append(await floor_call())
            else:
                floor.append(await floor_call())
                ours.append(await rypsok_call())
        for _ in range(max(10, rounds // 5)):
            start = c.clock()
            response, timeline = await client.search_with_timeline(
                {"query": QUERY, "max_results": 20}
            )
            took = c.clock() - start
            assert not isinstance(response, Exception), response
            after_last_engine.append(took - max(run.end_ms for run in timeline) / 1000)
            before_first_request.append(min(run.start_ms for run in timeline) / 1000)
    return ours, floor, after_last_engine, before_first_request


def main() -> int:
    args = c.arguments(
        __doc__.splitlines()[0],
        rounds=(int, None, "measured calls of each kind (default 300, 40 with --quick)"),
        delay_ms=(int, 50, "part 3: each engine's delay before answering"),
        parts=(str, "123", "which parts to run (default 123)"),
        engine=(str, "wikipedia", "parts 1 and 2: the one engine"),
        before=(Path, None, "part 2: a rypsok checkout from before, measured in the same run"),
    )
    rounds = args.rounds or (40 if args.quick else 300)
    warmup = 5 if args.quick else 20
    c.header(
        "search_overhead: rypsok web_search vs the bare HTTP requests",
        f"python bench/search_overhead.py{' --quick' if args.quick else ''}",
    )
    if "1" in args.parts or "2" in args.parts:
        one_engine(args.engine, rounds, warmup, args.parts, args.before)
    if "3" not in args.parts:
        return 0
    print("\npart 3: six engines")
    plays = {e: single(answer_play(e, delay_s=args.delay_ms / 1000)) for e in GENERAL_ENGINES}
    with PlayServer(plays) as server:
        config = c.library_config(c.config_data(server, GENERAL_ENGINES))
        ours, floor, after_last, before_first = trio.run(measure, config, rounds, warmup)
    paired = [a - b for a, b in zip(ours, floor, strict=True)]
    print(f"engines: {', '.join(GENERAL_ENGINES)}; 20 results each after {args.delay_ms} ms")
    print(f"rounds: {rounds} of each, interleaved (after {warmup} warm-up rounds)")
    c.table(
        ["ms", "median", "p90", "p99", "max"],
        [
            [name, *(c.ms(f(values)) for f in c.LATENCY_STATS)]
            for name, values in [
                ("rypsok call", ours),
                ("floor (bare httpx)", floor),
                ("overhead (paired)", paired),
                ("rypsok after last engine", after_last),
                ("rypsok before first request", before_first),
            ]
        ],
    )
    ratio = c.median(ours) / c.median(floor)
    print(f"ratio rypsok/floor (medians): {ratio:.3f}")
    c.verdict("median overhead", c.median(paired) * 1000, 5, "ms")
    c.verdict(
        "p99 overhead (no goal set; shown against 5 ms)", c.percentile(paired, 99) * 1000, 5, "ms"
    )
    c.verdict("ratio", ratio, 1.10, "x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
