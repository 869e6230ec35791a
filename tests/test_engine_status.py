"""engine_status as tools.md writes it, field by field: each state with exactly its fields
(a reason only on disabled), nothing sent to any engine, no endpoint, credential or
provider text, and an answer within 200 ms while an engine hangs."""

from __future__ import annotations

import contextlib
import json

import anyio
import pytest

from rypsok import Client, ToolError
from tests.conftest import config_data, make_config
from tests.engine_servers import Play, json_play
from tests.mcp_harness import session, structured, write_toml

pytestmark = pytest.mark.anyio

TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
PROVIDER_TEXT = "Upstream provider says: quota exceeded for account 4711"
DECISIONS_ENGINES = [
    "wikipedia",
    "duckduckgo",
    "mojeek",
    "marginalia",
    "brave",
    "searxng",
    "hackernews",
    "brave_news",
    "gdelt",
    "arxiv",
    "crossref",
    "openalex",
    "github",
    "stackexchange",
]
STATUS_BUDGET_S = 0.2  # tools.md: "at most 200 ms"


class FakeClock:
    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


async def test_every_state_has_exactly_its_fields_through_mcp(engines, tmp_path, transport):
    """closed with an integer latency, open without a reason after a failure, disabled with
    reason disabled or no_credential; every engine listed once, in identifier order."""
    engines.plays["github"] = Play(
        status=500, body=PROVIDER_TEXT.encode(), headers={"Content-Type": "text/plain"}
    )
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    data = config_data(
        engines,
        {"github", "stackexchange", "brave"},
        breaker={"failures": 1, "cooldown_s": 600},
    )
    path = write_toml(data, tmp_path / "rypsok.toml")
    env = {"GITHUB_TOKEN": TOKEN}  # brave's key is not set: no_credential
    async with session(path, env=env, transport=transport) as client:
        await client.call_tool("web_search", {"query": "asyncio", "category": "code"})
        asked = len(engines.seen)
        result = await client.call_tool("engine_status", {})
        assert len(engines.seen) == asked  # nothing leaves the host
    assert not result.is_error
    payload = structured(result)
    assert set(payload) == {"outcome", "notices", "engines"}
    assert payload["outcome"] == "ok" and payload["notices"] == []
    ids = [entry["id"] for entry in payload["engines"]]
    assert ids == sorted(DECISIONS_ENGINES)  # the paid ones are not offered without a key
    by_id = {entry["id"]: entry for entry in payload["engines"]}
    opened = by_id["github"]  # its one failure opened it; a reason is for disabled alone
    assert set(opened) == {"id", "state", "latency_ms"} and opened["state"] == "open"
    closed = by_id["stackexchange"]
    assert set(closed) == {"id", "state", "latency_ms"} and closed["state"] == "closed"
    assert type(closed["latency_ms"]) is int and closed["latency_ms"] >= 0
    assert by_id["brave"] == {
        "id": "brave",
        "state": "disabled",
        "latency_ms": None,
        "reason": "no_credential",
    }
    assert by_id["wikipedia"] == {
        "id": "wikipedia",
        "state": "disabled",
        "latency_ms": None,
        "reason": "disabled",
    }
    for entry in payload["engines"]:
        assert entry["state"] in {"closed", "open", "half_open", "disabled"}
        assert ("reason" in entry) == (entry["state"] == "disabled"), entry
        assert entry["latency_ms"] is None or type(entry["latency_ms"]) is int
    text = json.dumps(payload)
    for never in (TOKEN, PROVIDER_TEXT, "quota", "127.0.0.1", "endpoint", "http"):
        assert never not in text, never


async def test_half_open_carries_no_reason_and_open_stays_open_until_the_probing_call(engines):
    clock = FakeClock()
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    config = make_config(
        engines, {"github", "stackexchange"}, breaker={"failures": 1, "cooldown_s": 10}
    )
    seen: dict[str, dict] = {}
    async with Client(config, clock=clock) as client:
        await client.search("asyncio", category="code")
        clock.now += 11  # past the cooldown: still open until a call carries the probe
        seen["open"] = _entry(await client.engine_status(), "github")
        engines.plays["github"] = json_play("github/search.json", delay_s=0.4)

        async def look_during_the_probe() -> None:
            await anyio.sleep(0.15)
            seen["half_open"] = _entry(await client.engine_status(), "github")

        async with anyio.create_task_group() as group:
            group.start_soon(look_during_the_probe)
            await client.search("asyncio", category="code")
        seen["closed"] = _entry(await client.engine_status(), "github")
    for state, entry in seen.items():
        assert set(entry) == {"id", "state", "latency_ms"}, entry
        assert entry["state"] == state
    assert type(seen["closed"]["latency_ms"]) is int  # the median of its two requests


async def test_answers_within_200_ms_while_an_engine_hangs(engines):
    """engine_status reads memory only: a search stuck on a hanging engine does not hold it."""
    engines.plays["github"] = Play(mode="hang")
    engines.plays["stackexchange"] = Play(mode="hang")
    config = make_config(engines, {"github", "stackexchange"}, search={"deadline_ms": 3000})
    elapsed: list[float] = []
    async with Client(config) as client:

        async def stuck_search() -> None:
            with contextlib.suppress(ToolError):  # its own answer is not the point here
                await client.search("asyncio", category="code")

        async with anyio.create_task_group() as group:
            group.start_soon(stuck_search)
            await anyio.sleep(0.3)
            asked = len(engines.seen)
            for _ in range(3):
                started = anyio.current_time()
                status = await client.engine_status()
                elapsed.append(anyio.current_time() - started)
            assert len(engines.seen) == asked
            assert {e.id: e.state for e in status.engines}["github"] == "closed"
            group.cancel_scope.cancel()
    assert max(elapsed) <= STATUS_BUDGET_S, elapsed


def _entry(status, engine_id: str) -> dict:
    return next(e for e in status.to_json()["engines"] if e["id"] == engine_id)


async def test_state_is_reset_when_the_process_restarts(engines, tmp_path):
    """tools.md: "State lives in memory and is reset when the process restarts"."""
    engines.plays["github"] = Play(status=500)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    data = config_data(engines, {"github", "stackexchange"}, breaker={"failures": 1})
    path = write_toml(data, tmp_path / "rypsok.toml")
    runs = []
    for search_first in (True, False):
        async with session(path) as client:
            if search_first:
                await client.call_tool("web_search", {"query": "asyncio", "category": "code"})
            status = structured(await client.call_tool("engine_status", {}))
        runs.append({e["id"]: e for e in status["engines"]})
    assert runs[0]["github"]["state"] == "open"
    assert type(runs[0]["stackexchange"]["latency_ms"]) is int
    assert runs[1]["github"] == {"id": "github", "state": "closed", "latency_ms": None}
    assert runs[1]["stackexchange"] == {
        "id": "stackexchange",
        "state": "closed",
        "latency_ms": None,
    }
