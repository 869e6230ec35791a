"""What every request passes before any route reads it: its framing, its Host and its Origin.

- A request with both ``Content-Length`` and ``Transfer-Encoding`` is answered 400 and its
  connection closed (RFC 9112, 6.1); h11 has no setting that refuses it. h11 frames such a body as chunked and would serve
  the request after it on the same connection; a proxy in front that trusts
  ``Content-Length`` would take those bytes for the body: request smuggling.
- DNS-rebinding protection on every route (/mcp, /healthz, /metrics, the metadata): a
  ``Host`` that is not allowed gets 421, an ``Origin`` that is not allowed 403. A pattern
  ``NAME:*`` matches NAME exactly with any port number (the SDK's own check matched
  ``NAME:`` as a prefix, so ``127.0.0.1:evil`` passed).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

import anyio
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("rypsok.http")

PORT = re.compile(r"[0-9]{1,5}")
MAX_LOGGED_CHARS = 200
CLOSE = {"Connection": "close"}
"""On a refusal: its body, if one is coming, is never read, so Hypercorn closes the
connection after the answer, and the client is told so."""
FRAMING_DRAIN_S = 1.0
"""How long the body of a request refused for its framing is read (and dropped) before the
400: Hypercorn's reader closes the connection as soon as it meets the bytes after a message
answered ``Connection: close``, and if the answer is still being written then, it is lost."""


def allowed(value: str | None, patterns: Iterable[str]) -> bool:
    """Whether a Host or Origin value is one of ``patterns``: equal (ignoring case), or for a
    pattern ending ``:*``, equal before its last colon and a port number from 0 to 65535
    after it."""
    if not value:
        return False
    value = value.lower()
    name, colon, port = value.rpartition(":")
    numbered = bool(colon) and PORT.fullmatch(port) is not None and int(port) <= 65535
    for pattern in patterns:
        pattern = pattern.lower()
        if pattern.endswith(":*"):
            if numbered and name == pattern[:-2]:
                return True
        elif value == pattern:
            return True
    return False


def header(scope: Scope, name: bytes) -> list[bytes]:
    return [value for key, value in scope["headers"] if key.lower() == name]


class Gate:
    """ASGI middleware in front of every route: the framing, then Host, then Origin.

    A request without ``Origin`` (what agents send), or with an empty one, passes the
    Origin check; a request without ``Host``, or with two, does not pass the Host check.
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str], origins: Iterable[str]) -> None:
        self.app = app
        self.hosts = tuple(hosts)
        self.origins = tuple(origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if header(scope, b"content-length") and header(scope, b"transfer-encoding"):
            log.warning("framing_refused", extra={"fields": {"why": "content_length_and_chunked"}})
            with anyio.move_on_after(FRAMING_DRAIN_S):
                while (message := await receive())["type"] == "http.request" and message.get(
                    "more_body", False
                ):
                    pass
            response = PlainTextResponse(
                "Bad Request: Content-Length and Transfer-Encoding together",
                status_code=400,
                headers=CLOSE,
            )
            await response(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> PlainTextResponse | None:
        """421 for a Host not allowed, 403 for an Origin not allowed, else None."""
        hosts = header(scope, b"host")
        host = hosts[0].decode("latin-1") if len(hosts) == 1 else None
        if not allowed(host, self.hosts):
            shown = host[:MAX_LOGGED_CHARS] if host is not None else None
            log.warning("host_refused", extra={"fields": {"host": shown}})
            return PlainTextResponse("Invalid Host header", status_code=421, headers=CLOSE)
        origins = header(scope, b"origin")
        if any(origins):
            origin = origins[0].decode("latin-1") if len(origins) == 1 else None
            if not allowed(origin, self.origins):
                shown = origin[:MAX_LOGGED_CHARS] if origin is not None else None
                log.warning("origin_refused", extra={"fields": {"origin": shown}})
                return PlainTextResponse("Invalid Origin header", status_code=403, headers=CLOSE)
        return None
