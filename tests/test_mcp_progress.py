"""Progress as it happens: a tools/call that carries ``_meta.progressToken`` hears
``notifications/progress`` from web_search (engines finished of engines asked) and web_fetch
(its stages), through the SDK client's progress callback, over stdio and Streamable HTTP.
A call without a token gets nothing extra (over HTTP its answer stays plain JSON)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import config_data
from tests.engine_servers import Play, json_play
from tests.fetch_servers import Reply, Site, html, robots, running
from tests.mcp_harness import (
    MCP_HEADERS,
    http_server,
    modern_client,
    rpc_call,
    session,
    structured,
    write_toml,
)
from tests.test_pipe import RawServer, call, line

pytestmark = pytest.mark.anyio

ENGINES = {"github", "stackexchange"}
PAGE_BYTES = 600_000
CHUNKS = 8
CHUNK_DELAY_S = 0.1


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    page = Site("127.0.0.2")
    page.route("/robots.txt", robots("User-agent: *\nAllow: /\n"))
    page.route("/article", html("<h1>Heading</h1><p>" + "word " * 200 + "</p>", "An article"))
    paragraphs = "".join(f"<p>Paragraph {n} of a long page.</p>" for n in range(20_000))
    body = html(paragraphs).body
    assert isinstance(body, bytes) and len(body) >= PAGE_BYTES
    size = len(body) // CHUNKS + 1
    chunks = [body[start : start + size] for start in range(0, len(body), size)]
    page.route("/slow", Reply(body=lambda: chunks, chunk_delay_s=CHUNK_DELAY_S))
    with running(page):
        yield page


@pytest.fixture
def config(engines, site, tmp_path) -> Path:
    data = config_data(engines, ENGINES)
    data["fetch"] = {
        "allow_http": True,
        "allow_networks": ["127.0.0.2/32"],
        "ports": [site.port],
        "byte_limit": 5_000_000,
    }
    return write_toml(data, tmp_path / "rypsok.toml")


def play_engines(engines) -> None:
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = Play(status=429, headers={"Retry-After": "3"})


class Heard:
    """What the SDK client's progress callback was given."""

    def __init__(self) -> None:
        self.reports: list[tuple[float, float | None, str | None]] = []

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.reports.append((progress, total, message))


async def test_search_reports_each_engine_as_it_finishes(config, engines, transport):
    play_engines(engines)
    heard = Heard()
    async with session(config, transport=transport) as client:
        result = await client.call_tool(
            "web_search", {"query": "async runtime", "category": "code"}, progress_callback=heard
        )
    assert structured(result)["outcome"] == "partial"
    assert [(p, t) for p, t, _ in heard.reports] == [(1, 2), (2, 2)]
    messages = sorted(m or "" for _, _, m in heard.reports)
    assert re.fullmatch(r"github: answered with [1-9][0-9]* results", messages[0])
    assert messages[1] == "stackexchange: failed (rate_limited)"


async def test_fetch_reports_its_stages_and_the_body_as_it_arrives(config, site, transport):
    heard = Heard()
    url = f"http://{site.address}:{site.port}/slow"
    async with session(config, transport=transport) as client:
        result = await client.call_tool(
            "web_fetch", {"url": url, "max_chars": 500}, progress_callback=heard
        )
    assert structured(result)["outcome"] == "ok"
    progress = [p for p, _, _ in heard.reports]
    assert progress == sorted(set(progress)) and progress[0] == 1
    assert all(total is None for _, total, _ in heard.reports)
    messages = [m for _, _, m in heard.reports]
    assert messages[:2] == ["robots.txt read: the page is allowed", "response headers: status 200"]
    body = [m for m in messages[2:-1] if m.startswith("page body: ")]
    assert any(m.endswith("bytes received so far") for m in body)
    assert body[-1].endswith("bytes received in full")
    assert messages[-1] == "extracting the main content"


def test_on_the_pipe_only_the_call_with_a_token_hears_progress(config, engines):
    play_engines(engines)
    raw = RawServer(config)
    try:
        raw.initialize()
        arguments = {"query": "async runtime", "category": "code"}
        raw.send(
            line(call(1, "web_search", arguments))
            + line(call(2, "web_search", arguments, _meta={"progressToken": "t-2"}))
        )
        replies = raw.replies_until_end()
    finally:
        raw.close()
    notes = [r for r in replies if r.get("method") == "notifications/progress"]
    assert [n["params"]["progressToken"] for n in notes] == ["t-2", "t-2"]
    assert [n["params"]["progress"] for n in notes] == [1, 2]
    answers = [r for r in replies if "id" in r]
    assert sorted(r["id"] for r in answers) == [1, 2]
    assert replies.index(notes[-1]) < replies.index(next(r for r in answers if r["id"] == 2))


async def post(
    base: str, message: dict[str, Any], accept: str = MCP_HEADERS["Accept"]
) -> httpx.Response:
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        headers = {**MCP_HEADERS, "Accept": accept}
        return await http.post(f"{base}/mcp", json=message, headers=headers)


async def test_over_http_a_token_makes_the_answer_a_stream(config, engines):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json", delay_s=0.2)
    call = rpc_call("web_search", {"query": "async runtime", "category": "code"}, request_id=7)
    with_token = {**call, "params": {**call["params"], "_meta": {"progressToken": "p-1"}}}
    async with http_server(config) as (base, _):
        plain = await post(base, call)
        streamed = await post(base, with_token)
        # A client that takes only JSON still gets its answer, without the notifications.
        json_only = await post(base, with_token, accept="application/json")
    assert plain.headers["content-type"].startswith("application/json")
    assert plain.json()["id"] == 7 and plain.json()["result"]["isError"] is False

    assert streamed.headers["content-type"].startswith("text/event-stream")
    assert json_only.headers["content-type"].startswith("application/json")
    assert json_only.json()["result"]["structuredContent"]["outcome"] == "ok"
    events = [
        json.loads(line[len("data:") :])
        for line in streamed.text.splitlines()
        if line.startswith("data:") and line[len("data:") :].strip()
    ]
    notes = [e for e in events if e.get("method") == "notifications/progress"]
    assert [n["params"]["progress"] for n in notes] == [1, 2]
    assert all(n["params"]["progressToken"] == "p-1" for n in notes)
    assert all(n["params"]["total"] == 2 for n in notes)
    final = events[-1]
    assert final["id"] == 7 and final["result"]["structuredContent"]["outcome"] == "ok"


async def test_the_2026_protocol_hears_progress_too(config, engines, transport):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json", delay_s=0.2)
    heard = Heard()
    async with modern_client(config, transport=transport) as client:
        result = await client.call_tool(
            "web_search", {"query": "async runtime", "category": "code"}, progress_callback=heard
        )
    assert structured(result)["outcome"] == "ok"
    assert [(p, t) for p, t, _ in heard.reports] == [(1, 2), (2, 2)]


def progress_values(notes: list[dict[str, Any]]) -> list[tuple[type, float, type, float | None]]:
    """Each notification's progress and total with their JSON types (``1`` reads as an
    int, ``1.0`` as a float)."""
    return [
        (type(n["params"]["progress"]), n["params"]["progress"])
        + (type(n["params"].get("total")), n["params"].get("total"))
        for n in notes
    ]


async def test_progress_is_the_same_json_on_both_transports(config, site, engines):
    # whole numbers as JSON integers on the pipe and over HTTP alike (issue 25)
    play_engines(engines)
    page = f"http://{site.address}:{site.port}/article"
    calls = [
        rpc_call("web_search", {"query": "async runtime", "category": "code"}, request_id=1),
        rpc_call("web_fetch", {"url": page}, request_id=2),
    ]
    for message in calls:
        message["params"]["_meta"] = {"progressToken": f"t-{message['id']}"}
    raw = RawServer(config)
    try:
        raw.initialize()
        raw.send(b"".join(line(message) for message in calls))
        replies = raw.replies_until_end()
    finally:
        raw.close()
    on_the_pipe = {
        token: progress_values(
            [r for r in replies if r.get("params", {}).get("progressToken") == token]
        )
        for token in ("t-1", "t-2")
    }
    over_http = {}
    async with http_server(config) as (base, _):
        for message in calls:
            streamed = await post(base, message)
            events = [
                json.loads(text[len("data:") :])
                for text in streamed.text.splitlines()
                if text.startswith("data:") and text[len("data:") :].strip()
            ]
            notes = [e for e in events if e.get("method") == "notifications/progress"]
            over_http[message["params"]["_meta"]["progressToken"]] = progress_values(notes)
    assert on_the_pipe["t-1"] == over_http["t-1"] == [(int, 1, int, 2), (int, 2, int, 2)]
    fetch_steps = [(int, step, type(None), None) for step in range(1, 5)]
    assert on_the_pipe["t-2"] == over_http["t-2"] == fetch_steps
