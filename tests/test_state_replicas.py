"""Two replicas, two ``rypsok serve --http`` processes on loopback ports, sharing one
real redis-server.

Each replica is driven by the mcp SDK's own Streamable HTTP client (tests/mcp_harness.py)
and has its own log file; the engines and the page are loopback fakes. Only HTTP: a team
runs replicas over HTTP, and the stdio transport shares the same state code (running
both would double this module's time for no new path). What one replica did
must show on the other: the per-minute limit, an open breaker, the single probe, a
cache entry, a URL strict mode may read. Killing the store mid-run must leave every
call answered within its deadline, and restarting it must bring the sharing back.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession

from rypsok.state.fallback import RETRY_AFTER_S
from tests.conftest import config_data
from tests.engine_servers import Play, json_play
from tests.fetch_servers import Site, html, running
from tests.mcp_harness import session, structured, write_toml
from tests.redis_server import log_lines

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}
SLACK_S = 0.3


@contextlib.asynccontextmanager
async def replicas(tmp_path: Path, data: dict[str, Any]) -> AsyncIterator[list[ClientSession]]:
    """Two HTTP servers with the same configuration but their own log files and ports,
    started at once."""
    paths = []
    for n in range(2):
        own = copy.deepcopy(data)
        own["log"] = {"level": "info", "path": str(tmp_path / f"replica{n}.log")}
        paths.append(write_toml(own, tmp_path / f"replica{n}.toml"))
    sessions: list[ClientSession] = []
    started = anyio.Event()
    finished = anyio.Event()

    async def serve(path: Path) -> None:
        async with session(path, transport="http") as client:
            sessions.append(client)
            if len(sessions) == len(paths):
                started.set()
            await finished.wait()

    async with anyio.create_task_group() as group:
        for path in paths:
            group.start_soon(serve, path)
        await started.wait()
        try:
            yield sessions
        finally:
            finished.set()


def shared(engines, redis, **sections: Any) -> dict[str, Any]:
    return config_data(engines, CODE, state={"url": redis.url(), "timeout_ms": 100}, **sections)


async def call(client: ClientSession, tool: str, **arguments: Any) -> tuple[bool, dict]:
    result = await client.call_tool(tool, arguments)
    return bool(result.is_error), structured(result)


async def search_ok(client: ClientSession, query: str) -> dict:
    is_error, payload = await call(client, "web_search", query=query, category="code")
    assert not is_error, payload
    return payload


def codes(payload: dict, code: str) -> list[tuple]:
    return sorted(
        (n.get("engine"), n.get("reason")) for n in payload["notices"] if n["code"] == code
    )


async def engine_state(client: ClientSession, engine: str) -> str:
    _, payload = await call(client, "engine_status")
    return {e["id"]: e["state"] for e in payload["engines"]}[engine]


def events(path: Path) -> list[str]:
    return [json.loads(line)["event"] for line in log_lines(path)]


async def test_a_limit_of_three_a_minute_holds_across_two_replicas(engines, redis, tmp_path):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    async with replicas(tmp_path, shared(engines, redis, limits={"web_search": 3})) as (a, b):
        await search_ok(a, "one")
        await search_ok(b, "two")
        await search_ok(a, "three")
        for client in (a, b):
            is_error, payload = await call(client, "web_search", query="four", category="code")
            assert is_error
            assert payload["error"]["kind"] == "unavailable"
            assert payload["error"]["detail"]["reason"] == "rate_limited"
            assert 0 < payload["error"]["detail"]["retry_after_ms"] <= 60_000
    assert len(engines.requests_for("github")) == 3


async def test_a_breaker_opened_on_a_is_open_on_b(engines, redis, tmp_path):
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    data = shared(engines, redis, breaker={"failures": 2, "cooldown_s": 30})
    async with replicas(tmp_path, data) as (a, b):
        for query in ("one", "two"):
            payload = await search_ok(a, query)
            assert codes(payload, "engine_unavailable") == [("github", "request_failure")]
        assert await engine_state(b, "github") == "open"
        payload = await search_ok(b, "three")
        assert codes(payload, "engine_skipped") == [("github", "cooldown")]
        assert payload["outcome"] == "ok"
    assert len(engines.requests_for("github")) == 2


async def test_exactly_one_replica_sends_the_probe_while_both_take_calls(engines, redis, tmp_path):
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    data = shared(engines, redis, breaker={"failures": 1, "cooldown_s": 0.3})
    async with replicas(tmp_path, data) as (a, b):
        await search_ok(a, "open it")
        await anyio.sleep(0.35)
        engines.seen.clear()
        engines.plays["github"] = json_play("github/search.json", delay_s=1.5)
        answers: list[dict] = []

        async def one(client: ClientSession, n: int) -> None:
            await anyio.sleep(n * 0.06)
            answers.append(await search_ok(client, f"during the probe {n}"))

        async with anyio.create_task_group() as group:
            for n in range(6):
                group.start_soon(one, (a, b)[n % 2], n)
        assert len(engines.requests_for("github")) == 1
        assert len(engines.requests_for("stackexchange")) == 6
        assert [payload["outcome"] for payload in answers] == ["ok"] * 6
        skips = [codes(payload, "engine_skipped") for payload in answers]
        assert skips.count([]) == 1
        assert skips.count([("github", "cooldown")]) == 5
        assert await engine_state(a, "github") == "closed"
        assert await engine_state(b, "github") == "closed"


async def test_a_cache_entry_written_by_a_is_a_hit_on_b(engines, redis, tmp_path):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    async with replicas(tmp_path, shared(engines, redis, cache={"enabled": True})) as (a, b):
        first = await search_ok(a, "asyncio")
        assert codes(first, "from_cache") == []
        engines.seen.clear()
        second = await search_ok(b, "asyncio")
        assert codes(second, "from_cache") == [("github", None), ("stackexchange", None)]
        assert second["results"] == first["results"]
    assert engines.seen == []


async def test_a_url_a_search_on_a_returned_can_be_fetched_in_strict_mode_on_b(
    engines, redis, tmp_path
):
    page = Site("127.0.0.2")
    page.route("/returned", html("<p>Returned by a search on A.</p>", "Returned"))
    with running(page):
        returned = f"http://127.0.0.2:{page.port}/returned"
        item = {"full_name": "repo/returned", "html_url": returned}
        engines.plays["github"] = Play(body=json.dumps({"items": [item]}).encode())
        engines.plays["stackexchange"] = json_play("stackexchange/empty.json")
        fetch = {
            "strict": True,
            "allow_http": True,
            "allow_networks": ["127.0.0.2/32"],
            "ports": [page.port],
        }
        async with replicas(tmp_path, shared(engines, redis, fetch=fetch)) as (a, b):
            is_error, payload = await call(b, "web_fetch", url=returned)
            assert is_error and payload["error"]["detail"]["reason"] == "strict_mode"
            found = await search_ok(a, "anything")
            assert [result["url"] for result in found["results"]] == [returned]
            is_error, payload = await call(b, "web_fetch", url=returned)
            assert not is_error, payload
            assert payload["title"] == "Returned"
            assert "Returned by a search on A." in payload["content"]


async def test_killing_the_store_mid_run_answers_every_call_in_time_and_a_restart_shares_again(
    engines, redis, tmp_path
):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    deadline_ms = 1000
    data = shared(engines, redis, cache={"enabled": True}, search={"deadline_ms": deadline_ms})
    timings: list[float] = []
    async with replicas(tmp_path, data) as (a, b):

        async def round_of_calls(n: int) -> None:
            async def timed(client: ClientSession, tool: str, **arguments: Any) -> None:
                started = anyio.current_time()
                is_error, payload = await call(client, tool, **arguments)
                timings.append(anyio.current_time() - started)
                assert not is_error, payload

            async with anyio.create_task_group() as group:
                for client in (a, b):
                    group.start_soon(
                        lambda c=client: timed(c, "web_search", query=f"q{n}", category="code")
                    )
                    group.start_soon(lambda c=client: timed(c, "engine_status"))

        for n in range(10):
            if n == 4:
                redis.kill()
            await round_of_calls(n)
        assert len(timings) == 40
        assert max(timings) < deadline_ms / 1000 + SLACK_S
        for n in range(2):
            assert events(tmp_path / f"replica{n}.log").count("state_store_unavailable") == 1

        redis.start()
        await anyio.sleep(RETRY_AFTER_S + 0.1)
        await search_ok(a, "after the restart")
        engines.seen.clear()
        hit = await search_ok(b, "after the restart")
        assert codes(hit, "from_cache") == [("github", None), ("stackexchange", None)]
        assert engines.seen == []
    for n in range(2):
        assert "state_store_available" in events(tmp_path / f"replica{n}.log")
