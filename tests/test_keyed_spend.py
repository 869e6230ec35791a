"""What the paid engines cost, and what rypsok does when their money is gone.

The engines are the loopback fakes of tests/engine_servers.py answering each provider's
documented fixtures. Checked here: a spent plan (Tavily's 432 and 433, Kagi's error 101,
Exa's 402, Serper's "Not enough credits") rests the engine for ``spent_rest_s`` (an hour
by default): later searches skip it with ``rate_limited`` and do not ask it, in memory and
through a real redis-server shared by two replicas, and the log says so once; the cost
each answer reports goes to the Observer (the team server's counter and gauge), the debug
log and the monthly cost cap (in memory and in Redis); the region reaches Serper's ``gl``.
"""

from __future__ import annotations

import datetime as dt
import json
import logging

import pytest
import trio

from rypsok import Client, ToolError
from rypsok.config import ConfigError, config_from_dict
from rypsok.config.engines import SPENT_REST_S
from rypsok.observability.observer import Observer
from rypsok.serve_http.metrics import Metrics
from rypsok.state import EngineAsk, EngineOutcome
from rypsok.state.limits import MonthlyCap
from rypsok.state.memory import MemoryStore
from rypsok.state.redis import RedisStore
from tests.conftest import make_config
from tests.engine_samples import KEYED_KEYS
from tests.engine_servers import json_play
from tests.redis_server import sharing_bound

pytestmark = pytest.mark.anyio

HOUR_MS = SPENT_REST_S * 1000
SPENT_PLAYS = {
    "tavily": json_play("tavily/error_432.json", status=432),
    "kagi": json_play("kagi/error_400_credit.json", status=400),
    "exa": json_play("exa/error_402.json", status=402),
    "serper": json_play("serper/error_credits.json", status=400),
}


def config_for(engines, enabled, overrides=None, **sections):
    return make_config(engines, set(enabled), overrides, env=dict(KEYED_KEYS), **sections)


def skipped(response) -> list[tuple[str, str]]:
    return [(n.engine, n.reason) for n in response.notices if n.code == "engine_skipped"]


def unavailable(response) -> list[tuple[str, str]]:
    return [(n.engine, n.reason) for n in response.notices if n.code == "engine_unavailable"]


def resting_lines(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage() == "engine_resting"]


# --- a spent plan rests the engine -----------------------------------------------------------


@pytest.mark.parametrize("engine", sorted(SPENT_PLAYS))
async def test_a_spent_plan_rests_the_engine_and_is_logged_once(engines, caplog, engine):
    engines.plays[engine] = SPENT_PLAYS[engine]
    engines.plays["wikipedia"] = json_play("wikipedia/search.json")
    caplog.set_level(logging.INFO, logger="rypsok")
    async with Client(config_for(engines, {engine, "wikipedia"})) as client:
        first = await client.search("rust async")
        second = await client.search("rust async")
        third = await client.search("tokio")
    assert unavailable(first) == [(engine, "rate_limited")]
    assert skipped(second) == skipped(third) == [(engine, "rate_limited")]
    assert second.outcome == third.outcome == "ok"
    assert len(engines.requests_for(engine)) == 1
    (line,) = resting_lines(caplog)
    assert line.levelno == logging.WARNING
    assert line.fields == {"engine": engine, "reason": "plan_spent", "rest_s": SPENT_REST_S}


async def test_a_rate_limit_does_not_rest_the_engine(engines):
    engines.plays["tavily"] = json_play("tavily/error_429.json", status=429)
    engines.plays["wikipedia"] = json_play("wikipedia/search.json")
    async with Client(config_for(engines, {"tavily", "wikipedia"})) as client:
        await client.search("one")
        again = await client.search("two")
    assert skipped(again) == []
    assert len(engines.requests_for("tavily")) == 2


async def test_a_resting_engine_alone_is_unavailable_for_the_rest(engines):
    engines.plays["tavily"] = json_play("tavily/error_433.json", status=433)
    overrides = {"tavily": {"spent_rest_s": 900}}
    async with Client(config_for(engines, {"tavily"}, overrides)) as client:
        with pytest.raises(ToolError):
            await client.search("one")
        with pytest.raises(ToolError) as resting:
            await client.search("two")
    assert resting.value.detail["reason"] == "rate_limited"
    assert 900_000 - 5_000 <= resting.value.detail["retry_after_ms"] <= 900_000
    assert len(engines.requests_for("tavily")) == 1


async def test_searches_in_flight_when_the_plan_runs_out_log_it_once(engines, caplog):
    engines.plays["tavily"] = json_play("tavily/error_432.json", status=432, delay_s=0.2)
    engines.plays["wikipedia"] = json_play("wikipedia/search.json")
    caplog.set_level(logging.INFO, logger="rypsok")
    config = config_for(engines, {"tavily", "wikipedia"})
    async with Client(config) as client, trio.open_nursery() as nursery:
        for query in ("one", "two", "three"):
            nursery.start_soon(client.search, query)
    assert len(engines.requests_for("tavily")) == 3
    assert len(resting_lines(caplog)) == 1


async def test_the_rest_is_shared_through_redis(engines, store):
    """On one server, a Sentinel's primary and a Cluster (tests/redis_topologies.py)."""
    engines.plays["tavily"] = json_play("tavily/error_432.json", status=432)
    engines.plays["wikipedia"] = json_play("wikipedia/search.json")
    config = sharing_bound(config_for(engines, {"tavily", "wikipedia"}, state=store.state()))
    async with Client(config) as a, Client(config) as b:
        await a.search("one")
        other = await b.search("two")
        assert a.state.fallbacks == b.state.fallbacks == 0
    assert skipped(other) == [("tavily", "rate_limited")]
    assert len(engines.requests_for("tavily")) == 1
    rest = store.key("engine:tavily", "rest:tavily")
    ttl_ms = store.reply(rest, "PTTL", rest)
    assert isinstance(ttl_ms, int) and HOUR_MS - 5_000 <= ttl_ms <= HOUR_MS


@pytest.mark.parametrize("shared_store", [False, True], ids=["memory", "redis"])
async def test_a_rest_ends_and_a_longer_one_stays(engines, redis, shared_store):
    """Store level, with short rests: the engine is asked again once its rest is over, and
    a shorter rest set meanwhile does not cut a longer one."""
    config = make_config(engines, {"tavily"}, state={"url": redis.url()} if shared_store else {})
    now = [0.0]
    store = RedisStore(config) if shared_store else MemoryStore(config, lambda: now[0])
    ask = EngineAsk("tavily", 1000, None)
    async with store:
        if shared_store:
            await store.store_answers()
        await store.settle([EngineOutcome("tavily", False, rest_s=0.4)], [])
        await store.settle([EngineOutcome("tavily", False, rest_s=0.1)], [])
        _, (resting,) = await store.plan([ask])
        if shared_store:
            await trio.sleep(0.45)
        else:
            now[0] = 0.45
        _, (after,) = await store.plan([ask])
    assert resting.decision == "rate_limited"
    assert 250 <= resting.retry_after_ms <= 400
    assert after.decision in ("go", "probe")


# --- what each call cost -------------------------------------------------------------------


class Heard(Observer):
    def __init__(self) -> None:
        self.usage: list[tuple[str, str, float | None, float | None]] = []

    def engine_usage(self, engine, unit, cost, balance) -> None:
        self.usage.append((engine, unit, cost, balance))


async def test_each_answer_says_what_it_cost(engines, caplog):
    for engine in ("tavily", "exa", "serper"):
        engines.plays[engine] = json_play(f"{engine}/search.json")
    engines.plays["kagi"] = json_play("kagi/v0_search.json")
    heard = Heard()
    caplog.set_level(logging.DEBUG, logger="rypsok")
    config = config_for(engines, {"tavily", "exa", "serper", "kagi"})
    async with Client(config, observer=heard) as client:
        await client.search("rust async")
    assert sorted(heard.usage) == [
        ("exa", "usd", 0.006, None),
        ("kagi", "usd", None, 8.935),
        ("serper", "credits", 1.0, None),
        ("tavily", "credits", 1.0, None),
    ]
    logged = sorted(
        (r.fields["engine"], r.fields["unit"], r.fields["cost"], r.fields["balance"])
        for r in caplog.records
        if r.getMessage() == "engine_usage"
    )
    assert logged == sorted(heard.usage)
    assert all(
        r.levelno == logging.DEBUG for r in caplog.records if r.getMessage() == "engine_usage"
    )


def test_the_metrics_count_cost_and_show_the_balance():
    metrics = Metrics()
    metrics.engine_usage("exa", "usd", 0.006, None)
    metrics.engine_usage("exa", "usd", 0.005, None)
    metrics.engine_usage("tavily", "credits", 1.0, None)
    metrics.engine_usage("kagi", "usd", None, 8.935)
    metrics.engine_usage("kagi", "usd", None, 8.91)
    sample = metrics.registry.get_sample_value
    assert sample("rypsok_engine_cost_total", {"engine": "exa", "unit": "usd"}) == pytest.approx(
        0.011
    )
    assert sample("rypsok_engine_cost_total", {"engine": "tavily", "unit": "credits"}) == 1.0
    assert sample("rypsok_engine_cost_total", {"engine": "kagi", "unit": "usd"}) is None
    assert sample("rypsok_engine_balance", {"engine": "kagi", "unit": "usd"}) == 8.91


# --- the monthly cost cap ------------------------------------------------------------------


def cost_capped(engines, cap: float, **sections):
    return config_for(
        engines,
        {"tavily", "exa", "wikipedia"},
        {"tavily": {"max_cost_per_month": cap}, "exa": {"max_cost_per_month": 0.01}},
        **sections,
    )


async def test_the_monthly_cost_cap_skips_the_engine_once_spent(engines):
    engines.plays["tavily"] = json_play("tavily/search.json")
    engines.plays["exa"] = json_play("exa/search.json")
    engines.plays["wikipedia"] = json_play("wikipedia/search.json")
    async with Client(cost_capped(engines, 2)) as client:
        first = await client.search("one")
        second = await client.search("two")
        third = await client.search("three")
    # Exa costs 0.006 a search and Tavily 1 credit: two each is over 0.01 and at 2
    assert skipped(first) == skipped(second) == []
    assert sorted(skipped(third)) == [("exa", "rate_limited"), ("tavily", "rate_limited")]
    assert len(engines.requests_for("tavily")) == 2
    assert len(engines.requests_for("exa")) == 2


async def test_the_monthly_cost_is_shared_through_redis(engines, store):
    """On one server, a Sentinel's primary and a Cluster (tests/redis_topologies.py)."""
    engines.plays["tavily"] = json_play("tavily/search.json")
    engines.plays["exa"] = json_play("exa/search.json")
    engines.plays["wikipedia"] = json_play("wikipedia/search.json")
    config = sharing_bound(cost_capped(engines, 2, state=store.state()))
    async with Client(config) as a, Client(config) as b:
        await a.search("one")
        await b.search("two")
        third = await a.search("three")
        assert a.state.fallbacks == b.state.fallbacks == 0
    assert sorted(skipped(third)) == [("exa", "rate_limited"), ("tavily", "rate_limited")]
    month = dt.datetime.now(dt.UTC).strftime("%Y-%m")
    tavily = store.key("engine:tavily", f"cost:tavily:{month}")
    exa = store.key("engine:exa", f"cost:exa:{month}")
    assert float(store.reply(tavily, "GET", tavily)) == 2.0
    assert float(store.reply(exa, "GET", exa)) == pytest.approx(0.012)


@pytest.mark.parametrize("shared_store", [False, True], ids=["memory", "redis"])
async def test_a_new_month_starts_a_new_cost(engines, redis, shared_store):
    config = make_config(engines, {"exa"}, state={"url": redis.url()} if shared_store else {})
    store = RedisStore(config) if shared_store else MemoryStore(config, lambda: 0.0)

    def ask(month: str) -> EngineAsk:
        return EngineAsk("exa", 1000, None, monthly_cost=MonthlyCap(0.01, month, 7_000))

    def spent(month: str) -> EngineOutcome:
        cap = MonthlyCap(0.01, month, 7_000)
        return EngineOutcome("exa", True, cost=0.006, monthly_cost=cap)

    async with store:
        if shared_store:
            await store.store_answers()
        await store.settle([spent("2026-10")], [])
        _, (under,) = await store.plan([ask("2026-10")])
        await store.settle([spent("2026-10")], [])
        _, (over,) = await store.plan([ask("2026-10")])
        _, (next_month,) = await store.plan([ask("2026-11")])
    assert under.decision == "go"
    assert (over.decision, over.retry_after_ms) == ("rate_limited", 7_000)
    assert next_month.decision == "go"


# --- configuration -------------------------------------------------------------------------


def test_the_new_keys_are_checked_in_the_configuration():
    def engine_table(engine: str, table: dict):
        return config_from_dict({"engines": {engine: table}}, env={}).engine(engine)

    assert engine_table("serper", {"region": "DE"}).region == "de"
    assert engine_table("kagi", {"region": "at"}).region == "at"
    assert engine_table("exa", {"max_cost_per_month": 5}).max_cost_per_month == 5.0
    assert engine_table("tavily", {}).spent_rest_s == SPENT_REST_S == 3600
    assert engine_table("tavily", {"spent_rest_s": 60}).spent_rest_s == 60
    refused = [
        ("serper", {"region": "usa"}, "engines.serper.region"),
        ("serper", {"region": 1}, "engines.serper.region"),
        ("tavily", {"region": "us"}, "engines.tavily.region"),
        ("kagi", {"max_cost_per_month": 5}, "engines.kagi.max_cost_per_month"),
        ("exa", {"max_cost_per_month": -1}, "engines.exa.max_cost_per_month"),
        ("tavily", {"spent_rest_s": 0}, "engines.tavily.spent_rest_s"),
    ]
    for engine, table, key in refused:
        with pytest.raises(ConfigError, match=key):
            engine_table(engine, table)


async def test_a_configured_region_reaches_serper_and_kagi(engines):
    engines.plays["serper"] = json_play("serper/search.json")
    engines.plays["kagi"] = json_play("kagi/search.json")
    overrides = {"serper": {"region": "de"}, "kagi": {"region": "de"}}
    async with Client(config_for(engines, {"serper", "kagi"}, overrides)) as client:
        await client.search("rust async")
    (serper,) = engines.requests_for("serper")
    assert json.loads(serper.body) == {"q": "rust async", "num": 5, "hl": "en", "gl": "de"}
    (kagi,) = engines.requests_for("kagi")
    assert json.loads(kagi.body)["filters"] == {"region": "de"}
