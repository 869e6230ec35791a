"""A loopback TCP proxy in front of a real store whose connections are slow to start.

Each connection it accepts is connected through to the store at once, but nothing passes
either way for ``delay_s``: the client's first bytes (TLS's ClientHello, or HELLO with
AUTH) wait, as over a long link with a TLS handshake. Then bytes pass at full speed.
``drop()`` closes every connection, as a network blip or a load balancer would.
"""

from __future__ import annotations

import anyio
from anyio.abc import SocketAttribute, SocketStream, TaskGroup


class SlowProxy:
    """``async with SlowProxy(store_port, delay_s) as proxy:`` listens on 127.0.0.1:proxy.port."""

    def __init__(self, store_port: int, delay_s: float) -> None:
        self.store_port = store_port
        self.delay_s = delay_s
        self.port = 0
        self.accepted = 0
        """Connections accepted so far."""
        self._scopes: set[anyio.CancelScope] = set()
        self._group: TaskGroup | None = None

    def url(self, scheme: str = "redis", db: int = 0) -> str:
        return f"{scheme}://127.0.0.1:{self.port}/{db}"

    async def __aenter__(self) -> SlowProxy:
        listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
        self.port = listener.extra(SocketAttribute.local_port)
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        self._group.start_soon(listener.serve, self._handle)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._group is not None
        self._group.cancel_scope.cancel()
        await self._group.__aexit__(None, None, None)

    def drop(self) -> None:
        """Closes every connection open through the proxy."""
        for scope in self._scopes:
            scope.cancel()

    async def _handle(self, client: SocketStream) -> None:
        self.accepted += 1
        with anyio.CancelScope() as scope:
            self._scopes.add(scope)
            try:
                async with client, await anyio.connect_tcp("127.0.0.1", self.store_port) as store:
                    await anyio.sleep(self.delay_s)
                    async with anyio.create_task_group() as group:
                        group.start_soon(_pipe, client, store, group)
                        group.start_soon(_pipe, store, client, group)
            finally:
                self._scopes.discard(scope)


async def _pipe(source: SocketStream, sink: SocketStream, group: TaskGroup) -> None:
    """Copies until either side closes, then ends both directions."""
    try:
        async for chunk in source:
            await sink.send(chunk)
    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
        pass
    group.cancel_scope.cancel()
