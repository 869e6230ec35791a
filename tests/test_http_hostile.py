"""The team server against clients that hold no token (issue 24): what they can make it read,
hold and answer. One ``rypsok serve --http`` with tokens and JWTs for the module, and one
with its open-file limit lowered for the connection flood. Raw sockets where an HTTP
client would hide the problem (a body that never comes, two framings, a second request
on the same connection)."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from rypsok.config import ConfigError, config_from_dict
from rypsok.serve_http.auth import MAX_JWT_NAME_CHARS, jwt_name
from rypsok.serve_http.gate import allowed
from rypsok.state.limits import SHARE_WINDOW_S, TokenShares
from tests.conftest import config_data
from tests.engine_servers import EngineServer, json_play
from tests.jwt_issuer import Issuer
from tests.mcp_harness import (
    MCP_HEADERS,
    free_port,
    http_server,
    post_mcp,
    read_until_closed,
    rpc_call,
    write_toml,
)

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}
ALICE = "alice-4b1d7e0c9a2f6358"
BOB = "bob-e83f0a5c21d94b76aa"
TOKENS = {"RYPSOK_TOKENS": f"alice:{ALICE},bob:{BOB}"}
SEARCH_ARGS = {"query": "quokka", "category": "code"}
SEARCH = rpc_call("web_search", SEARCH_ARGS)
BODY_TIMEOUT_MS = 1000
SEARCH_MAX_CONCURRENT = 4
ANSWERED_WITHIN_S = 3.0
"""How soon a refusal decided on the headers must come (it is immediate; the rest is load)."""


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "trio"


@dataclass
class Team:
    base: str
    port: int
    stderr: Path
    issuer: Issuer

    def log(self) -> str:
        return self.stderr.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
async def team(
    engine_server: EngineServer, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Team]:
    """Static tokens for alice and bob, JWTs from a loopback issuer, a 1 s body bound,
    four searches at once, and one engine_status a minute for each token."""
    folder = tmp_path_factory.mktemp("hostile")
    port = free_port()
    resource_url = f"http://127.0.0.1:{port}/mcp"
    with Issuer().running() as issuer:
        server = {
            "tokens_env": "RYPSOK_TOKENS",
            "jwks_url": f"{issuer.url}/jwks.json",
            "issuer": issuer.name,
            "audience": resource_url,
            "body_timeout_ms": BODY_TIMEOUT_MS,
        }
        data = {
            **config_data(engine_server, CODE),  # (its first parameter is named "server")
            "server": server,
            "search": {"deadline_ms": 6000, "max_concurrent": SEARCH_MAX_CONCURRENT},
            "limits": {"per_token": {"engine_status": 1}},
        }
        path = write_toml(data, folder / "rypsok.toml")
        stderr = folder / "stderr.log"
        with stderr.open("w") as errlog:
            async with http_server(path, TOKENS, errlog, listen=f"127.0.0.1:{port}") as (
                base,
                _,
            ):
                yield Team(base, port, stderr, issuer)


def answer_normally(engines: EngineServer, delay_s: float = 0.0) -> None:
    engines.plays["github"] = json_play("github/search.json", delay_s=delay_s)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json", delay_s=delay_s)


@contextlib.contextmanager
def connected(port: int, timeout_s: float = 5.0) -> Iterator[socket.socket]:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
        yield sock


def post_head(port: int, length: int, token: str | None = None, host: str | None = None) -> bytes:
    lines = [
        "POST /mcp HTTP/1.1",
        f"Host: {host or f'127.0.0.1:{port}'}",
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        "MCP-Protocol-Version: 2025-11-25",
        f"Content-Length: {length}",
    ]
    if token is not None:
        lines.append(f"Authorization: Bearer {token}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def status_lines(received: bytes) -> list[bytes]:
    return [line for line in received.split(b"\r\n") if line.startswith(b"HTTP/1.1 ")]


# --- 1. the token is judged on the headers; a body has a time bound ----------------------


@pytest.mark.parametrize("token", [None, "not-a-token-of-anyone"], ids=["none", "invalid"])
async def test_without_a_valid_token_the_answer_is_401_before_any_body(team, engines, token):
    with connected(team.port) as sock:
        sock.sendall(post_head(team.port, 60_000, token) + b"{")
        received, closed = read_until_closed(sock, ANSWERED_WITHIN_S)
    assert status_lines(received) == [b"HTTP/1.1 401 "], received[:200]
    assert closed, "the connection of a refused request with a body to come stays open"
    assert b"\r\nconnection: close\r\n" in received.lower(), "closed without saying so"
    assert engines.seen == []


async def test_a_body_that_does_not_arrive_in_time_is_408_and_closed(team, engines):
    answer_normally(engines)
    started = time.monotonic()
    with connected(team.port) as sock:
        sock.sendall(post_head(team.port, 200, ALICE) + b'{"jsonrpc": "2.0", ')
        received, closed = read_until_closed(sock, BODY_TIMEOUT_MS / 1000 + ANSWERED_WITHIN_S)
    took = time.monotonic() - started
    assert status_lines(received) == [b"HTTP/1.1 408 "], received[:200]
    assert closed
    assert took >= BODY_TIMEOUT_MS / 1000
    assert engines.seen == []
    # the same token's next call is served
    fine = await post_mcp(team.base, SEARCH, token=ALICE)
    assert fine.json()["result"]["structuredContent"]["outcome"] == "ok"


# --- 2. a body nested 1,000 deep --------------------------------------------------------


async def test_a_body_nested_1000_deep_is_401_without_a_token_and_refused_with_one(team, engines):
    deep = b"[" * 1000 + b"]" * 1000
    in_arguments = (
        b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"web_search",'
        b'"_meta":{"progressToken":"p"},"arguments":{"query":' + deep + b"}}}"
    )
    refused = await post_mcp(team.base, deep)
    batch, call = [await post_mcp(team.base, body, token=ALICE) for body in (deep, in_arguments)]
    assert refused.status_code == 401
    # judged as the stdio pipe judges a line: an array is a batch, the nest in the
    # arguments the tool error naming the argument that holds it
    assert batch.status_code == 400
    assert batch.json()["id"] is None and batch.json()["error"]["code"] == -32600
    assert call.status_code == 200
    assert "text/event-stream" in call.headers["content-type"]  # it asked for progress
    result = json.loads(call.text.split("data: ")[-1])["result"]
    assert result["isError"] is True
    error = result["structuredContent"]["error"]
    assert (error["kind"], error["detail"]["parameter"]) == ("invalid_request", "query")
    assert "nested more than 64 levels deep" in error["message"]
    assert engines.seen == []
    assert "Traceback" not in team.log()
    assert "RecursionError" not in team.log()


async def unauthorized_count(http: httpx.AsyncClient, base: str) -> float:
    scrape = await http.get(f"{base}/metrics", headers={"Authorization": f"Bearer {ALICE}"})
    line = next(
        line
        for line in scrape.text.splitlines()
        if line.startswith("rypsok_http_unauthorized_total ")
    )
    return float(line.split()[1])


async def test_the_authorization_header_is_read_as_rfc_6750_writes_it(team, engines):
    """``Bearer``, any case, 1*SP, the token; anything else carries no token, a token that
    is not one is ``invalid_token``, and two Authorization headers are a malformed request
    (400 ``invalid_request``), whichever of them holds a valid token."""
    metadata = f"http://127.0.0.1:{team.port}/.well-known/oauth-protected-resource/mcp"
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    sent = {
        "lowercase": [("authorization", f"bearer {ALICE}")],
        "spaces": [("Authorization", f"Bearer   {ALICE}")],
        "none": [],
        "basic": [("Authorization", f"Basic {ALICE}")],
        "tab": [("Authorization", f"Bearer\t{ALICE}")],
        "scheme_only": [("Authorization", "Bearer")],
        "bearer_twice": [("Authorization", f"Bearer Bearer {ALICE}")],
        "newline_escaped": [("Authorization", f"Bearer {ALICE}\\n")],
        "long": [("Authorization", "Bearer " + "a" * 9000)],
        "two_valid_last": [("Authorization", "Bearer x"), ("Authorization", f"Bearer {ALICE}")],
        "two_valid_first": [("Authorization", f"Bearer {ALICE}"), ("Authorization", "Bearer x")],
        "two_same": [("Authorization", f"Bearer {ALICE}"), ("Authorization", f"Bearer {ALICE}")],
    }
    answers = {}
    async with httpx.AsyncClient(trust_env=False, timeout=10) as http:
        refused_before = await unauthorized_count(http, team.base)
        for name, authorization in sent.items():
            headers = [*MCP_HEADERS.items(), *authorization]
            answers[name] = await http.post(f"{team.base}/mcp", content=body, headers=headers)
        answers["query"] = await http.post(
            f"{team.base}/mcp?access_token={ALICE}", content=body, headers=MCP_HEADERS
        )
        refused = await unauthorized_count(http, team.base) - refused_before
    assert refused == len(answers) - 2, "every refusal but the two accepted is counted"
    for name in ("lowercase", "spaces"):
        assert answers[name].status_code == 200, name
        tools = answers[name].json()["result"]["tools"]
        assert {tool["name"] for tool in tools} == {"web_search", "web_fetch", "engine_status"}
    for name in ("none", "basic", "tab", "scheme_only", "query"):
        assert answers[name].status_code == 401, name
        assert answers[name].headers["WWW-Authenticate"] == (
            'Bearer realm="rypsok", error_description="a bearer token is required", '
            f'resource_metadata="{metadata}"'
        ), name
        assert answers[name].json() == {"error_description": "a bearer token is required"}
        assert answers[name].headers["Connection"] == "close", name
    for name in ("bearer_twice", "newline_escaped", "long"):
        assert answers[name].status_code == 401, name
        assert answers[name].headers["WWW-Authenticate"] == (
            'Bearer error="invalid_token", error_description="the token is not valid", '
            f'resource_metadata="{metadata}"'
        ), name
        assert answers[name].json() == {
            "error": "invalid_token",
            "error_description": "the token is not valid",
        }
    for name in ("two_valid_last", "two_valid_first", "two_same"):
        assert answers[name].status_code == 400, name
        assert answers[name].headers["WWW-Authenticate"] == (
            'Bearer error="invalid_request", error_description="send one Authorization header", '
            f'resource_metadata="{metadata}"'
        ), name
        assert answers[name].headers["Content-Type"] == "application/json"
        assert answers[name].json() == {
            "error": "invalid_request",
            "error_description": "send one Authorization header",
        }
    assert engines.seen == []


# --- 3 and 5. Host and Origin on every route, ports as numbers ---------------------------


@pytest.mark.parametrize("path", ["/healthz", "/metrics", "/mcp"])
async def test_every_route_refuses_a_foreign_host_and_origin(team, path):
    port = team.port
    async with httpx.AsyncClient(trust_env=False, timeout=10) as http:
        url = f"{team.base}{path}"
        auth = {"Authorization": f"Bearer {ALICE}"}
        foreign_host = await http.get(url, headers={**auth, "Host": f"attacker.example:{port}"})
        named_port = await http.get(url, headers={**auth, "Host": "127.0.0.1:evil"})
        big_port = await http.get(url, headers={**auth, "Host": "127.0.0.1:99999"})
        foreign_origin = await http.get(
            url, headers={**auth, "Origin": f"http://127.0.0.1:{port}.evil.example"}
        )
        own = await http.get(url, headers={**auth, "Origin": f"http://127.0.0.1:{port}"})
    assert foreign_host.status_code == 421
    assert named_port.status_code == 421
    assert big_port.status_code == 421
    assert foreign_origin.status_code == 403
    for refused in (foreign_host, named_port, big_port, foreign_origin):
        assert refused.headers["Connection"] == "close"
    assert own.status_code == (405 if path == "/mcp" else 200)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("127.0.0.1:8080", True),
        ("127.0.0.1", True),
        ("LOCALHOST:8080", True),
        ("[::1]:65535", True),
        ("127.0.0.1:evil", False),
        ("127.0.0.1:", False),
        ("127.0.0.1:65536", False),
        ("127.0.0.1:8080.evil.example", False),
        ("127.0.0.1:80:80", False),
        ("127.0.0.1.evil.example:80", False),
        ("localhost:८०", False),  # digits, but not ASCII ones
        ("", False),
        (None, False),
    ],
)
def test_a_port_wildcard_matches_the_name_exactly_and_the_port_as_a_number(value, expected):
    assert allowed(value, ["127.0.0.1", "127.0.0.1:*", "localhost:*", "[::1]:*"]) is expected


def test_an_origin_pattern_with_a_port_wildcard_matches_the_same_way():
    patterns = ["http://127.0.0.1:*", "https://search.example.org"]
    assert allowed("http://127.0.0.1:18900", patterns)
    assert not allowed("http://127.0.0.1:18900.evil.example", patterns)
    assert not allowed("https://127.0.0.1:18900", patterns)
    assert allowed("https://search.example.org", patterns)
    assert not allowed("https://search.example.org:443", patterns)


# --- 4. Content-Length and Transfer-Encoding together -----------------------------------


@pytest.mark.parametrize("token", [None, ALICE], ids=["no_token", "token"])
async def test_content_length_with_chunked_is_400_and_the_smuggled_request_never_served(
    team, engines, token
):
    port = team.port
    smuggled = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    request = (
        (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\n{auth}"
            f"Content-Length: {len(smuggled) + 5}\r\nTransfer-Encoding: chunked\r\n\r\n"
        ).encode()
        + b"0\r\n\r\n"
        + smuggled
    )
    with connected(port) as sock:
        sock.sendall(request)
        received, closed = read_until_closed(sock, ANSWERED_WITHIN_S)
    assert status_lines(received) == [b"HTTP/1.1 400 "], received
    assert b'"status"' not in received  # /healthz's answer
    assert closed
    assert engines.seen == []


# --- 6. one token's share of the concurrency ---------------------------------------------


async def test_one_token_holding_its_share_of_slow_calls_leaves_room_for_another(team, engines):
    answer_normally(engines, delay_s=1.5)
    alice: list[dict[str, Any]] = []

    async def search_as_alice(n: int) -> None:
        response = await post_mcp(team.base, rpc_call("web_search", SEARCH_ARGS, n), token=ALICE)
        alice.append(response.json()["result"]["structuredContent"])

    # bob has called lately (a team server's tokens come and go): alice's share is half
    status = await post_mcp(team.base, rpc_call("engine_status", {}, 99), token=BOB)
    assert status.json()["result"]["structuredContent"]["outcome"] == "ok"
    async with anyio.create_task_group() as tasks:
        for n in range(SEARCH_MAX_CONCURRENT):
            tasks.start_soon(search_as_alice, n)
        with anyio.fail_after(10):
            while len(engines.seen) < 2 * 2:  # alice's share: two searches, two engines each
                await anyio.sleep(0.01)
        await anyio.sleep(0.2)
        bob = await post_mcp(team.base, SEARCH, token=BOB)
    refused = [payload["error"] for payload in alice if "error" in payload]
    assert [(e["kind"], e["detail"]["reason"]) for e in refused] == [("unavailable", "busy")] * 2
    assert [p["outcome"] for p in alice if "error" not in p] == ["ok", "ok"]
    assert bob.json()["result"]["structuredContent"]["outcome"] == "ok"


def test_a_token_s_share_is_the_bound_alone_half_of_it_beside_another_or_the_configured():
    now = [0.0]
    fair = TokenShares(None, clock=lambda: now[0])
    assert [fair.share(bound) for bound in (1, 2, 3, 8)] == [1, 1, 2, 4]
    # alone, alice may take every slot: a deployment with one token keeps its capacity
    assert [fair.try_enter("alice", "web_search", 4) for _ in range(5)] == [True] * 4 + [False]
    for _ in range(4):
        fair.leave("alice", "web_search")
    # once bob has called (even a call refused), alice's share is half the bound
    assert fair.try_enter("bob", "web_search", 4)
    fair.leave("bob", "web_search")
    assert [fair.try_enter("alice", "web_search", 4) for _ in range(3)] == [True, True, False]
    assert fair.try_enter("bob", "web_search", 4)
    assert fair.try_enter("alice", "web_fetch", 4)
    fair.leave("alice", "web_search")
    assert fair.try_enter("alice", "web_search", 4)
    # bob gone quiet for longer than the window, and none of his calls in flight: all again
    fair.leave("bob", "web_search")
    now[0] += SHARE_WINDOW_S + 1
    assert fair.try_enter("alice", "web_search", 4) and fair.try_enter("alice", "web_search", 4)
    configured = TokenShares(3)
    assert [configured.share(bound, "alice") for bound in (1, 8)] == [3, 3]


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"limits": {"per_token": {"max_concurrent": 0}}}, "limits.per_token.max_concurrent"),
        ({"limits": {"per_token": {"max_concurrent": "2"}}}, "limits.per_token.max_concurrent"),
        ({"server": {"body_timeout_ms": 50}}, "server.body_timeout_ms"),
        ({"server": {"body_timeout_ms": 1.5}}, "server.body_timeout_ms"),
    ],
)
def test_bad_new_keys_are_refused_by_name(data, key):
    with pytest.raises(ConfigError) as caught:
        config_from_dict(data, env={})
    assert caught.value.key == key


def test_the_new_keys_have_their_defaults():
    config = config_from_dict({}, env={})
    assert config.server.body_timeout_ms == 10_000
    assert config.per_token_limits.max_concurrent is None


# --- 7. JWT names: the whole client, or its digest ---------------------------------------


def test_a_long_jwt_client_is_named_by_its_digest_never_a_prefix():
    shared = "c" * 124
    one, two = jwt_name(shared + "-one"), jwt_name(shared + "-two")
    assert one != two
    assert one.startswith("jwt-sha256:") and len(one) == len("jwt-sha256:") + 64
    assert jwt_name("agent-7") == "jwt:agent-7"
    longest = "a" * (MAX_JWT_NAME_CHARS - len("jwt:"))
    assert jwt_name(longest) == f"jwt:{longest}"


async def test_jwt_clients_sharing_a_long_prefix_have_their_own_limits(team, engines):
    audience = f"http://127.0.0.1:{team.port}/mcp"
    shared = "client-" + "x" * 117  # 124 characters in common
    status = rpc_call("engine_status", {})
    tokens = [team.issuer.token(audience, client_id=shared + end) for end in ("-one", "-two")]
    answers = [await post_mcp(team.base, status, token=token) for token in tokens]
    again = await post_mcp(team.base, status, token=tokens[0])
    for answer in answers:
        assert "error" not in answer.json()["result"]["structuredContent"], answer.json()
    error = again.json()["result"]["structuredContent"]["error"]
    assert (error["kind"], error["detail"]["reason"]) == ("unavailable", "rate_limited")
    names = [
        line.get("token")
        for line in map(json.loads, filter(None, team.log().splitlines()))
        if line.get("event") == "http_request" and line.get("status") == 200
    ]
    assert len({name for name in names if (name or "").startswith("jwt-sha256:")}) == 2
