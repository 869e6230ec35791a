"""The library as an agent author uses it: ``rypsok.search``, ``rypsok.fetch``,
``rypsok.engine_status`` and ``rypsok.Client``, under Trio and under asyncio (DECISIONS.md:
the library works under both), against engines and pages on loopback."""

from __future__ import annotations

import asyncio
import copy
import inspect
import pickle
import time

import anyio
import pytest

import rypsok
import rypsok.library
from rypsok import Client, ToolError, errors
from rypsok.config import ConfigError, config_from_dict
from tests.conftest import config_data
from tests.engine_servers import Play, json_play
from tests.mcp_harness import write_toml
from tests.test_http_cancel import HangingServer

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}
STOPS_WITHIN_S = 0.3
"""A cancelled call closes its requests at once; 300 ms of allowance for a loaded machine."""


@pytest.fixture(params=["trio", "asyncio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return request.param


def live_tasks() -> int:
    """The tasks alive in the running event loop, whichever it is."""
    try:
        return len(asyncio.all_tasks())
    except RuntimeError:  # no asyncio loop runs: Trio does
        import trio

        return trio.lowlevel.current_statistics().tasks_living


def code_config(engines, **sections):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    return config_from_dict(config_data(engines, CODE, **sections), env={})


async def test_the_module_functions_answer_under_either_backend(engines, tmp_path, monkeypatch):
    """The process-wide client reads $RYPSOK_CONFIG on the first call."""
    config = config_data(engines, CODE)
    monkeypatch.setenv("RYPSOK_CONFIG", str(write_toml(config, tmp_path / "rypsok.toml")))
    monkeypatch.setattr(rypsok.library, "_default_client", None)
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    try:
        response = await rypsok.search("asyncio", category="code", max_results=3)
        status = await rypsok.engine_status()
        with pytest.raises(ToolError) as raised:
            await rypsok.fetch("https://127.0.0.1/")
    finally:
        await rypsok.library._default_client.aclose()
    assert response.outcome == "ok" and len(response.results) == 3
    assert status.outcome == status.to_json()["outcome"] == "ok"  # as on a search response
    assert {e.id: e.state for e in status.engines if e.id in CODE} == {
        "github": "closed",
        "stackexchange": "closed",
    }
    assert (raised.value.kind, raised.value.detail) == ("denied", {"reason": "egress"})


async def test_one_client_serves_concurrent_calls_and_many_in_turn(engines):
    async with Client(code_config(engines, search={"deadline_ms": 2000})) as client:
        outcomes: list[str] = []

        async def one(n: int) -> None:
            outcomes.append((await client.search(f"asyncio {n}", category="code")).outcome)

        async with anyio.create_task_group() as group:
            for n in range(4):
                group.start_soon(one, n)
        for n in range(10):
            outcomes.append((await client.search(f"trio {n}", category="code")).outcome)
    assert outcomes == ["ok"] * 14
    assert len(engines.seen) == 28


async def test_a_closed_client_still_answers_and_can_be_entered_again(engines):
    client = Client(code_config(engines))
    async with client:
        assert (await client.search("asyncio", category="code")).outcome == "ok"
    assert (await client.search("asyncio again", category="code")).outcome == "ok"
    async with client:
        assert (await client.search("asyncio once more", category="code")).outcome == "ok"
    assert len(engines.seen) == 6


@pytest.mark.parametrize("entered", [True, False], ids=["entered", "not_entered"])
async def test_a_cancelled_search_closes_its_engine_requests_and_leaves_no_task(engines, entered):
    with HangingServer() as hanging:
        data = config_data(engines, CODE, search={"deadline_ms": 30000})
        for engine_id in CODE:
            data["engines"][engine_id]["endpoint"] = hanging.endpoint(f"/e/{engine_id}")
        client = Client(config_from_dict(data, env={}))
        if entered:
            await client.__aenter__()
        try:
            tasks = live_tasks()
            with anyio.move_on_after(0.5) as scope:
                await client.search("asyncio", category="code")
            cancelled_at = time.monotonic()
            assert scope.cancelled_caught
            with anyio.fail_after(5):
                while len(hanging.closed_at) < 2:
                    await anyio.sleep(0.01)
            assert max(hanging.closed_at) - cancelled_at < STOPS_WITHIN_S
            assert live_tasks() == tasks
        finally:
            if entered:
                await client.__aexit__(None, None, None)


async def test_a_cancelled_fetch_closes_its_request(engines):
    with HangingServer() as hanging:
        config = code_config(
            engines,
            fetch={
                "allow_http": True,
                "allow_networks": [f"{hanging.address}/32"],
                "ports": [hanging.port],
            },
        )
        async with Client(config) as client:
            tasks = live_tasks()
            with anyio.move_on_after(0.5):
                await client.fetch(hanging.endpoint("/page"))
            cancelled_at = time.monotonic()
            assert await hanging.closed_after(cancelled_at) < STOPS_WITHIN_S
            assert live_tasks() == tasks


async def test_a_query_holding_a_lone_surrogate_is_invalid_not_every_engine_failing(engines):
    """A Python string can hold one (JSON can escape one); no engine request can carry it.
    It was sent to every engine, each failed with a traceback in the log, and the call
    answered ``unavailable all_failed`` "retry later", which retrying never fixes."""
    async with Client(code_config(engines)) as client:
        with pytest.raises(ToolError) as raised:
            await client.search("trio \ud800 nursery", category="code")
    assert raised.value.kind == "invalid_request"
    assert raised.value.detail == {"parameter": "query", "min": 1, "max": 400}
    assert raised.value.message == (
        "query must be Unicode text; it holds a lone surrogate (\\ud800 to \\udfff)"
    )
    assert engines.seen == []


@pytest.mark.parametrize(
    ("function", "keywords"),
    [
        (rypsok.search, ["query", "category", "max_results", "language", "time_range"]),
        (rypsok.fetch, ["url", "max_chars", "start_char"]),
    ],
)
def test_help_names_every_keyword_its_default_and_the_errors(function, keywords):
    """``help(rypsok.search)`` is what an agent author reads first."""
    doc = inspect.getdoc(function)
    assert list(inspect.signature(function).parameters) == keywords
    for keyword in keywords:
        assert f"``{keyword}``" in doc, keyword
    assert "``None`` for a keyword means" in doc
    assert "Raises ToolError" in doc and "ConfigError" in doc
    for kind in ("invalid_request", "denied", "unavailable"):
        assert kind in doc
    assert "Trio and asyncio" in inspect.getdoc(rypsok.search)
    assert inspect.getdoc(rypsok.engine_status)
    assert "rypsok." in inspect.getdoc(Client.search) and inspect.getdoc(Client.engine_status)


async def test_a_fetch_reads_a_page_in_pieces_under_either_backend(engines):
    paragraph = "Structured concurrency keeps every task inside its nursery. " * 20
    engines.plays["page"] = Play(
        body=f"<html><head><title>Nurseries</title></head><body><article><p>{paragraph}"
        "</p></article></body></html>".encode(),
        headers={"Content-Type": "text/html; charset=utf-8"},
    )
    config = code_config(
        engines,
        fetch={"allow_http": True, "allow_networks": ["127.0.0.1/32"], "ports": [engines.port]},
    )
    url = engines.endpoint("page") + "/nurseries"
    async with Client(config) as client:
        first = await client.fetch(url, max_chars=500)
        rest = await client.fetch(url, max_chars=None, start_char=first.next_start_char)
    assert (first.outcome, first.url, first.title, first.truncated) == (
        "ok",
        url,
        "Nurseries",
        True,
    )
    assert first.to_json()["outcome"] == "ok" and len(first.content) <= 500
    assert (rest.truncated, rest.next_start_char) == (False, None)
    assert first.content.startswith("Structured concurrency")
    assert (first.content + rest.content).count("nursery") == 20


def test_a_tool_error_survives_pickling_and_copying():
    """A library call run in a process pool raises its ToolError in the caller."""
    error = errors.rate_limited(1500)
    for copied in (pickle.loads(pickle.dumps(error)), copy.deepcopy(error)):
        assert type(copied) is ToolError
        assert (copied.kind, copied.message, copied.detail) == (
            error.kind,
            error.message,
            error.detail,
        )
        assert copied.metric_reason == error.metric_reason
    unknown = errors.unknown_tool("nope", ["web_search"])
    assert type(copy.copy(unknown)) is errors.UnknownTool
    bad = ConfigError("search.deadline_ms", "must be at least 1", file="/etc/rypsok.toml")
    assert str(pickle.loads(pickle.dumps(bad))) == str(bad)


def test_a_client_given_a_path_instead_of_a_config_says_so(tmp_path):
    with pytest.raises(TypeError, match=r"Client takes a Config, such as rypsok.load_config"):
        Client(str(tmp_path / "rypsok.toml"))
