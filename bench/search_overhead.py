"""web_search's own cost: six engines answer 20 results each after a fixed delay; rypsok's
call time is compared with the same six HTTP requests made bare with httpx in one task
group (the floor: the slowest engine plus the transport), interleaved call by call.

    python bench/search_overhead.py [--quick] [--rounds N] [--delay-ms MS]

Goals: median overhead (rypsok - floor, paired) under 5 ms; ratio of medians under 1.10.
"""

from __future__ import annotations

import datetime as dt

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
        request = engine_module(engine.id).build_request(engine.endpoint, search, engine.credential)
        body = request.read()
        requests.append((request.method, str(request.url), list(request.headers.items()), body))
    return requests


def floor_client() -> httpx.AsyncClient:
    """The same client settings rypsok uses for engines."""
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
        delay_ms=(int, 50, "each engine's delay before answering"),
    )
    rounds = args.rounds or (40 if args.quick else 300)
    warmup = 5 if args.quick else 20
    c.header(
        "search_overhead: rypsok web_search vs the bare HTTP requests (six engines)",
        f"python bench/search_overhead.py{' --quick' if args.quick else ''}",
    )
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
