"""Each tools/call over Streamable HTTP: answered as JSON, or as an SSE stream when it asked
for progress; stopped when its client cancels it or goes away.

The server is stateless: every POST is a transport of its own, so nothing in the SDK links a
``notifications/cancelled`` (a POST of its own) to the call it names, and in JSON mode
nothing watches for the client hanging up. Here:

- :class:`CallWatch` (ASGI, in front of the SDK's endpoint, behind the bearer token) reads
  each POST's body (within the time bound: 408 and the connection closed past it; one over
  the body bound is answered as rypsok.serve_http.oversized decides), decides from it
  whether the answer streams (a ``tools/call`` whose ``_meta`` carries a
  ``progressToken``), and watches the connection: when the client disconnects, the calls
  of that POST are cancelled.
- :class:`CallStreams` is the SDK's session manager with the JSON-or-SSE choice made per
  request, from what CallWatch decided.
- :class:`CancelCalls` (an SDK server middleware) runs each tools/call in a cancel scope,
  registered with the POST's watch and under the caller's key (token name, client address,
  request id), and cancels the calls a ``notifications/cancelled`` names under the same key.

A cancelled call stops where it is: its engine requests and page fetch are cancelled, its
extraction child killed, its admission slot freed, and it is counted ``cancelled``, not ok.
"""

from __future__ import annotations

import contextvars
import json
import logging
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp.shared.jsonrpc_dispatcher import (
    cancelled_request_id_from_params,
    progress_token_from_params,
)
from mcp_types.version import SUPPORTED_PROTOCOL_VERSIONS
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rypsok.observability import telemetry
from rypsok.serve_http import media, oversized
from rypsok.serve_http.gate import header
from rypsok.serve_stdio import wire
from rypsok.server import REJECTED, caller_name

log = logging.getLogger("rypsok.http")

CANCELLED_CODE = -32800
"""The JSON-RPC error a cancelled call's own POST gets (LSP's RequestCancelled): the client
has stopped waiting for it or hung up, and MCP's stateless HTTP still owes the POST an end."""


class Watch:
    """One POST to /mcp: whether its answer streams, and the calls it started."""

    def __init__(self, streamed: bool) -> None:
        self.streamed = streamed
        self.scopes: set[anyio.CancelScope] = set()
        self.gone = anyio.Event()

    def hang_up(self) -> None:
        self.gone.set()
        for scope in list(self.scopes):
            scope.cancel()


CURRENT: contextvars.ContextVar[Watch | None] = contextvars.ContextVar(
    "rypsok_http_watch", default=None
)
"""The POST being answered (the SDK's tasks for it start in its context, so they see it)."""


NOT_JSON = object()


def read_body(body: bytes) -> Any:
    """The JSON of a POST body; NOT_JSON when it is not JSON (UTF-8 included) or nested too
    deep for Python's parser: the SDK answers it with -32700."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return NOT_JSON


def asks_for_progress(message: Any) -> bool:
    """Whether a POST body's message is a tools/call whose ``_meta`` carries a progress token."""
    if not isinstance(message, dict) or message.get("method") != "tools/call":
        return False
    return progress_token_from_params(message.get("params")) is not None


@dataclass(frozen=True)
class Judged:
    """What CallWatch does with a POST's body before the SDK sees it."""

    refusal: bytes | None = None
    """The -32600 to answer instead."""
    rerouted: bytes | None = None
    """The tools/call the SDK gets instead (its name and _meta only), answered ``rejected``."""
    rejected: wire.Rejected | None = None


def judge_body(body: bytes) -> Judged:
    """A body judged as the stdio pipe judges a line (rypsok.serve_stdio.wire), so both
    transports answer the same input the same way. JSON that is no JSON-RPC message (a batch,
    no method, params not an object, an id that is null, a fraction or a boolean) is -32600,
    under its id when it can be read; the SDK answered -32602 with id null and pydantic's
    text, or took the request for a notification (202, no answer). A tools/call rypsok
    cannot serve as sent (arguments not an object, a lone surrogate, a nest too deep, an
    integer too long) is the tool error; the SDK answered -32602 or -32700. A body that is
    not UTF-8 is not JSON (RFC 8259): the SDK's -32700, as for any other."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return Judged()
    verdict = wire.judge(body)
    if isinstance(verdict, wire.Answer):
        if verdict.reply["error"]["code"] == types.INVALID_REQUEST:
            return Judged(refusal=wire.encode(verdict.reply))
        return Judged()
    if isinstance(verdict, wire.Forward) and verdict.rejection is not None:
        rerouted = verdict.message.model_dump_json(by_alias=True, exclude_none=True)
        rejected = wire.Rejected(verdict.rejection, verdict.name_unread)
        return Judged(rerouted=rerouted.encode(), rejected=rejected)
    return Judged()


def unsupported_version(scope: Scope, message: Any) -> bytes | None:
    """The answer to a POST whose MCP-Protocol-Version header names no version the SDK serves:
    -32022 "Unsupported protocol version" with the versions it does serve, under the body's id
    (status 400, as MCP asks). The SDK took such a request for a 2026-07-28 one and refused it
    for lacking that revision's envelope in ``params._meta``, which misleads a client whose
    only fault is the header."""
    values = header(scope, MCP_PROTOCOL_VERSION_HEADER.lower().encode("ascii"))
    requested = values[0].decode("latin-1") if values else None
    if requested is None or requested in SUPPORTED_PROTOCOL_VERSIONS:
        return None
    data = {"supported": list(SUPPORTED_PROTOCOL_VERSIONS), "requested": requested[:100]}
    return wire.encoded_error(
        wire.id_of(message),
        types.UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version",
        data,
    )


def accepts_a_stream(scope: Scope) -> bool:
    """Whether the client's Accept header takes an SSE stream (a client that accepts only
    JSON gets its progress-asking call answered as JSON, without the notifications)."""
    accept = b",".join(header(scope, b"accept"))
    return b"text/event-stream" in accept.lower()


class CallWatch:
    """ASGI middleware for POST /mcp: the body read first within ``body_timeout_s`` (at most
    ``max_body`` bytes of it kept; a longer one is answered by rypsok.serve_http.oversized),
    then handed to the app, while the connection is watched for the client going away."""

    def __init__(self, app: ASGIApp, max_body: int, body_timeout_s: float) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout_s = body_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        deadline = anyio.current_time() + self.body_timeout_s
        received: list[Message] = []
        size, complete, ended = 0, False, False
        with anyio.CancelScope(deadline=deadline):
            while not complete and not ended and size <= self.max_body:
                message = await receive()
                received.append(message)
                ended = message["type"] != "http.request"
                size += len(message.get("body", b""))
                complete = not ended and not message.get("more_body", False)
        if not (complete or ended or size > self.max_body):
            log.info("body_timed_out", extra={"fields": {"bytes": size}})
            response = PlainTextResponse(
                "Request Timeout: the body did not arrive in time",
                status_code=408,
                headers={"Connection": "close"},
            )
            await response(scope, receive, send)
            return
        if size > self.max_body and not ended:
            answered = await self._oversized(scope, receive, send, received, size, deadline)
            if answered is None:
                return
            scope, judged = answered
            complete = True
        else:
            body = b"".join(m.get("body", b"") for m in received if m["type"] == "http.request")
            judged = judge_body(body) if complete else Judged()
            if judged.refusal is not None:
                response = Response(judged.refusal, status_code=400, media_type="application/json")
                await response(scope, receive, send)
                return
        if judged.rerouted is not None:
            body = judged.rerouted
            received = [{"type": "http.request", "body": body, "more_body": False}]
        message = read_body(body) if complete else NOT_JSON
        answer = media.refusal(scope, message)
        if answer is not None:
            await answer(scope, receive, send)
            return
        scope = media.as_the_sdk_reads(scope)
        refusal = unsupported_version(scope, message)
        if refusal is not None:
            response = Response(refusal, status_code=400, media_type="application/json")
            await response(scope, receive, send)
            return
        watch = Watch(complete and accepts_a_stream(scope) and asks_for_progress(message))

        async def replay() -> Message:
            if received:
                return received.pop(0)
            if not complete:
                return await receive()
            await watch.gone.wait()
            return {"type": "http.disconnect"}

        async def watch_connection() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            # Every stateless POST ends with its connection: news only when it cut a call.
            calls = len(watch.scopes)
            level = logging.INFO if calls else logging.DEBUG
            log.log(level, "client_disconnected", extra={"fields": {"calls": calls}})
            watch.hang_up()

        token = CURRENT.set(watch)
        rejected = REJECTED.set(judged.rejected)
        # A traceparent header continues the caller's trace (the SDK reads only _meta's).
        traced = telemetry.attach(
            telemetry.context_of_headers(scope["headers"]) if telemetry.tracing() else None
        )
        try:
            async with anyio.create_task_group() as group:
                if complete:
                    group.start_soon(watch_connection)
                await self.app(scope, replay, send)
                group.cancel_scope.cancel()
        finally:
            telemetry.detach(traced)
            REJECTED.reset(rejected)
            CURRENT.reset(token)

    async def _oversized(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        received: list[Message],
        size: int,
        deadline: float,
    ) -> tuple[Scope, Judged] | None:
        """A body over ``max_body``: read to its end (within the time bound and
        MAX_DRAINED_BYTES) keeping only its ends, then answered 413 here, or handed on as
        the rerouted tools/call the SDK answers with the tool error (returned, with the
        scope its Content-Length now fits). None when the client went away."""
        ends = oversized.Ends()
        complete = ended = False
        for message in received:
            ends.add(message.get("body", b""))
            complete = not message.get("more_body", False)
        declared = header_value(scope, b"content-length")
        drain = not declared.isdigit() or int(declared) <= oversized.MAX_DRAINED_BYTES
        with anyio.CancelScope(deadline=deadline):
            while drain and not complete and not ended and size <= oversized.MAX_DRAINED_BYTES:
                message = await receive()
                ended = message["type"] != "http.request"
                chunk = message.get("body", b"")
                size += len(chunk)
                ends.add(chunk)
                complete = not ended and not message.get("more_body", False)
        if ended:
            return None
        protocol = header_value(scope, MCP_PROTOCOL_VERSION_HEADER.lower().encode("ascii"))
        verdict = oversized.judge(ends.seen(complete), self.max_body, complete, protocol or None)
        answer = "tool_error" if verdict.rerouted is not None else "413"
        fields = {"bytes": size, "read_to_end": complete, "answer": answer}
        log.info("body_too_large", extra={"fields": fields})
        if verdict.rerouted is None:
            assert verdict.refusal is not None
            headers = None if complete else {"Connection": "close"}
            response = Response(
                verdict.refusal, status_code=413, media_type="application/json", headers=headers
            )
            await response(scope, receive, send)
            return None
        length = str(len(verdict.rerouted)).encode("ascii")
        headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-length"]
        scope = {**scope, "headers": [*headers, (b"content-length", length)]}
        return scope, Judged(rerouted=verdict.rerouted, rejected=verdict.rejected)


def header_value(scope: Scope, name: bytes) -> str:
    """The first value of header ``name`` (lowercase), "" when there is none."""
    values = header(scope, name)
    return values[0].decode("latin-1") if values else ""


class CallStreams(StreamableHTTPSessionManager):
    """The SDK's session manager (stateless here), answering each POST as JSON unless
    :class:`CallWatch` saw it ask for progress: then as an SSE stream, the progress
    notifications first and the result last. The SDK reads ``json_response`` per request."""

    @property
    def json_response(self) -> bool:  # type: ignore[override]
        watch = CURRENT.get()
        return watch is None or not watch.streamed

    @json_response.setter
    def json_response(self, value: bool) -> None:
        """Set by the SDK's constructor; the answer's form is chosen per request instead."""


def _call_key(ctx: Any, request_id: Any) -> Hashable:
    """Whose call: the token's name, the client's address and the request id. A client
    chooses its ids, so without the first two one caller could cancel another's calls."""
    request = getattr(ctx, "request", None)
    client = getattr(request, "client", None)
    return (caller_name(ctx), getattr(client, "host", None), type(request_id), request_id)


class CancelCalls:
    """SDK server middleware: tools/call in a cancel scope; notifications/cancelled applied."""

    def __init__(self) -> None:
        self._in_flight: dict[Hashable, set[anyio.CancelScope]] = {}

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method == "notifications/cancelled":
            request_id = cancelled_request_id_from_params(ctx.params)
            if request_id is not None:
                scopes = self._in_flight.get(_call_key(ctx, request_id), set())
                for scope in list(scopes):
                    scope.cancel()
                if scopes:
                    log.info("call_cancelled", extra={"fields": {"by": "client"}})
            return await call_next(ctx)
        if ctx.method != "tools/call" or ctx.request_id is None:
            return await call_next(ctx)
        key = _call_key(ctx, ctx.request_id)
        watch = CURRENT.get()
        with anyio.CancelScope() as scope:
            self._in_flight.setdefault(key, set()).add(scope)
            if watch is not None:
                watch.scopes.add(scope)
            try:
                return await call_next(ctx)
            finally:
                scopes = self._in_flight.get(key, set())
                scopes.discard(scope)
                if not scopes:
                    self._in_flight.pop(key, None)
                if watch is not None:
                    watch.scopes.discard(scope)
        raise MCPError(CANCELLED_CODE, "the call was cancelled")
