"""One engine's connection pool: HTTP/1.1 connections (http11.py), reused while kept alive.

httpcore's ``AsyncConnectionPool`` serves any origin and queues the requests it cannot
place: on every request, answer and cancellation it walks its connections and its queue,
about 45 µs of a search's CPU on loopback (docs/performance.md, "Fourth round"). An
engine's pool needs less: a request takes an idle connection to its origin that has not
expired, or opens one, and gives it back when its answer is closed.

What the pool keeps of httpcore's: at most ``max_connections`` at once (a request beyond
them waits for one to close or come back); an idle connection is kept only while the pool
holds no more than ``max_idle`` in all, as httpcore's pool kept them; an expired one (past
``keepalive_expiry``, or closed by the server) is closed, not used; a request that fails
or is cancelled closes its connection; ``aclose`` closes every connection.
"""

from __future__ import annotations

import ssl
from typing import NamedTuple

import anyio

from rypsok.engines.request import Wire
from rypsok.metasearch.http11 import Http11Connection, Origin, origin


class Answer(NamedTuple):
    """An engine's answer: its status, its headers as received, and its body to be read from
    ``body`` and closed with ``aclose`` (which gives the connection back)."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: Body


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
        self._idle: list[Http11Connection] = []
        self._open: set[Http11Connection] = set()

    @property
    def connections(self) -> int:
        """Connections open now, in use or idle."""
        return len(self._open)

    @property
    def idle(self) -> int:
        return len(self._idle)

    async def send(self, wire: Wire) -> Answer:
        """Send ``wire``; the answer's body gives its connection back when closed. Raises
        httpcore's exceptions."""
        to = origin(wire.scheme, wire.host, wire.port)
        try:
            self._slots.acquire_nowait()
        except anyio.WouldBlock:
            await self._slots.acquire()
        try:
            connection = await self._connection(to)
            try:
                status, headers = await connection.send(
                    wire.method.encode("ascii"), wire.target, wire.headers, wire.content
                )
            except BaseException:
                await self._close(connection)
                raise
        except BaseException:
            self._slots.release()
            raise
        return Answer(status, headers, Body(self, connection))

    async def _connection(self, to: Origin) -> Http11Connection:
        """The idle connection to ``to`` given back last, if it is still good, else a new one
        (expired idle connections are closed first)."""
        while (found := self._take_idle(to)) is not None:
            if not found.has_expired():
                return found
            await self._close(found)
        for expired in [connection for connection in self._idle if connection.has_expired()]:
            self._idle.remove(expired)
            await self._close(expired)
        connection = Http11Connection(to, self._ssl_context, self._keepalive_expiry)
        self._open.add(connection)
        return connection

    def _take_idle(self, to: Origin) -> Http11Connection | None:
        idle = self._idle
        for index in range(len(idle) - 1, -1, -1):
            if idle[index].origin == to:
                return idle.pop(index)
        return None

    async def _give_back(self, connection: Http11Connection) -> None:
        """After its answer is closed: kept idle if it can take another request and the pool
        holds no more than ``max_idle`` connections, else closed."""
        try:
            connection.answer_closed()
            if connection.is_idle() and len(self._open) <= self._max_idle:
                self._idle.append(connection)
            else:
                await self._close(connection)
        finally:
            self._slots.release()

    async def _close(self, connection: Http11Connection) -> None:
        self._open.discard(connection)
        with anyio.CancelScope(shield=True):
            await connection.aclose()

    async def aclose(self) -> None:
        connections, self._idle = list(self._open), []
        for connection in connections:
            await self._close(connection)


class Body:
    """An answer's body, piece by piece; ``aclose`` gives its connection back to the pool."""

    def __init__(self, pool: EnginePool, connection: Http11Connection) -> None:
        self._pool = pool
        self._connection: Http11Connection | None = connection

    def __aiter__(self) -> Body:
        return self

    async def __anext__(self) -> bytes:
        if self._connection is None:
            raise StopAsyncIteration
        piece = await self._connection.receive_body()
        if piece is None:
            raise StopAsyncIteration
        return piece

    async def aclose(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            # Cancelled or failed before the answer's end, the connection is not idle: it is
            # closed, shielded, instead of kept.
            await self._pool._give_back(connection)
