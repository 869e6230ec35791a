"""The media types of a POST to /mcp: its body must be ``application/json`` and its client
must accept JSON. Refused with a JSON-RPC error under the body's id, which a client can read:
the SDK answered a plain-text 400 for the one and, on 2026-07-28, an empty 406 for the other.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from starlette.responses import Response
from starlette.types import Scope

from rypsok.serve_http.gate import header
from rypsok.serve_stdio import wire

JSON = "application/json"
ACCEPTED = (JSON, "application/*", "*/*")
MAX_ECHOED_CHARS = 100


def _header(scope: Scope, name: bytes) -> str | None:
    values = header(scope, name)
    return b", ".join(values).decode("latin-1") if values else None


def _media_types(value: str) -> list[str]:
    return [part.partition(";")[0].strip().lower() for part in value.split(",")]


def _error(message: Any, text: str, data: dict[str, str]) -> bytes:
    return wire.encoded_error(wire.id_of(message), types.INVALID_REQUEST, text, data)


def refusal(scope: Scope, message: Any) -> Response | None:
    """415 for a body not sent as ``application/json`` (parameters aside, any case; RFC
    9110, 15.5.16, with ``Accept``), 406 for an ``Accept`` that takes no JSON (none at all
    takes any type, RFC 9110, 12.5.1); else None."""
    sent = _header(scope, b"content-type") or ""
    if _media_types(sent)[0] != JSON:
        body = _error(
            message,
            f"the body must be sent as Content-Type: {JSON}",
            {"content_type": sent[:MAX_ECHOED_CHARS]},
        )
        return Response(body, 415, headers={"Accept": JSON}, media_type=JSON)
    accept = _header(scope, b"accept")
    if accept is not None and not set(_media_types(accept)) & set(ACCEPTED):
        body = _error(
            message,
            f"the client must accept {JSON} (Accept: {JSON}, text/event-stream)",
            {"accept": accept[:MAX_ECHOED_CHARS]},
        )
        return Response(body, 406, media_type=JSON)
    return None


def as_the_sdk_reads(scope: Scope) -> Scope:
    """The headers of a request that passed :func:`refusal`, written as the SDK compares
    them: ``Content-Type: application/json`` (it compares the type as written), and
    ``Accept: application/json`` where none was sent (the SDK refused a missing Accept)."""
    headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-type"]
    headers.append((b"content-type", JSON.encode()))
    if _header(scope, b"accept") is None:
        headers.append((b"accept", JSON.encode()))
    return {**scope, "headers": headers}
