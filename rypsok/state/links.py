"""How :class:`~rypsok.state.redis.RedisStore` reaches the store, in each of its three forms.

- One server, or the primary a set of sentinels name (:class:`PrimaryLink`): one
  multiplexed connection, kept open by a background task, commands sent straight on it.
  For Sentinel the task asks the sentinels for the primary (coredis's ``Sentinel``) each
  time it connects, and the connection checks the server's ``ROLE`` before anything is
  sent (coredis's ``SentinelManagedConnection``), so nothing is written to a replica.
  While connected, it asks the sentinels again every ``SENTINEL_CHECK_EVERY_S`` and
  closes the connection when they name another primary; a ``-READONLY`` reply (the
  primary was demoted under the connection) closes it too. Either way the next
  connection goes to the primary the sentinels name.
- A Cluster (:class:`ClusterLink`): coredis's ``RedisCluster``, which maps slots to
  primaries, follows ``MOVED`` and ``ASK`` and refreshes its map after errors. Every
  script's keys share one slot (``redis.py``'s key layout), so each goes to one primary.

Each link: ``async with`` (start-up waits for the first connection via ``wait_ready``),
``eval``, ``scores`` (ZMSCORE), ``ping``, and ``reach`` (for /healthz). An operation
never waits for a connection: with none open it raises :class:`NotConnected` at once.
Outside ``async with`` (the library's module-level functions) each operation opens its own.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import ssl
from collections.abc import AsyncIterator, Sequence
from typing import Any

import anyio
import coredis
from anyio.abc import TaskStatus
from coredis.connection import BaseConnection, SentinelManagedConnection, TCPLocation
from coredis.exceptions import NoScriptError, ReadOnlyError

from rypsok.config import Config
from rypsok.config.store_url import StoreAddress
from rypsok.state import NotConnected

CONNECT_TIMEOUT_S = 1.0
"""The bound on opening one connection (asking the sentinels, TCP, TLS, HELLO with AUTH,
CLIENT SETNAME, ROLE; for a Cluster, reading its slot map), apart from the operations'
bound: a TLS handshake to a remote store can take longer than an operation may.
Start-up waits for the first attempt; later ones run in the background."""
RECONNECT_EVERY_S = 0.5
"""While there is no connection, how often the background tries again (sooner when an
operation or a health check finds none)."""
SENTINEL_CHECK_EVERY_S = 0.5
"""While connected to a Sentinel's primary, how often the sentinels are asked whether it
is still the primary."""
LAYOUT_CHECK_EVERY_S = 0.5
"""While a Cluster's operations fail, how often its slot map is read again."""

SENTINEL_ANSWER_S = 0.25
"""How long one sentinel may take to answer (and to connect to, twice that) before the
next is asked: a hung sentinel must not keep the others from being asked."""

# coredis logs failed connections with their traces; the fallback logs
# state_store_unavailable (once a minute) instead.
logging.getLogger("coredis").addHandler(logging.NullHandler())
logging.getLogger("coredis").propagate = False


class Script:
    def __init__(self, source: str):
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()


def _innermost(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _options(config: Config, address: StoreAddress) -> dict[str, Any]:
    """What every connection to a data node is opened with."""
    options: dict[str, Any] = {
        "decode_responses": True,
        "password": config.state.password,
        "username": address.username,
        "connect_timeout": CONNECT_TIMEOUT_S,
        "client_name": "rypsok",
    }
    if address.tls:
        # Verified against the system's CAs (SSL_CERT_FILE names another) and the host
        # name; coredis's own default checks neither the name nor a missing certificate.
        options["ssl_context"] = ssl.create_default_context()
    return options


async def _send(connection: BaseConnection, words: Sequence[str | int]) -> Any:
    """One command straight on a connection: coredis's connection, packer and parser without
    its per-command layers (request objects that copy the arguments, the retry policy,
    telemetry), which cost more CPU than the round trip itself. The connection is
    multiplexed: other calls send theirs while this one awaits its reply."""
    return await connection.create_request(str(words[0]).encode(), *words[1:], decode=True)


class _Background:
    """A task that keeps the link open, and the events operations and health checks use."""

    def __init__(self) -> None:
        self._exit: contextlib.AsyncExitStack | None = None
        self._wake: anyio.Event | None = None
        self._settled: anyio.Event | None = None
        """Set when the attempt to connect under way (or the next one) has ended."""
        self.connect_error = "NotYetConnected"
        """The class name of what ended the last connection or attempt, for the log."""

    @property
    def entered(self) -> bool:
        return self._exit is not None

    async def __aenter__(self) -> Any:
        self._wake, self._settled = anyio.Event(), anyio.Event()
        self._exit = contextlib.AsyncExitStack()
        group = await self._exit.enter_async_context(anyio.create_task_group())
        self._exit.callback(group.cancel_scope.cancel)
        group.start_soon(self._keep_open)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        exit_stack, self._exit = self._exit, None
        self._closed()
        if exit_stack is not None:
            await exit_stack.aclose()

    async def _keep_open(self) -> None:
        """Opens, waits for the close, opens again: at once after a close, then every
        ``RECONNECT_EVERY_S`` (or when woken) until it opens."""
        while True:
            opened = False
            try:
                async with anyio.create_task_group() as group:
                    with anyio.fail_after(CONNECT_TIMEOUT_S):
                        await self._open(group)
                    opened = True
                    self._attempt_ended()
                self.connect_error = "ConnectionLost"
            except Exception as exc:
                self.connect_error = _innermost(exc).__class__.__name__
            self._closed()
            if not opened:
                self._attempt_ended()
                assert self._wake is not None
                with anyio.move_on_after(RECONNECT_EVERY_S):
                    await self._wake.wait()
                self._wake = anyio.Event()

    async def _open(self, group: anyio.abc.TaskGroup) -> None:
        """Opens the link in tasks of ``group``, which ends when the link closes."""
        raise NotImplementedError

    def _closed(self) -> None:
        raise NotImplementedError

    def _attempt_ended(self) -> None:
        assert self._settled is not None
        self._settled.set()
        self._settled = anyio.Event()

    def not_connected(self) -> NotConnected:
        """Wakes the background (an operation found no connection) and says why."""
        assert self._wake is not None
        self._wake.set()
        return NotConnected(self.connect_error)

    async def next_attempt(self) -> None:
        """Waits for the attempt to connect under way, or the next one (woken now)."""
        assert self._wake is not None and self._settled is not None
        settled = self._settled
        self._wake.set()
        await settled.wait()


class PrimaryLink(_Background):
    """One server, or the primary of a Sentinel-managed set."""

    split = False

    def __init__(self, config: Config, address: StoreAddress):
        super().__init__()
        self._url = config.state.url
        self._address = address
        self._options = _options(config, address)
        self._live: BaseConnection | None = None
        """The connection every operation uses, while it is open (inside ``async with``)."""
        self._sentinel_password = config.state.sentinel_password
        self._sentinel = self._sentinels() if address.form == "sentinel" else None
        """The sentinels this link asks inside ``async with``."""

    def _sentinels(self) -> coredis.Sentinel[str]:
        options = {
            "connect_timeout": 2 * SENTINEL_ANSWER_S,
            "stream_timeout": SENTINEL_ANSWER_S,
            "password": self._sentinel_password,
            "ssl_context": self._options.get("ssl_context"),
        }
        return coredis.Sentinel(
            [TCPLocation(host, port) for host, port in self._address.nodes],
            sentinel_kwargs=options,
            decode_responses=True,
        )

    async def __aenter__(self) -> PrimaryLink:
        await super().__aenter__()
        if self._sentinel is not None:
            assert self._exit is not None
            await self._exit.enter_async_context(self._sentinel)
        return self

    async def _new_connection(self, sentinels: coredis.Sentinel[str] | None) -> BaseConnection:
        if sentinels is None:
            # the pool only reads the URL into a connection's parameters; it is never entered
            pool = coredis.ConnectionPool.from_url(self._url, **self._options)
            return pool.connection_class(pool.location, **pool.connection_kwargs)
        host, port = await sentinels.discover_primary(self._address.service)
        return SentinelManagedConnection(
            TCPLocation(host, port),
            self._address.service,
            True,
            db=self._address.db,
            **self._options,
        )

    async def _open(self, group: anyio.abc.TaskGroup) -> None:
        connection = await self._new_connection(self._sentinel)

        async def run(*, task_status: TaskStatus[None]) -> None:
            try:
                await connection.run(task_status=task_status)
            finally:
                group.cancel_scope.cancel()  # the watch ends with the connection

        await group.start(run)
        self._live = connection
        if self._sentinel is not None:
            group.start_soon(self._watch, connection)

    async def _watch(self, connection: BaseConnection) -> None:
        """Closes ``connection`` when the sentinels name another primary."""
        assert self._sentinel is not None
        location = connection.location
        while True:
            await anyio.sleep(SENTINEL_CHECK_EVERY_S)
            with contextlib.suppress(Exception), anyio.move_on_after(CONNECT_TIMEOUT_S):
                host, port = await self._sentinel.discover_primary(self._address.service)
                if TCPLocation(host, port) != location:
                    connection.invalidate("the sentinels name another primary")
                    return

    def _closed(self) -> None:
        self._live = None

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[BaseConnection]:
        if not self.entered:
            async with contextlib.AsyncExitStack() as stack:
                sentinels = None
                if self._sentinel is not None:
                    # sentinels of its own: operations outside ``async with`` may overlap
                    sentinels = await stack.enter_async_context(self._sentinels())
                connection = await self._new_connection(sentinels)
                group = await stack.enter_async_context(anyio.create_task_group())
                stack.callback(group.cancel_scope.cancel)
                await group.start(connection.run)
                yield connection
            return
        live = self._live
        if live is None or not live.usable:
            raise self.not_connected()
        yield live

    async def eval(self, script: Script, keys: Sequence[str], args: Sequence[str | int]) -> Any:
        """EVALSHA, loading the script when the server does not know it (its first use, or
        a store that restarted empty)."""
        words = ("EVALSHA", script.sha, len(keys), *keys, *args)
        async with self._connection() as connection:
            try:
                try:
                    return await _send(connection, words)
                except NoScriptError:
                    await _send(connection, ("SCRIPT", "LOAD", script.source))
                    return await _send(connection, words)
            except ReadOnlyError:
                # a replica now: the next connection goes to the primary the sentinels name
                connection.invalidate("the server is a replica")
                raise

    async def scores(self, key: str, members: Sequence[str]) -> list[Any]:
        async with self._connection() as connection:
            return await _send(connection, ("ZMSCORE", key, *members))

    async def ping(self) -> bool:
        """Inside ``async with`` with no connection open, it first waits for the next
        attempt to connect: a health check may wait for a handshake, within its caller's
        bound; an operation never does."""
        if self.entered and (self._live is None or not self._live.usable):
            await self.next_attempt()
        async with self._connection() as connection:
            return await _send(connection, ("PING",)) == "PONG"

    def reach(self) -> dict[str, Any]:
        if self._sentinel is None:
            return {"form": "server"}
        live = self._live
        primary = f"{live.location.host}:{live.location.port}" if live is not None else None
        return {"form": "sentinel", "service": self._address.service, "primary": primary}


class ClusterLink(_Background):
    """A Cluster, through coredis's cluster client (its slot map read when it opens)."""

    split = True

    def __init__(self, config: Config, address: StoreAddress):
        super().__init__()
        self._address = address
        self._options = _options(config, address)
        self._live: coredis.RedisCluster[str] | None = None
        self._reached = 0
        self._failing = False
        """Whether the last operation failed: the slot map is then read again every
        LAYOUT_CHECK_EVERY_S until one succeeds."""

    def _client(self) -> coredis.RedisCluster[str]:
        pool = coredis.pool.ClusterConnectionPool(
            [TCPLocation(host, port) for host, port in self._address.nodes],
            # CONFIG GET is not needed, and a user limited to rypsok's keys may not have it
            skip_full_coverage_check=True,
            **self._options,
        )
        return coredis.RedisCluster(connection_pool=pool, verify_version=False)

    async def _open(self, group: anyio.abc.TaskGroup) -> None:
        async def hold(*, task_status: TaskStatus[coredis.RedisCluster[str]]) -> None:
            async with self._client() as client:
                task_status.started(client)
                await anyio.sleep_forever()

        self._live = await group.start(hold)
        group.start_soon(self._watch, self._live)

    async def _watch(self, cluster: coredis.RedisCluster[str]) -> None:
        """Reads the slot map again while operations fail. coredis reads it again after
        errors only, and the store is not asked for RETRY_AFTER_S after a failure: a
        replica promoted in a primary's place would otherwise be found on the second try
        after its promotion, not the first."""
        while True:
            await anyio.sleep(LAYOUT_CHECK_EVERY_S)
            if self._failing:
                with contextlib.suppress(Exception), anyio.move_on_after(CONNECT_TIMEOUT_S):
                    await cluster.connection_pool.cluster_layout.initialize()

    def _closed(self) -> None:
        self._live = None

    @contextlib.asynccontextmanager
    async def _cluster(self) -> AsyncIterator[coredis.RedisCluster[str]]:
        if not self.entered:
            async with self._client() as client:
                yield client
            return
        if self._live is None:
            raise self.not_connected()
        try:
            yield self._live
        except BaseException:  # an error, or the operation's bound cut it off
            self._failing = True
            raise
        self._failing = False

    async def eval(self, script: Script, keys: Sequence[str], args: Sequence[str | int]) -> Any:
        """EVALSHA on the primary of the keys' slot; EVAL there (which loads the script on
        that node alone) when it does not know the script."""
        async with self._cluster() as cluster:
            try:
                return await cluster.evalsha(script.sha, keys, args)
            except NoScriptError:
                return await cluster.eval(script.source, keys, args)

    async def scores(self, key: str, members: Sequence[str]) -> list[Any]:
        async with self._cluster() as cluster:
            return list(await cluster.zmscore(key, members))

    async def ping(self) -> bool:
        """Whether every node of the slot map answers a PING (how many did: ``reach``)."""
        if self.entered and self._live is None:
            await self.next_attempt()
        async with self._cluster() as cluster:
            pool = cluster.connection_pool
            nodes = pool.cluster_layout.nodes
            # counted as the answers come, so that a check cut off by its bound says how
            # many answered within it
            self._reached = 0

            async def ping(node: Any) -> None:
                with contextlib.suppress(Exception):
                    connection = await pool.get_connection(node)
                    try:
                        if await _send(connection, ("PING",)) == "PONG":
                            self._reached += 1
                    finally:
                        pool.release(connection)

            async with anyio.create_task_group() as group:
                for node in nodes:
                    group.start_soon(ping, node)
            return bool(nodes) and self._reached == len(nodes)

    def reach(self) -> dict[str, Any]:
        live = self._live
        known = len(live.connection_pool.cluster_layout.nodes) if live is not None else 0
        return {"form": "cluster", "nodes": known, "nodes_reached": self._reached}


def open_link(config: Config) -> PrimaryLink | ClusterLink:
    address = config.state.address
    if address.form == "cluster":
        return ClusterLink(config, address)
    return PrimaryLink(config, address)
