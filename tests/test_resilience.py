"""Breakers, budgets, per-process limits and the result cache, against loopback engines.

Time-dependent state is driven by a fake clock passed to the Client; only the
in-flight half-open probe uses a real (short) engine delay.
"""

from __future__ import annotations

import urllib.parse

import anyio
import pytest

from rypsok import Client, ToolError
from rypsok.engines.base import RawResult
from rypsok.probe import probe
from rypsok.state.limits import OnTimeLimit
from rypsok.state.result_cache import CacheKey, ResultCache
from tests.conftest import make_config
from tests.engine_servers import Play, json_play

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}


class FakeClock:
    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


def states(status) -> dict[str, str]:
    return {e.id: e.state for e in status.engines}


def notices_of(response, code):
    return [(n.engine, n.reason) for n in response.notices if n.code == code]


async def test_breaker_walks_closed_open_half_open_closed(engines):
    clock = FakeClock()
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = make_config(engines, CODE, breaker={"failures": 3, "cooldown_s": 30})
    async with Client(config, clock=clock) as client:
        for _ in range(3):
            assert states(await client.engine_status())["github"] == "closed"
            await client.search("asyncio", category="code")
        assert states(await client.engine_status())["github"] == "open"
        response = await client.search("asyncio", category="code")
        assert notices_of(response, "engine_skipped") == [("github", "cooldown")]
        clock.now += 31
        assert states(await client.engine_status())["github"] == "open"

        engines.plays["github"] = json_play("github/search.json", delay_s=0.4)
        seen_during_probe = {}

        async def concurrent_call():
            await anyio.sleep(0.15)
            seen_during_probe["state"] = states(await client.engine_status())["github"]
            seen_during_probe["response"] = await client.search("other", category="code")

        async with anyio.create_task_group() as group:
            group.start_soon(concurrent_call)
            probe_response = await client.search("asyncio", category="code")
        assert seen_during_probe["state"] == "half_open"
        assert notices_of(seen_during_probe["response"], "engine_skipped") == [
            ("github", "cooldown")
        ]
        assert notices_of(probe_response, "engine_skipped") == []
        assert probe_response.outcome == "ok"
        assert states(await client.engine_status())["github"] == "closed"


async def test_failed_probe_reopens_with_doubled_cooldown(engines):
    clock = FakeClock()
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = make_config(
        engines, CODE, breaker={"failures": 1, "cooldown_s": 10, "max_cooldown_s": 15}
    )
    async with Client(config, clock=clock) as client:
        await client.search("asyncio", category="code")
        clock.now += 11
        await client.search("asyncio", category="code")
        assert len(engines.requests_for("github")) == 2
        clock.now += 14
        response = await client.search("asyncio", category="code")
        assert notices_of(response, "engine_skipped") == [("github", "cooldown")]
        clock.now += 1.5
        await client.search("asyncio", category="code")
        assert len(engines.requests_for("github")) == 3


async def test_rate_limit_with_retry_after_opens_for_that_long(engines):
    clock = FakeClock()
    engines.plays["github"] = Play(status=429, headers={"Retry-After": "120"})
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    async with Client(make_config(engines, CODE), clock=clock) as client:
        first = await client.search("asyncio", category="code")
        assert notices_of(first, "engine_unavailable") == [("github", "rate_limited")]
        assert states(await client.engine_status())["github"] == "open"
        clock.now += 119
        second = await client.search("asyncio", category="code")
        assert notices_of(second, "engine_skipped") == [("github", "cooldown")]
        clock.now += 2
        engines.plays["github"] = json_play("github/search.json")
        third = await client.search("asyncio", category="code")
        assert third.outcome == "ok"


async def test_per_minute_tool_limits(engines):
    clock = FakeClock()
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = make_config(engines, CODE, limits={"web_search": 2, "engine_status": 1})
    async with Client(config, clock=clock) as client:
        await client.search("a", category="code")
        clock.now += 20
        await client.search("b", category="code")
        with pytest.raises(ToolError) as raised:
            await client.search("c", category="code")
        assert raised.value.kind == "unavailable"
        assert raised.value.detail == {"reason": "rate_limited", "retry_after_ms": 40_000}
        assert raised.value.message.endswith("retry later")
        await client.engine_status()
        with pytest.raises(ToolError) as raised:
            await client.engine_status()
        # tools.md: rate_limited and retry_after_ms, for engine_status as for the others
        assert raised.value.detail == {"reason": "rate_limited", "retry_after_ms": 60_000}
        assert raised.value.message.endswith("retry later")
        clock.now += 40
        await client.search("d", category="code")


async def test_the_default_limits_are_60_searches_30_fetches_30_statuses_a_minute(engines):
    """tools.md: "Per process: 60 web_search, 30 web_fetch and 30 engine_status calls per
    minute by default". Searches are answered from the cache and fetches refused egress, so
    the calls are quick; each still counts."""
    clock = FakeClock()
    engines.plays["github"] = json_play("github/search.json")
    config = make_config(engines, {"github"}, cache={"enabled": True})
    calls = {
        "web_search": (60, lambda client: client.search("asyncio", category="code")),
        "web_fetch": (30, lambda client: client.fetch("http://127.0.0.1/")),
        "engine_status": (30, lambda client: client.engine_status()),
    }
    async with Client(config, clock=clock) as client:
        for tool, (limit, call) in calls.items():
            for _ in range(limit):
                try:
                    await call(client)
                except ToolError as refused:  # the fetches: denied egress, never the limit
                    assert (refused.kind, refused.detail) == ("denied", {"reason": "egress"})
            with pytest.raises(ToolError) as raised:
                await call(client)
            assert raised.value.kind == "unavailable", tool
            assert raised.value.detail == {"reason": "rate_limited", "retry_after_ms": 60_000}
    assert len(engines.requests_for("github")) == 1


async def test_concurrency_limit_answers_busy(engines):
    engines.plays["github"] = json_play("github/search.json", delay_s=0.3)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = make_config(engines, CODE, search={"max_concurrent": 1})
    outcomes = []
    async with Client(config) as client:

        async def call(delay):
            await anyio.sleep(delay)
            try:
                outcomes.append((await client.search("asyncio", category="code")).outcome)
            except ToolError as exc:
                outcomes.append(exc.detail)
                assert exc.message.endswith("retry later")

        async with anyio.create_task_group() as group:
            group.start_soon(call, 0)
            group.start_soon(call, 0.1)
        assert sorted(map(str, outcomes)) == sorted(["ok", str({"reason": "busy"})])
        assert (await client.search("asyncio", category="code")).outcome == "ok"


async def test_cache_hits_send_nothing_and_expire(engines):
    clock = FakeClock()
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = make_config(engines, CODE, cache={"enabled": True, "ttl_s": 60})
    async with Client(config, clock=clock) as client:
        first = await client.search("asyncio", category="code", max_results=2)
        assert notices_of(first, "from_cache") == []
        engines.seen.clear()
        second = await client.search("asyncio", category="code", max_results=5)
        assert engines.seen == []
        assert sorted(notices_of(second, "from_cache")) == [
            ("github", None),
            ("stackexchange", None),
        ]
        assert len(second.results) == 5
        await client.search("asyncio", category="code", time_range="week")
        assert len(engines.seen) == 2
        engines.seen.clear()
        clock.now += 60
        third = await client.search("asyncio", category="code")
        assert notices_of(third, "from_cache") == []
        assert len(engines.seen) == 2


async def test_failures_are_not_cached_and_cache_off_by_default(engines):
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    cached = make_config(engines, CODE, cache={"enabled": True})
    async with Client(cached) as client:
        await client.search("asyncio", category="code")
        second = await client.search("asyncio", category="code")
    assert notices_of(second, "from_cache") == [("stackexchange", None)]
    assert notices_of(second, "engine_unavailable") == [("github", "request_failure")]
    async with Client(make_config(engines, CODE)) as client:
        await client.search("asyncio", category="code")
        again = await client.search("asyncio", category="code")
    assert notices_of(again, "from_cache") == []


async def test_probe_timeline_shows_cache_hits_and_skips(engines):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = make_config(
        engines,
        CODE,
        engine_overrides={"github": {"rate_per_minute": 1}},
        cache={"enabled": True},
    )
    async with Client(config) as client:
        await probe(client, {"query": "asyncio", "category": "code"})
        report = await probe(client, {"query": "asyncio", "category": "code"})
        other = await probe(client, {"query": "trio", "category": "code"})
    outcomes = {run["engine"]: run["outcome"] for run in report["timeline"]}
    assert outcomes == {"github": "cached", "stackexchange": "cached"}
    by_engine = {run["engine"]: run for run in other["timeline"]}
    assert by_engine["github"]["outcome"] == "skipped"
    assert by_engine["github"]["reason"] == "rate_limited"
    assert by_engine["stackexchange"]["outcome"] == "answered"


def test_cache_is_bounded_and_least_recently_used_goes_first():
    clock = FakeClock()
    cache = ResultCache(ttl_s=100, max_entries=2, clock=clock)
    keys = [CacheKey("github", q, "code", "en", None) for q in "abc"]
    result = [RawResult("t", "https://a.example/")]
    cache.put(keys[0], result)
    cache.put(keys[1], result)
    assert cache.get(keys[0]) is not None
    cache.put(keys[2], result)
    assert len(cache) == 2
    assert cache.get(keys[1]) is None
    assert cache.get(keys[0]) is not None
    clock.now += 100
    assert cache.get(keys[0]) is None


async def test_a_cancelled_probe_does_not_leave_the_engine_half_open(engines):
    clock = FakeClock()
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = make_config(engines, CODE, breaker={"failures": 1, "cooldown_s": 10})
    async with Client(config, clock=clock) as client:
        await client.search("asyncio", category="code")
        clock.now += 11
        engines.plays["github"] = Play(mode="hang")
        with anyio.move_on_after(0.2):
            await client.search("asyncio", category="code")
        assert states(await client.engine_status())["github"] == "open"
        engines.plays["github"] = json_play("github/search.json")
        response = await client.search("asyncio", category="code")
    assert notices_of(response, "engine_skipped") == []
    assert response.outcome == "ok"


# Admission: every call let in ends on time, the rest are refused busy at once.

GENERAL = {"wikipedia", "duckduckgo", "marginalia"}
SPEC_SLACK_S = 0.3


def html_play(path: str, **kwargs) -> Play:
    return json_play(path, headers={"Content-Type": "text/html"}, **kwargs)


async def timed_search(client, query: str) -> tuple[str, float, str]:
    """(the query, seconds the call took, its outcome or its error's reason)."""
    started = anyio.current_time()
    try:
        outcome = (await client.search(query)).outcome
    except ToolError as exc:
        assert exc.kind == "unavailable", exc
        outcome = exc.detail["reason"]
    return query, anyio.current_time() - started, outcome


def queries_seen(engines, engine_id: str, parameter: str) -> set[str]:
    return {
        dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(seen.path).query))[parameter]
        for seen in engines.requests_for(engine_id)
    }


async def test_many_searches_at_once_end_on_time_or_are_refused_busy(engines):
    """A generous max_concurrent: the pool, the deadline and admission must cope, not it."""
    engines.plays["wikipedia"] = Play(mode="hang")
    engines.plays["marginalia"] = json_play("marginalia/search.json", delay_s=0.45)
    engines.plays["duckduckgo"] = html_play("duckduckgo/search.html", delay_s=0.1)
    deadline_s = 0.5
    config = make_config(
        engines,
        GENERAL,
        {engine_id: {"rate_per_minute": 100_000} for engine_id in GENERAL},
        search={"deadline_ms": 500, "max_concurrent": 512},
        limits={"web_search": 100_000},
        breaker={"failures": 100_000},
    )
    calls: list[tuple[float, str]] = []
    async with Client(config) as client:

        async def burst(count: int) -> None:
            async def one(i: int) -> None:
                calls.append(await timed_search(client, f"burst {i}"))

            async with anyio.create_task_group() as group:
                for i in range(count):
                    group.start_soon(one, i)

        async def callers(count: int, seconds: float) -> None:
            stop = anyio.current_time() + seconds

            async def caller(number: int) -> None:
                call = 0
                while anyio.current_time() < stop:
                    call += 1
                    calls.append(await timed_search(client, f"caller {number} {call}"))
                    if calls[-1][2] == "busy":
                        await anyio.sleep(deadline_s)

            async with anyio.create_task_group() as group:
                for number in range(count):
                    group.start_soon(caller, number)

        await burst(200)
        await callers(32, 2.5)
    let_in = [(query, took, outcome) for query, took, outcome in calls if outcome != "busy"]
    refused = [(query, took) for query, took, outcome in calls if outcome == "busy"]
    late = [
        (query, round(took - deadline_s, 3))
        for query, took, _ in let_in
        if took > deadline_s + SPEC_SLACK_S
    ]
    assert late == []
    assert all(took <= deadline_s + SPEC_SLACK_S for _, took in refused)
    assert {outcome for _, _, outcome in let_in} <= {"ok", "partial", "deadline"}
    assert len(let_in) >= 8 and refused
    # A refused call is refused at the door: nothing of it reaches an engine.
    sent = queries_seen(engines, "wikipedia", "srsearch") | queries_seen(
        engines, "marginalia", "query"
    )
    assert sent <= {query for query, _, _ in let_in}
    assert sent.isdisjoint(query for query, _ in refused)


def test_the_window_starts_small_and_grows_with_calls_on_time():
    """A call on time widens the window by one if, when it came in, it made the calls in
    flight at least half the window; so a full round roughly doubles it."""
    limit = OnTimeLimit(limit=100, late_s=0.1, start=4)
    admitted = [limit.try_enter() for _ in range(6)]
    assert [a is not None for a in admitted] == [True] * 4 + [False] * 2
    for admission in admitted[:4]:
        limit.leave(admission, 0.02)
    assert limit.window == 7  # the first call alone used a quarter of the window
    round_two = [limit.try_enter() for _ in range(7)]
    assert None not in round_two and limit.try_enter() is None
    for admission in round_two:
        limit.leave(admission, 0.09)
    assert limit.window == 7 + 4
    limit.leave(limit.try_enter(), 0.0)  # one call alone: the window was not in use
    assert limit.window == 11


def test_a_late_crowded_call_halves_the_window_once_per_round():
    limit = OnTimeLimit(limit=100, late_s=0.1, start=8)
    admitted = [limit.try_enter() for _ in range(8)]
    for admission in admitted:
        limit.leave(admission, 0.25)
    assert limit.window == 4  # the calls let in before the cut do not cut again
    later = [limit.try_enter() for _ in range(4)]
    assert None not in later and limit.try_enter() is None
    limit.leave(later[1], 0.2)
    assert limit.window == 2
    # After the first cut the window grows by one per round of calls on time.
    for admission in (later[0], later[2], later[3]):
        limit.leave(admission, 0.0)
    assert 2 < limit.window < 3


def test_a_late_call_alone_says_nothing_about_concurrency():
    limit = OnTimeLimit(limit=8, late_s=0.1, start=8)
    for _ in range(5):
        limit.leave(limit.try_enter(), 2.0)
    assert limit.window == 8
    # Nor does a cancelled call.
    first, second = limit.try_enter(), limit.try_enter()
    limit.leave(second, None)
    limit.leave(first, None)
    assert limit.window == 8 and limit.in_flight == 0


def test_the_window_never_passes_max_concurrent_nor_shuts_the_door():
    limit = OnTimeLimit(limit=3, late_s=0.1, start=8)
    assert limit.window == 3
    for _ in range(10):
        admitted = [limit.try_enter() for _ in range(3)]
        for admission in admitted:
            limit.leave(admission, 0.0)
    assert limit.window == 3
    for _ in range(10):
        admitted = [limit.try_enter(), limit.try_enter()]
        for admission in admitted:
            if admission is not None:
                limit.leave(admission, 1.0)
    one = limit.try_enter()
    assert one is not None and limit.try_enter() is None
