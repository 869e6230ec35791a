"""The bring-your-own-key engines end to end, as an agent meets them: ``rypsok serve`` over
stdio and over Streamable HTTP, the engines on loopback answering their documented
fixtures, the keys passed in the server's environment.

One rypsok holds all four keys: web_search in each category they serve (the request each
engine received, the fused results), a documented failure of each as a notice, and
engine_status listing them. A second rypsok holds none: engine_status does not list
them, no category is offered for them, and the operator log says so once, at info. No
key appears in a response or in the operator log (at level debug).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import config_data
from tests.engine_samples import KEYED_ENGINES, KEYED_KEYS, TAVILY_GENERAL_BODY
from tests.engine_servers import EngineServer, Play, fixture
from tests.mcp_harness import (
    TRANSPORTS,
    assert_conforms,
    http_server,
    http_session,
    session,
    structured,
    write_toml,
)

pytestmark = pytest.mark.anyio

KEYS = KEYED_KEYS
KEYED = KEYED_ENGINES
JSON = "application/json; charset=utf-8"
PATHS = {
    ("tavily", "general"): ("POST", "/search"),
    ("tavily", "news"): ("POST", "/search"),
    ("exa", "general"): ("POST", "/search"),
    ("exa", "news"): ("POST", "/search"),
    ("exa", "science"): ("POST", "/search"),
    ("kagi", "general"): ("POST", "/api/v1/search"),
    ("kagi", "news"): ("POST", "/api/v1/search"),
    ("serper", "general"): ("POST", "/search"),
    ("serper", "news"): ("POST", "/news"),
}
AUTH_HEADERS = {
    "tavily": ("authorization", "Bearer " + KEYS["TAVILY_API_KEY"]),
    "exa": ("x-api-key", KEYS["EXA_API_KEY"]),
    "kagi": ("authorization", "Bot " + KEYS["KAGI_API_KEY"]),
    "serper": ("x-api-key", KEYS["SERPER_API_KEY"]),
}


def play(name: str, status: int = 200, headers: dict[str, str] | None = None) -> Play:
    return Play(
        body=fixture(name), status=status, headers={"Content-Type": JSON, **(headers or {})}
    )


@dataclass
class Rypsok:
    client: ClientSession
    schemas: dict[str, dict[str, Any]]
    stderr: Path
    payloads: list[dict[str, Any]] = field(default_factory=list)

    async def call(self, tool: str, arguments: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        result = await self.client.call_tool(tool, arguments)
        payload = structured(result)
        assert_conforms(payload, self.schemas[tool])
        self.payloads.append(payload)
        return bool(result.is_error), payload

    def log_lines(self) -> list[dict[str, Any]]:
        lines = self.stderr.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "trio"


@contextlib.asynccontextmanager
async def running(
    server: EngineServer, folder: Path, name: str, env: dict[str, str], transport: str
) -> AsyncIterator[Rypsok]:
    data = config_data(
        server,
        {"wikipedia", *KEYED},
        search={"deadline_ms": 8000},
        breaker={"cooldown_s": 0.05, "max_cooldown_s": 0.05},
        log={"level": "debug"},
    )
    config_path = write_toml(data, folder / f"{name}.toml")
    stderr = folder / f"{name}.stderr"
    with stderr.open("w", encoding="utf-8") as errlog:
        async with session(config_path, env, transport, errlog) as client:
            tools = (await client.list_tools()).tools
            yield Rypsok(client, {tool.name: tool.output_schema for tool in tools}, stderr)


@pytest.fixture(scope="module", params=TRANSPORTS)
async def rypsoks(
    engine_server: EngineServer, tmp_path_factory: pytest.TempPathFactory, request
) -> AsyncIterator[dict[str, Rypsok]]:
    folder = tmp_path_factory.mktemp(f"rypsok_keyed_{request.param}")
    async with (
        running(engine_server, folder, "keys", KEYS, request.param) as with_keys,
        running(engine_server, folder, "nokeys", {}, request.param) as without_keys,
    ):
        yield {"keys": with_keys, "nokeys": without_keys}


def serve(server: EngineServer, plays: dict[str, Play]) -> None:
    server.reset()
    server.plays["wikipedia"] = play("wikipedia/empty.json")
    for engine in KEYED:
        server.plays[engine] = plays.get(engine) or play(f"{engine}/empty.json")


def assert_request(server: EngineServer, engine: str, category: str) -> dict[str, Any]:
    """The one request ``engine`` received: method, path, headers; its JSON body (or query)."""
    (seen,) = server.requests_for(engine)
    method, path = PATHS[(engine, category)]
    assert seen.method == method
    assert seen.path.split("?")[0] == f"/e/{engine}{path}"
    headers = {name.lower(): value for name, value in seen.headers.items()}
    name, value = AUTH_HEADERS[engine]
    assert headers[name] == value
    assert headers["user-agent"].startswith("rypsok/")
    assert headers["accept"] == "application/json"
    raw = f"{seen.path}\n{seen.headers}".encode() + seen.body
    for key in KEYS.values():
        if key not in value:
            assert key.encode() not in raw, f"a foreign key was sent to {engine}"
    if method == "GET":
        assert seen.body == b""
        return {"query": seen.path.split("?", 1)[1]}
    assert headers["content-type"] == "application/json"
    return json.loads(seen.body)


def assert_no_key_leaked(rypsok: Rypsok) -> None:
    said = json.dumps(rypsok.payloads, ensure_ascii=False)
    log = rypsok.stderr.read_text(encoding="utf-8")
    for name, key in KEYS.items():
        assert key not in said, f"{name} appears in a response"
        assert key not in log, f"{name} appears in the operator log"
    assert any(line.get("event") == "search" for line in rypsok.log_lines())


URLS = [
    "https://rust-lang.github.io/async-book/",
    "https://tokio.rs/tokio/tutorial",
    "https://without.boats/blog/why-async-rust/",
]


@pytest.mark.parametrize("engine", KEYED)
async def test_each_keyed_engine_answers_a_general_search(engine, rypsoks, engine_server):
    rypsok = rypsoks["keys"]
    serve(engine_server, {engine: play(f"{engine}/search.json")})
    is_error, payload = await rypsok.call("web_search", {"query": "rust async", "max_results": 10})
    assert not is_error, payload
    assert payload["outcome"] == "ok" and payload["notices"] == []
    assert sorted(r["url"] for r in payload["results"]) == URLS
    assert all("engines" not in result for result in payload["results"])
    sent = assert_request(engine_server, engine, "general")
    expected = {
        "tavily": TAVILY_GENERAL_BODY,
        "exa": {
            "query": "rust async",
            "type": "auto",
            "numResults": 10,
            "contents": {"highlights": True},
        },
        "kagi": {"query": "rust async", "workflow": "search", "limit": 10},
        "serper": {"q": "rust async", "num": 10, "hl": "en"},
    }[engine]
    assert sent == expected
    for other in KEYED:
        if other != engine:
            assert len(engine_server.requests_for(other)) == 1
    assert_no_key_leaked(rypsok)


async def test_news_and_science_through_mcp(rypsoks, engine_server):
    rypsok = rypsoks["keys"]
    serve(engine_server, {"tavily": play("tavily/news.json")})
    _, news = await rypsok.call(
        "web_search", {"query": "eu ai act", "category": "news", "time_range": "month"}
    )
    assert news["outcome"] == "ok"
    by_url = {result["url"]: result for result in news["results"]}
    assert by_url["https://news.example/2026/09/30/ai-act-next-phase"]["date"] == "2026-09-30"
    assert by_url["https://tech.example.com/ai-act-startups"]["date"] == "2026-09-25"
    assert assert_request(engine_server, "tavily", "news")["time_range"] == "month"
    assert assert_request(engine_server, "serper", "news")["tbs"] == "qdr:m"
    assert assert_request(engine_server, "exa", "news")["category"] == "news"
    assert assert_request(engine_server, "kagi", "news")["workflow"] == "news"

    serve(engine_server, {"exa": play("exa/search.json")})
    _, science = await rypsok.call("web_search", {"query": "async", "category": "science"})
    assert [r["url"] for r in science["results"]][:1] == ["https://rust-lang.github.io/async-book/"]
    assert assert_request(engine_server, "exa", "science")["category"] == "publication"
    assert_no_key_leaked(rypsok)


FAILURES = {
    "tavily": (play("tavily/error_432.json", 432), "rate_limited"),
    "exa": (play("exa/error_401.json", 401), "auth_failure"),
    "kagi": (play("kagi/error_401.json", 401), "auth_failure"),
    "serper": (play("serper/error_500.json", 500), "request_failure"),
}


@pytest.mark.parametrize("engine", KEYED)
async def test_a_documented_failure_is_a_notice(engine, rypsoks, engine_server):
    rypsok = rypsoks["keys"]
    failing, reason = FAILURES[engine]
    partner = next(other for other in KEYED if other != engine)
    serve(engine_server, {engine: failing, partner: play(f"{partner}/search.json")})
    _, payload = await rypsok.call("web_search", {"query": "rust async", "max_results": 10})
    assert payload["outcome"] == "partial"
    assert payload["notices"] == [
        {"code": "engine_unavailable", "engine": engine, "reason": reason}
    ]
    assert sorted(r["url"] for r in payload["results"]) == URLS
    assert_no_key_leaked(rypsok)


async def test_engine_status_lists_the_keyed_engines_only_with_their_keys(rypsoks):
    _, with_keys = await rypsoks["keys"].call("engine_status", {})
    listed = {entry["id"]: entry for entry in with_keys["engines"]}
    for engine in KEYED:
        assert listed[engine]["state"] in ("closed", "open")
        assert "reason" not in listed[engine]
    _, without_keys = await rypsoks["nokeys"].call("engine_status", {})
    ids = [entry["id"] for entry in without_keys["engines"]]
    assert not set(KEYED) & set(ids)
    assert ids == sorted(ids) and "wikipedia" in ids
    text = json.dumps([with_keys, without_keys])
    for key in KEYS.values():
        assert key not in text


async def test_without_keys_nothing_is_asked_and_the_log_says_so(rypsoks, engine_server):
    rypsok = rypsoks["nokeys"]
    serve(engine_server, {})
    _, payload = await rypsok.call("web_search", {"query": "python"})
    assert payload["outcome"] == "empty"
    assert {seen.engine for seen in engine_server.seen} == {"wikipedia"}
    not_offered = [line for line in rypsok.log_lines() if line.get("event") == "engine_not_offered"]
    assert sorted(
        (line["level"], line["engine"], line["credential_env"]) for line in not_offered
    ) == [
        ("info", "exa", "EXA_API_KEY"),
        ("info", "kagi", "KAGI_API_KEY"),
        ("info", "serper", "SERPER_API_KEY"),
        ("info", "tavily", "TAVILY_API_KEY"),
    ]
    keyed_log = [
        line for line in rypsoks["keys"].log_lines() if line.get("event") == "engine_not_offered"
    ]
    assert keyed_log == []


async def test_metrics_name_engines_never_keys(engine_server, tmp_path):
    """The team server's /metrics: the keyed engines by id, a missing one not at all, and
    no key in any label."""
    token = "metrics-token-5d1c0a9e7b3f"
    serve(
        engine_server,
        {"tavily": play("tavily/search.json"), "exa": play("exa/error_402.json", 402)},
    )
    data = {
        **config_data(engine_server, {"wikipedia", *KEYED}, search={"deadline_ms": 8000}),
        "server": {"tokens_env": "RYPSOK_TOKENS"},
    }
    path = write_toml(data, tmp_path / "metrics.toml")
    env = {
        "RYPSOK_TOKENS": f"ops:{token}",
        "TAVILY_API_KEY": KEYS["TAVILY_API_KEY"],
        "EXA_API_KEY": KEYS["EXA_API_KEY"],
    }
    async with http_server(path, env) as (base, _):
        async with http_session(f"{base}/mcp", token) as client:
            result = await client.call_tool("web_search", {"query": "rust async"})
        async with httpx.AsyncClient(trust_env=False) as http:
            scraped = await http.get(
                f"{base}/metrics", headers={"Authorization": f"Bearer {token}"}
            )
    assert structured(result)["outcome"] == "partial"
    labels = set()
    costs = {}
    for family in text_string_to_metric_families(scraped.text):
        for sample in family.samples:
            labels |= {(name, value) for name, value in sample.labels.items()}
            if sample.name == "rypsok_engine_cost_total":
                costs[(sample.labels["engine"], sample.labels["unit"])] = sample.value
    # Tavily's answer reported one credit (include_usage); Exa's 402 reported no cost
    assert costs == {("tavily", "credits"): 1.0}
    assert {("engine", "tavily"), ("engine", "exa")} <= labels
    assert ("engine", "serper") not in labels and ("engine", "kagi") not in labels
    assert ("result", "rate_limited") in labels
    for key in KEYS.values():
        assert key not in scraped.text
