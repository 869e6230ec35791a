"""The stdio pipe byte by byte: rypsok serve as a subprocess, raw lines in, JSON lines out.

The SDK's clients cannot send most of these lines (lone surrogate escapes, deep
nests, odd ids, batches), so these tests write bytes to the server's stdin and
read its stdout themselves. Each request line with a readable id must get
exactly one answer; the others none.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.serve_stdio import long_line, wire
from rypsok.serve_stdio import pipe as stdio
from rypsok.serve_stdio.descriptors import READ_CHUNK
from tests.conftest import config_data
from tests.engine_servers import Play, json_play
from tests.mcp_harness import (
    RAW_INITIALIZE,
    RAW_INITIALIZED,
    ROOT,
    assert_conforms,
    modern_client,
    write_toml,
)
from tests.server_fork import rypsok_command


def line(message: dict[str, Any] | str) -> bytes:
    text = message if isinstance(message, str) else json.dumps(message)
    return text.encode("utf-8", "surrogatepass") + b"\n"


def call(request_id: Any, name: str | None, arguments: Any = None, **params: Any) -> str:
    """A tools/call as text; json.dumps writes a lone surrogate as the escape \\udXXX."""
    body: dict[str, Any] = dict(params)
    if name is not None:
        body["name"] = name
    if arguments is not None:
        body["arguments"] = arguments
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": body})


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


class RawServer:
    """rypsok serve on pipes; stderr goes to a file so the log can never block the server."""

    def __init__(self, config_path: Path, stdout: Any = subprocess.PIPE):
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        self.process = subprocess.Popen(
            rypsok_command("serve", "--config", str(config_path)),
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=self.stderr,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self._pending = b""
        self._lines: collections.deque[bytes] = collections.deque()

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read_reply(self, timeout: float = 20.0) -> dict[str, Any] | None:
        """The next reply, or None at the end of stdout."""
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while not self._lines:
            left = deadline - time.monotonic()
            assert left > 0, "no reply in time"
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                assert self._pending == b"", self._pending
                return None
            *complete, self._pending = (self._pending + chunk).split(b"\n")
            self._lines.extend(complete)
        return json.loads(self._lines.popleft())

    def initialize(self) -> None:
        self.send(line(RAW_INITIALIZE) + line(RAW_INITIALIZED))
        reply = self.read_reply()
        assert reply["id"] == "init" and "result" in reply, reply

    def replies_until_end(self, timeout: float = 30.0) -> list[dict[str, Any]]:
        """Close stdin, then every reply until the server ends its stdout."""
        self.process.stdin.close()
        replies = []
        while (reply := self.read_reply(timeout)) is not None:
            replies.append(reply)
        assert self.process.wait(timeout=10) == 0
        return replies

    def log(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.stderr.close()


@pytest.fixture
def config_file(engines, tmp_path):
    def make(enabled=("github", "stackexchange"), **sections):
        data = config_data(engines, set(enabled), **sections)
        return write_toml(data, tmp_path / "rypsok.toml")

    return make


@pytest.fixture
def server(config_file):
    started: list[RawServer] = []

    def start(**kwargs) -> RawServer:
        raw = RawServer(kwargs.pop("config", None) or config_file(), **kwargs)
        started.append(raw)
        return raw

    yield start
    for raw in started:
        raw.close()


def by_id(replies: list[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    keyed: dict[Any, dict[str, Any]] = {}
    for reply in replies:
        key = json.dumps(reply["id"])
        assert key not in keyed, f"two answers for id {reply['id']!r}"
        keyed[key] = reply
    return keyed


def tool_error(reply: dict[str, Any]) -> dict[str, Any]:
    result = reply["result"]
    assert result["isError"] is True
    payload = result["structuredContent"]
    assert [json.loads(block["text"]) for block in result["content"]] == [payload]
    assert set(payload) == {"error"}
    return payload["error"]


# Every tools/call gets a tool result, whatever its arguments hold.

CALLS_ANSWERED_WITH_THE_ENVELOPE = [
    # (id, line, parameter)
    (10, call(10, "web_search", {"query": "\ud800"}), "query"),
    (11, call(11, "web_search", {"query": "caf\u00e9 \ud83d"}), "query"),  # an emoji cut in two
    (12, call(12, "web_fetch", {"url": "https://example.org/\udfff"}), "url"),
    (13, call(13, "web_search", {"qu\udc00ery": "x"}), "arguments"),
    (15, call(15, "web_search", {"query": "x", "category": ["\ud800"]}), "category"),
    (16, call(16, "web_search", {"query": "x"}).replace('"x"', nested(199)), "query"),
    (17, call(17, "web_search", {"query": "x"}).replace('"x"', nested(100_000)), "query"),
    (
        18,
        call(18, "web_search", {"query": "x", "max_results": 7}).replace("7", "9" * 4301),
        "max_results",
    ),
    (21, call(21, "web_search", ["query", "x"]), "arguments"),
    (22, call(22, "web_search", "query=x"), "arguments"),
    (23, call(23, "engine_status", 5), "arguments"),
]


def test_every_tools_call_is_answered_with_a_tool_result(server):
    raw = server()
    raw.initialize()
    raw.send(line({"jsonrpc": "2.0", "id": "list", "method": "tools/list"}))
    tools = {tool["name"]: tool for tool in raw.read_reply()["result"]["tools"]}
    raw.send(b"".join(text.encode() + b"\n" for _, text, _ in CALLS_ANSWERED_WITH_THE_ENVELOPE))
    replies = by_id(raw.replies_until_end())
    assert set(replies) == {json.dumps(i) for i, _, _ in CALLS_ANSWERED_WITH_THE_ENVELOPE}
    for request_id, text, parameter in CALLS_ANSWERED_WITH_THE_ENVELOPE:
        reply = replies[json.dumps(request_id)]
        assert reply["jsonrpc"] == "2.0"
        error = tool_error(reply)
        assert error["kind"] == "invalid_request", (request_id, error)
        assert error["detail"] == {"parameter": parameter}, (request_id, error)
        assert 0 < len(error["message"]) <= 200
        assert error["message"].startswith(parameter)
        schema = tools["web_fetch" if '"web_fetch"' in text else "web_search"]["outputSchema"]
        assert_conforms(reply["result"]["structuredContent"], schema)
    assert "Traceback" not in raw.log()


NO_TOOL = "tools/call needs the name of a tool: web_search, engine_status, web_fetch"
CALLS_FOR_NO_TOOL = [
    # (id, line, message): JSON-RPC -32602 naming the tools (MCP 2025-06-18 and later)
    (14, call(14, "web_\ud800search", {"query": "x"}), NO_TOOL),
    (19, call(19, None, {"query": "x"}), NO_TOOL),
    (20, call(20, 7, {"query": "x"}), NO_TOOL),
    (24, call(24, None), NO_TOOL),
    (25, call(25, None, [1]), NO_TOOL),
    (
        26,
        call(26, "web_searches", {"query": "x"}),
        "Unknown tool: 'web_searches'; the tools are: web_search, engine_status, web_fetch",
    ),
    (
        27,
        call(27, "nope", "not an object"),
        "Unknown tool: 'nope'; the tools are: web_search, engine_status, web_fetch",
    ),
]


def test_a_call_for_no_tool_rypsok_has_is_a_json_rpc_error_naming_the_tools(server):
    raw = server()
    raw.initialize()
    raw.send(b"".join(text.encode() + b"\n" for _, text, _ in CALLS_FOR_NO_TOOL))
    raw.send(line(call("after", "web_search", {"query": ""})))
    replies = by_id(raw.replies_until_end())
    for request_id, _, message in CALLS_FOR_NO_TOOL:
        reply = replies[json.dumps(request_id)]
        assert "result" not in reply, (request_id, reply)
        assert reply["error"]["code"] == -32602, (request_id, reply)
        assert reply["error"]["message"] == message, (request_id, reply)
    assert tool_error(replies['"after"'])["kind"] == "invalid_request"
    assert "Traceback" not in raw.log()


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_call_the_pipe_refuses_is_a_tool_result_in_both_protocol_eras(config_file, mode):
    """The SDK's own client can send a nest 250 deep; the answer is shaped by the SDK for the era."""
    query: Any = "x"
    for _ in range(250):
        query = [query]
    with anyio.fail_after(60):
        async with modern_client(config_file(), mode=mode) as client:
            result = await client.call_tool("web_search", {"query": query})
            follow_up = await client.call_tool("web_search", {"query": ""})
    assert result.is_error
    assert result.structured_content["error"]["detail"] == {"parameter": "query"}
    assert follow_up.structured_content["error"]["detail"]["parameter"] == "query"


# Everything else that is not a valid request gets a JSON-RPC error, as JSON-RPC 2.0 asks.

BAD_REQUESTS = [
    # (line, id of the answer, code)
    ("nope", None, -32700),
    ('{"jsonrpc":"2.0","id":30,"method":"ping"', None, -32700),
    ('{"jsonrpc":"2.0","id":31,"method":"ping","params":{"x":NaN}}', None, -32700),
    ('{"jsonrpc":"2.0","id":32,"method":"ping"} trailing', None, -32700),
    (
        '[{"jsonrpc":"2.0","id":33,"method":"ping"},{"jsonrpc":"2.0","id":34,"method":"ping"}]',
        None,
        -32600,
    ),
    ("[]", None, -32600),
    ("5", None, -32600),
    ('{"jsonrpc":"2.0","id":35,"method":"ping","params":[1]}', 35, -32600),
    ('{"jsonrpc":"2.0","id":36,"method":"ping","params":"x"}', 36, -32600),
    ('{"jsonrpc":"2.0","id":37,"method":5}', 37, -32600),
    ('{"jsonrpc":"2.0","id":38,"method":"tools/\\ud800call","params":{}}', 38, -32600),
    (
        '{"jsonrpc":"2.0","id":39,"method":"ping","params":{"x":' + nested(100_000) + "}}",
        39,
        -32600,
    ),
    ('{"jsonrpc":"2.0","id":40,"method":"ping","params":{"x":' + "1" * 4301 + "}}", 40, -32600),
    ('{"jsonrpc":"1.0","id":41,"method":"ping"}', 41, -32600),
    ('{"id":42,"method":"ping"}', 42, -32600),
    ('{"jsonrpc":"2.0","id":43}', 43, -32600),
    ('{"jsonrpc":"2.0","id":null,"method":"ping"}', None, -32600),
    ('{"jsonrpc":"2.0","id":1.5,"method":"ping"}', None, -32600),
    ('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', None, -32600),
    ('{"jsonrpc":"2.0","id":true,"method":"ping"}', None, -32600),
    ('{"jsonrpc":"2.0","id":[44],"method":"ping"}', None, -32600),
    ('{"jsonrpc":"2.0","id":' + "4" * 4301 + ',"method":"ping"}', None, -32600),
    ('{"jsonrpc":"2.0","method":5}', None, -32600),
    ('{"jsonrpc":"2.0","id":45,"method":"no/such/method"}', 45, -32601),
]

# Notifications (no id) are never answered, valid or not; nor are replies.
UNANSWERED = [
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}',
    '{"jsonrpc":"2.0","method":"notifications/progress","params":[1]}',
    '{"jsonrpc":"2.0","method":"notifications/x\\ud800"}',
    '{"jsonrpc":"2.0","method":"notifications/x","params":{"a":' + nested(1000) + "}}",
    '{"jsonrpc":"2.0","method":"no/such/notification"}',
    '{"jsonrpc":"2.0","id":46,"result":{}}',
    '{"jsonrpc":"2.0","id":47,"error":"x"}',
    "",
    "   \t\r",
]


def test_a_request_before_initialize_is_told_to_initialize_first(server):
    """The SDK refuses it as -32602 "Invalid request parameters" with no reason; the pipe
    answers the same code and says what to send first. ping is served before initialize, and
    the session opens as usual afterwards."""
    raw = server()
    raw.send(
        line(
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "engine_status"}}
        )
        + line({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        + line({"jsonrpc": "2.0", "id": 3, "method": "ping"})
    )
    replies = [raw.read_reply() for _ in range(3)]
    for reply in replies[:2]:
        error = reply["error"]
        assert error["code"] == -32602
        assert "before initialize: send initialize first" in error["data"]
        assert "io.modelcontextprotocol/protocolVersion" in error["data"]
        assert len(error["data"]) <= 200
    assert [reply["id"] for reply in replies] == [1, 2, 3]
    assert replies[2]["result"] == {}
    raw.initialize()
    raw.send(line({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}))
    assert {tool["name"] for tool in raw.read_reply()["result"]["tools"]} == {
        "web_search",
        "engine_status",
        "web_fetch",
    }


def test_what_is_not_a_request_gets_one_json_rpc_error_and_notifications_none(server):
    raw = server()
    raw.initialize()
    lines = [text for text, _, _ in BAD_REQUESTS] + UNANSWERED
    lines.append('{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}')
    lines.append('{"jsonrpc":"2.0","id":"last","method":"ping"}')
    raw.send(b"".join(text.encode() + b"\n" for text in lines))
    raw.send(b"x" * (wire.MAX_LINE_BYTES + 10) + b"\n")
    replies = raw.replies_until_end()
    assert all(reply["jsonrpc"] == "2.0" for reply in replies)
    nulls = sorted(reply["error"]["code"] for reply in replies if reply["id"] is None)
    expected_nulls = [code for _, rid, code in BAD_REQUESTS if rid is None] + [-32600]
    assert nulls == sorted(expected_nulls)
    keyed = by_id([reply for reply in replies if reply["id"] is not None])
    expected = {json.dumps(rid): code for _, rid, code in BAD_REQUESTS if rid is not None}
    assert {
        k: v["error"]["code"] for k, v in keyed.items() if k not in ('"last"', '"\\ud800"')
    } == (expected)
    assert keyed['"last"']["result"] == {}
    assert keyed['"\\ud800"']["error"]["code"] == -32600  # its id comes back as it was sent
    for reply in replies:
        if "error" in reply:
            error = reply["error"]
            assert isinstance(error["message"], str) and len(error.get("data") or "") <= 200
    assert "Traceback" not in raw.log()


def test_the_pipe_splits_on_lf_only_and_answers_a_last_line_without_one(server, engines):
    engines.plays["github"] = json_play("github/search.json", delay_s=0.5)
    engines.plays["stackexchange"] = json_play("stackexchange/search.json", delay_s=0.5)
    raw = server()
    raw.initialize()
    status = call(50, "engine_status", {})
    raw.send(status.replace(',"method"', ',\r"method"').encode() + b"\n")  # a lone CR
    raw.send(call(51, "engine_status", {}).encode() + b"\r\n")  # CRLF
    raw.send(b"\r\n\n")  # blank lines
    cancelled = call(53, "web_search", {"query": "trio", "category": "code"})
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 53}}
    raw.send(cancelled.encode() + b"\n" + line(cancel))  # owed nothing once cancelled
    search = call(52, "web_search", {"query": "asyncio", "category": "code"})
    raw.send(search.encode())  # no LF, and stdin ends while the search runs
    replies = by_id(raw.replies_until_end())
    assert set(replies) == {"50", "51", "52"}
    for request_id in ("50", "51"):
        result = replies[request_id]["result"]
        assert result["isError"] is False
        assert result["structuredContent"]["outcome"] == "ok"
    search_result = replies["52"]["result"]
    assert search_result["isError"] is False
    assert search_result["structuredContent"]["outcome"] == "ok"


# A line over the bound: answered under the id found at one of its ends.

BIG = "x" * 3_000_000


def test_a_line_over_the_bound_is_answered_under_the_id_at_either_end(server, engines):
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")
    raw = server()
    raw.initialize()
    query = {"query": BIG, "category": "code"}
    lines = [
        # the Python SDK's order: jsonrpc, id, method, params
        call("first", "web_search", query),
        # the TypeScript SDK's ({...request, jsonrpc, id}): the id comes last
        json.dumps(
            {
                "method": "tools/call",
                "params": {"name": "web_search", "arguments": query},
                "jsonrpc": "2.0",
                "id": 61,
            }
        ),
        # the name only after the arguments: still this tools/call's tool error
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 62,
                "method": "tools/call",
                "params": {"arguments": query, "name": "web_search"},
            }
        ),
        # another method: a JSON-RPC error under its id
        json.dumps({"jsonrpc": "2.0", "id": 63, "method": "ping", "params": {"pad": BIG}}),
        # the id neither near the start nor among the last plain members: id null
        json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "tools/call",
                "params": {"name": "web_search", "arguments": query},
                "id": 64,
                "extra": {"nested": True},
            }
        ),
        # an id inside a string at the end does not count
        json.dumps(
            {"jsonrpc": "2.0", "method": "ping", "params": {"p": BIG}, "note": '\\","id":65'}
        ),
    ]
    for text in lines:
        raw.send(text.encode() + b"\n")
    raw.send(call("after", "web_search", {"query": "asyncio", "category": "code"}).encode())
    replies = raw.replies_until_end()
    keyed = {json.dumps(reply["id"]): reply for reply in replies}
    for request_id in ('"first"', "61", "62"):
        error = tool_error(keyed[request_id])
        assert error == {
            "kind": "invalid_request",
            "message": "arguments cannot be read: the message is longer than 1048576 bytes, "
            "the bound of one stdio line; send shorter arguments",
            "detail": {"parameter": "arguments", "max": 1048576},
        }
    assert keyed["63"]["error"]["code"] == -32600
    assert keyed["63"]["error"]["data"] == "a line is longer than 1048576 bytes"
    nulls = [reply for reply in replies if reply["id"] is None]
    assert [reply["error"]["code"] for reply in nulls] == [-32600, -32600]
    assert "64" not in keyed and "65" not in keyed
    assert keyed['"after"']["result"]["structuredContent"]["outcome"] == "ok"
    assert len(replies) == 7
    assert "Traceback" not in raw.log()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='"\\{}[],: ab\u00e9\n'),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["id", "name", "_meta", "x"]), inner, max_size=3)
    ),
    max_leaves=8,
)
MEMBERS = st.dictionaries(
    st.sampled_from(["id", "method", "jsonrpc", "params", "x", "note"]), JSON_VALUES, max_size=6
)


@settings(max_examples=500, deadline=None)
@given(MEMBERS, st.integers(min_value=1, max_value=80), st.booleans())
def test_the_ends_of_a_long_line_never_give_a_member_it_does_not_hold(members, keep, ascii_only):
    """Whatever the message, a member read from its ends is the member it holds."""
    data = json.dumps(members, ensure_ascii=ascii_only).encode()
    found = long_line.read_ends(long_line.Oversized(data[:keep], data[-keep:]))
    for path, value in found.items():
        holder = members.get("params") if len(path) == 2 else members
        assert isinstance(holder, dict) and path[-1] in holder, (path, data)
        assert holder[path[-1]] == value, (path, data)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_call_over_the_bound_is_a_tool_error_in_both_protocol_eras(config_file, mode):
    """The SDK's own client, on 2026-07-28 too, where each request carries its envelope."""
    with anyio.fail_after(60):
        async with modern_client(config_file(), mode=mode) as client:
            result = await client.call_tool("web_search", {"query": BIG})
            follow_up = await client.call_tool("web_search", {"query": ""})
    assert result.is_error
    assert result.structured_content["error"]["detail"] == {
        "parameter": "arguments",
        "max": 1048576,
    }
    assert follow_up.structured_content["error"]["detail"]["parameter"] == "query"


# A client that stops reading: the server stops reading too.


def write_until_stalled(fd: int, data: bytes, stall_s: float = 3.0) -> int:
    """Bytes written before the pipe stays full for ``stall_s`` (all of them if it never does)."""
    os.set_blocking(fd, False)
    written = 0
    try:
        while written < len(data):
            try:
                written += os.write(fd, data[written : written + 65536])
            except BlockingIOError:
                _, ready, _ = select.select([], [fd], [], stall_s)
                if not ready:
                    break
    finally:
        os.set_blocking(fd, True)
    return written


def test_a_client_that_stops_reading_stalls_its_own_writes(server):
    raw = server()
    raw.initialize()
    total = 10_000
    requests = b"".join(line({"jsonrpc": "2.0", "id": n, "method": "ping"}) for n in range(total))
    written = write_until_stalled(raw.process.stdin.fileno(), requests)
    accepted = requests[:written].count(b"\n")
    assert accepted < total
    # What the server took: the owed bound, plus what the pipes and one read hold.
    per_request = len(requests) // total
    pipes = 3 * (1 << 16) + READ_CHUNK
    assert accepted <= stdio.MAX_OWED_REPLIES + pipes // per_request + pipes // 30
    # Reading again, every request is answered once.
    seen: set[int] = set()
    rest = requests[written:]
    os.set_blocking(raw.process.stdin.fileno(), False)
    while rest or len(seen) < total:
        if rest:
            with contextlib.suppress(BlockingIOError):
                rest = rest[os.write(raw.process.stdin.fileno(), rest[:65536]) :]
        ready, _, _ = select.select([raw.process.stdout.fileno()], [], [], 0.05)
        while ready and len(seen) < total:
            reply = raw.read_reply()
            assert reply["result"] == {} and reply["id"] not in seen
            seen.add(reply["id"])
            ready = bool(raw._lines)
    os.set_blocking(raw.process.stdin.fileno(), True)
    assert seen == set(range(total))
    assert raw.replies_until_end() == []


# Ending: stdout closed, SIGINT, SIGTERM.


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_server_at_once_with_status_0(server, engines, signum):
    engines.plays["github"] = Play(mode="hang")
    engines.plays["stackexchange"] = Play(mode="hang")
    raw = server()
    raw.initialize()
    raw.send(call(60, "web_search", {"query": "asyncio", "category": "code"}).encode() + b"\n")
    time.sleep(0.3)  # the call is in flight
    raw.process.send_signal(signum)
    assert raw.process.wait(timeout=5) == 0
    assert "Traceback" not in raw.log()


def test_a_client_that_closes_stdout_ends_the_server(server):
    raw = server()
    raw.initialize()
    raw.process.stdout.close()  # stdin stays open, nothing is in flight
    assert raw.process.wait(timeout=5) == 0
    assert "Traceback" not in raw.log()


def test_a_closed_socket_for_stdout_ends_the_server_at_its_next_reply(server):
    ours, theirs = socket.socketpair()
    raw = server(stdout=theirs.fileno())
    theirs.close()
    reader = ours.makefile("rb")
    raw.send(line(RAW_INITIALIZE) + line(RAW_INITIALIZED))
    assert json.loads(reader.readline())["id"] == "init"
    reader.close()
    ours.close()
    raw.send(line({"jsonrpc": "2.0", "id": 70, "method": "ping"}))
    assert raw.process.wait(timeout=5) == 0
    assert "Traceback" not in raw.log()


def garbage_lines(mib: int) -> list[bytes]:
    """Random bytes cut at their own line ends, kept where the pipe answers with id null
    (what a flood of garbage is: no line with an id the pipe can read)."""
    import random

    flood = random.Random(25).randbytes(mib << 20).split(b"\n")
    return [
        part
        for part in flood
        if isinstance(verdict := wire.judge(part), wire.Answer) and verdict.request_id is None
    ]


def test_a_flood_of_garbage_is_answered_and_logged_bounded_and_starves_nothing(server):
    flood = garbage_lines(2)
    assert len(flood) > 7000
    raw = server()
    raw.initialize()
    tail = [b"nope"] * 25
    data = b"\n".join(
        [
            *flood,
            line({"jsonrpc": "2.0", "id": "after", "method": "ping"}).rstrip(b"\n"),
            *tail,
            line(call("call", "engine_status", {})).rstrip(b"\n"),
            b"",
        ]
    )
    writer = threading.Thread(target=raw.send, args=(data,))
    writer.start()
    first = []
    while (reply := raw.read_reply()) is not None and reply["id"] != "after":
        first.append(reply)
    assert reply == {"jsonrpc": "2.0", "id": "after", "result": {}}
    writer.join()
    replies = [*first, reply, *raw.replies_until_end()]  # and it exits 0 at stdin's end
    keyed = by_id([reply for reply in replies if reply["id"] is not None])
    assert set(keyed) == {'"after"', '"call"'}
    assert "outcome" in keyed['"call"']["result"]["structuredContent"]
    nulls = [reply for reply in replies if reply["id"] is None]
    assert all(reply["error"]["code"] in (-32700, -32600) for reply in nulls)
    events = [json.loads(record) for record in raw.log().splitlines() if record.startswith("{")]
    bursts = [event for event in events if event["event"] == "pipe_refused_burst"]
    refused = [event for event in events if event["event"] == "pipe_refused"]
    # each unreadable line is either answered (and logged) on its own or counted in a burst
    assert len(refused) == len(nulls)
    assert len(nulls) + sum(burst["unanswered"] for burst in bursts) == len(flood) + len(tail)
    assert all(burst["lines"] - burst["unanswered"] == stdio.BURST_ANSWERS for burst in bursts)
    # a burst ends at a readable line: the flood and the tail are summed up apart
    assert bursts[-1] == {**bursts[-1], "lines": len(tail), "unanswered": 15}
    assert len(nulls) <= stdio.BURST_ANSWERS * (len(bursts) + 1)
    assert len(raw.log()) < 50_000  # 2 MiB of garbage, 8,000 lines: a few records
    assert "Traceback" not in raw.log()


@given(st.integers() | st.integers(min_value=10**17, max_value=10**40))
def test_a_line_reads_every_integer_exactly_as_the_standard_library(number: int) -> None:
    """orjson would read an integer past 64 bits as a float; such a line goes the careful way."""
    line = json.dumps({"jsonrpc": "2.0", "id": number, "method": "ping"}).encode()
    read = wire.read_line_json(line)
    assert read == json.loads(line)
    assert type(read["id"]) is int
