"""One HTTP/1.1 connection to an engine: h11 on a network stream.

httpcore's ``AsyncHTTPConnection`` wraps the same two things in a lock, a state lock, a trace
context around each step and a byte-stream object per answer, and its trio stream opens a
cancel scope around every read and write for a timeout rypsok never sets: together about
0.16 ms of a search's CPU on loopback, 40 % of its transport (docs/performance.md, "Fifth
round"). An engine's request needs none of them: its pool (pool.py) lends a connection to
one request at a time.

What a request goes through is what it went through on httpcore. Under trio, the connection
is made as httpcore's ``TrioBackend`` makes it (``trio.open_tcp_stream``; TLS by
``trio.SSLStream``, HTTPS-compatible, the host as server name) and its failures are the same
httpcore exceptions (``ConnectError``, ``ReadError``, ``WriteError``); under another event loop,
httpcore's ``AnyIOBackend`` makes it. TLS offers ALPN ``http/1.1`` only. The HTTP/1.1 steps are
httpcore's: h11 with the same bound on an incomplete event (100 KiB), 64 KiB reads, a write
error while the request is sent ignored (a server may answer and close before reading all
of it), interim answers skipped, a server that closes before answering a
``RemoteProtocolError``, h11's protocol errors as httpcore's, and a connection kept for the
next request only when both its request and its answer ended, until ``keepalive_expiry`` or
the server closes it. tests/test_engine_pool.py checks these against real servers, TLS
included, under trio and asyncio.
"""

from __future__ import annotations

import contextlib
import enum
import ssl
import time
from typing import Any, NamedTuple

import h11
import httpcore
import trio

READ_NUM_BYTES = 64 * 1024
MAX_INCOMPLETE_EVENT_SIZE = 100 * 1024
_DEFAULT_PORTS = {b"http": 80, b"https": 443}


class Origin(NamedTuple):
    scheme: bytes
    host: bytes
    port: int


def origin(scheme: bytes, host: bytes, port: int | None) -> Origin:
    """The origin a request goes to, its port the scheme's when it names none."""
    if port is None:
        try:
            port = _DEFAULT_PORTS[scheme]
        except KeyError:
            raise httpcore.UnsupportedProtocol(f"unsupported scheme {scheme!r}") from None
    return Origin(scheme, host, port)


class _State(enum.IntEnum):
    NEW = 0
    ACTIVE = 1
    IDLE = 2
    CLOSED = 3


async def _open_stream(host: str, port: int) -> httpcore.AsyncNetworkStream:
    """A TCP connection: under trio, ``_TrioStream`` (httpcore's ``TrioBackend`` without a
    timeout scope around each read and write, as none is set); under another loop, httpcore's
    ``AnyIOBackend``."""
    if not trio.lowlevel.in_trio_run():
        return await httpcore.AnyIOBackend().connect_tcp(host, port)
    try:
        return _TrioStream(await trio.open_tcp_stream(host, port))
    except (OSError, trio.BrokenResourceError) as exc:
        raise httpcore.ConnectError(exc) from exc


class _TrioStream(httpcore.AsyncNetworkStream):
    """A trio stream read and written as httpcore's ``TrioStream`` does it, with the same
    exceptions, but with no timeout (the search's deadline bounds the request), so without
    the cancel scope httpcore opens around each read and write for one."""

    def __init__(self, stream: trio.SocketStream | trio.SSLStream[trio.SocketStream]) -> None:
        self._trio_stream = stream

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        try:
            return await self._trio_stream.receive_some(max_bytes)
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            raise httpcore.ReadError(exc) from exc

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if not buffer:
            return
        try:
            await self._trio_stream.send_all(buffer)
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            raise httpcore.WriteError(exc) from exc

    async def aclose(self) -> None:
        await self._trio_stream.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        tls = trio.SSLStream(
            self._trio_stream,
            ssl_context=ssl_context,
            server_hostname=server_hostname,
            https_compatible=True,
        )
        try:
            await tls.do_handshake()
        except trio.BrokenResourceError as exc:
            await self.aclose()
            raise httpcore.ConnectError(exc) from exc
        except Exception:
            await self.aclose()
            raise
        return _TrioStream(tls)

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable":
            stream = self._trio_stream
            while isinstance(stream, trio.SSLStream):
                stream = stream.transport_stream
            return stream.socket.is_readable()
        return None


class Http11Connection:
    """Requests one after another to one origin; connects on the first."""

    def __init__(
        self, origin: Origin, ssl_context: ssl.SSLContext, keepalive_expiry: float
    ) -> None:
        self.origin = origin
        self._ssl_context = ssl_context
        self._keepalive_expiry = keepalive_expiry
        self._expire_at: float | None = None
        self._state = _State.NEW
        self._stream: httpcore.AsyncNetworkStream | None = None
        self._h11 = h11.Connection(
            our_role=h11.CLIENT, max_incomplete_event_size=MAX_INCOMPLETE_EVENT_SIZE
        )

    async def _connect(self) -> httpcore.AsyncNetworkStream:
        host = self.origin.host.decode("ascii")
        stream = await _open_stream(host, self.origin.port)
        if self.origin.scheme == b"https":
            self._ssl_context.set_alpn_protocols(["http/1.1"])
            stream = await stream.start_tls(self._ssl_context, server_hostname=host)
        return stream

    async def send(
        self, method: bytes, target: bytes, headers: list[tuple[bytes, bytes]], content: bytes
    ) -> tuple[int, list[tuple[bytes, bytes]]]:
        """Send a request; the answer's status and headers as received. Its body is read with
        ``receive_body`` and the answer ended with ``answer_closed``."""
        if self._state not in (_State.NEW, _State.IDLE):
            raise httpcore.ConnectionNotAvailable()
        self._state = _State.ACTIVE
        self._expire_at = None
        stream = self._stream
        if stream is None:
            stream = self._stream = await self._connect()
        connection = self._h11
        try:
            event = h11.Request(method=method, target=target, headers=headers)
        except h11.LocalProtocolError as exc:
            raise httpcore.LocalProtocolError(exc) from exc
        data = connection.send(event) or b""
        if content:
            data += connection.send(h11.Data(data=content)) or b""
        data += connection.send(h11.EndOfMessage()) or b""
        with contextlib.suppress(httpcore.WriteError):
            # The answer may still come: a server can answer and close before reading it all.
            await stream.write(data)
        while True:
            answer = await self._next_event()
            if type(answer) is h11.Response:
                break
            if type(answer) is h11.InformationalResponse and answer.status_code == 101:
                break
        return answer.status_code, answer.headers.raw_items()

    async def receive_body(self) -> bytes | None:
        """The next piece of the answer's body; None at its end."""
        while True:
            event = await self._next_event()
            if type(event) is h11.Data:
                return bytes(event.data)
            if type(event) is h11.EndOfMessage or event is h11.PAUSED:
                return None

    async def _next_event(self) -> h11.Event | type[h11.PAUSED]:
        connection = self._h11
        while True:
            try:
                event = connection.next_event()
            except h11.RemoteProtocolError as exc:
                raise httpcore.RemoteProtocolError(exc) from exc
            if event is not h11.NEED_DATA:
                return event
            assert self._stream is not None
            data = await self._stream.read(READ_NUM_BYTES)
            if data == b"" and connection.their_state == h11.SEND_RESPONSE:
                raise httpcore.RemoteProtocolError(
                    "Server disconnected without sending a response."
                )
            connection.receive_data(data)

    def answer_closed(self) -> None:
        """The answer is done with: the connection goes idle if both the request and the answer
        ended, else it can take no other request (the pool closes it)."""
        connection = self._h11
        if connection.our_state is h11.DONE and connection.their_state is h11.DONE:
            self._state = _State.IDLE
            connection.start_next_cycle()
            self._expire_at = time.monotonic() + self._keepalive_expiry
        else:
            self._state = _State.CLOSED

    def is_idle(self) -> bool:
        return self._state == _State.IDLE

    def has_expired(self) -> bool:
        """Past its keep-alive, or idle and readable: a server that closed it."""
        if self._expire_at is not None and time.monotonic() > self._expire_at:
            return True
        return (
            self._state == _State.IDLE
            and self._stream is not None
            and bool(self._stream.get_extra_info("is_readable"))
        )

    async def aclose(self) -> None:
        self._state = _State.CLOSED
        stream, self._stream = self._stream, None
        if stream is not None:
            await stream.aclose()
