"""One engine's connection pool: httpcore's HTTP/1.1 connections, reused while kept alive.

httpcore's ``AsyncConnectionPool`` serves any origin and queues the requests it cannot
place: on every request, answer and cancellation it walks its connections and its queue,
about 45 µs of a search's CPU on loopback (docs/performance.md, "Fourth round"). An
engine's pool needs less: a request takes an idle connection to its origin that has not
expired, or opens one, and gives it back when its response is closed. The connections are
httpcore's (``AsyncHTTPConnection``: TCP, TLS, h11, keep-alive expiry), so everything the
request and its answer go through is what it was.

What the pool keeps of httpcore's: at most ``max_connections`` at once (a request beyond
them waits for one to close or come back); an idle connection is kept only while the pool
holds no more than ``max_idle`` in all, as httpcore's pool kept them; an expired one (past
``keepalive_expiry``, or closed by the server) is closed, not used; a request that fails
or is cancelled closes its connection; ``aclose`` closes every connection.
"""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpcore


class EnginePool:
    """HTTP/1.1 connections to one engine's origins, for ``orchestrate._send``."""

    def __init__(
        self,
        ssl_context: ssl.SSLContext,
        max_connections: int,
        max_idle: int,
        keepalive_expiry: float,
    ) -> None:
        self._ssl_context = ssl_context
        self._max_idle = max_idle
        self._keepalive_expiry = keepalive_expiry
        self._slots = anyio.Semaphore(max_connections)
        self._idle: list[httpcore.AsyncHTTPConnection] = []
        self._open: set[httpcore.AsyncHTTPConnection] = set()

    @property
    def connections(self) -> int:
        """Connections open now, in use or idle."""
        return len(self._open)

    @property
    def idle(self) -> int:
        return len(self._idle)

    async def handle_async_request(self, request: httpcore.Request) -> httpcore.Response:
        """Send ``request``; the response's stream gives its connection back when closed."""
        try:
            self._slots.acquire_nowait()
        except anyio.WouldBlock:
            await self._slots.acquire()
        try:
            connection = await self._connection(request.url.origin)
            try:
                response = await connection.handle_async_request(request)
            except BaseException:
                await self._close(connection)
                raise
        except BaseException:
            self._slots.release()
            raise
        return httpcore.Response(
            status=response.status,
            headers=response.headers,
            content=_Lent(response.stream, self, connection),
            extensions=response.extensions,
        )

    async def _connection(self, origin: httpcore.Origin) -> httpcore.AsyncHTTPConnection:
        """The idle connection to ``origin`` given back last, if it is still good, else a new
        one (expired idle connections are closed first)."""
        while (found := self._take_idle(origin)) is not None:
            if found.is_available() and not found.has_expired():
                return found
            await self._close(found)
        for expired in [connection for connection in self._idle if connection.has_expired()]:
            self._idle.remove(expired)
            await self._close(expired)
        connection = httpcore.AsyncHTTPConnection(
            origin=origin,
            ssl_context=self._ssl_context,
            keepalive_expiry=self._keepalive_expiry,
            http1=True,
            http2=False,
        )
        self._open.add(connection)
        return connection

    def _take_idle(self, origin: httpcore.Origin) -> httpcore.AsyncHTTPConnection | None:
        idle = self._idle
        for index in range(len(idle) - 1, -1, -1):
            if idle[index].can_handle_request(origin):
                return idle.pop(index)
        return None

    async def _give_back(self, connection: httpcore.AsyncHTTPConnection) -> None:
        """After its response is closed: kept idle if it can take another request and the
        pool holds no more than ``max_idle`` connections, else closed."""
        try:
            if connection.is_idle() and len(self._open) <= self._max_idle:
                self._idle.append(connection)
            else:
                await self._close(connection)
        finally:
            self._slots.release()

    async def _close(self, connection: httpcore.AsyncHTTPConnection) -> None:
        self._open.discard(connection)
        with anyio.CancelScope(shield=True):
            await connection.aclose()

    async def aclose(self) -> None:
        connections, self._idle = list(self._open), []
        for connection in connections:
            await self._close(connection)


class _Lent:
    """A response's body stream whose ``aclose`` gives its connection back to the pool."""

    def __init__(
        self, stream: Any, pool: EnginePool, connection: httpcore.AsyncHTTPConnection
    ) -> None:
        self._stream = stream
        self._pool = pool
        self._connection: httpcore.AsyncHTTPConnection | None = connection

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._stream.__aiter__()

    async def aclose(self) -> None:
        connection, self._connection = self._connection, None
        if connection is None:
            return
        try:
            await self._stream.aclose()
        finally:
            # Cancelled while the answer's end was being read, the connection is not idle:
            # it is closed, shielded, instead of kept.
            await self._pool._give_back(connection)
