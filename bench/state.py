"""Shared state on a local redis-server: what it costs a search, whether two replicas
scale past one, and whether restarting the store costs any call its deadline.

1. added latency: the same searches through a Client with ``[state]`` on a local
   redis-server and through one in memory, interleaved call by call; the paired
   difference per call. Goal: under 1 ms median.
2. replicas: searches answered per second from two ``rypsok serve`` replicas sharing one
   store against one replica, the same number (16) in flight in total; the ratio. A
   replica refuses ``busy`` the calls it would not end on time (its admission window
   starts at 8 and follows how late calls end, ``rypsok.state.limits.OnTimeLimit``), so 16 at
   once is more than one replica admits by design, and on a loaded machine often more
   than it learns to admit. A ``busy`` answer is therefore a reported outcome, not a
   failure: its caller waits 100 ms and asks again, the rate counts answered searches
   only, and the calls refused are a figure of their own. Two replicas answering more
   because each is asked less at once is part of what two replicas buy.
3. soak: two replicas under a steady load while the store is killed and restarted twice
   in the middle (and the same run with the store left alone, for the machine's own
   lateness). Goals: 0 unanswered calls; every call within deadline + 300 ms.
4. forms: the same searches through four Clients, in memory, on one server, on a
   Sentinel-managed primary and on a three-primary Cluster (tests/redis_topologies.py),
   interleaved call by call; each form's added time against memory, and its ratio to
   the single server's.

    python bench/state.py [--quick] [--rounds N] [--searches N] [--soak N] [--server NAME]

Needs redis-server or valkey-server on PATH, as the tests do (`just redis`, `just valkey`).
Exits 1 if a soak assertion fails.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _common as c
import anyio
import trio
from _servers import GENERAL_ENGINES, PlayServer, answer_play, single

if str(c.ROOT) not in sys.path:
    sys.path.insert(0, str(c.ROOT))
from tests.redis_server import RedisServer  # noqa: E402

QUERY = "structured concurrency deadline"
SPEC_SLACK_S = 0.3


def state_table(redis: RedisServer) -> dict[str, Any]:
    """The largest bound: on a loaded machine a 20 ms bound is sometimes passed, and a
    call answered from memory would flatter the store."""
    return {"url": redis.url(), "timeout_ms": 100}


# 1. What the store adds to one call


async def added_latency(data: dict, redis: RedisServer, rounds: int, warmup: int):
    """Paired wall and CPU time per search (and wall per engine_status), in memory and with
    the store; then the redis-server's own CPU over a block of searches."""
    from rypsok import Client

    memory = c.library_config(data)
    shared = c.library_config({**data, "state": state_table(redis)})
    times: dict[str, list[float]] = {
        name: []
        for name in (
            "memory",
            "store",
            "status_memory",
            "status_store",
            "cpu_memory",
            "cpu_store",
            "in_store",
            "after_answer",
        )
    }
    async with Client(memory) as in_memory, Client(shared) as in_store:
        waited = [0.0]

        def timed(operation):
            async def waiting(*args):
                start = c.clock()
                try:
                    return await operation(*args)
                finally:
                    waited[0] += c.clock() - start

            return waiting

        # the time a search spends in the store's two operations, measured around them
        in_store.state.plan = timed(in_store.state.plan)  # type: ignore[method-assign]
        in_store.state.settle = timed(in_store.state.settle)  # type: ignore[method-assign]

        async def search(client, name: str | None) -> None:
            cpu, start = time.process_time(), c.clock()
            response = await client.search(QUERY, max_results=20)
            took, cpu = c.clock() - start, time.process_time() - cpu
            # What the store writes after the answer (its latencies) is finished here, out
            # of the timing, so that it does not land in the next call's, the other
            # Client's, time instead.
            flushed = c.clock()
            await client.state.flush()
            after = c.clock() - flushed
            assert response.outcome == "ok" and len(response.results) == 20, response
            if name is not None:
                times[name].append(took)
                times[f"cpu_{name}"].append(cpu)
                if name == "store":
                    times["in_store"].append(waited[0])
                    times["after_answer"].append(after)
            waited[0] = 0.0

        async def status(client, name: str) -> None:
            start = c.clock()
            await client.engine_status()
            times[name].append(c.clock() - start)

        for _ in range(warmup):
            await search(in_memory, None)
            await search(in_store, None)
        for i in range(rounds):
            pair = [(in_memory, "memory"), (in_store, "store")]
            for client, name in pair if i % 2 else reversed(pair):
                await search(client, name)
            for client, name in [(in_memory, "status_memory"), (in_store, "status_store")]:
                await status(client, name)
        fallbacks = in_store.state.fallbacks
        before = store_cpu(redis)
        for _ in range(rounds):
            await search(in_store, None)
        redis_cpu = (store_cpu(redis) - before) / rounds
    return times, fallbacks, redis_cpu


def info(redis: RedisServer, section: str) -> dict[str, str]:
    text = redis.reply("INFO", section).decode()  # type: ignore[union-attr]
    return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)


def store_cpu(redis: RedisServer) -> float:
    """The redis-server's CPU seconds so far (INFO cpu)."""
    fields = info(redis, "cpu")
    return float(fields["used_cpu_user"]) + float(fields["used_cpu_sys"])


def server_version(redis: RedisServer) -> str:
    """Valkey's own version (its redis_version says 7.2.4 for compatibility), or Redis's."""
    fields = info(redis, "server")
    return fields.get("valkey_version") or fields["redis_version"]


# 2. Two replicas against one


async def throughput(paths: list[Path], searches: int, in_flight: int) -> tuple[float, int]:
    """Searches answered per second over ``paths`` replicas, ``in_flight`` callers at once
    in total, and how many calls were refused ``busy`` (each asked again after
    c.BUSY_WAIT_S) on the way to ``searches`` answers."""
    async with contextlib.AsyncExitStack() as stack:
        sessions = [
            await stack.enter_async_context(c.mcp_session(c.rypsok_parameters(p))) for p in paths
        ]

        async def run(count: int, label: str) -> tuple[float, int]:
            numbers = iter(range(count))
            busy = c.BusyCount()

            async def worker(session) -> None:
                for i in numbers:
                    arguments = {"query": f"{label} {i}", "max_results": 20}
                    result = await c.admitted(
                        lambda a=arguments: session.call_tool("web_search", a), busy
                    )
                    assert not result.is_error, result.structured_content

            start = c.clock()
            async with anyio.create_task_group() as group:
                for n in range(in_flight):
                    group.start_soon(worker, sessions[n % len(sessions)])
            return count / (c.clock() - start), busy.refused

        await run(in_flight * 2, "warm-up")
        return await run(searches, "replica query")


# 3. The soak with the store restarted twice


async def soak(
    paths: list[Path], redis: RedisServer, searches: int, in_flight: int, restart: bool
) -> dict[str, Any]:
    """``searches`` calls over the replicas, ``in_flight`` at once; with ``restart``, the
    store is killed after a third and after two thirds of them and started again 1 s later."""
    calls: list[tuple[float, float]] = []
    """(start, duration) of every call, in seconds from the soak's start."""
    unanswered: list[str] = []
    errors: dict[str, int] = {}
    outages: list[tuple[float, float]] = []
    done = 0
    async with contextlib.AsyncExitStack() as stack:
        sessions = [
            await stack.enter_async_context(c.mcp_session(c.rypsok_parameters(p))) for p in paths
        ]
        numbers = iter(range(searches))
        began = c.clock()

        async def worker(n: int) -> None:
            nonlocal done
            session = sessions[n % len(sessions)]
            for i in numbers:
                start = c.clock()
                try:
                    result = await session.call_tool(
                        "web_search", {"query": f"soak {i % 50}", "max_results": 10}
                    )
                except Exception as exc:
                    unanswered.append(f"{exc.__class__.__name__}: {exc}")
                    continue
                finally:
                    calls.append((start - began, c.clock() - start))
                    done += 1
                if result.is_error:
                    kind = result.structured_content["error"]["detail"].get("reason", "?")
                    errors[kind] = errors.get(kind, 0) + 1

        async def restarter() -> None:
            for at in (searches // 3, 2 * searches // 3):
                while done < at:
                    await anyio.sleep(0.01)
                killed = c.clock() - began
                redis.kill()
                await anyio.sleep(1.0)
                redis.start()
                outages.append((killed, c.clock() - began))

        async with anyio.create_task_group() as group:
            if restart:
                group.start_soon(restarter)
            for n in range(in_flight):
                group.start_soon(worker, n)
    return {"calls": calls, "unanswered": unanswered, "errors": errors, "outages": outages}


def soak_row(name: str, found: dict[str, Any], deadline_s: float) -> list[Any]:
    durations = [d for _, d in found["calls"]]
    near = [
        d
        for start, d in found["calls"]
        if any(down - 2 <= start <= up + 2 for down, up in found["outages"])
    ]
    return [
        name,
        len(durations),
        len(found["unanswered"]),
        " ".join(f"{k}={v}" for k, v in sorted(found["errors"].items())) or "0",
        c.ms(c.median(durations)),
        c.ms(c.percentile(durations, 99)),
        c.ms(max(durations) - deadline_s),
        c.ms(max(near) - deadline_s) if near else "-",
    ]


def main() -> int:
    args = c.arguments(
        __doc__.splitlines()[0],
        rounds=(int, None, "paired calls for the added latency (default 400, 60 with --quick)"),
        searches=(int, None, "searches per throughput run (default 600, 120 with --quick)"),
        soak=(int, None, "searches in the soak (default 3000, 400 with --quick)"),
        delay_ms=(int, 20, "each engine's delay before answering"),
        parts=(
            str,
            "1234",
            "which parts to run: 1 (added latency), 2 (replicas), 3 (soak), 4 (forms)",
        ),
        server=(str, None, "redis-server or valkey-server (default: the first installed)"),
    )
    rounds = args.rounds or (60 if args.quick else 400)
    searches = args.searches or (120 if args.quick else 600)
    soak_searches = args.soak or (400 if args.quick else 3000)
    quick = " --quick" if args.quick else ""
    c.header(
        "state: [state] on a local redis-server against memory", f"python bench/state.py{quick}"
    )
    plays = {e: single(answer_play(e, delay_s=args.delay_ms / 1000)) for e in GENERAL_ENGINES}
    ok = True
    with (
        PlayServer(plays) as server,
        RedisServer(server=args.server) as redis,
        tempfile.TemporaryDirectory() as tmp,
    ):
        data = c.config_data(server, GENERAL_ENGINES, search={"max_concurrent": 64})
        print(
            f"six engines x 20 results after {args.delay_ms} ms; "
            f"store: {redis.binary} {server_version(redis)}"
        )

        # 1
        if "1" in args.parts:
            ok &= added_latency_report(data, redis, rounds)
        shared = {**data, "state": state_table(redis), "log": {"level": "warning"}}
        # 2
        if "2" in args.parts:
            replicas_report(shared, Path(tmp), searches)
        # 3
        if "3" in args.parts:
            ok &= soak_report(shared, redis, Path(tmp), soak_searches)
        # 4
        if "4" in args.parts:
            forms_report(data, args.server, rounds)
    return 0 if ok else 1


# 4. The three forms of store


async def forms_latency(data: dict, topologies: dict[str, Any], rounds: int):
    """Per search, each form's time and the in-memory Client's, in rounds that ask each
    Client in turn (the order rotated), so the load falls on all alike."""
    from rypsok import Client

    names = ["memory", *topologies]
    configs = [c.library_config(data)] + [
        c.library_config({**data, "state": t.state(timeout_ms=100)}) for t in topologies.values()
    ]
    times: dict[str, list[float]] = {name: [] for name in names}
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(Client(config)) for config in configs]
        for client in clients[1:]:
            assert await client.state.store_answers()
        for i in range(rounds + 10):
            turn = i % len(clients)
            for name, client in (
                list(zip(names, clients, strict=True))[turn:]
                + list(zip(names, clients, strict=True))[:turn]
            ):
                start = c.clock()
                response = await client.search(f"{QUERY} {i}", max_results=20)
                took = c.clock() - start
                await client.state.flush()
                assert response.outcome == "ok", response
                if i >= 10:
                    times[name].append(took)
        fallbacks = {n: cl.state.fallbacks for n, cl in zip(names, clients, strict=True)}
    return times, fallbacks


def forms_report(data: dict, server: str | None, rounds: int) -> None:
    from tests.redis_topologies import FORMS

    topologies = {name: FORMS[name](server=server) for name in FORMS}
    try:
        for topology in topologies.values():
            topology.start()
        times, fallbacks = trio.run(forms_latency, data, topologies, rounds)
    finally:
        for topology in topologies.values():
            topology.stop()
    added = {
        name: [s - m for s, m in zip(times[name], times["memory"], strict=True)]
        for name in topologies
    }
    print(f"\n4. forms: {rounds} searches on each Client, interleaved (rotating order)")
    c.table(
        ["ms", "search median", "p90", "added median (paired)", "ratio to one server"],
        [["memory", c.ms(c.median(times["memory"])), c.ms(STATS[1](times["memory"])), "-", "-"]]
        + [
            [
                name,
                c.ms(c.median(times[name])),
                c.ms(STATS[1](times[name])),
                c.ms(c.median(added[name])),
                f"{c.median(added[name]) / c.median(added['server']):.2f}",
            ]
            for name in topologies
        ],
    )
    print(f"store operations answered from memory instead (bound passed): {fallbacks}")


def added_latency_report(data: dict, redis: RedisServer, rounds: int) -> bool:
    times, fallbacks, redis_cpu = trio.run(added_latency, data, redis, rounds, 10)
    paired = [s - m for s, m in zip(times["store"], times["memory"], strict=True)]
    paired_cpu = [s - m for s, m in zip(times["cpu_store"], times["cpu_memory"], strict=True)]
    paired_status = [
        s - m for s, m in zip(times["status_store"], times["status_memory"], strict=True)
    ]
    print(f"\n1. added latency: {rounds} paired calls of each, interleaved")
    c.table(
        ["ms", "median", "p90", "p99"],
        [
            [name, *(c.ms(f(values)) for f in STATS)]
            for name, values in [
                ("search, in memory", times["memory"]),
                ("search, [state] redis", times["store"]),
                ("search: added (paired)", paired),
                ("search: inside plan + settle", times["in_store"]),
                ("search: written after the answer (flush)", times["after_answer"]),
                ("engine_status: added (paired)", paired_status),
                ("search: rypsok CPU, in memory", times["cpu_memory"]),
                ("search: rypsok CPU added (paired)", paired_cpu),
            ]
        ],
    )
    print(f"redis-server CPU per search: {redis_cpu * 1000:.3f} ms (INFO cpu)")
    print(f"store operations answered from memory instead (bound passed): {fallbacks}")
    c.verdict("median added per search", c.median(paired) * 1000, 1, "ms")
    return True


def replicas_report(shared: dict, tmp: Path, searches: int) -> None:
    paths = [c.write_config(shared, tmp / f"replica{n}.toml") for n in range(2)]
    in_flight = 16
    one = [trio.run(throughput, paths[:1], searches, in_flight) for _ in range(2)]
    two = [trio.run(throughput, paths, searches, in_flight) for _ in range(2)]
    print(
        f"\n2. replicas: {searches} searches answered, {in_flight} callers in total, over "
        f"stdio; a call refused busy is asked again {c.BUSY_WAIT_S * 1000:.0f} ms later"
    )
    c.table(
        ["replicas", "answered/s (best of 2)", "runs", "refused busy per run"],
        [
            [
                str(n),
                f"{max(rate for rate, _ in runs):.1f}",
                " ".join(f"{rate:.0f}" for rate, _ in runs),
                " ".join(str(busy) for _, busy in runs),
            ]
            for n, runs in ((1, one), (2, two))
        ],
    )
    best_one, best_two = (max(rate for rate, _ in runs) for runs in (one, two))
    print(f"ratio two replicas / one: {best_two / best_one:.2f} (on {os.cpu_count()} CPUs)")


def soak_report(shared: dict, redis: RedisServer, tmp: Path, searches: int) -> bool:
    deadline_ms = 300
    deadline_s = deadline_ms / 1000
    soaked = {**shared, "search": {"max_concurrent": 64, "deadline_ms": deadline_ms}}
    paths = [c.write_config(soaked, tmp / f"soak{n}.toml") for n in range(2)]
    in_flight = 4
    steady = trio.run(soak, paths, redis, searches, in_flight, False)
    restarted = trio.run(soak, paths, redis, searches, in_flight, True)
    print(
        f"\n3. soak: {searches} searches over two replicas, {in_flight} in flight, "
        f"deadline {deadline_ms} ms; the same run without and with the store killed and "
        "restarted (1 s later) twice"
    )
    c.table(
        [
            "run",
            "calls",
            "unanswered",
            "tool errors",
            "median ms",
            "p99 ms",
            "max - deadline ms",
            "same, within 2 s of an outage",
        ],
        [
            soak_row("store steady", steady, deadline_s),
            soak_row("store restarted twice", restarted, deadline_s),
        ],
    )
    for problem in restarted["unanswered"][:5]:
        print("unanswered:", problem)
    worst = max(d for _, d in restarted["calls"]) - deadline_s
    ok = c.verdict("unanswered calls (goal: 0)", len(restarted["unanswered"]), 1, "calls")
    return ok & c.verdict("slowest call past its deadline", worst * 1000, SPEC_SLACK_S * 1000, "ms")


STATS = (c.median, lambda v: c.percentile(v, 90), lambda v: c.percentile(v, 99))

if __name__ == "__main__":
    raise SystemExit(main())
