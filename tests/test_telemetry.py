"""Traces: with a collector configured ([telemetry] or OTEL_EXPORTER_OTLP_*), rypsok exports
one span per tool call, a child per engine request and per web_fetch stage, the state
store's round trips and admission, over OTLP http/protobuf, flushed when the process exits;
a W3C trace context from the request's ``_meta`` or an HTTP ``traceparent`` header is
continued; no span attribute holds a query, a URL, page text, a token or an address.

The collector is a real HTTP server on loopback that decodes what it is sent. The
in-process test uses the OpenTelemetry SDK's in-memory exporter.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
import mcp
import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from rypsok.client import Client
from rypsok.config import ConfigError, config_from_dict
from rypsok.server import build_server
from tests.conftest import config_data
from tests.engine_servers import Play, json_play
from tests.fetch_servers import Site, html, robots, running
from tests.mcp_harness import (
    MCP_HEADERS,
    http_server,
    rpc_call,
    server_parameters,
    session,
    structured,
    write_toml,
)

pytestmark = pytest.mark.anyio

QUERY = "zebra quokka telemetry"
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE_ID}-{PARENT_ID}-01"
SECRET_TOKEN = "s3cr3t-token-value-for-traces"


@dataclass
class Span:
    name: str
    trace_id: str
    span_id: str
    parent_id: str
    attributes: dict[str, Any]
    service: str


class Collector:
    """An OTLP/HTTP collector: POST /v1/traces with an ExportTraceServiceRequest."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        collector = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path == "/v1/traces":
                    collector.take(ExportTraceServiceRequest.FromString(body))
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self._server.server_address[1]}"

    def take(self, request: ExportTraceServiceRequest) -> None:
        for resource_spans in request.resource_spans:
            service = next(
                (
                    a.value.string_value
                    for a in resource_spans.resource.attributes
                    if a.key == "service.name"
                ),
                "",
            )
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    self.spans.append(
                        Span(
                            span.name,
                            span.trace_id.hex(),
                            span.span_id.hex(),
                            span.parent_span_id.hex(),
                            {a.key: _value(a.value) for a in span.attributes},
                            service,
                        )
                    )

    def named(self, name: str) -> list[Span]:
        return [s for s in self.spans if s.name == name]

    async def wait_for(self, name: str, timeout_s: float = 15.0) -> Span:
        with anyio.fail_after(timeout_s):
            while not self.named(name):
                await anyio.sleep(0.05)
        return self.named(name)[0]

    def __enter__(self) -> Collector:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def _value(value: Any) -> Any:
    kind = value.WhichOneof("value")
    return getattr(value, kind) if kind else None


def assert_nothing_private(spans: list[Span], *private: str) -> None:
    for span in spans:
        for key, value in span.attributes.items():
            for text in private:
                assert text not in str(value), (span.name, key, value)


@pytest.fixture
def collector() -> Iterator[Collector]:
    with Collector() as running_collector:
        yield running_collector


@pytest.fixture
def meta_as_given() -> Iterator[None]:
    """The test's own ``_meta`` reaches the server as written: the SDK's client injects the
    current trace context into ``_meta``, replacing a traceparent given there, whenever this
    process has a tracer provider (one test here sets one, and a process keeps it)."""
    from opentelemetry import propagate
    from opentelemetry.propagators.composite import CompositePropagator

    before = propagate.get_global_textmap()
    propagate.set_global_textmap(CompositePropagator([]))
    try:
        yield
    finally:
        propagate.set_global_textmap(before)


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    page = Site("127.0.0.2")
    page.route("/robots.txt", robots("User-agent: *\nAllow: /\n"))
    page.route("/private/article", html("<h1>Heading</h1><p>" + "word " * 100 + "</p>"))
    with running(page):
        yield page


def test_off_unless_configured_and_the_standard_variables_turn_it_on():
    assert config_from_dict({}, env={}).telemetry.traces_url == ""
    on = config_from_dict({}, env={"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/"})
    assert on.telemetry.traces_url == "http://c:4318/v1/traces"
    traces = {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/custom"}
    assert config_from_dict({}, env=traces).telemetry.traces_url == "http://c:4318/custom"
    filed = config_from_dict({"telemetry": {"endpoint": "http://file:4318"}}, env=traces)
    assert filed.telemetry.traces_url == "http://file:4318/v1/traces"
    disabled = {**traces, "OTEL_SDK_DISABLED": "true"}
    assert config_from_dict({}, env=disabled).telemetry.traces_url == ""
    grpc = {**traces, "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}
    with pytest.raises(ConfigError, match="OTEL_EXPORTER_OTLP_PROTOCOL"):
        config_from_dict({}, env=grpc)


async def test_stdio_exports_the_call_and_its_engines_at_exit(
    engines, collector, tmp_path, meta_as_given
):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = Play(status=429, headers={"Retry-After": "3"})
    config = write_toml(config_data(engines, {"github", "stackexchange"}), tmp_path / "r.toml")
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": collector.endpoint, "OTEL_SERVICE_NAME": "rypsok-test"}
    async with session(config, env=env) as client:
        result = await client.call_tool(
            "web_search",
            {"query": QUERY, "category": "code"},
            meta={"traceparent": TRACEPARENT},
        )
    assert structured(result)["outcome"] == "partial"
    call = await collector.wait_for("rypsok web_search")  # exported as the process ended
    server = collector.named("tools/call web_search")[0]
    assert server.trace_id == TRACE_ID and server.parent_id == PARENT_ID
    assert call.parent_id == server.span_id and call.trace_id == TRACE_ID
    assert call.service == "rypsok-test"
    assert call.attributes == {
        "rypsok.tool": "web_search",
        "rypsok.outcome": "partial",
        "rypsok.reason": "",
    }
    github, stackexchange = (
        collector.named("engine github"),
        collector.named("engine stackexchange"),
    )
    assert github[0].parent_id == stackexchange[0].parent_id == call.span_id
    assert github[0].attributes["rypsok.outcome"] == "answered"
    assert stackexchange[0].attributes["rypsok.reason"] == "rate_limited"
    assert stackexchange[0].attributes["rypsok.ms"] >= 0
    admission = collector.named("admission")[0]
    assert admission.parent_id == call.span_id
    assert admission.attributes == {"rypsok.tool": "web_search", "rypsok.outcome": "admitted"}
    assert_nothing_private(collector.spans, "zebra", "quokka", "127.0.0.1", "/e/")


async def test_http_exports_the_fetch_stages_and_continues_a_traceparent_header(
    collector, site, tmp_path
):
    data: dict[str, Any] = {
        "telemetry": {"endpoint": collector.endpoint},
        "fetch": {"allow_http": True, "allow_networks": ["127.0.0.2/32"], "ports": [site.port]},
        "server": {"tokens_env": "RYPSOK_TEST_TOKENS"},
        "engines": {},
    }
    config = write_toml(data, tmp_path / "r.toml")
    url = f"http://{site.address}:{site.port}/private/article"
    async with http_server(config, env={"RYPSOK_TEST_TOKENS": f"team:{SECRET_TOKEN}"}) as (
        base,
        _,
    ):
        async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
            answer = await http.post(
                f"{base}/mcp",
                json=rpc_call("web_fetch", {"url": url}),
                headers={
                    **MCP_HEADERS,
                    "traceparent": TRACEPARENT,
                    "Authorization": f"Bearer {SECRET_TOKEN}",
                },
            )
        assert answer.json()["result"]["structuredContent"]["outcome"] == "ok"
    call = await collector.wait_for("rypsok web_fetch")
    assert call.trace_id == TRACE_ID
    server = collector.named("tools/call web_fetch")[0]
    assert server.parent_id == PARENT_ID and call.parent_id == server.span_id
    stages = {
        name: collector.named(f"web_fetch {name}")
        for name in ("robots.txt", "request", "body", "extraction")
    }
    assert all(len(found) >= 1 for found in stages.values()), stages
    assert all(s.trace_id == TRACE_ID for found in stages.values() for s in found)
    assert {s.attributes["rypsok.status"] for s in stages["request"]} == {200}
    assert stages["body"][0].attributes["rypsok.bytes"] > 0
    assert stages["extraction"][0].attributes["rypsok.outcome"] == "ok"
    assert_nothing_private(
        collector.spans, "private/article", "127.0.0.2", SECRET_TOKEN, "word word"
    )


@pytest.fixture(scope="module")
def in_memory():
    """The OpenTelemetry SDK's in-memory exporter as this process's tracer provider (a
    process has one; the spans of later tests go nowhere once it is shut down)."""
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    yield exporter
    provider.shutdown()


async def test_store_round_trips_are_spans_of_the_call(engines, redis, in_memory):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    data = config_data(engines, {"github", "stackexchange"})
    data["state"] = {"url": redis.url(), "timeout_ms": 100}
    config = config_from_dict(data, env={})
    in_memory.clear()
    async with Client(config) as client:
        server = build_server(config, client=client)
        async with mcp.Client(server, mode="legacy") as mcp_client:
            result = await mcp_client.call_tool("web_search", {"query": QUERY, "category": "code"})
        await client.state.flush()
    assert structured(result)["outcome"] == "ok"
    spans = in_memory.get_finished_spans()
    call = next(s for s in spans if s.name == "rypsok web_search")
    plan = next(s for s in spans if s.name == "state plan")
    assert plan.parent.span_id == call.context.span_id
    assert plan.attributes["rypsok.state.answered_by"] == "store"
    assert any(s.name == "state settle" for s in spans)
    for span in spans:
        for value in (span.attributes or {}).values():
            assert "zebra" not in str(value) and redis.url() not in str(value)


async def test_the_deprecated_logging_capability_stays_unadvertised(engines, collector, tmp_path):
    config = write_toml(config_data(engines, {"github"}), tmp_path / "r.toml")
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": collector.endpoint}
    params = server_parameters(config, env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        initialized = await client.initialize()
    assert initialized.capabilities.logging is None
    assert initialized.capabilities.tools is not None
