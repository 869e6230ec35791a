"""A POST body over ``[server] max_request_body`` (issue: the SDK answered it 413 "Request
body too large" in plain text, which its own client made -32603 "Server returned an error
response"). Now a tools/call gets the tool error, as on stdio a line too long to read; any
other request, and a call not read to its end, 413 with a JSON-RPC error; the server and
the connection serve the next call. One ``rypsok serve --http`` for the module, with the
default bound and a 1 s body time bound."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import mcp
import pytest

from rypsok.serve_http.oversized import Ends
from tests.conftest import config_data
from tests.engine_servers import EngineServer, json_play
from tests.mcp_harness import (
    MCP_HEADERS,
    free_port,
    http_server,
    post_mcp,
    read_until_closed,
    rpc_call,
    structured,
    write_toml,
)

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}
QUERY = "quokka marmalade"
MAX_BODY = 65536
"""The default of ``[server] max_request_body`` (docs/configuration.md)."""
BODY_TIMEOUT_MS = 1000
ANSWERED_WITHIN_S = 3.0
TOOL_ERROR_DETAIL = {"parameter": "arguments", "max": MAX_BODY}
TOOL_ERROR_MESSAGE = (
    f"arguments cannot be read: the request body is longer than {MAX_BODY} bytes, the bound "
    "of one HTTP request; send shorter arguments"
)
RPC_MESSAGE = (
    f"the request body is longer than {MAX_BODY} bytes, the bound of one HTTP request: "
    "send a shorter request"
)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "trio"


@dataclass
class Served:
    base: str
    port: int
    stderr: Path

    def log_events(self, event: str) -> list[dict[str, Any]]:
        lines = self.stderr.read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines if line.startswith("{")]
        return [r for r in records if r.get("event") == event]


@pytest.fixture(scope="module")
async def served(
    engine_server: EngineServer, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Served]:
    folder = tmp_path_factory.mktemp("bodies")
    port = free_port()
    data = {
        **config_data(engine_server, CODE),  # (its first parameter is named "server")
        "server": {"body_timeout_ms": BODY_TIMEOUT_MS},
    }
    path = write_toml(data, folder / "rypsok.toml")
    stderr = folder / "stderr.log"
    with stderr.open("w") as errlog:
        async with http_server(path, errlog=errlog, listen=f"127.0.0.1:{port}") as (base, _):
            yield Served(base, port, stderr)


def answer_normally(engines: EngineServer) -> None:
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")


def padded_call(size: int, request_id: int = 1) -> bytes:
    """A tools/call of web_search for QUERY, ``size`` bytes long (JSON whitespace fills it)."""
    body = json.dumps(rpc_call("web_search", {"query": QUERY, "category": "code"}, request_id))
    assert len(body) < size
    return (body[:-1] + " " * (size - len(body)) + "}").encode()


def tool_error(answer: httpx.Response) -> dict[str, Any]:
    assert answer.status_code == 200, answer.text[:300]
    assert answer.headers["content-type"].startswith("application/json")
    result = answer.json()["result"]
    assert result["isError"] is True
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
    return result["structuredContent"]["error"]


# --- through the SDK's own client ------------------------------------------------------


@pytest.mark.parametrize("mode", ["auto", "legacy"])  # 2026-07-28, and the handshake
@pytest.mark.parametrize(
    "arguments",
    [
        {"query": "x" * 100_000},
        {"query": QUERY, "category": "code", "filters": {f"k{i}": "v" * 50 for i in range(2000)}},
    ],
    ids=["100k_query", "huge_arguments"],
)
async def test_an_oversized_call_is_the_tool_error_and_the_next_call_is_served(
    served, engines, mode, arguments
):
    answer_normally(engines)
    async with mcp.Client(f"{served.base}/mcp", mode=mode) as client:
        too_big = await client.call_tool("web_search", arguments)
        assert engines.seen == []
        fine = await client.call_tool("web_search", {"query": QUERY, "category": "code"})
    assert too_big.is_error is True
    error = structured(too_big)["error"]
    assert error == {
        "kind": "invalid_request",
        "message": TOOL_ERROR_MESSAGE,
        "detail": TOOL_ERROR_DETAIL,
    }
    assert fine.is_error is False
    assert structured(fine)["outcome"] == "ok"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_an_oversized_request_that_is_no_call_is_a_jsonrpc_error_the_client_raises(
    served, engines, mode
):
    """The SDK's client hands a JSON-RPC error in a 413's JSON body to its caller, under the
    request's id (mcp/client/streamable_http.py, _handle_post_request)."""
    answer_normally(engines)
    async with mcp.Client(f"{served.base}/mcp", mode=mode) as client:
        with pytest.raises(mcp.MCPError) as raised:
            await client.list_tools(meta={"padding": "p" * 70_000}, cache_mode="bypass")
        fine = await client.call_tool("web_search", {"query": QUERY, "category": "code"})
    assert (raised.value.code, raised.value.message) == (-32600, RPC_MESSAGE)
    assert raised.value.data == {"max": MAX_BODY}
    assert structured(fine)["outcome"] == "ok"


# --- raw POSTs -------------------------------------------------------------------------


async def test_an_oversized_body_whose_id_cannot_be_read_is_413_with_id_null(served, engines):
    # the id between two members too long to keep: in neither end of the body
    body = (
        b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"web_search","arguments":'
        b'{"query":"' + b"x" * 70_000 + b'"}},"id":7,"padding":"' + b"y" * 70_000 + b'"}'
    )
    answer = await post_mcp(served.base, body)
    assert answer.status_code == 413
    assert answer.headers["content-type"] == "application/json"
    assert answer.json() == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32600, "message": RPC_MESSAGE, "data": {"max": MAX_BODY}},
    }
    assert engines.seen == []


async def test_an_oversized_request_is_answered_under_the_id_at_either_end(served, engines):
    """The Python SDK writes the id first, the TypeScript SDK last (``{...request, jsonrpc,
    id}``): both are read, as the stdio pipe reads a line too long."""
    ping_id_first = (
        b'{"jsonrpc":"2.0","id":"big-ping","method":"ping","params":{"_meta":{"pad":"'
        + b"p" * 70_000
        + b'"}}}'
    )
    call_id_last = (
        b'{"method":"tools/call","params":{"name":"web_search","arguments":{"query":"'
        + b"x" * 100_000
        + b'"}},"jsonrpc":"2.0","id":42}'
    )
    ping = await post_mcp(served.base, ping_id_first)
    call = await post_mcp(served.base, call_id_last)
    assert ping.status_code == 413
    assert ping.json() == {
        "jsonrpc": "2.0",
        "id": "big-ping",
        "error": {"code": -32600, "message": RPC_MESSAGE, "data": {"max": MAX_BODY}},
    }
    assert call.json()["id"] == 42
    assert tool_error(call) == {
        "kind": "invalid_request",
        "message": TOOL_ERROR_MESSAGE,
        "detail": TOOL_ERROR_DETAIL,
    }
    assert engines.seen == []


async def test_a_body_at_the_bound_is_served_one_byte_more_is_the_tool_error(served, engines):
    answer_normally(engines)
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        answers = []
        for size in (MAX_BODY, MAX_BODY + 1, MAX_BODY):
            body = padded_call(size, request_id=size)
            answer = await http.post(f"{served.base}/mcp", content=body, headers=MCP_HEADERS)
            local = answer.extensions["network_stream"].get_extra_info("client_addr")
            answers.append((answer, local))
    (at, first), (over, second), (again, third) = answers
    assert at.json()["id"] == MAX_BODY
    assert at.json()["result"]["structuredContent"]["outcome"] == "ok"
    assert over.json()["id"] == MAX_BODY + 1
    assert tool_error(over)["detail"] == TOOL_ERROR_DETAIL
    assert again.json()["result"]["structuredContent"]["outcome"] == "ok"
    # the oversized body was read to its end: the connection served the next request
    assert first == second == third
    assert "connection" not in over.headers
    logged = served.log_events("body_too_large")[-1]
    assert {k: logged[k] for k in ("bytes", "read_to_end", "answer")} == {
        "bytes": MAX_BODY + 1,
        "read_to_end": True,
        "answer": "tool_error",
    }


def post_head(port: int, length: int) -> bytes:
    lines = [
        "POST /mcp HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        *(f"{name}: {value}" for name, value in MCP_HEADERS.items()),
        f"Content-Length: {length}",
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def answer_of(received: bytes) -> tuple[bytes, dict[bytes, bytes], Any]:
    head, _, body = received.partition(b"\r\n\r\n")
    status, *fields = head.split(b"\r\n")
    headers = dict(field.lower().split(b": ", 1) for field in fields)
    return status, headers, json.loads(body)


@pytest.mark.parametrize(
    "declared, sent",
    [(17 * 1024 * 1024, 100_000), (200_000, 100_000)],
    ids=["longer_than_is_drained", "stalls_past_the_time_bound"],
)
async def test_a_body_not_read_to_its_end_is_413_under_its_id_and_closed(
    served, engines, declared, sent
):
    """Past 16 MiB, or past body_timeout_ms, the rest of the body is not waited for: the
    answer comes (the id read from the first bytes) and the connection is closed."""
    answer_normally(engines)
    start = b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"web_search",'
    body = start + b'"arguments":{"query":"' + b"x" * (sent - len(start) - 22)
    with socket.create_connection(("127.0.0.1", served.port), timeout=5) as sock:
        sock.sendall(post_head(served.port, declared) + body)
        received, closed = read_until_closed(sock, BODY_TIMEOUT_MS / 1000 + ANSWERED_WITHIN_S)
    status, headers, answer = answer_of(received)
    assert status == b"HTTP/1.1 413 "
    assert (headers[b"content-type"], headers[b"connection"]) == (b"application/json", b"close")
    assert answer == {
        "jsonrpc": "2.0",
        "id": 5,
        "error": {"code": -32600, "message": RPC_MESSAGE, "data": TOOL_ERROR_DETAIL},
    }
    assert closed
    assert engines.seen == []
    fine = await post_mcp(served.base, rpc_call("web_search", {"query": QUERY, "category": "code"}))
    assert fine.json()["result"]["structuredContent"]["outcome"] == "ok"


def test_the_ends_kept_of_a_body_read_in_chunks_do_not_overlap():
    body = bytes(range(256)) * 10
    for chunk_size in (1, 7, 100, 5000):
        ends = Ends(keep=300)
        for at in range(0, len(body), chunk_size):
            ends.add(body[at : at + chunk_size])
        assert ends.seen(whole=True).head == body[:300]
        assert ends.seen(whole=True).tail == body[-300:]
        assert ends.seen(whole=False).tail == b""
    short = Ends(keep=300)
    short.add(body[:400])
    assert (short.seen(whole=True).head, short.seen(whole=True).tail) == (body[:300], body[300:400])
