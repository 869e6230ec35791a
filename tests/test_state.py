"""State shared through a real redis-server, seen from two library Clients in one process.

Each pair of Clients stands for two replicas: they share nothing but the store's URL.
The engines are the loopback fakes of tests/engine_servers.py. Time is the store's
(the server's clock), so the breaker tests use short real cooldowns. The same
scenarios between two ``rypsok serve`` processes are in tests/test_state_replicas.py.
"""

from __future__ import annotations

import json
import logging

import anyio
import pytest

from rypsok import Client, ToolError
from rypsok.config import config_from_dict
from rypsok.engines.base import RawResult
from rypsok.state import EngineAsk, EngineOutcome, token_window
from rypsok.state.fallback import MAX_DEFERRED, RETRY_AFTER_S, FallbackStore
from rypsok.state.memory import MemoryStore
from rypsok.state.redis import RedisStore
from rypsok.state.result_cache import CacheKey
from tests.conftest import make_config
from tests.engine_servers import Play, json_play
from tests.fetch_servers import Site, html, running
from tests.redis_server import SHARING_BOUND_MS, RedisServer, sharing_bound

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}
SLACK_S = 0.3
"""The spec's contract: a call ends within its deadline plus 300 ms."""


def state_config(engines, redis: RedisServer, **sections):
    """For the tests of what is shared: the store's bound is generous (SHARING_BOUND_MS)."""
    return sharing_bound(outage_config(engines, redis, **sections))


def outage_config(engines, redis: RedisServer, **sections):
    """For the tests of a failing store: a bound in the product's range (100 ms unless
    ``state`` names another), the one the deadline contract is checked with."""
    sections.setdefault("state", {})
    sections["state"] = {**redis.state(), "timeout_ms": 100, **sections["state"]}
    return make_config(engines, CODE, **sections)


def plays(engines) -> None:
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")


def notices_of(response, code):
    return sorted((n.engine, n.reason) for n in response.notices if n.code == code)


def states(status) -> dict[str, str]:
    return {e.id: e.state for e in status.engines}


class FakeClock:
    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


# What two replicas share


async def test_per_minute_windows_are_shared(engines, store):
    plays(engines)
    config = state_config(engines, store, limits={"web_search": 3, "engine_status": 1})
    async with Client(config) as a, Client(config) as b:
        await a.search("one", category="code")
        await b.search("two", category="code")
        await a.search("three", category="code")
        for client in (a, b):
            with pytest.raises(ToolError) as raised:
                await client.search("four", category="code")
            assert raised.value.kind == "unavailable"
            assert raised.value.detail["reason"] == "rate_limited"
            assert 59_000 < raised.value.detail["retry_after_ms"] <= 60_000
        await b.engine_status()
        with pytest.raises(ToolError):
            await a.engine_status()
        # a token's window is its own, and shared too
        await a.take_minute(token_window("alice", "web_search"), 1)
        with pytest.raises(ToolError) as raised:
            await b.take_minute(token_window("alice", "web_search"), 1)
        assert raised.value.detail["reason"] == "rate_limited"
        await b.take_minute(token_window("bob", "web_search"), 1)
        assert await a.state.store_answers()
        assert a.state.reach()["form"] == store.form
    assert a.state.fallbacks == b.state.fallbacks == 0


async def test_deployments_with_their_own_key_prefix_share_nothing(engines, store):
    """Two deployments on one store: each one's replicas share their windows, never the
    other's (``[state] key_prefix``); on a Cluster the hash tag follows the prefix."""
    plays(engines)
    limits = {"web_search": 1}
    team_a = state_config(engines, store, limits=limits, state={"key_prefix": "team-a:"})
    team_b = state_config(engines, store, limits=limits, state={"key_prefix": "team-b:"})
    async with Client(team_a) as a1, Client(team_a) as a2, Client(team_b) as b:
        assert (await a1.search("one", category="code")).outcome == "ok"
        with pytest.raises(ToolError) as raised:
            await a2.search("two", category="code")
        assert raised.value.detail["reason"] == "rate_limited"
        assert (await b.search("three", category="code")).outcome == "ok"
        with pytest.raises(ToolError) as raised:
            await b.search("four", category="code")
        assert raised.value.detail["reason"] == "rate_limited"
    assert a1.state.fallbacks == a2.state.fallbacks == b.state.fallbacks == 0


async def test_an_engine_budget_is_shared(engines, store):
    plays(engines)
    config = sharing_bound(
        make_config(
            engines,
            CODE,
            engine_overrides={"github": {"rate_per_minute": 2}},
            state=store.state(),
        )
    )
    async with Client(config) as a, Client(config) as b:
        await a.search("one", category="code")
        await b.search("two", category="code")
        third = await a.search("three", category="code")
        assert notices_of(third, "engine_skipped") == [("github", "rate_limited")]
        fourth = await b.search("four", category="code")
        assert notices_of(fourth, "engine_skipped") == [("github", "rate_limited")]
    assert len(engines.requests_for("github")) == 2
    assert len(engines.requests_for("stackexchange")) == 4


async def test_a_breaker_opened_on_one_replica_is_open_on_the_other(engines, store):
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = state_config(
        engines, store, breaker={"failures": 2, "cooldown_s": 0.4, "max_cooldown_s": 10}
    )
    async with Client(config) as a, Client(config) as b:
        await a.search("one", category="code")
        assert states(await b.engine_status())["github"] == "closed"
        await a.search("two", category="code")
        assert states(await b.engine_status())["github"] == "open"
        skipped = await b.search("three", category="code")
        assert notices_of(skipped, "engine_skipped") == [("github", "cooldown")]
        assert len(engines.requests_for("github")) == 2
        # after the cooldown, one call probes; it fails, and the cooldown doubles
        await anyio.sleep(0.45)
        probed = await b.search("four", category="code")
        assert notices_of(probed, "engine_unavailable") == [("github", "request_failure")]
        assert len(engines.requests_for("github")) == 3
        await anyio.sleep(0.45)
        still = await a.search("five", category="code")
        assert notices_of(still, "engine_skipped") == [("github", "cooldown")]
        await anyio.sleep(0.4)
        engines.plays["github"] = json_play("github/search.json")
        closed = await a.search("six", category="code")
        assert closed.outcome == "ok"
        assert states(await b.engine_status())["github"] == "closed"


async def test_retry_after_opens_the_breaker_for_every_replica(engines, store):
    engines.plays["github"] = Play(status=429, headers={"Retry-After": "120"})
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = sharing_bound(make_config(engines, {"github"}, state=store.state()))
    async with Client(config) as a, Client(config) as b:
        with pytest.raises(ToolError):
            await a.search("one", category="code")
        with pytest.raises(ToolError) as raised:
            await b.search("two", category="code")
        assert raised.value.detail["reason"] == "rate_limited"
        assert 119_000 < raised.value.detail["retry_after_ms"] <= 120_000
    assert len(engines.requests_for("github")) == 1


async def test_exactly_one_replica_wins_the_probe(engines, store):
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = state_config(engines, store, breaker={"failures": 1, "cooldown_s": 0.2})
    async with Client(config) as a, Client(config) as b:
        await a.search("open it", category="code")
        await anyio.sleep(0.25)
        engines.seen.clear()
        engines.plays["github"] = json_play("github/search.json", delay_s=1.0)
        outcomes: list[list] = []
        seen_half_open = []

        async def call(client: Client, offset: float) -> None:
            await anyio.sleep(offset)
            response = await client.search(f"q{offset}", category="code")
            outcomes.append(notices_of(response, "engine_skipped"))
            seen_half_open.append(states(await client.engine_status())["github"])

        # six calls, three on each replica, all while the probe (0.5 s) is in flight
        async with anyio.create_task_group() as group:
            for n in range(6):
                group.start_soon(call, (a, b)[n % 2], n * 0.05)
        assert len(engines.requests_for("github")) == 1
        assert len(engines.requests_for("stackexchange")) == 6
        assert sum(1 for skips in outcomes if skips == []) == 1
        assert sum(1 for skips in outcomes if skips == [("github", "cooldown")]) == 5
        assert "half_open" in seen_half_open
        assert states(await b.engine_status())["github"] == "closed"


async def test_a_cancelled_probe_gives_its_lease_back(engines, store):
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = state_config(engines, store, breaker={"failures": 1, "cooldown_s": 0.1})
    async with Client(config) as a, Client(config) as b:
        await a.search("open it", category="code")
        await anyio.sleep(0.15)
        engines.plays["github"] = Play(mode="hang")
        with anyio.move_on_after(0.3):
            await a.search("probe", category="code")
        probe = store.key("engine:github", "probe:github")
        assert store.reply(probe, "EXISTS", probe) == 0
        assert states(await b.engine_status())["github"] == "open"
        engines.plays["github"] = json_play("github/search.json")
        response = await b.search("again", category="code")
    assert notices_of(response, "engine_skipped") == []
    assert response.outcome == "ok"


async def test_the_cache_is_shared_with_its_ttl_and_bound(engines, store):
    plays(engines)
    config = state_config(engines, store, cache={"enabled": True, "ttl_s": 1, "max_entries": 3})
    async with Client(config) as a, Client(config) as b:
        first = await a.search("asyncio", category="code", max_results=2)
        assert notices_of(first, "from_cache") == []
        engines.seen.clear()
        hit = await b.search("asyncio", category="code", max_results=5)
        assert engines.seen == []
        assert notices_of(hit, "from_cache") == [("github", None), ("stackexchange", None)]
        assert len(hit.results) == 5
        # four entries (two queries, two engines): the least recently used one is gone
        await b.search("trio", category="code")
        assert store.key_count(store.key("main", "cache:*")) == 3
        index = store.key("main", "cache-index")
        assert store.reply(index, "ZCARD", index) == 3
        await anyio.sleep(1.05)
        engines.seen.clear()
        expired = await a.search("trio", category="code")
        assert notices_of(expired, "from_cache") == []
        assert len(engines.seen) == 2


async def test_failures_are_not_cached_in_the_store(engines, store):
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = state_config(engines, store, cache={"enabled": True})
    async with Client(config) as a, Client(config) as b:
        await a.search("asyncio", category="code")
        second = await b.search("asyncio", category="code")
    assert notices_of(second, "from_cache") == [("stackexchange", None)]
    assert notices_of(second, "engine_unavailable") == [("github", "request_failure")]


async def test_the_latency_window_is_shared_and_holds_twenty(engines, store):
    plays(engines)
    config = state_config(engines, store)
    async with Client(config) as a, Client(config) as b:
        assert {e.id: e.latency_ms for e in (await b.engine_status()).engines}["github"] is None
        for n in range(22):
            await a.search(f"q{n}", category="code")
        await a.state.flush()  # latencies are written after the answer
        latency = {e.id: e.latency_ms for e in (await b.engine_status()).engines}
        mine = {e.id: e.latency_ms for e in (await a.engine_status()).engines}
    assert latency == mine
    assert isinstance(latency["github"], int) and latency["github"] >= 0
    latencies = store.key("engine:github", "latency:github")
    assert store.reply(latencies, "LLEN", latencies) == 20


async def test_only_latencies_wait_until_after_the_answer(engines, redis):
    """A search whose engines answered with clean breakers leaves only latencies to write:
    they follow its answer. A failure is in the store before the answer."""
    plays(engines)
    config = state_config(engines, redis)
    async with Client(config) as a:
        await a.search("clean", category="code")
        # no checkpoint since the answer: the writer has not run yet
        assert redis.command("LLEN", "rypsok:latency:github") == b":0"
        await a.state.flush()
        assert redis.command("LLEN", "rypsok:latency:github") == b":1"
        engines.plays["github"] = Play(status=500)
        await a.search("fails", category="code")
        assert redis.command("HGET", "rypsok:breaker:github", "f") == b"+1"
        assert redis.command("LLEN", "rypsok:latency:github") == b":2"
        # the breaker now holds a failure: the next answer closes it before answering
        engines.plays["github"] = json_play("github/search.json")
        await a.search("closes", category="code")
        assert redis.command("EXISTS", "rypsok:breaker:github") == b":0"
        await a.search("waits again", category="code")
        assert redis.command("LLEN", "rypsok:latency:github") == b":3"
    # leaving async with writes what was waiting
    assert redis.command("LLEN", "rypsok:latency:github") == b":4"
    assert a.state.fallbacks == 0


async def test_at_most_max_deferred_outcomes_wait(redis):
    config = sharing_bound(config_from_dict({"state": {"url": redis.url()}}, env={}))
    clean = EngineOutcome("github", True, latency_s=0.01, clean=True)
    memory = MemoryStore(config, FakeClock())
    bound_s = SHARING_BOUND_MS / 1000
    async with FallbackStore(RedisStore(config), memory, bound_s, FakeClock()) as store:
        await store.settle([clean] * MAX_DEFERRED, [])
        assert redis.command("LLEN", "rypsok:latency:github") == b":0"
        one_more = EngineOutcome("bing", True, latency_s=0.01, clean=True)
        await store.settle([one_more], [])  # more than may wait: written at once
        assert redis.command("LLEN", "rypsok:latency:bing") == b":1"
        await store.flush()
        assert redis.command("LLEN", "rypsok:latency:github") == b":20"
        # a probe's outcome or a returned URL never waits
        await store.settle([EngineOutcome("brave", True, latency_s=0.01, lease="x")], [])
        assert redis.command("LLEN", "rypsok:latency:brave") == b":1"
        await store.settle([clean], ["https://example.org/"])
        assert redis.command("ZCARD", "rypsok:returned-urls") == b":1"
    assert store.fallbacks == 0


def github_answer(*urls: str) -> Play:
    items = [{"full_name": f"repo/{n}", "html_url": url} for n, url in enumerate(urls)]
    return Play(body=json.dumps({"total_count": len(items), "items": items}).encode())


async def test_strict_mode_reads_what_a_search_on_another_replica_returned(engines, store):
    page = Site("127.0.0.2")
    page.route("/returned", html("<p>Returned by a search.</p>", "Returned"))
    page.route("/other", html("<p>Never returned.</p>"))
    with running(page):
        returned = f"http://127.0.0.2:{page.port}/returned"
        engines.plays["github"] = github_answer(returned)
        fetch = {
            "strict": True,
            "allow_http": True,
            "allow_networks": ["127.0.0.2/32"],
            "ports": [page.port],
        }
        config = sharing_bound(make_config(engines, {"github"}, fetch=fetch, state=store.state()))
        async with Client(config) as a, Client(config) as b:
            with pytest.raises(ToolError) as raised:
                await b.fetch(returned)
            assert raised.value.detail["reason"] == "strict_mode"
            found = await a.search("anything", category="code")
            assert [r.url for r in found.results] == [returned]
            read = await b.fetch(returned)
            assert read.title == "Returned"
            with pytest.raises(ToolError) as raised:
                await b.fetch(f"http://127.0.0.2:{page.port}/other")
            assert raised.value.detail["reason"] == "strict_mode"


async def test_returned_urls_keep_the_newest_ten_thousand(store):
    config = config_from_dict({"state": store.state()}, env={})
    urls = [f"https://example.org/{n}" for n in range(10_005)]
    async with RedisStore(config) as shared:
        assert await shared.store_answers()  # waits for the connection, opened in the background
        for first in range(0, len(urls), 2000):
            await shared.settle([], urls[first : first + 2000])
        returned = store.key("main", "returned-urls")
        assert store.reply(returned, "ZCARD", returned) == 10000
        assert await shared.was_returned([urls[-1]])
        assert not await shared.was_returned([urls[0], urls[4]])
        assert await shared.was_returned([urls[0], urls[5]])


async def test_a_cached_answer_round_trips_field_by_field(store):
    config = config_from_dict({"state": store.state(), "cache": {"enabled": True}}, env={})
    key = CacheKey("github", "ünïcode query", "code", "en", None)
    results = (
        RawResult("Tïtle", "https://example.org/a", "snippet", "2026-01-02"),
        RawResult("Other", "https://example.org/b"),
    )
    async with RedisStore(config) as shared:
        assert await shared.store_answers()  # waits for the connection, opened in the background
        await shared.settle([EngineOutcome("github", True, cache_key=key, results=results)], [])
        refused, (grant,) = await shared.plan([EngineAsk("github", 10, key)])
    assert refused == 0
    assert grant.decision == "cached"
    assert grant.results == results
    assert store.key_count(store.key("main", "cache:*")) == 1
    entry = store.key("main", "cache:" + key.digest())
    assert store.reply(entry, "EXISTS", entry) == 1
    assert "ünïcode" not in entry and "query" not in entry


async def test_a_client_outside_async_with_still_shares(engines, store):
    plays(engines)
    config = state_config(engines, store, cache={"enabled": True})
    loose = Client(config)
    await loose.search("asyncio", category="code")
    engines.seen.clear()
    async with Client(config) as other:
        hit = await other.search("asyncio", category="code")
    assert notices_of(hit, "from_cache") == [("github", None), ("stackexchange", None)]
    assert engines.seen == []
    assert loose.state.fallbacks == 0


# When the store does not answer


def state_events(records: list[logging.LogRecord]) -> list[str]:
    return [r.getMessage() for r in records if r.name == "rypsok.state"]


async def test_a_killed_store_falls_back_to_memory_and_sharing_comes_back(engines, redis, caplog):
    caplog.set_level(logging.INFO, logger="rypsok.state")
    plays(engines)
    deadline_ms = 800
    config = outage_config(
        engines, redis, cache={"enabled": True}, search={"deadline_ms": deadline_ms}
    )
    async with Client(config) as a, Client(config) as b:
        assert await a.state.store_answers()
        await a.search("before", category="code")
        redis.kill()
        assert not await a.state.store_answers()
        for n in range(6):
            for client in (a, b):
                started = anyio.current_time()
                response = await client.search(f"during {n}", category="code")
                assert response.outcome == "ok"
                assert anyio.current_time() - started < deadline_ms / 1000 + SLACK_S
                status = await client.engine_status()
                assert states(status)["github"] == "closed"
        assert a.state.fallbacks > 0 and b.state.fallbacks > 0
        # each replica logged the outage once
        assert state_events(caplog.records).count("state_store_unavailable") == 2
        redis.start()
        assert await b.state.store_answers()
        await anyio.sleep(RETRY_AFTER_S + 0.05)
        await a.search("after", category="code")
        engines.seen.clear()
        hit = await b.search("after", category="code")
        assert notices_of(hit, "from_cache") == [("github", None), ("stackexchange", None)]
        assert engines.seen == []
    assert state_events(caplog.records).count("state_store_available") == 2
    unavailable = [r for r in caplog.records if r.getMessage() == "state_store_unavailable"]
    assert all(r.fields["error"] for r in unavailable)  # type: ignore[attr-defined]


async def test_a_hung_store_costs_a_call_at_most_its_bound(engines, redis):
    plays(engines)
    deadline_ms = 500
    config = outage_config(
        engines, redis, search={"deadline_ms": deadline_ms}, state={"timeout_ms": 50}
    )
    async with Client(config) as a:
        await a.search("warm", category="code")
        redis.pause()
        try:
            for n in range(4):
                started = anyio.current_time()
                response = await a.search(f"hung {n}", category="code")
                assert response.outcome == "ok"
                assert anyio.current_time() - started < deadline_ms / 1000 + SLACK_S
                await anyio.sleep(RETRY_AFTER_S / 2)
            assert not await a.state.store_answers()
        finally:
            redis.resume()
        assert a.state.fallbacks >= 4


async def test_unavailable_is_logged_at_most_once_a_minute(engines, redis, caplog):
    caplog.set_level(logging.INFO, logger="rypsok.state")
    plays(engines)
    redis.kill()
    clock = FakeClock()
    config = outage_config(engines, redis)
    async with Client(config, clock=clock) as client:
        assert isinstance(client.state, FallbackStore)
        await client.search("one", category="code")
        fallbacks = client.state.fallbacks
        assert fallbacks == 2  # the plan (with the tool window) and the settle
        assert client.state.using_memory
        for _ in range(10):
            clock.now += RETRY_AFTER_S + 0.5  # the store is tried again, and fails again
            await client.search("again", category="code")
        assert state_events(caplog.records).count("state_store_unavailable") == 1
        assert client.state.fallbacks == fallbacks + 20
        clock.now += 60
        await client.search("a minute later", category="code")
        assert state_events(caplog.records).count("state_store_unavailable") == 2


async def test_without_state_the_store_is_memory(engines):
    plays(engines)
    async with Client(make_config(engines, CODE)) as client:
        assert client.state.shared is False
        assert await client.state.store_answers()
        assert (await client.search("asyncio", category="code")).outcome == "ok"


@pytest.mark.parametrize("shared_store", [False, True], ids=["memory", "redis"])
async def test_a_search_refused_busy_takes_nothing_and_one_refused_later_counts(
    engines, redis, shared_store
):
    """web_search takes its window with its plan; a search let in but refused before the plan
    takes it alone; one refused busy at admission did no work and takes nothing."""
    engines.plays["github"] = json_play("github/search.json", delay_s=0.4)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    state = {"state": {"url": redis.url()}} if shared_store else {}
    config = make_config(
        engines, CODE, limits={"web_search": 3}, search={"max_concurrent": 1}, **state
    )
    if shared_store:
        config = sharing_bound(config)
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    refusals = []
    async with Client(config) as client:

        async def slow() -> None:
            await client.search("slow", category="code")

        async with anyio.create_task_group() as group:
            group.start_soon(slow)  # the window's first event
            await anyio.sleep(0.1)
            for _ in range(3):
                with pytest.raises(ToolError) as busy:
                    await client.search("while busy", category="code")  # not counted
                refusals.append(busy.value.detail["reason"])
        with pytest.raises(ToolError) as denied:
            await client.search(f"token {secret}", category="code")  # the second
        refusals.append(denied.value.detail["reason"])
        third = await client.search("third", category="code")
        for query in ("fourth", f"token {secret}"):
            with pytest.raises(ToolError) as limited:
                await client.search(query, category="code")
            refusals.append(limited.value.detail["reason"])
    assert third.outcome == "ok"
    assert refusals == ["busy"] * 3 + ["secret_in_query", "rate_limited", "rate_limited"]


@pytest.mark.parametrize("shared_store", [False, True], ids=["memory", "redis"])
async def test_a_fetch_refused_busy_takes_nothing_from_the_minute(engines, redis, shared_store):
    page = Site("127.0.0.2")
    slow = html("<p>Slow to answer.</p>", "Slow")
    slow.delay_s = 0.6
    page.route("/slow", slow)
    page.route("/page", html("<p>Quick to answer.</p>", "Quick"))
    state = {"state": {"url": redis.url()}} if shared_store else {}
    refusals = []
    with running(page):
        fetch = {
            "max_concurrent": 1,
            "allow_http": True,
            "allow_networks": ["127.0.0.2/32"],
            "ports": [page.port],
        }
        config = make_config(engines, CODE, limits={"web_fetch": 2}, fetch=fetch, **state)
        if shared_store:
            config = sharing_bound(config)
        quick = f"http://127.0.0.2:{page.port}/page"
        async with Client(config) as client:

            async def first() -> None:
                await client.fetch(f"http://127.0.0.2:{page.port}/slow")  # the first event

            async with anyio.create_task_group() as group:
                group.start_soon(first)
                await anyio.sleep(0.3)
                for _ in range(3):
                    with pytest.raises(ToolError) as busy:
                        await client.fetch(quick)  # not counted
                    refusals.append(busy.value.detail["reason"])
            second = await client.fetch(quick)
            with pytest.raises(ToolError) as limited:
                await client.fetch(quick)
            refusals.append(limited.value.detail["reason"])
    assert second.title == "Quick"
    assert refusals == ["busy"] * 3 + ["rate_limited"]


@pytest.mark.parametrize("anyio_backend", ["asyncio", "trio"])
async def test_the_shared_store_works_under_asyncio_and_trio(engines, redis, anyio_backend):
    plays(engines)
    config = state_config(engines, redis, cache={"enabled": True})
    async with Client(config) as a, Client(config) as b:
        await a.search("either loop", category="code")
        hit = await b.search("either loop", category="code")
        assert notices_of(hit, "from_cache") == [("github", None), ("stackexchange", None)]
        assert a.state.fallbacks == b.state.fallbacks == 0


async def test_returned_urls_are_kept_only_in_strict_mode(engines, redis):
    plays(engines)
    async with Client(state_config(engines, redis)) as client:
        response = await client.search("asyncio", category="code")
        assert response.results
        assert not await client.state.was_returned([response.results[0].url])
    assert redis.command("EXISTS", "rypsok:returned-urls") == b":0"
