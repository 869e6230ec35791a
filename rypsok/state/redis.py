"""The state in Redis or Valkey, shared by every replica that names the same ``[state] url``.

The client is coredis (AnyIO-native, so it runs on the Trio backend). Each operation is
one Lua script (``lua.py``), atomic on the server, so a search costs two round trips:
``plan`` (its per-minute windows, then its engines) and ``settle``; engine_status one
(``views``, with its windows). Errors are raised as they come; bounding each
operation and falling back to memory is :class:`~rypsok.state.fallback.FallbackStore`'s
job. Inside ``async with`` one multiplexed connection serves every call, and it is opened
and reopened in the background (``CONNECT_TIMEOUT_S``), never inside an operation: an
operation that finds no connection raises :class:`NotConnected` at once, so its caller
answers from memory without waiting for a handshake. Outside ``async with`` (the
library's module-level functions) each operation opens its own connection.

Keys, all under ``rypsok:``::

    window:<name>        sorted set of event times (tool:, token:, engine: windows)
    breaker:<engine>     hash: f consecutive failures, o open-until (ms), c cooldown (ms)
    probe:<engine>       the half-open probe's lease (SET NX PX; value: the holder's token)
    latency:<engine>     list: the last 20 response times in seconds
    month:<engine>:<YYYY-MM>  requests sent in that month (max_calls_per_month), expiring
                         a day after the month ends
    cost:<engine>:<YYYY-MM>   what the engine cost that month, in its provider's unit
                         (max_cost_per_month), expiring a day after the month ends
    rest:<engine>        present while the engine rests after a spent plan (PX: the rest)
    cache:<sha256>       one engine's cached answer (JSON), with the cache's TTL
    cache-index          sorted set: cache keys by last use (the bound on entries)
    returned-urls        sorted set: URLs web_search returned, the newest 10,000
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import ssl
import statistics
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any

import anyio
import coredis
from coredis.connection import BaseConnection
from coredis.exceptions import NoScriptError
from coredis.retry import NoRetryPolicy

from rypsok.config import Config
from rypsok.engines.base import RawResult
from rypsok.state import (
    RETURNED_URLS_KEPT,
    EngineAsk,
    EngineGrant,
    EngineOutcome,
    EngineView,
    NotConnected,
    Windows,
    engine_window,
    lua,
    month_counter,
)

PREFIX = "rypsok:"
PROBE_LEASE_MARGIN_MS = 1000
"""A probe's lease outlives the search deadline by this much, so it ends even if the
replica carrying it dies; the next call after it probes again."""
CONNECT_TIMEOUT_S = 1.0
"""The bound on opening one connection (TCP, TLS, HELLO with AUTH, CLIENT SETNAME), apart
from the operations' bound: a TLS handshake to a remote store can take longer than an
operation may. Start-up waits for the first attempt; later ones run in the background."""
RECONNECT_EVERY_S = 0.5
"""While there is no connection, how often the background tries again (sooner when an
operation or a health check finds none)."""

# coredis logs failed connections with their traces; the fallback logs
# state_store_unavailable (once a minute) instead.
logging.getLogger("coredis").addHandler(logging.NullHandler())
logging.getLogger("coredis").propagate = False


class _Script:
    def __init__(self, source: str):
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()


_ACQUIRE = _Script(lua.ACQUIRE)
_PLAN = _Script(lua.PLAN)
_SETTLE = _Script(lua.SETTLE)
_VIEWS = _Script(lua.VIEWS)
_ABANDON = _Script(lua.ABANDON)


def _key(*parts: str) -> str:
    return PREFIX + ":".join(parts)


def encode_results(results: Sequence[RawResult]) -> str:
    return json.dumps([[r.title, r.url, r.snippet, r.date] for r in results], ensure_ascii=False)


def decode_results(text: str) -> tuple[RawResult, ...]:
    return tuple(
        RawResult(title, url, snippet, date) for title, url, snippet, date in json.loads(text)
    )


async def _send(connection: BaseConnection, words: Sequence[str | int]) -> Any:
    """One command straight on a connection: coredis's connection, packer and parser without
    its per-command layers (request objects that copy the arguments, the retry policy,
    telemetry), which cost more CPU than the round trip itself. The connection is
    multiplexed: other calls send theirs while this one awaits its reply."""
    return await connection.create_request(str(words[0]).encode(), *words[1:], decode=True)


def _innermost(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


class RedisStore:
    shared = True

    def __init__(self, config: Config):
        state = config.state
        self._url = state.url
        self._password = state.password
        self._breaker = config.breaker
        self._cache = config.cache
        self._lease_ms = config.search.deadline_ms + PROBE_LEASE_MARGIN_MS
        self._exit: contextlib.AsyncExitStack | None = None
        self._live: BaseConnection | None = None
        """The connection every operation uses, while it is open (inside ``async with``)."""
        self._wake: anyio.Event | None = None
        self._settled: anyio.Event | None = None
        """Set when the attempt to connect under way (or the next one) has ended."""
        self._connect_error = "NotYetConnected"
        """The class name of what ended the last connection or attempt, for the log."""

    def _options(self) -> dict[str, Any]:
        options: dict[str, Any] = {}
        if self._url.startswith("rediss://"):
            # Verified against the system's CAs (SSL_CERT_FILE names another) and the host
            # name; coredis's own default checks neither the name nor a missing certificate.
            options["ssl_context"] = ssl.create_default_context()
        return {
            "decode_responses": True,
            "password": self._password,
            "connect_timeout": CONNECT_TIMEOUT_S,
            "client_name": "rypsok",
            **options,
        }

    def _client(self) -> coredis.Redis[str]:
        """A client of its own, for one operation outside ``async with``."""
        return coredis.Redis.from_url(
            self._url,
            max_connections=1,
            retry_policy=NoRetryPolicy(),
            verify_version=False,
            **self._options(),
        )

    def _new_connection(self) -> BaseConnection:
        # the pool only reads the URL into a connection's parameters; it is never entered
        pool = coredis.ConnectionPool.from_url(self._url, **self._options())
        return pool.connection_class(pool.location, **pool.connection_kwargs)

    async def __aenter__(self) -> RedisStore:
        """Starts the task that keeps a connection open; ``await store_answers()`` waits for
        its first attempt (start-up does, within its warm-up bound)."""
        self._wake, self._settled = anyio.Event(), anyio.Event()
        self._exit = contextlib.AsyncExitStack()
        group = await self._exit.enter_async_context(anyio.create_task_group())
        self._exit.callback(group.cancel_scope.cancel)
        group.start_soon(self._keep_connected)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        exit_stack, self._exit, self._live = self._exit, None, None
        if exit_stack is not None:
            await exit_stack.aclose()

    async def _keep_connected(self) -> None:
        """Opens the connection, waits for it to close, opens it again: at once after a
        close, then every ``RECONNECT_EVERY_S`` (or when woken) until it opens."""
        while True:
            connected = False
            try:
                async with anyio.create_task_group() as group:
                    connection = self._new_connection()
                    with anyio.fail_after(CONNECT_TIMEOUT_S):
                        await group.start(connection.run)
                    self._live, connected = connection, True
                    self._attempt_ended()
                self._connect_error = "ConnectionLost"
            except Exception as exc:
                self._connect_error = _innermost(exc).__class__.__name__
            self._live = None
            if not connected:
                self._attempt_ended()
                assert self._wake is not None
                with anyio.move_on_after(RECONNECT_EVERY_S):
                    await self._wake.wait()
                self._wake = anyio.Event()

    def _attempt_ended(self) -> None:
        assert self._settled is not None
        self._settled.set()
        self._settled = anyio.Event()

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[BaseConnection]:
        if self._exit is None:
            async with self._client() as redis, redis.connection_pool.acquire() as connection:
                yield connection
            return
        live = self._live
        if live is None or not live.usable:
            assert self._wake is not None
            self._wake.set()
            raise NotConnected(self._connect_error)
        yield live

    async def _command(self, *words: str | int) -> Any:
        async with self._connection() as connection:
            return await _send(connection, words)

    async def _eval(self, script: _Script, keys: Sequence[str], args: Sequence[str | int]) -> Any:
        """EVALSHA, loading the script when the server does not know it (its first use, or
        a store that restarted empty)."""
        words = ("EVALSHA", script.sha, len(keys), *keys, *args)
        async with self._connection() as connection:
            try:
                return await _send(connection, words)
            except NoScriptError:
                await _send(connection, ("SCRIPT", "LOAD", script.source))
                return await _send(connection, words)

    async def acquire(self, windows: Windows) -> int:
        if not windows:
            return 0
        keys = [_key("window", name) for name, _ in windows]
        args = [uuid.uuid4().hex, *(limit for _, limit in windows)]
        return int(await self._eval(_ACQUIRE, keys, args))

    async def plan(
        self, asks: Sequence[EngineAsk], windows: Windows = ()
    ) -> tuple[int, list[EngineGrant]]:
        if not asks and not windows:
            return 0, []
        token = uuid.uuid4().hex
        keys = [_key("cache-index"), *(_key("window", name) for name, _ in windows)]
        args: list[Any] = [token, self._lease_ms, len(windows), *(limit for _, limit in windows)]
        for ask in asks:
            entry = _key("cache", ask.cache_key.digest()) if ask.cache_key else _key("cache", "-")
            monthly, monthly_cost = ask.monthly, ask.monthly_cost
            month = month_counter(ask.engine, monthly.month if monthly else "-")
            cost = month_counter(ask.engine, monthly_cost.month if monthly_cost else "-")
            either = monthly or monthly_cost
            keys += [
                entry,
                _key("window", engine_window(ask.engine)),
                _key("breaker", ask.engine),
                _key("probe", ask.engine),
                _key("month", month),
                _key("rest", ask.engine),
                _key("cost", cost),
            ]
            args += [
                ask.rate_per_minute,
                1 if ask.cache_key else 0,
                monthly.limit if monthly else 0,
                repr(monthly_cost.limit) if monthly_cost else 0,
                either.ends_in_ms if either else 0,
            ]
        refused, answers = await self._eval(_PLAN, keys, args)
        if refused:
            return int(refused), []
        grants = []
        for ask, (decision, payload) in zip(asks, answers, strict=True):
            if decision == "cached":
                grants.append(EngineGrant(ask.engine, "cached", results=decode_results(payload)))
            elif decision in ("go", "probe"):
                lease = token if decision == "probe" else None
                grants.append(EngineGrant(ask.engine, decision, lease=lease, clean=payload == "1"))
            else:
                grants.append(EngineGrant(ask.engine, decision, retry_after_ms=int(payload)))
        return 0, grants

    async def settle(self, outcomes: Sequence[EngineOutcome], returned_urls: Sequence[str]) -> None:
        if not outcomes and not returned_urls:
            return
        breaker, cache = self._breaker, self._cache
        keys = [_key("cache-index"), _key("returned-urls")]
        args: list[Any] = [
            breaker.failures,
            round(breaker.cooldown_s * 1000),
            round(breaker.max_cooldown_s * 1000),
            cache.ttl_s * 1000,
            cache.max_entries,
            RETURNED_URLS_KEPT,
            len(outcomes),
        ]
        for outcome in outcomes:
            entry = outcome.cache_key
            monthly_cost = outcome.monthly_cost
            counted = monthly_cost is not None and outcome.cost > 0
            cost = month_counter(outcome.engine, monthly_cost.month if monthly_cost else "-")
            keys += [
                _key("breaker", outcome.engine),
                _key("probe", outcome.engine),
                _key("latency", outcome.engine),
                _key("cache", entry.digest()) if entry else _key("cache", "-"),
                _key("rest", outcome.engine),
                _key("cost", cost),
            ]
            retry_s, rest_s = outcome.retry_after_s, outcome.rest_s
            args += [
                1 if outcome.answered else 0,
                "" if outcome.latency_s is None else repr(outcome.latency_s),
                round(retry_s * 1000) if retry_s and retry_s > 0 else 0,
                outcome.lease or "",
                encode_results(outcome.results) if entry else "",
                round(rest_s * 1000) if rest_s and rest_s > 0 else 0,
                repr(outcome.cost) if counted else "",
                monthly_cost.ends_in_ms if monthly_cost else 0,
            ]
        args += list(dict.fromkeys(returned_urls))
        await self._eval(_SETTLE, keys, args)

    async def flush(self) -> None:
        pass

    async def abandon_probes(self, leases: Sequence[tuple[str, str | None]]) -> None:
        held = [(engine, lease) for engine, lease in leases if lease]
        if not held:
            return
        await self._eval(
            _ABANDON, [_key("probe", engine) for engine, _ in held], [lease for _, lease in held]
        )

    async def views(
        self, engines: Sequence[str], windows: Windows = ()
    ) -> tuple[int, dict[str, EngineView]]:
        if not engines and not windows:
            return 0, {}
        keys = [_key("window", name) for name, _ in windows]
        for engine in engines:
            keys += [_key("probe", engine), _key("breaker", engine), _key("latency", engine)]
        args = [uuid.uuid4().hex, len(windows), *(limit for _, limit in windows)]
        refused, answers = await self._eval(_VIEWS, keys, args)
        if refused:
            return int(refused), {}
        views = {}
        for engine, (state, latencies) in zip(engines, answers, strict=True):
            seconds = [float(value) for value in latencies]
            latency = round(statistics.median(seconds) * 1000) if seconds else None
            views[engine] = EngineView(state, latency)
        return 0, views

    async def was_returned(self, urls: Sequence[str]) -> bool:
        if not urls:
            return False
        scores = await self._command("ZMSCORE", _key("returned-urls"), *urls)
        return any(score is not None for score in scores)

    async def store_answers(self) -> bool:
        """A PING. Inside ``async with`` with no connection open, it first waits for the
        next attempt to connect (woken now): a health check may wait for a handshake,
        within its caller's bound; an operation never does."""
        if self._exit is not None and (self._live is None or not self._live.usable):
            assert self._wake is not None and self._settled is not None
            settled = self._settled
            self._wake.set()
            await settled.wait()
        return await self._command("PING") == "PONG"
