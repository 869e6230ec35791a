"""A POST body longer than ``[server] max_request_body``, answered as the stdio pipe answers a
line too long to read (rypsok.serve_stdio.long_line): sans-IO.

The body is never held whole: :class:`Ends` keeps its first and last
``long_line.END_BYTES`` while the rest is read and dropped, and the request is answered under
the id found at either end:

- a ``tools/call`` whose id was found gets the tool error ``invalid_request`` for
  ``arguments`` with ``max`` the bound, from the SDK like any tool result (status 200), so
  every client hands it to its caller as the call's result;
- anything else gets status 413 and a JSON-RPC error -32600 whose message names the bound,
  under its id (null when none was found). The mcp SDK's client hands a JSON-RPC error in a
  4xx JSON body to its caller as the call's error; without a JSON body it made the 413 a
  bare -32603 "Server returned an error response".

A tools/call not read to its end (past MAX_DRAINED_BYTES or the time bound), or a
2026-07-28 one whose name was not found, gets the 413 too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from rypsok import errors
from rypsok.serve_stdio import long_line, wire

MAX_DRAINED_BYTES = 16 * 1024 * 1024
"""How much of a body over the bound is read and dropped before it is answered. Read to its
end (within ``[server] body_timeout_ms``), it is answered and the connection serves the next
request; past this, or past the time bound, it is answered with ``Connection: close``, and a
client still writing the body may see the connection reset instead of the answer."""


class Ends:
    """The first and the last ``keep`` bytes of a body read chunk by chunk (they do not
    overlap: the tail holds only what comes after the head)."""

    def __init__(self, keep: int = long_line.END_BYTES) -> None:
        self.keep = keep
        self.head = bytearray()
        self.tail = bytearray()

    def add(self, chunk: bytes) -> None:
        room = self.keep - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        self.tail += chunk
        if len(self.tail) > self.keep:
            del self.tail[: len(self.tail) - self.keep]

    def seen(self, whole: bool) -> long_line.Oversized:
        """What was kept; the tail only when the body was read to its end (bytes from its
        middle would be read as its end)."""
        return long_line.Oversized(bytes(self.head), bytes(self.tail) if whole else b"")


@dataclass(frozen=True)
class Verdict:
    """The answer to an oversized body: ``refusal`` (status 413), or the ``rerouted``
    tools/call the SDK answers with ``rejected``."""

    refusal: bytes | None = None
    rerouted: bytes | None = None
    rejected: wire.Rejected | None = None


def refusal(request_id: wire.RequestId | None, max_body: int, tool_call: bool) -> bytes:
    """The JSON-RPC error of a 413: the bound in its message and in ``data.max``; for a
    tools/call, ``data`` is the tool error's detail."""
    message = (
        f"the request body is longer than {max_body} bytes, the bound of one HTTP request: "
        "send a shorter request"
    )
    data: dict[str, Any] = {"max": max_body}
    if tool_call:
        data = {"parameter": "arguments", "max": max_body}
    return wire.encoded_error(request_id, types.INVALID_REQUEST, message, data)


def _for_the_sdk(
    message: types.JSONRPCRequest, name_unread: bool, protocol: str | None
) -> types.JSONRPCRequest | None:
    """The rerouted call as the SDK will answer it, or None when it would not. A 2026-07-28
    request needs its name (the SDK checks it against the Mcp-Name header) and its envelope:
    when ``params._meta`` was not found (the mcp SDK's client writes it after the
    arguments, beyond the head, and the tail is read only for top-level members), the
    envelope is the one the MCP-Protocol-Version header names, with no client
    capabilities (none are needed to answer the tool error)."""
    if protocol not in MODERN_PROTOCOL_VERSIONS:
        return message
    if name_unread:
        return None
    if wire.envelope_of(message) is not None:
        return message
    envelope = {types.PROTOCOL_VERSION_META_KEY: protocol, types.CLIENT_CAPABILITIES_META_KEY: {}}
    return wire.with_envelope(message, envelope)


def judge(seen: long_line.Oversized, max_body: int, whole: bool, protocol: str | None) -> Verdict:
    """The answer to a body over ``max_body`` of which ``seen`` was kept; ``whole``: it was
    read to its end (else its connection closes after the answer, and the SDK is not asked);
    ``protocol``: its MCP-Protocol-Version header."""
    why = f"the request body is longer than {max_body} bytes"
    verdict = wire.judge_oversized(seen, why, errors.body_too_large(max_body))
    if isinstance(verdict, wire.Forward) and verdict.rejection is not None:
        assert isinstance(verdict.message, types.JSONRPCRequest)
        message = _for_the_sdk(verdict.message, verdict.name_unread, protocol)
        if whole and message is not None:
            rerouted = message.model_dump_json(by_alias=True, exclude_none=True).encode()
            rejected = wire.Rejected(verdict.rejection, verdict.name_unread)
            return Verdict(rerouted=rerouted, rejected=rejected)
        return Verdict(refusal=refusal(verdict.request_id, max_body, tool_call=True))
    request_id = verdict.request_id if isinstance(verdict, wire.Answer | wire.Forward) else None
    return Verdict(refusal=refusal(request_id, max_body, tool_call=False))
