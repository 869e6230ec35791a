"""web_fetch's HTTP transport: the egress policy judged at connect time, and bounded bodies.

Connect-time vetting: httpcore hands the network backend the host name and port of each
new connection. :class:`VettedBackend` resolves the name once, judges every address with
the egress policy (a name is refused if any of its addresses is refused) and connects only
to an address it judged, so a name that changes its answer between a check and the
connection (DNS rebinding) cannot slip through. TLS still runs against the host name:
httpcore passes the origin's host as the server name, so SNI and certificate checks are
unchanged.

Bounded bodies: httpx's own decoders inflate a whole network read (64 KiB) at once, which
a compression bomb turns into tens of megabytes (gzip) or gigabytes (brotli) before any
byte count can stop it. :func:`read_body` reads raw bytes and inflates them in pieces of at
most 64 KiB, counting as it goes.
"""

from __future__ import annotations

import logging
import ssl
import zlib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import brotli
import httpcore
import httpx

from rypsok.webfetch.resolver import IPAddress, ResolutionFailed, Resolver

if TYPE_CHECKING:
    from rypsok.webfetch.egress import EgressPolicy

log = logging.getLogger("rypsok.webfetch")

PIECE_BYTES = 64 * 1024
BROTLI_BOUNDED = hasattr(brotli.Decompressor(), "can_accept_more_data")
ACCEPT_ENCODING = "gzip, deflate, br" if BROTLI_BOUNDED else "gzip, deflate"


class EgressRefused(Exception):
    """The name resolves to at least one address the egress policy refuses."""

    def __init__(self, denial: str):
        super().__init__(denial)
        self.denial = denial


class BodyTooLarge(Exception):
    """The decoded body exceeded the byte limit."""


class BodyUndecodable(Exception):
    """The body's Content-Encoding is unknown, or its compressed data is corrupt."""


class VettedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's AnyIO backend (Trio and asyncio), connecting only to judged addresses."""

    def __init__(self, policy: EgressPolicy, resolver: Resolver):
        self._policy = policy
        self._resolver = resolver
        self._inner = httpcore.AnyIOBackend()

    async def judged_addresses(self, host: str, port: int) -> list[IPAddress]:
        """Every address of ``host``, all of them allowed; else EgressRefused (logged as
        ``refused`` with the denial's name, never the host) or ResolutionFailed."""
        addresses = await self._resolver.resolve(host, port)
        if not addresses:
            raise ResolutionFailed("no address")
        for address in addresses:
            denial = self._policy.refusal(address)
            if denial is not None:
                log.warning("refused", extra={"fields": {"denial": denial}})
                raise EgressRefused(denial)
        return addresses

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        failure: Exception | None = None
        for address in await self.judged_addresses(host, port):
            try:
                return await self._inner.connect_tcp(
                    str(address),
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise EgressRefused("unix_socket")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class VettedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport over a connection pool whose connections go through VettedBackend.

    httpx.AsyncHTTPTransport takes no network backend, so its pool (``_pool``) is replaced
    by one built with ours; request and exception mapping stay httpx's own. No proxy is
    ever used (environment variables are ignored).
    """

    def __init__(
        self,
        backend: VettedBackend,
        ssl_context: ssl.SSLContext,
        *,
        max_connections: int = 16,
        max_keepalive_connections: int = 8,
        keepalive_expiry: float = 5.0,
    ):
        super().__init__(verify=ssl_context, trust_env=False, http1=True, http2=False)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context,
            max_connections=max_connections,
            max_keepalive_connections=max_keepalive_connections,
            keepalive_expiry=keepalive_expiry,
            http1=True,
            http2=False,
            network_backend=backend,
        )


# Bounded decoding of Content-Encoding.


class _Identity:
    def feed(self, data: bytes) -> Iterator[bytes]:
        for start in range(0, len(data), PIECE_BYTES):
            yield data[start : start + PIECE_BYTES]

    def flush(self) -> Iterator[bytes]:
        return iter(())


class _Zlib:
    """gzip (``wbits`` 16+15) or deflate, zlib-wrapped as HTTP says or raw as some servers send."""

    def __init__(self, wbits: int, fallback_wbits: int | None = None):
        self._inflate = zlib.decompressobj(wbits)
        self._fallback_wbits = fallback_wbits
        self._started = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        while data and not self._inflate.eof:
            try:
                piece = self._inflate.decompress(data, PIECE_BYTES)
            except zlib.error:
                if self._started or self._fallback_wbits is None:
                    raise BodyUndecodable("corrupt compressed data") from None
                self._inflate = zlib.decompressobj(self._fallback_wbits)
                self._fallback_wbits = None
                continue
            self._started = True
            tail = self._inflate.unconsumed_tail
            if not piece and tail == data:
                break
            data = tail
            if piece:
                yield piece

    def flush(self) -> Iterator[bytes]:
        try:
            piece = self._inflate.flush()
        except zlib.error:
            raise BodyUndecodable("corrupt compressed data") from None
        if piece:
            yield piece


class _Brotli:
    def __init__(self) -> None:
        self._inflate = brotli.Decompressor()

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Inflate ``data``, then drain what the decoder holds: it may keep pending output
        even when it says it can accept more input."""
        if self._inflate.is_finished():
            return
        try:
            piece = self._inflate.process(data, output_buffer_limit=PIECE_BYTES)
            while piece or not self._inflate.can_accept_more_data():
                if piece:
                    yield piece
                if self._inflate.is_finished():
                    return
                piece = self._inflate.process(b"", output_buffer_limit=PIECE_BYTES)
        except brotli.error:
            raise BodyUndecodable("corrupt compressed data") from None

    def flush(self) -> Iterator[bytes]:
        return self.feed(b"")


def content_decoder(content_encoding: str) -> _Identity | _Zlib | _Brotli:
    """A bounded decoder for one Content-Encoding; raise BodyUndecodable for any other."""
    codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
    codings = [c for c in codings if c != "identity"]
    if not codings:
        return _Identity()
    if len(codings) > 1:
        raise BodyUndecodable("stacked content codings")
    coding = codings[0]
    if coding in ("gzip", "x-gzip"):
        return _Zlib(16 + zlib.MAX_WBITS)
    if coding == "deflate":
        return _Zlib(zlib.MAX_WBITS, fallback_wbits=-zlib.MAX_WBITS)
    if coding == "br" and BROTLI_BOUNDED:
        return _Brotli()
    raise BodyUndecodable("unknown content coding")


async def read_body(response: httpx.Response, limit: int, *, cut: bool = False) -> bytes:
    """The decoded body, at most ``limit`` bytes: beyond it, BodyTooLarge, or with ``cut``
    the first ``limit`` bytes (robots.txt is read that way). Memory stays within the limit
    plus one piece, however well the body compresses."""
    decoder = content_decoder(response.headers.get("content-encoding", ""))
    body = bytearray()

    def take(pieces: Iterable[bytes]) -> bool:
        for piece in pieces:
            if len(body) + len(piece) > limit:
                if not cut:
                    raise BodyTooLarge()
                body.extend(piece[: limit - len(body)])
                return False
            body.extend(piece)
        return True

    async for raw in response.aiter_raw():
        if not take(decoder.feed(raw)):
            return bytes(body)
    take(decoder.flush())
    return bytes(body)
