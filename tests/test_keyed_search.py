"""The bring-your-own-key engines through the library, the state store and the CLI.

The engines are the loopback fakes of tests/engine_servers.py answering each provider's
documented fixtures. Checked here: the request each engine receives (method, path,
headers, JSON body), fusion with the engine's own order, engines not offered without
their key (engine_status, the start-up log line), the key kept out of everything
rypsok says, the monthly cap in memory and in a real redis-server shared by two
replicas, and ``rypsok probe --engines``.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import subprocess

import pytest

from rypsok import Client, ToolError
from rypsok.state import EngineAsk
from rypsok.state.limits import MonthlyCap, monthly_cap
from rypsok.state.memory import MemoryStore
from rypsok.state.redis import RedisStore
from tests.conftest import config_data, make_config
from tests.engine_samples import KEYED_ENGINES, KEYED_KEYS, TAVILY_GENERAL_BODY
from tests.engine_servers import Play, json_play
from tests.mcp_harness import ROOT, write_toml
from tests.redis_server import sharing_bound
from tests.server_fork import rypsok_command

pytestmark = pytest.mark.anyio

KEYS = KEYED_KEYS
KEYED = KEYED_ENGINES
ENV_OF = {
    "tavily": "TAVILY_API_KEY",
    "exa": "EXA_API_KEY",
    "kagi": "KAGI_API_KEY",
    "serper": "SERPER_API_KEY",
}


def good_plays(engines) -> None:
    for engine in KEYED:
        engines.plays[engine] = json_play(f"{engine}/search.json")


def keyed_config(engines, env=KEYS, enabled=KEYED, **sections):
    return make_config(engines, set(enabled), env=dict(env), **sections)


def seen(engines, engine: str):
    (request,) = engines.requests_for(engine)
    headers = {name.lower(): value for name, value in request.headers.items()}
    return request, headers


# --- what each engine sends, and what comes back ---------------------------------------------


async def test_the_four_engines_answer_a_general_search(engines):
    good_plays(engines)
    async with Client(keyed_config(engines)) as client:
        response = await client.search("rust async", max_results=10)
    assert response.outcome == "ok" and response.notices == []
    urls = [result.url for result in response.results]
    assert urls[:2] == [
        "https://rust-lang.github.io/async-book/",
        "https://tokio.rs/tokio/tutorial",
    ]
    assert set(urls) == {
        "https://rust-lang.github.io/async-book/",
        "https://tokio.rs/tokio/tutorial",
        "https://without.boats/blog/why-async-rust/",
    }

    request, headers = seen(engines, "tavily")
    assert (request.method, request.path) == ("POST", "/e/tavily/search")
    assert headers["authorization"] == "Bearer " + KEYS["TAVILY_API_KEY"]
    assert headers["content-type"] == "application/json"
    assert headers["accept"] == "application/json"
    assert headers["user-agent"].startswith("rypsok/")
    assert json.loads(request.body) == TAVILY_GENERAL_BODY

    request, headers = seen(engines, "exa")
    assert (request.method, request.path) == ("POST", "/e/exa/search")
    assert headers["x-api-key"] == KEYS["EXA_API_KEY"]
    assert "authorization" not in headers
    assert headers["content-type"] == "application/json"
    assert json.loads(request.body) == {
        "query": "rust async",
        "type": "auto",
        "numResults": 10,
        "contents": {"highlights": True},
    }

    request, headers = seen(engines, "kagi")
    assert (request.method, request.path) == ("POST", "/e/kagi/api/v1/search")
    assert headers["authorization"] == "Bot " + KEYS["KAGI_API_KEY"]
    assert headers["content-type"] == "application/json"
    assert json.loads(request.body) == {"query": "rust async", "workflow": "search", "limit": 10}

    request, headers = seen(engines, "serper")
    assert (request.method, request.path) == ("POST", "/e/serper/search")
    assert headers["x-api-key"] == KEYS["SERPER_API_KEY"]
    assert json.loads(request.body) == {"q": "rust async", "num": 10, "hl": "en"}

    for engine in KEYED:
        request, _ = seen(engines, engine)
        for env, key in KEYS.items():
            if env != ENV_OF[engine]:
                raw = f"{request.path}\n{request.headers}".encode() + request.body
                assert key.encode() not in raw, f"{env} was sent to {engine}"


async def test_news_and_science_go_to_the_engines_that_serve_them(engines):
    engines.plays["tavily"] = json_play("tavily/news.json")
    engines.plays["exa"] = json_play("exa/news.json")
    engines.plays["serper"] = json_play("serper/news.json")
    engines.plays["kagi"] = json_play("kagi/news.json")
    async with Client(keyed_config(engines)) as client:
        news = await client.search("eu ai act", category="news", time_range="week")
        assert news.outcome == "ok"
        assert json.loads(seen(engines, "kagi")[0].body) == {
            "query": "eu ai act",
            "workflow": "news",
            "limit": 5,
            "filters": {
                "after": (dt.datetime.now(dt.UTC) - dt.timedelta(days=7)).date().isoformat()
            },
        }
        assert json.loads(seen(engines, "tavily")[0].body)["topic"] == "news"
        assert json.loads(seen(engines, "tavily")[0].body)["time_range"] == "week"
        assert seen(engines, "serper")[0].path == "/e/serper/news"
        assert json.loads(seen(engines, "serper")[0].body)["tbs"] == "qdr:w"
        assert json.loads(seen(engines, "exa")[0].body)["category"] == "news"
        by_url = {result.url: result for result in news.results}
        assert by_url["https://news.example/2026/09/30/ai-act-next-phase"].date == "2026-09-30"

        engines.reset()
        engines.plays["exa"] = json_play("exa/search.json")
        science = await client.search("async", category="science")
        assert [r.url for r in science.results][0] == "https://rust-lang.github.io/async-book/"
        assert json.loads(seen(engines, "exa")[0].body)["category"] == "publication"


async def test_a_scored_engine_keeps_its_own_order(engines):
    engines.plays["tavily"] = json_play("tavily/search.json")
    async with Client(keyed_config(engines, enabled={"tavily"})) as client:
        response = await client.search("rust async")
    assert [r.url for r in response.results] == [
        "https://rust-lang.github.io/async-book/",
        "https://tokio.rs/tokio/tutorial",
        "https://without.boats/blog/why-async-rust/",
    ]


async def test_kagi_filters_a_time_range_and_serper_honours_languages(engines):
    good_plays(engines)
    config = keyed_config(engines, search={"languages": ["en", "de"]})
    async with Client(config) as client:
        dated = await client.search("rust async", time_range="day")
        assert [n for n in dated.notices if n.code == "engine_skipped"] == []
        yesterday = (dt.datetime.now(dt.UTC) - dt.timedelta(days=1)).date().isoformat()
        assert json.loads(seen(engines, "kagi")[0].body)["filters"] == {"after": yesterday}
        engines.reset()
        good_plays(engines)
        german = await client.search("rust async", language="de")
    skipped = sorted((n.engine, n.reason) for n in german.notices if n.code == "engine_skipped")
    assert skipped == [("exa", "language"), ("kagi", "language"), ("tavily", "language")]
    assert json.loads(seen(engines, "serper")[0].body) == {"q": "rust async", "num": 5, "hl": "de"}


@pytest.mark.parametrize(
    ("engine", "play", "reason"),
    [
        ("tavily", Play(body=b'{"detail": {"error": "Unauthorized"}}', status=401), "auth_failure"),
        ("tavily", json_play("tavily/error_432.json", status=432), "rate_limited"),
        ("exa", json_play("exa/error_402.json", status=402), "rate_limited"),
        ("exa", json_play("exa/error_401.json"), "auth_failure"),
        ("kagi", json_play("kagi/error_400_credit.json", status=400), "rate_limited"),
        ("kagi", json_play("kagi/v0_error_402.json"), "rate_limited"),
        ("serper", json_play("serper/error_403.json", status=403), "auth_failure"),
        ("serper", json_play("serper/error_500.json", status=500), "request_failure"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
async def test_a_failing_keyed_engine_is_a_notice(engines, caplog, engine, play, reason):
    good_plays(engines)
    engines.plays[engine] = play
    caplog.set_level(logging.DEBUG, logger="rypsok")
    async with Client(keyed_config(engines)) as client:
        response = await client.search("rust async")
        status = await client.engine_status()
    assert response.outcome == "partial"
    unavailable = [n for n in response.notices if n.code == "engine_unavailable"]
    assert [(n.engine, n.reason) for n in unavailable] == [(engine, reason)]
    said = json.dumps([response.to_json(), status.to_json()]) + caplog.text
    for key in KEYS.values():
        assert key not in said


# --- not offered without a key ---------------------------------------------------------------


async def test_without_keys_the_engines_are_not_offered(engines, caplog):
    engines.plays["wikipedia"] = json_play("wikipedia/search.json")
    caplog.set_level(logging.INFO, logger="rypsok")
    config = make_config(
        engines,
        {"wikipedia", *KEYED},
        engine_overrides={"brave": {"enabled": True}},
        env={"KAGI_API_KEY": KEYS["KAGI_API_KEY"]},
    )
    async with Client(config) as client:
        status = await client.engine_status()
        engines.plays["kagi"] = json_play("kagi/empty.json")
        response = await client.search("python")
    listed = {entry.id: (entry.state, entry.reason) for entry in status.engines}
    assert "tavily" not in listed and "exa" not in listed and "serper" not in listed
    assert listed["kagi"] == ("closed", None)
    assert listed["brave"] == ("disabled", "no_credential")
    assert [entry.id for entry in status.engines] == sorted(listed)
    assert response.outcome == "ok"
    assert {s.engine for s in engines.seen} == {"wikipedia", "kagi"}
    lines = [r for r in caplog.records if r.getMessage() == "engine_not_offered"]
    assert sorted((r.levelname, r.fields["engine"], r.fields["credential_env"]) for r in lines) == [
        ("INFO", "exa", "EXA_API_KEY"),
        ("INFO", "serper", "SERPER_API_KEY"),
        ("INFO", "tavily", "TAVILY_API_KEY"),
    ]
    assert KEYS["KAGI_API_KEY"] not in caplog.text


async def test_a_keyed_engine_switched_off_with_its_key_is_listed_disabled(engines):
    config = make_config(
        engines,
        {"wikipedia"},
        engine_overrides={"tavily": {"enabled": False}},
        env={"TAVILY_API_KEY": KEYS["TAVILY_API_KEY"]},
    )
    async with Client(config) as client:
        status = await client.engine_status()
    listed = {entry.id: (entry.state, entry.reason) for entry in status.engines}
    assert listed["tavily"] == ("disabled", "disabled")
    assert "exa" not in listed


async def test_keyed_engines_without_keys_offer_no_category(engines):
    config = make_config(engines, {"hackernews", *KEYED}, env={})
    assert config.served_categories() == ["news"]
    async with Client(config) as client:
        with pytest.raises(ToolError) as refused:
            await client.search("python", category="general")
    error = refused.value.to_json()["error"]
    assert error["kind"] == "invalid_request"
    assert error["detail"] == {"parameter": "category", "allowed": ["news"]}


# --- the monthly cap -------------------------------------------------------------------------


def capped_config(engines, cap: int, **sections):
    return keyed_config(
        engines,
        enabled={"tavily", "exa"},
        engine_overrides={"tavily": {"max_calls_per_month": cap}},
        **sections,
    )


def skipped(response) -> list[tuple[str, str]]:
    return [(n.engine, n.reason) for n in response.notices if n.code == "engine_skipped"]


def month_left_ms() -> int:
    cap = monthly_cap(1, dt.datetime.now(dt.UTC))
    assert cap is not None
    return cap.ends_in_ms


async def test_the_monthly_cap_skips_the_engine_once_used(engines):
    good_plays(engines)
    async with Client(capped_config(engines, 2)) as client:
        first = await client.search("one")
        second = await client.search("two")
        third = await client.search("three")
    assert skipped(first) == skipped(second) == []
    assert skipped(third) == [("tavily", "rate_limited")]
    assert third.outcome == "ok"
    assert len(engines.requests_for("tavily")) == 2
    assert len(engines.requests_for("exa")) == 3


async def test_a_spent_cap_alone_is_unavailable_until_the_month_ends(engines):
    good_plays(engines)
    config = keyed_config(
        engines, enabled={"tavily"}, engine_overrides={"tavily": {"max_calls_per_month": 1}}
    )
    async with Client(config) as client:
        await client.search("one")
        before = month_left_ms()
        with pytest.raises(ToolError) as refused:
            await client.search("two")
    assert refused.value.detail["reason"] == "rate_limited"
    assert before - 60_000 <= refused.value.detail["retry_after_ms"] <= before


async def test_cached_answers_do_not_count_against_the_cap(engines):
    good_plays(engines)
    async with Client(capped_config(engines, 1, cache={"enabled": True})) as client:
        await client.search("same")
        again = await client.search("same")
    assert ("tavily", "rate_limited") not in skipped(again)
    assert len(engines.requests_for("tavily")) == 1


async def test_the_monthly_cap_is_shared_through_redis(engines, store):
    """On one server, a Sentinel's primary and a Cluster (tests/redis_topologies.py)."""
    good_plays(engines)
    config = sharing_bound(capped_config(engines, 2, state=store.state()))
    async with Client(config) as a, Client(config) as b:
        await a.search("one")
        await b.search("two")
        third = await a.search("three")
        fourth = await b.search("four")
        assert a.state.fallbacks == b.state.fallbacks == 0
    assert skipped(third) == skipped(fourth) == [("tavily", "rate_limited")]
    assert len(engines.requests_for("tavily")) == 2
    month = dt.datetime.now(dt.UTC).strftime("%Y-%m")
    counter = store.key("engine:tavily", f"month:tavily:{month}")
    assert store.reply(counter, "GET", counter) == b"2"
    ttl_ms = store.reply(counter, "PTTL", counter)
    assert isinstance(ttl_ms, int)
    # a day past the month's end, give or take the moments between
    assert abs(ttl_ms - (month_left_ms() + 86_400_000)) < 2_000


def month_ask(limit: int, month: str, ends_in_ms: int = 5_000) -> EngineAsk:
    return EngineAsk("tavily", 1000, None, MonthlyCap(limit, month, ends_in_ms))


@pytest.mark.parametrize("shared_store", [False, True], ids=["memory", "redis"])
async def test_a_new_month_starts_a_new_count(engines, redis, shared_store):
    config = make_config(engines, {"tavily"}, state={"url": redis.url()} if shared_store else {})
    store = RedisStore(config) if shared_store else MemoryStore(config, lambda: 0.0)
    async with store:
        if shared_store:
            await store.store_answers()
        _, (first,) = await store.plan([month_ask(2, "2026-10")])
        _, (second,) = await store.plan([month_ask(2, "2026-10")])
        _, (spent,) = await store.plan([month_ask(2, "2026-10", ends_in_ms=7_200)])
        _, (uncapped,) = await store.plan([EngineAsk("tavily", 1000, None)])
        _, (next_month,) = await store.plan([month_ask(2, "2026-11")])
    assert [first.decision, second.decision] == ["go", "go"]
    assert (spent.decision, spent.retry_after_ms) == ("rate_limited", 7_200)
    assert uncapped.decision == "go"
    assert next_month.decision == "go"


def test_monthly_cap_reads_the_utc_calendar():
    now = dt.datetime(2026, 12, 31, 23, 59, 0, tzinfo=dt.UTC)
    assert monthly_cap(5, now) == MonthlyCap(5, "2026-12", 60_000)
    east = dt.datetime(2027, 1, 1, 0, 30, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert monthly_cap(5, east) == MonthlyCap(5, "2026-12", 90 * 60_000)
    assert monthly_cap(None, now) is None


def test_the_cap_is_checked_in_the_configuration():
    from rypsok.config import ConfigError, config_from_dict

    for bad in (0, -1, "10", 1.5, True):
        with pytest.raises(ConfigError, match="engines.tavily.max_calls_per_month"):
            config_from_dict({"engines": {"tavily": {"max_calls_per_month": bad}}}, env={})
    config = config_from_dict({"engines": {"serper": {"max_calls_per_month": 2500}}}, env={})
    assert config.engine("serper").max_calls_per_month == 2500
    assert config.engine("tavily").max_calls_per_month is None


# --- the probe -------------------------------------------------------------------------------


def run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    import os

    return subprocess.run(
        rypsok_command(*argv),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if k not in KEYS}, **env},
    )


def test_probe_engines_shows_only_the_named_engines(engines, tmp_path):
    good_plays(engines)
    engines.plays["wikipedia"] = json_play("wikipedia/search.json")
    data = config_data(engines, {"wikipedia", *KEYED})
    path = str(write_toml(data, tmp_path / "rypsok.toml"))
    done = run(["probe", "--config", path, "--engines", "tavily,exa", "rust async"], KEYS)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    rows = {line.split()[0]: line.split() for line in lines[1:5:2]}
    assert sorted(rows) == ["exa", "tavily"]
    assert rows["tavily"][1] == "answered" and rows["tavily"][4:6] == ["3", "results"]
    assert rows["exa"][1] == "answered" and rows["exa"][4:6] == ["3", "results"]
    # under each paid engine's bar, what its answer said the call cost
    costs = {line.split()[0]: " ".join(line.split()[1:]) for line in lines[2:6:2]}
    assert costs == {"tavily": "cost 1 credit", "exa": "cost 0.006 USD"}
    assert lines[5].startswith("deadline ")
    assert {s.engine for s in engines.seen} == {"tavily", "exa"}
    for key in KEYS.values():
        assert key not in done.stdout and key not in done.stderr


def test_probe_engines_refuses_an_engine_that_cannot_run(engines, tmp_path):
    path = str(write_toml(config_data(engines, {"wikipedia"}), tmp_path / "rypsok.toml"))
    without_key = run(["probe", "--config", path, "--engines", "tavily", "q"], {})
    assert without_key.returncode == 2
    assert "TAVILY_API_KEY" in without_key.stderr
    unknown = run(["probe", "--config", path, "--engines", "tavily,bing", "q"], KEYS)
    assert unknown.returncode == 2
    assert "unknown engine 'bing'" in unknown.stderr
    assert engines.seen == []
