"""The Streamable HTTP transport itself: start-up refusals, Host and Origin checks, the body
bound, /healthz, /metrics and graceful shutdown. rypsok runs as ``rypsok serve --http`` on
a loopback port; the engines are the loopback engine server. (The MCP-level tests in
test_mcp*.py run over this transport too.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import MCPError
from prometheus_client.parser import text_string_to_metric_families

from rypsok.config import ConfigError, config_from_dict, parse_listen
from tests.conftest import config_data
from tests.engine_servers import Play, json_play
from tests.mcp_harness import (
    MCP_HEADERS,
    ROOT,
    free_port,
    http_server,
    http_session,
    post_mcp,
    rpc_call,
    structured,
    write_toml,
)
from tests.server_fork import rypsok_command

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}
TOKEN = "alice-token-3f9a71c0d2e84b56"
TOKENS = {"RYPSOK_TOKENS": f"alice:{TOKEN}"}
QUERY = "quokka marmalade"


def config_file(engines, tmp_path: Path, **sections: Any) -> Path:
    data = {**config_data(engines, CODE), **sections}  # (config_data's first parameter is "server")
    return write_toml(data, tmp_path / "rypsok.toml")


def run_cli(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        rypsok_command(*argv),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )


# --- configuration and start-up ---------------------------------------------------------


def test_server_keys_have_their_defaults_and_listen_is_parsed():
    config = config_from_dict({}, env={})
    server = config.server
    assert (server.listen, server.tokens_env, server.tokens_file) == ("", "", "")
    assert (server.allowed_hosts, server.allowed_origins) == ((), ())
    assert server.max_request_body == 65536
    assert (server.jwks_url, server.issuer, server.audience) == ("", "", "")
    limits = config.per_token_limits
    assert (limits.web_search, limits.web_fetch, limits.engine_status) == (None, None, None)
    assert parse_listen("k", "8080") == ("127.0.0.1", 8080)
    assert parse_listen("k", "0.0.0.0:80") == ("0.0.0.0", 80)
    assert parse_listen("k", "[::1]:9000") == ("::1", 9000)
    assert parse_listen("k", ":9000") == ("127.0.0.1", 9000)


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"server": {"colour": "red"}}, "server.colour"),
        ({"server": {"listen": "localhost"}}, "server.listen"),
        ({"server": {"listen": "127.0.0.1:70000"}}, "server.listen"),
        ({"server": {"tokens_env": "not a name"}}, "server.tokens_env"),
        ({"server": {"max_request_body": 10}}, "server.max_request_body"),
        ({"server": {"allowed_hosts": ["a b"]}}, "server.allowed_hosts[0]"),
        ({"server": {"allowed_origins": ["example.org"]}}, "server.allowed_origins[0]"),
        ({"server": {"issuer": "https://id.example"}}, "server.issuer"),
        ({"server": {"jwks_url": "http://id.example/jwks"}}, "server.jwks_url"),
        ({"server": {"jwks_url": "https://id.example/jwks"}}, "server.issuer"),
        (
            {"server": {"jwks_url": "https://id.example/jwks", "issuer": "https://id.example"}},
            "server.audience",
        ),
        (
            {
                "server": {
                    "jwks_url": "https://id.example/jwks",
                    "issuer": "https://id.example",
                    "audience": "rypsok",
                }
            },
            "server.resource_url",
        ),
        ({"limits": {"per_token": {"web_serch": 3}}}, "limits.per_token.web_serch"),
        ({"limits": {"per_token": {"web_search": 0}}}, "limits.per_token.web_search"),
        ({"limits": {"per_token": 3}}, "limits.per_token"),
    ],
)
def test_bad_server_keys_are_refused_by_name(data, key):
    with pytest.raises(ConfigError) as caught:
        config_from_dict(data, env={})
    assert caught.value.key == key


def test_refusals_at_start_exit_2_naming_the_key(engines, tmp_path):
    path = str(config_file(engines, tmp_path))
    port = str(free_port())
    cases = [
        (["--http", f"0.0.0.0:{port}"], {}, "server.tokens_env"),
        (["--http", "nonsense"], {}, "--http"),
    ]
    for argv, env, key in cases:
        done = run_cli("serve", "--config", path, *argv, env=env)
        assert done.returncode == 2, (argv, done.stderr)
        assert f"configuration key {key}:" in done.stderr
        assert "Traceback" not in done.stderr

    with_tokens = config_file(engines, tmp_path, server={"tokens_env": "RYPSOK_TOKENS"})
    done = run_cli("serve", "--config", str(with_tokens), "--http", f"0.0.0.0:{port}", env=TOKENS)
    assert done.returncode == 2
    assert "configuration key server.allowed_hosts:" in done.stderr

    unset = config_file(engines, tmp_path, server={"tokens_env": "RYPSOK_NO_SUCH_TOKENS"})
    done = run_cli("serve", "--config", str(unset), "--http", f"127.0.0.1:{port}")
    assert done.returncode == 2
    assert "configuration key server.tokens_env:" in done.stderr

    plain = tmp_path / "tokens.txt"
    plain.write_text(f"# team tokens\nalice:{TOKEN}\n")
    in_file = config_file(engines, tmp_path, server={"tokens_file": str(plain)})
    done = run_cli("serve", "--config", str(in_file), "--http", f"127.0.0.1:{port}")
    assert done.returncode == 2
    assert "configuration key server.tokens_file: line 2 must be NAME:SHA256" in done.stderr
    assert TOKEN not in done.stderr


async def test_listen_in_the_file_serves_http_without_the_flag(engines, tmp_path):
    port = free_port()
    path = config_file(engines, tmp_path, server={"listen": f"127.0.0.1:{port}"})
    process = subprocess.Popen(
        rypsok_command("serve", "--config", str(path)),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        async with httpx.AsyncClient() as http:
            with anyio.fail_after(30):
                while True:
                    try:
                        health = await http.get(f"http://127.0.0.1:{port}/healthz")
                        break
                    except httpx.TransportError:
                        await anyio.sleep(0.05)
        assert health.json()["status"] == "ok"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=15) == 0
    finally:
        process.kill()


# --- one running server -----------------------------------------------------------------


async def test_healthz_needs_no_token_and_reports_no_store(engines, tmp_path):
    path = config_file(engines, tmp_path, server={"tokens_env": "RYPSOK_TOKENS"})
    async with http_server(path, TOKENS) as (base, _), httpx.AsyncClient() as http:
        answer = await http.get(f"{base}/healthz")
        refused = await http.get(f"{base}/metrics")
        wrong = await http.get(f"{base}/metrics", headers={"Authorization": "Bearer nope"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "ok" and body["store"] == "none"
    assert set(body) == {"status", "version", "store"}
    assert refused.status_code == 401
    assert refused.json()["error_description"] == "a bearer token is required"
    assert wrong.status_code == 401
    assert 'error="invalid_token"' in wrong.headers["WWW-Authenticate"]
    assert wrong.json()["error_description"] == "the token is not valid"


async def test_healthz_reports_the_primary_the_sentinels_named(
    engines, tmp_path, sentinel_topology
):
    """No address in any metric label: the primary is named in /healthz alone. (What each
    form reports, as ``Store.reach``, is tested in test_state.py and
    test_state_failover.py.)"""
    path = config_file(
        engines,
        tmp_path,
        server={"tokens_env": "RYPSOK_TOKENS"},
        state=sentinel_topology.state(),
    )
    async with http_server(path, TOKENS) as (base, _), httpx.AsyncClient() as http:
        body = (await http.get(f"{base}/healthz")).json()
        metrics = await http.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    primary = f"127.0.0.1:{sentinel_topology.primary_port()}"
    assert body["store"] == "ok"
    assert body["store_reach"] == {"form": "sentinel", "service": "rypsok", "primary": primary}
    assert metrics.status_code == 200
    assert primary not in metrics.text and "127.0.0.1" not in metrics.text


async def test_host_and_origin_are_checked(engines, tmp_path):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    call = rpc_call("web_search", {"query": QUERY, "category": "code"})
    async with http_server(config_file(engines, tmp_path)) as (base, _):
        port = base.rsplit(":", 1)[1]
        foreign_host = await post_mcp(base, call, headers={"Host": f"attacker.example:{port}"})
        foreign_origin = await post_mcp(base, call, headers={"Origin": "http://attacker.example"})
        assert engines.seen == []
        own_origin = await post_mcp(base, call, headers={"Origin": f"http://127.0.0.1:{port}"})
    assert foreign_host.status_code == 421
    assert foreign_origin.status_code == 403
    assert own_origin.status_code == 200
    assert own_origin.json()["result"]["structuredContent"]["outcome"] == "ok"


def json_lines(text: str) -> list[dict[str, Any]]:
    """Every line of ``text`` as a JSON object; fails on a line that is not one."""
    lines = []
    for raw in text.splitlines():
        try:
            record = json.loads(raw)
        except ValueError:
            pytest.fail(f"a log line is not JSON: {raw!r}")
        assert isinstance(record, dict), raw
        lines.append(record)
    return lines


@pytest.mark.parametrize("to_file", [False, True], ids=["stderr", "log_path"])
async def test_refused_hosts_and_origins_are_logged_as_json_lines_only(engines, tmp_path, to_file):
    log_file = tmp_path / "rypsok.log"
    sections: dict[str, Any] = {"log": {"path": str(log_file)}} if to_file else {}
    stderr = tmp_path / "stderr.log"
    call = rpc_call("web_search", {"query": QUERY, "category": "code"})
    with stderr.open("w") as errlog:
        async with http_server(config_file(engines, tmp_path, **sections), errlog=errlog) as (
            base,
            _,
        ):
            port = base.rsplit(":", 1)[1]
            host = await post_mcp(base, call, headers={"Host": f"attacker.example:{port}"})
            origin = await post_mcp(base, call, headers={"Origin": "http://attacker.example"})
    assert (host.status_code, origin.status_code) == (421, 403)
    records = json_lines(log_file.read_text()) if to_file else json_lines(stderr.read_text())
    if to_file:
        assert json_lines(stderr.read_text()) == []
    refused = [r for r in records if r["event"] in ("host_refused", "origin_refused")]
    assert [(r["event"], r.get("host"), r.get("origin")) for r in refused] == [
        ("host_refused", f"attacker.example:{port}", None),
        ("origin_refused", None, "http://attacker.example"),
    ]
    for record in refused:
        assert record["level"] == "warning"
        assert (record["method"], record["path"]) == ("POST", "/mcp")


@pytest.mark.parametrize("level", ["info", "debug"])
async def test_a_request_that_ends_normally_logs_no_disconnection_at_info(engines, tmp_path, level):
    # Every stateless POST ends with its connection (issue 25): no news unless a call was cut
    # (test_http_cancel.py has that one, at info).
    engines.plays["github"] = json_play("github/search.json")
    stderr = tmp_path / "stderr.log"
    config = config_file(engines, tmp_path, log={"level": level})
    with stderr.open("w") as errlog:
        async with http_server(config, errlog=errlog) as (base, _):
            for request_id in range(1, 6):
                arguments = {"query": f"{QUERY} {request_id}", "category": "code"}
                answer = await post_mcp(base, rpc_call("web_search", arguments, request_id))
                assert answer.status_code == 200
                assert structured_of(answer)["outcome"] in ("ok", "partial")
    disconnections = [
        r for r in json_lines(stderr.read_text()) if r["event"] == "client_disconnected"
    ]
    assert all((r["level"], r["calls"]) == ("debug", 0) for r in disconnections), disconnections
    if level == "info":
        assert disconnections == []


def structured_of(answer: httpx.Response) -> dict[str, Any]:
    return answer.json()["result"]["structuredContent"]


async def test_allowed_hosts_replace_the_loopback_defaults(engines, tmp_path):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    path = config_file(
        engines,
        tmp_path,
        server={
            "allowed_hosts": ["search.example.org"],
            "allowed_origins": ["https://app.example.org"],
        },
    )
    call = rpc_call("web_search", {"query": QUERY, "category": "code"})
    async with http_server(path) as (base, _):
        named = await post_mcp(base, call, headers={"Host": "search.example.org"})
        by_address = await post_mcp(base, call)
        origin = await post_mcp(
            base,
            call,
            headers={"Host": "search.example.org", "Origin": "https://app.example.org"},
        )
        other_origin = await post_mcp(
            base, call, headers={"Host": "search.example.org", "Origin": "https://example.org"}
        )
    assert named.status_code == 200
    assert by_address.status_code == 421
    assert origin.status_code == 200
    assert other_origin.status_code == 403


async def test_request_bodies_are_bounded_and_the_server_keeps_serving(engines, tmp_path):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    path = config_file(engines, tmp_path, server={"max_request_body": 2048})
    big = rpc_call("web_search", {"query": "x" * 3000, "category": "code"})
    async with http_server(path) as (base, _):
        too_big = await post_mcp(base, big)
        assert engines.seen == []
        fine = await post_mcp(base, rpc_call("web_search", {"query": QUERY, "category": "code"}))
    # the configured bound, in the tool error a tools/call over it gets (tests/test_http_bodies.py)
    assert too_big.status_code == 200
    error = too_big.json()["result"]["structuredContent"]["error"]
    assert (error["kind"], error["detail"]) == (
        "invalid_request",
        {"parameter": "arguments", "max": 2048},
    )
    assert fine.status_code == 200
    assert fine.json()["result"]["structuredContent"]["outcome"] == "ok"


async def test_a_tools_call_for_no_tool_is_a_jsonrpc_error_naming_the_tools(engines, tmp_path):
    tools = "web_search, engine_status, web_fetch"
    calls = {
        "no name": (
            {"arguments": {"query": QUERY}},
            f"tools/call needs the name of a tool: {tools}",
        ),
        "no params": (None, f"tools/call needs the name of a tool: {tools}"),
        "a number": ({"name": 7}, f"tools/call needs the name of a tool: {tools}"),
        "unknown": ({"name": "search"}, f"Unknown tool: 'search'; the tools are: {tools}"),
    }
    replies = {}
    async with http_server(config_file(engines, tmp_path)) as (base, _):
        for why, (params, _) in calls.items():
            message: dict[str, Any] = {"jsonrpc": "2.0", "id": why, "method": "tools/call"}
            if params is not None:
                message["params"] = params
            replies[why] = await post_mcp(base, message)
        invalid = await post_mcp(base, rpc_call("web_search", {"query": QUERY, "colour": "red"}))
    assert engines.seen == []
    for why, (_, text) in calls.items():
        body = replies[why].json()
        assert body["id"] == why and "result" not in body, body
        assert (body["error"]["code"], body["error"]["message"]) == (-32602, text), why
    error = invalid.json()["result"]["structuredContent"]["error"]
    assert (error["kind"], error["detail"]["parameter"]) == ("invalid_request", "colour")


async def test_only_posts_reach_mcp_and_bad_json_is_a_jsonrpc_error(engines, tmp_path):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    async with http_server(config_file(engines, tmp_path)) as (base, _):
        async with httpx.AsyncClient(timeout=10) as http:
            # stateless: no SSE stream to open and no session to delete
            get = await http.get(f"{base}/mcp", headers={"Accept": "text/event-stream"})
            delete = await http.delete(f"{base}/mcp")
        garbled = await post_mcp(base, b"{not json")
        fine = await post_mcp(base, rpc_call("web_search", {"query": QUERY, "category": "code"}))
    assert (get.status_code, get.headers["Allow"]) == (405, "POST")
    assert delete.status_code == 405
    assert garbled.status_code == 400
    assert garbled.json()["error"]["code"] == -32700
    assert fine.json()["result"]["structuredContent"]["outcome"] == "ok"


async def test_a_body_is_judged_as_the_stdio_pipe_judges_a_line(engines, tmp_path):
    """The SDK answered these -32602 with id null and pydantic's validation text, and took a
    request with an id of null, a fraction or a boolean for a notification (202, no answer):
    now each gets -32600, under its id when the id can be read, else id null. A tools/call
    rypsok cannot serve as sent (the SDK's -32602 or -32700) is now the tool error."""
    ping = {"jsonrpc": "2.0", "method": "ping"}
    bodies: dict[str, tuple[Any, Any, str]] = {
        "batch": ([{**ping, "id": 1}, {**ping, "id": 2}], None, "batches are not supported"),
        "empty batch": ([], None, "batches are not supported"),
        "a number": (7, None, "a message is a JSON object"),
        "null id": ({**ping, "id": None}, None, "id must be a string or an integer"),
        "fraction id": ({**ping, "id": 1.5}, None, "id must be a string or an integer"),
        "boolean id": ({**ping, "id": True}, None, "id must be a string or an integer"),
        "object id": ({**ping, "id": {"a": 1}}, None, "id must be a string or an integer"),
        "no method": ({"jsonrpc": "2.0", "id": 100, "mthod": "ping"}, 100, "a request needs"),
        "params a list": ({**ping, "id": "p", "params": [1]}, "p", "params must be an object"),
        "jsonrpc 1.0": ({**ping, "jsonrpc": "1.0", "id": 3}, 3, 'jsonrpc must be "2.0"'),
    }
    surrogate_id = b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}'
    call = b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"web_search",'
    calls = {  # a tools/call rypsok cannot serve as sent: the tool error, as on stdio
        "arguments": (call + b'"arguments":"a string"}}', "arguments must be an object"),
        "query": (call + b'"arguments":{"query":"caf\\ud800"}}}', "lone surrogate escape"),
        "max_results": (
            call + b'"arguments":{"query":"q","max_results":' + b"9" * 5000 + b"}}}",
            "an integer of more than 4300 digits",
        ),
    }
    async with http_server(config_file(engines, tmp_path)) as (base, _):
        answers = {label: await post_mcp(base, body) for label, (body, _, _) in bodies.items()}
        tool_errors = {label: await post_mcp(base, body) for label, (body, _) in calls.items()}
        surrogate = await post_mcp(base, surrogate_id)
        fine = [await post_mcp(base, {**ping, "id": request_id}) for request_id in (0, "7")]
        notified = await post_mcp(base, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    for label, answer in answers.items():
        _, request_id, why = bodies[label]
        assert answer.status_code == 400, label
        body = answer.json()
        assert body["id"] == request_id and body["jsonrpc"] == "2.0", label
        assert (body["error"]["code"], body["error"]["message"]) == (-32600, "Invalid Request")
        assert body["error"]["data"].startswith(why), label
    for label, answer in tool_errors.items():
        assert answer.status_code == 200, label
        result = answer.json()["result"]
        assert answer.json()["id"] == 9 and result["isError"] is True, label
        error = result["structuredContent"]["error"]
        assert (error["kind"], error["detail"]["parameter"]) == ("invalid_request", label)
        assert calls[label][1] in error["message"], label
    assert engines.seen == []
    assert surrogate.status_code == 400
    assert surrogate.content.startswith(b'{"jsonrpc":"2.0","id":"\\ud800","error":{"code":-32600')
    assert [(a.status_code, a.json()["id"], a.json()["result"]) for a in fine] == [
        (200, 0, {}),
        (200, "7", {}),
    ]
    assert notified.status_code == 202


async def test_an_unknown_protocol_version_header_is_named_with_the_versions_served(
    engines, tmp_path
):
    """The SDK took an unknown MCP-Protocol-Version for the 2026-07-28 revision and refused
    the request for lacking that revision's envelope; the answer now names the fault."""
    ping = {"jsonrpc": "2.0", "id": 5, "method": "ping"}
    async with http_server(config_file(engines, tmp_path)) as (base, _):
        unknown = await post_mcp(base, ping, headers={"MCP-Protocol-Version": "1999-01-01"})
        known = await post_mcp(base, ping, headers={"MCP-Protocol-Version": "2025-06-18"})
        no_id = await post_mcp(base, b"{not json", headers={"MCP-Protocol-Version": "v9"})
    assert unknown.status_code == 400
    body = unknown.json()
    assert body["id"] == 5
    assert body["error"]["code"] == -32022
    assert body["error"]["message"] == "Unsupported protocol version"
    assert body["error"]["data"]["requested"] == "1999-01-01"
    assert {"2024-11-05", "2025-11-25", "2026-07-28"} <= set(body["error"]["data"]["supported"])
    assert (known.status_code, known.json()["result"]) == (200, {})
    assert (no_id.status_code, no_id.json()["id"], no_id.json()["error"]["code"]) == (
        400,
        None,
        -32022,
    )


async def test_a_body_not_sent_as_json_is_415_and_an_accept_without_json_406(engines, tmp_path):
    """RFC 9110's 415 and 406, each with a JSON-RPC error under the body's id (the SDK
    answered a plain-text 400, and on 2026-07-28 an empty 406). ``application/json`` with
    parameters or in capitals is JSON all the same, and no Accept at all takes any type."""
    ping = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "ping"}).encode()
    content_types = {
        "form": "application/x-www-form-urlencoded",
        "text": "text/plain",
        "json_patch": "application/json-patch+json",
        "none": None,
    }
    accepts = {"html": "text/html", "stream_only": "text/event-stream"}
    async with (
        http_server(config_file(engines, tmp_path)) as (base, _),
        httpx.AsyncClient(trust_env=False, timeout=30) as http,
    ):
        del http.headers["Accept"]  # httpx's default (*/*): a request below sends none

        async def post(
            body: bytes = ping, version: str = "2025-11-25", **headers: str | None
        ) -> httpx.Response:
            sent = {**MCP_HEADERS, "MCP-Protocol-Version": version}
            for name, value in headers.items():
                sent.pop(name.replace("_", "-").title(), None)
                if value is not None:
                    sent[name.replace("_", "-").title()] = value
            return await http.post(f"{base}/mcp", content=body, headers=sent)

        unsent = {label: await post(content_type=v) for label, v in content_types.items()}
        no_id = await post(b"query=quokka", content_type="text/plain")
        unaccepted = {
            (label, version): await post(version=version, accept=v)
            for label, v in accepts.items()
            for version in ("2025-11-25", "2026-07-28")
        }
        fine = [
            await post(content_type="application/json; charset=utf-8"),
            await post(content_type="Application/JSON"),
            await post(accept=None),
            await post(accept="*/*"),
        ]
    for label, answer in unsent.items():
        assert answer.status_code == 415, label
        assert answer.headers["Content-Type"] == "application/json", label
        assert answer.headers["Accept"] == "application/json", label
        assert answer.json() == {
            "jsonrpc": "2.0",
            "id": 5,
            "error": {
                "code": -32600,
                "message": "the body must be sent as Content-Type: application/json",
                "data": {"content_type": content_types[label] or ""},
            },
        }, label
    assert (no_id.status_code, no_id.json()["id"]) == (415, None)
    for (label, version), answer in unaccepted.items():
        assert answer.status_code == 406, (label, version)
        assert answer.headers["Content-Type"] == "application/json"
        assert answer.json() == {
            "jsonrpc": "2.0",
            "id": 5,
            "error": {
                "code": -32600,
                "message": "the client must accept application/json "
                "(Accept: application/json, text/event-stream)",
                "data": {"accept": accepts[label]},
            },
        }, (label, version)
    assert [(a.status_code, a.json()["id"], a.json()["result"]) for a in fine] == [
        (200, 5, {}),
    ] * 4


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(found: dict, name: str, **labels: str) -> float | None:
    return found.get((name, tuple(sorted(labels.items()))))


async def test_metrics_count_calls_engines_breakers_and_the_cache(engines, tmp_path):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = Play(status=429, headers={"Retry-After": "600"})
    path = config_file(
        engines,
        tmp_path,
        server={"tokens_env": "RYPSOK_TOKENS"},
        cache={"enabled": True},
        breaker={"failures": 1, "cooldown_s": 600, "max_cooldown_s": 600},
    )
    async with http_server(path, TOKENS) as (base, _):
        async with http_session(f"{base}/mcp", TOKEN) as client:
            first = await client.call_tool("web_search", {"query": QUERY, "category": "code"})
            second = await client.call_tool("web_search", {"query": QUERY, "category": "code"})
            await client.call_tool("web_search", {"query": ""})
            with pytest.raises(MCPError):
                await client.call_tool("no_such_tool", {})
        async with httpx.AsyncClient() as http:
            refused = await http.get(f"{base}/metrics")
            scraped = await http.get(
                f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
            )
    assert structured(first)["outcome"] == "partial"
    assert structured(second)["outcome"] == "ok"
    assert {"code": "from_cache", "engine": "github"} in structured(second)["notices"]
    assert refused.status_code == 401
    assert scraped.status_code == 200
    text = scraped.text
    found = samples(text)

    assert value(found, "rypsok_calls_total", tool="web_search", outcome="partial", reason="") == 1
    assert value(found, "rypsok_calls_total", tool="web_search", outcome="ok", reason="") == 1
    assert (
        value(found, "rypsok_calls_total", tool="web_search", outcome="invalid_request", reason="")
        == 1
    )
    assert (
        value(found, "rypsok_calls_total", tool="unknown", outcome="invalid_request", reason="")
        == 1
    )
    assert value(found, "rypsok_call_duration_seconds_count", tool="web_search") == 3
    assert value(found, "rypsok_engine_requests_total", engine="github", result="answered") == 1
    assert (
        value(found, "rypsok_engine_requests_total", engine="stackexchange", result="rate_limited")
        == 1
    )
    assert value(found, "rypsok_engine_request_duration_seconds_count", engine="github") == 1
    assert value(found, "rypsok_cache_lookups_total", engine="github", result="miss") == 1
    assert value(found, "rypsok_cache_lookups_total", engine="github", result="hit") == 1
    assert value(found, "rypsok_engine_breaker_state", engine="stackexchange", state="open") == 1
    assert value(found, "rypsok_engine_breaker_state", engine="stackexchange", state="closed") == 0
    assert value(found, "rypsok_engine_breaker_state", engine="github", state="closed") == 1
    assert value(found, "rypsok_engine_breaker_state", engine="brave", state="disabled") == 1
    assert value(found, "rypsok_http_unauthorized_total") == 1
    assert "# HELP rypsok_store_fallbacks_total" in text
    # no query, URL, address or token in any label
    for secret in ("quokka", "marmalade", TOKEN, "alice", "://", "127.0.0.1", "tokio"):
        assert secret not in text, secret


async def test_sigterm_lets_the_call_in_flight_finish_then_exits_0(engines, tmp_path):
    engines.plays["github"] = json_play("github/search.json", delay_s=1.5)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json", delay_s=1.5)
    path = config_file(engines, tmp_path, search={"deadline_ms": 5000})
    log_path = tmp_path / "stderr.log"
    with log_path.open("w") as errlog:
        async with http_server(path, errlog=errlog) as (base, process):
            answer: dict[str, httpx.Response] = {}

            async def call() -> None:
                message = rpc_call("web_search", {"query": QUERY, "category": "code"})
                answer["response"] = await post_mcp(base, message)

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(call)
                with anyio.fail_after(10):
                    while len(engines.seen) < 2:
                        await anyio.sleep(0.01)
                process.send_signal(signal.SIGTERM)
                # it stops accepting while the call is still in flight
                with anyio.fail_after(5):
                    while True:
                        try:
                            async with httpx.AsyncClient() as http:
                                await http.get(f"{base}/healthz")
                        except httpx.ConnectError:
                            break
                        await anyio.sleep(0.02)
                assert "response" not in answer
            with anyio.fail_after(15):
                while process.poll() is None:
                    await anyio.sleep(0.05)
    assert process.returncode == 0
    response = answer["response"]
    assert response.status_code == 200
    assert response.json()["result"]["structuredContent"]["outcome"] == "ok"
    events = [json.loads(line)["event"] for line in log_path.read_text().splitlines()]
    assert events.index("shutting_down") < events.index("stopped")
