"""Hypercorn's Trio worker, with an accept loop that keeps a margin of file descriptors.

Hypercorn's own worker (``hypercorn.trio.run.worker_serve``) accepts with
``trio.serve_listeners``: every connection a client opens takes a descriptor, however long
it is held. When clients hold as many as the process may open, accept fails with EMFILE
(logged with a traceback every 100 ms) and so does every descriptor the process opens for
itself: engine and page connections, the state store, the extraction child's pipes.

Here connections are counted. Past ``max_connections`` (the open-file limit less what the
process keeps for itself, :func:`connection_limit`) a new connection is answered 503 and
closed at once: a flood degrades to refusals, and the calls already in flight keep their
sockets. A connection holds its slot at most Hypercorn's ``keep_alive_timeout`` before its
request's headers have arrived and ``[server] body_timeout_ms`` before its body has; a
request without a valid token is answered 401 and closed as soon as its headers are read.

The rest is Hypercorn's worker for plain TCP, built from its own parts (its lifespan,
worker context and per-connection ``TCPServer``), as ``worker_serve`` builds them.
"""

from __future__ import annotations

import errno
import functools
import logging
from collections.abc import Awaitable, Callable

import trio
from hypercorn.config import Config as HypercornConfig
from hypercorn.trio.lifespan import Lifespan
from hypercorn.trio.tcp_server import TCPServer
from hypercorn.trio.worker_context import WorkerContext
from hypercorn.typing import ConnectionState
from hypercorn.utils import ShutdownError, raise_shutdown, repr_socket_addr, wrap_app
from starlette.types import ASGIApp

from rypsok.config import Config

try:
    import resource
except ImportError:  # not on Windows: no limit is read there
    resource = None  # type: ignore[assignment]

log = logging.getLogger("rypsok.http")

OWN_DESCRIPTORS = 64
"""What the process holds besides connections and pools: the interpreter, the event loop,
the listener, the log, the state store, the JWKS client, the exporter, the child's pipes."""
DESCRIPTORS_PER_FETCH = 4
"""A page, its robots.txt, a redirect's next host, the extraction child's pipe."""
MIN_CONNECTIONS = 16
"""The fewest connections served, however low the open-file limit."""
REFUSING_AT_ONCE = 64
"""Connections being answered 503 at once; past it, a new one is closed without a word."""
REFUSE_WITHIN_S = 0.5
MAX_DRAINED = 65536
ACCEPT_RETRY_S = 0.1
ACCEPT_CAPACITY_ERRNOS = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS}
REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Content-Type: text/plain\r\nContent-Length: 46\r\nRetry-After: 1\r\nConnection: close\r\n"
    b"\r\nService Unavailable: too many open connections"
)


def descriptor_reserve(config: Config) -> int:
    """The descriptors kept for the process's own use: its base, a connection to each
    engine for every search let in at once, and what each fetch in flight opens."""
    engines = len(config.usable_engines())
    return (
        OWN_DESCRIPTORS
        + engines * config.search.max_concurrent
        + DESCRIPTORS_PER_FETCH * config.fetch.max_concurrent
    )


def open_file_limit() -> int | None:
    """The soft RLIMIT_NOFILE, or None when there is none (or no way to read it)."""
    if resource is None:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def connection_limit(config: Config, limit: int | None) -> int | None:
    """How many client connections are served at once: the open-file ``limit`` less the
    reserve, at least MIN_CONNECTIONS (None: no limit)."""
    if limit is None:
        return None
    reserve = descriptor_reserve(config)
    if limit - reserve < MIN_CONNECTIONS:
        log.warning(
            "open_files_low",
            extra={"fields": {"open_files": limit, "kept_for_own_use": reserve}},
        )
    return max(MIN_CONNECTIONS, limit - reserve)


class Slots:
    """Connections served and connections being refused, counted."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.served = 0
        self.refusing = 0


async def _serve_one(stream: trio.SocketStream, handler, slots: Slots) -> None:
    try:
        await handler(stream)
    finally:
        slots.served -= 1
        await trio.aclose_forcefully(stream)


async def _refuse(stream: trio.SocketStream, slots: Slots) -> None:
    """503, then what the client sent is read and dropped until it closes (at most
    REFUSE_WITHIN_S): closing with unread bytes would reset the connection and could
    discard the 503 before the client reads it."""
    try:
        with trio.move_on_after(REFUSE_WITHIN_S):
            await stream.send_all(REFUSAL)
            await stream.send_eof()
            while await stream.receive_some(MAX_DRAINED):
                pass
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        pass
    finally:
        slots.refusing -= 1
        await trio.aclose_forcefully(stream)


async def _accept(
    listener: trio.SocketListener, handlers: trio.Nursery, handler, slots: Slots
) -> None:
    starved = False
    async with listener:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:
                if exc.errno not in ACCEPT_CAPACITY_ERRNOS:
                    raise
                if not starved:  # once per episode, not every 100 ms
                    log.error(
                        "accept_failed", extra={"fields": {"errno": errno.errorcode[exc.errno]}}
                    )
                starved = True
                await trio.sleep(ACCEPT_RETRY_S)
                continue
            starved = False
            if slots.limit is None or slots.served < slots.limit:
                slots.served += 1
                handlers.start_soon(_serve_one, stream, handler, slots)
            elif slots.refusing < REFUSING_AT_ONCE:
                slots.refusing += 1
                handlers.start_soon(_refuse, stream, slots)
            else:
                await trio.aclose_forcefully(stream)


async def serve(
    app: ASGIApp,
    config: HypercornConfig,
    max_connections: int | None,
    *,
    shutdown_trigger: Callable[[], Awaitable[None]],
    task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve ``app`` on ``config.bind`` (plain TCP) until ``shutdown_trigger`` returns, then
    let the connections finish within ``config.graceful_timeout``."""
    wrapped = wrap_app(app, config.wsgi_max_body_size, "asgi")
    state: dict = {}
    lifespan = Lifespan(wrapped, config, state)
    context = WorkerContext(None)
    slots = Slots(max_connections)
    async with trio.open_nursery() as lifespan_nursery:
        await lifespan_nursery.start(lifespan.handle_lifespan)
        await lifespan.wait_for_startup()
        async with trio.open_nursery() as handlers:
            listeners, binds = [], []
            for sock in config.create_sockets().insecure_sockets:
                sock.listen(config.backlog)
                listeners.append(trio.SocketListener(trio.socket.from_stdlib_socket(sock)))
                binds.append(f"http://{repr_socket_addr(sock.family, sock.getsockname())}")
            handler = functools.partial(
                TCPServer, wrapped, config, context, ConnectionState(state.copy())
            )
            task_status.started(binds)
            try:
                async with trio.open_nursery(strict_exception_groups=True) as nursery:
                    nursery.start_soon(raise_shutdown, shutdown_trigger)
                    for listener in listeners:
                        nursery.start_soon(_accept, listener, handlers, handler, slots)
            except BaseExceptionGroup as error:
                _, others = error.split(ShutdownError)
                if others is not None:
                    raise others from None
            finally:
                await context.terminated.set()
                handlers.cancel_scope.deadline = trio.current_time() + config.graceful_timeout
        await lifespan.wait_for_shutdown()
        lifespan_nursery.cancel_scope.cancel()
