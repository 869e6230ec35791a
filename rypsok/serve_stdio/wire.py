"""One line from the stdio pipe, judged before the mcp SDK sees it: sans-IO.

The SDK's own reader drops every line it cannot parse or validate, so such a
request was never answered. Here each line gets a verdict (see :func:`judge`):

- ``Forward``: hand the message to the SDK. A ``tools/call`` that cannot be
  served as sent (no name, arguments that are not an object, a value rypsok
  cannot read) is forwarded without its arguments and with its error
  attached, so the SDK answers it as a tool result shaped for the protocol
  version in use (the server returns the attached error envelope); one
  without a usable name goes with name "", which the server answers -32602.
- ``Answer``: a JSON-RPC error written by the pipe itself: -32700 for a line
  that is not JSON, -32600 for anything that is not a valid request.
- ``Ignore``: blank lines, notifications that are not valid, replies that are
  not valid (JSON-RPC answers neither).

A value rypsok cannot read is a string holding a lone surrogate escape
(``"\\ud800"``, valid JSON text but not Unicode), a container nested deeper
than ``MAX_DEPTH``, or an integer of more than ``MAX_INT_DIGITS`` digits.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import mcp_types as types
import orjson
from pydantic import ValidationError

from rypsok import errors
from rypsok.fast_json import has_long_digit_run
from rypsok.serve_stdio import long_line
from rypsok.validate import is_unicode

MAX_LINE_BYTES = 1 << 20
"""A longer line is not read: it is skipped up to its LF and answered under the id found at
one of its ends (rypsok.serve_stdio.long_line), else with id null."""
MAX_DEPTH = 64
"""Containers nested deeper than this (the message object is level 1) are not read."""
MAX_INT_DIGITS = 4300
"""Python's own limit for converting digits to an int (sys.int_max_str_digits)."""

RPC_MESSAGES = {
    types.PARSE_ERROR: "Parse error",
    types.INVALID_REQUEST: "Invalid Request",
    types.INVALID_PARAMS: "Invalid params",
    types.INTERNAL_ERROR: "Internal error",
}
OPENING_METHODS = frozenset({"initialize", "server/discover"})
"""The requests that may open a session: the handshake, or the 2026-07-28 discovery."""

RequestId = int | str


class Unreadable(enum.Enum):
    """What stands in the parsed message for a value that was not read."""

    DEEP = "deep"
    BIG_INT = "big_int"


WHY = {
    "surrogate": "it holds a lone surrogate escape (\\ud800 to \\udfff)",
    "surrogate_name": "a name in it holds a lone surrogate escape (\\ud800 to \\udfff)",
    Unreadable.DEEP: f"it is nested more than {MAX_DEPTH} levels deep in the message",
    Unreadable.BIG_INT: f"it holds an integer of more than {MAX_INT_DIGITS} digits",
}


# Verdicts


@dataclass(frozen=True)
class Forward:
    """Hand ``message`` to the SDK; ``request_id`` is owed an answer when not None."""

    message: types.JSONRPCMessage
    request_id: RequestId | None = None
    rejection: errors.ToolError | None = None
    name_unread: bool = False
    """A tools/call too long to read whose name was not found: answered with ``rejection``."""
    oversized: bool = False
    """A tools/call too long to read: its ``_meta`` may not have been found (see with_envelope)."""


@dataclass(frozen=True)
class Answer:
    """A JSON-RPC error the pipe writes itself (``reply`` is the whole message)."""

    request_id: RequestId | None
    reply: dict[str, Any]


@dataclass(frozen=True)
class Ignore:
    reason: str
    quiet: bool = False
    """Not worth a log line (a blank line)."""


Verdict = Forward | Answer | Ignore


@dataclass(frozen=True)
class Rejected:
    """Rides with a rerouted tools/call as the SDK's per-request context: the error to answer."""

    error: errors.ToolError
    name_unread: bool = False
    """The call's name was not read (a line too long): the error is the answer whatever it is."""


def rpc_error(request_id: RequestId | None, code: int, data: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": code, "message": RPC_MESSAGES[code], "data": data},
    }


def encode(reply: dict[str, Any]) -> bytes:
    """One line; ASCII, so an id holding a lone surrogate escape goes back as it came."""
    return json.dumps(reply, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"


def encoded_error(request_id: RequestId | None, code: int, message: str, data: Any) -> bytes:
    """A JSON-RPC error reply with its own message, encoded (the HTTP transport's refusals)."""
    error = {"code": code, "message": message, "data": data}
    return encode({"jsonrpc": "2.0", "id": request_id, "error": error})


def id_of(message: Any) -> RequestId | None:
    """The id of a parsed request body, None when it has none rypsok can read back."""
    request_id = message.get("id") if isinstance(message, dict) else None
    return request_id if readable_id(request_id) else None


# Lines


class LineSplitter:
    """Bytes in, lines out, split on LF only (a lone CR is JSON whitespace, not a line end).

    A line longer than ``max_bytes`` comes out as :class:`~rypsok.serve_stdio.long_line.Oversized` once
    its LF (or the end of input) arrives: only its first and last ``END_BYTES`` are kept,
    the rest is dropped as it comes.
    """

    def __init__(self, max_bytes: int = MAX_LINE_BYTES, end_bytes: int = long_line.END_BYTES):
        self.max_bytes = max_bytes
        self.end_bytes = min(end_bytes, max_bytes)
        self._pending = bytearray()
        self._head: bytes | None = None
        """The first bytes of a line found too long (None while it is not)."""
        self._tail = bytearray()

    def feed(self, chunk: bytes) -> list[bytes | long_line.Oversized]:
        lines: list[bytes | long_line.Oversized] = []
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            self._take(chunk[start:end])
            lines.append(self._line())
            start = end + 1
        self._take(chunk[start:])
        return lines

    def close(self) -> list[bytes | long_line.Oversized]:
        """The last line, when it has no LF."""
        if self._pending or self._head is not None:
            return [self._line()]
        return []

    def _take(self, part: bytes) -> None:
        if self._head is None:
            if len(self._pending) + len(part) <= self.max_bytes:
                self._pending += part
                return
            line_so_far = self._pending + part
            self._head = bytes(line_so_far[: self.end_bytes])
            self._tail = line_so_far[self.end_bytes :][-self.end_bytes :]
            self._pending = bytearray()
            return
        self._tail += part[-self.end_bytes :]
        del self._tail[: -self.end_bytes]

    def _line(self) -> bytes | long_line.Oversized:
        if self._head is not None:
            line: bytes | long_line.Oversized = long_line.Oversized(self._head, bytes(self._tail))
        else:
            line = bytes(self._pending)
        self._pending = bytearray()
        self._tail = bytearray()
        self._head = None
        return line


# JSON


class NotJson(ValueError):
    pass


def _int(digits: str) -> int | Unreadable:
    if len(digits) - digits.startswith("-") > MAX_INT_DIGITS:
        return Unreadable.BIG_INT
    return int(digits)


def _no_constant(name: str) -> Any:
    raise NotJson(f"{name} is not JSON")


def read_json(text: str) -> Any:
    """Parse ``text`` as JSON: big integers become ``Unreadable.BIG_INT``; NaN and Infinity are refused.

    Python's parser recurses, so a nest a thousand deep raises RecursionError;
    such a text is read again by :func:`read_json_iteratively`.
    """
    try:
        return json.loads(text, parse_int=_int, parse_constant=_no_constant)
    except RecursionError:
        return read_json_iteratively(text)
    except ValueError as exc:
        raise NotJson(str(exc)) from None


def read_line_json(line: bytes) -> Any:
    """The JSON of one line, the value :func:`read_json` makes of its UTF-8 text (bad bytes
    replaced). orjson, in C, reads the ordinary line; what it refuses (a lone surrogate
    escape, bad UTF-8, NaN, a number out of range) goes the careful way, and so does any
    line with a long run of digits or more than ``MAX_DEPTH`` brackets (orjson builds a
    nest of any depth, and crashes on one deep enough)."""
    if line.count(b"[") + line.count(b"{") <= MAX_DEPTH and not has_long_digit_run(line):
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass
    return read_json(line.decode("utf-8", errors="replace"))


_TOKEN = long_line.JSON_TOKEN
_LITERALS = {"true": True, "false": False, "null": None}
_CLOSES = {"[": "]", "{": "}"}


def _scalar(kind: str, token: str) -> Any:
    if kind == "string":
        return json.loads(token)
    if kind == "literal":
        return _LITERALS[token]
    if any(c in token for c in ".eE"):
        return float(token)
    return _int(token)


def read_json_iteratively(text: str) -> Any:
    """The same JSON as :func:`read_json`, parsed with an explicit stack and no recursion.

    Containers deeper than ``MAX_DEPTH`` are checked for syntax but not built:
    each stands as ``Unreadable.DEEP`` in its parent.
    """
    opened: list[str] = []  # the bracket of every open container, built or not
    built: list[Any] = []  # the open containers up to MAX_DEPTH
    keys: list[str] = []  # per built container: the key awaiting its value
    # value, array (after "["), object (after "{"), key, colon, next (after a value), end
    state = "value"
    root: Any = None
    pos = 0

    def place(value: Any) -> None:
        nonlocal root
        if not opened:
            root = value
        elif len(opened) <= MAX_DEPTH:
            parent = built[-1]
            if isinstance(parent, list):
                parent.append(value)
            else:
                parent[keys[-1]] = value

    while (match := _TOKEN.match(text, pos)) is not None:
        pos = match.end()
        kind = match.lastgroup or ""
        token = match.group(kind)
        if kind == "string" and state in ("object", "key"):
            if len(opened) <= MAX_DEPTH:
                keys[-1] = json.loads(token)
            state = "colon"
        elif kind == "colon":
            if state != "colon":
                raise NotJson("not JSON")
            state = "value"
        elif kind == "comma":
            if state != "next":
                raise NotJson("not JSON")
            state = "key" if opened[-1] == "{" else "value"
        elif kind == "close":
            empty = (state, token) in (("array", "]"), ("object", "}"))
            if not (empty or state == "next") or _CLOSES[opened[-1]] != token:
                raise NotJson("not JSON")
            if len(opened) <= MAX_DEPTH:
                built.pop()
                keys.pop()
            opened.pop()
            state = "next" if opened else "end"
        elif state in ("value", "array"):
            if kind == "open":
                if len(opened) < MAX_DEPTH:
                    container: Any = [] if token == "[" else {}
                    place(container)
                    built.append(container)
                    keys.append("")
                elif len(opened) == MAX_DEPTH:
                    place(Unreadable.DEEP)
                opened.append(token)
                state = "array" if token == "[" else "object"
            else:
                if len(opened) <= MAX_DEPTH:
                    place(_scalar(kind, token))
                state = "next" if opened else "end"
        else:
            raise NotJson("not JSON")
    if state != "end" or text[pos:].strip(" \t\n\r"):
        raise NotJson("not JSON")
    return root


# What cannot be read


@dataclass(frozen=True)
class Found:
    """The first value that cannot be read: its path from the message, and why."""

    path: tuple[str | int, ...]
    why: str | Unreadable
    in_name: bool = False


def first_unreadable(value: Any, depth: int = 1) -> Found | None:
    """Walk ``value`` (at ``depth`` in the message) in document order, without recursion."""
    stack: list[tuple[tuple[str | int, ...], Any, int]] = [((), value, depth)]
    while stack:
        path, item, level = stack.pop()
        if isinstance(item, Unreadable):
            return Found(path, item)
        if isinstance(item, str):
            if not is_unicode(item):
                return Found(path, "surrogate")
            continue
        if not isinstance(item, dict | list):
            continue
        if level > MAX_DEPTH:
            return Found(path, Unreadable.DEEP)
        if isinstance(item, dict):
            for key in item:
                if not is_unicode(key):
                    return Found((*path, key), "surrogate_name", in_name=True)
            children: Iterator[tuple[str | int, Any]] = iter(item.items())
        else:
            children = enumerate(item)
        stack.extend(((*path, k), v, level + 1) for k, v in reversed(list(children)))
    return None


# Judging a line


def readable_id(value: Any) -> bool:
    """A JSON-RPC id rypsok answers under: a string or an integer (not a boolean)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _cut(name: str | int) -> str:
    return str(name)[:40]


def _unreadable_argument(found: Found) -> errors.ToolError:
    """The tool error for a value inside a tools/call's params that cannot be read."""
    inner = found.path[1:]  # below "params"
    if inner[0] == "arguments" and len(inner) >= 2:
        if found.in_name and len(inner) == 2:
            return errors.wrong_type("arguments", "a JSON value rypsok can read: " + WHY[found.why])
        return errors.wrong_type(_cut(inner[1]), "a JSON value rypsok can read: " + WHY[found.why])
    if found.in_name and len(inner) == 1:
        return errors.wrong_type("params", "a JSON value rypsok can read: " + WHY[found.why])
    return errors.wrong_type(_cut(inner[0]), "a JSON value rypsok can read: " + WHY[found.why])


def tool_call_rejection(
    params: dict[str, Any] | None, found: Found | None
) -> errors.ToolError | None:
    """Why a tools/call cannot be handed to the SDK as sent, as the tool error to answer."""
    params = params or {}
    if "name" not in params:
        return errors.missing_parameter("name")
    if not isinstance(params["name"], str):
        return errors.wrong_type("name", "a string")
    arguments = params.get("arguments")
    if arguments is not None and not isinstance(arguments, dict):
        return errors.wrong_type("arguments", "an object")
    if found is not None:
        return _unreadable_argument(found)
    try:
        types.CallToolRequestParams.model_validate(params, by_name=False)
    except ValidationError as exc:
        member = exc.errors()[0]["loc"][0]
        return errors.wrong_type(_cut(member), "shaped as the MCP specification defines it")
    return None


def _rerouted(message: dict[str, Any], params: dict[str, Any]) -> types.JSONRPCRequest:
    """The tools/call the SDK is given when rypsok answers it with an error: its name and _meta only."""
    name = params.get("name")
    clean: dict[str, Any] = {"name": name if isinstance(name, str) and is_unicode(name) else ""}
    meta = params.get("_meta")
    if isinstance(meta, dict) and first_unreadable(meta, depth=3) is None:
        try:
            types.CallToolRequestParams.model_validate({**clean, "_meta": meta}, by_name=False)
            clean["_meta"] = meta
        except ValidationError:
            pass
    return types.JSONRPCRequest(jsonrpc="2.0", id=message["id"], method="tools/call", params=clean)


ENVELOPE_KEYS = (
    types.PROTOCOL_VERSION_META_KEY,
    types.CLIENT_INFO_META_KEY,
    types.CLIENT_CAPABILITIES_META_KEY,
)
"""The 2026-07-28 protocol's per-request envelope, in each request's ``params._meta``."""


def envelope_of(message: types.JSONRPCMessage) -> dict[str, Any] | None:
    """The per-request envelope ``message`` carries, if it is a request that has one."""
    params = message.params if isinstance(message, types.JSONRPCRequest) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    if isinstance(meta, dict) and types.PROTOCOL_VERSION_META_KEY in meta:
        return {key: meta[key] for key in ENVELOPE_KEYS if key in meta}
    return None


def with_envelope(message: types.JSONRPCRequest, envelope: dict[str, Any]) -> types.JSONRPCRequest:
    """A rerouted tools/call too long to read, given the envelope of the client's last request
    when its own ``_meta`` was not found: a 2026-07-28 client's call is then answered with
    the tool error, not refused for lacking the envelope. The same pipe, the same client."""
    params = dict(message.params or {})
    if "_meta" in params:
        return message
    params["_meta"] = envelope
    return types.JSONRPCRequest(jsonrpc="2.0", id=message.id, method=message.method, params=params)


def before_opening(message: types.JSONRPCMessage) -> Answer | None:
    """The answer to a request sent before the session was opened (no ``initialize`` yet, no
    2026-07-28 envelope on it), which the SDK refuses as -32602 "Invalid request parameters"
    without saying why: the same code, and what to send first. None for anything else."""
    if not isinstance(message, types.JSONRPCRequest):
        return None
    if message.method in OPENING_METHODS or message.method == "ping":
        return None
    if envelope_of(message) is not None:
        return None
    why = (
        f"{message.method[:30]} came before initialize: send initialize first, or on protocol "
        f"2026-07-28 put the protocol version in params._meta ({types.PROTOCOL_VERSION_META_KEY})"
    )
    return Answer(message.id, rpc_error(message.id, types.INVALID_PARAMS, why))


def opens_session(message: types.JSONRPCMessage) -> bool:
    """Whether forwarding ``message`` opens the session: the handshake, the discovery, or any
    request that carries the 2026-07-28 envelope."""
    return isinstance(message, types.JSONRPCRequest) and (
        message.method in OPENING_METHODS or envelope_of(message) is not None
    )


def judge_oversized(line: long_line.Oversized, why: str, rejection: errors.ToolError) -> Verdict:
    """A message too long to read (a line longer than MAX_LINE_BYTES, an HTTP body longer
    than its bound), answered under the id found at one of its ends: a tools/call with
    ``rejection`` (its name kept when found), any other request -32600 saying ``why``; id
    null only when no id is found."""
    found = long_line.read_ends(line)
    request_id = found.get(("id",))
    if not readable_id(request_id):
        return Answer(None, rpc_error(None, types.INVALID_REQUEST, why))
    if found.get(("method",)) == "tools/call":
        name = found.get(("params", "name"))
        params = {"name": name if isinstance(name, str) else ""}
        if ("params", "_meta") in found:
            params["_meta"] = found[("params", "_meta")]
        return Forward(
            _rerouted({"id": request_id}, params),
            request_id,
            rejection,
            name_unread=not isinstance(name, str),
            oversized=True,
        )
    return Answer(request_id, rpc_error(request_id, types.INVALID_REQUEST, why))


def judge(line: bytes | long_line.Oversized) -> Verdict:
    """The verdict on one line."""
    if isinstance(line, long_line.Oversized):
        why = f"a line is longer than {MAX_LINE_BYTES} bytes"
        return judge_oversized(line, why, errors.line_too_long(MAX_LINE_BYTES))
    if not line.strip(b" \t\r"):
        return Ignore("blank line", quiet=True)
    try:
        message = read_line_json(line)
    except NotJson:
        return Answer(None, rpc_error(None, types.PARSE_ERROR, "the line is not JSON"))
    if isinstance(message, list):
        why = "batches are not supported: send one JSON-RPC message at a time"
        return Answer(None, rpc_error(None, types.INVALID_REQUEST, why))
    if not isinstance(message, dict):
        return Answer(None, rpc_error(None, types.INVALID_REQUEST, "a message is a JSON object"))
    if "method" not in message and ("result" in message or "error" in message):
        return _judge_reply(message)
    return _judge_request(message)


def _judge_reply(message: dict[str, Any]) -> Verdict:
    if first_unreadable(message) is None:
        try:
            return Forward(types.jsonrpc_message_adapter.validate_python(message, by_name=False))
        except ValidationError:
            pass
    return Ignore("a reply that is not valid JSON-RPC")


def _where(found: Found) -> str:
    """The member of the message that holds ``found``, named only when it is short plain text."""
    names = [str(part) for part in found.path[: 1 if found.in_name else 2]]
    if names and all(len(n) <= 40 and is_unicode(n) for n in names):
        return ".".join(names)
    return "the message"


def _judge_request(message: dict[str, Any]) -> Verdict:
    has_id = "id" in message
    request_id = message.get("id")
    if has_id and not readable_id(request_id):
        why = "id must be a string or an integer"
        return Answer(None, rpc_error(None, types.INVALID_REQUEST, why))
    method = message.get("method")
    notification = not has_id and message.get("jsonrpc") == "2.0" and isinstance(method, str)

    def invalid(why: str) -> Verdict:
        if notification:
            return Ignore(why)
        return Answer(request_id, rpc_error(request_id, types.INVALID_REQUEST, why))

    if message.get("jsonrpc") != "2.0":
        return invalid('jsonrpc must be "2.0"')
    if "method" not in message:
        return invalid("a request needs a method")
    if not isinstance(method, str):
        return invalid("method must be a string")
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        return invalid("params must be an object")
    found = first_unreadable(message)
    if found is not None and found.path[:1] in (("id",), ("method",)):
        return invalid(f"{found.path[0]} must be valid Unicode text: {WHY[found.why]}")
    if has_id and method == "tools/call":
        in_params = found if found is not None and found.path[:1] == ("params",) else None
        rejection = tool_call_rejection(params, in_params)
        if rejection is not None:
            return Forward(_rerouted(message, params or {}), request_id, rejection)
    if found is not None:
        return invalid(f"{_where(found)} cannot be read: {WHY[found.why]}")
    try:
        parsed = types.jsonrpc_message_adapter.validate_python(message, by_name=False)
    except ValidationError:
        return invalid("the message is not a JSON-RPC 2.0 request")
    return Forward(parsed, request_id if has_id else None)
