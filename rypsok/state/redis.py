"""The state in Redis or Valkey, shared by every replica that names the same ``[state] url``.

The client is coredis (AnyIO-native, so it runs on the Trio backend). Each operation is
one Lua script (``lua.py``), atomic on the server, so a search costs two round trips:
``plan`` (its per-minute windows, then its engines) and ``settle``; engine_status one
(``views``, with its windows). Errors are raised as they come; bounding each
operation and falling back to memory is :class:`~rypsok.state.fallback.FallbackStore`'s
job. Inside ``async with`` one connection pool serves every call; outside it (the
library's module-level functions) each operation opens its own connection.

Keys, all under ``rypsok:``::

    window:<name>        sorted set of event times (tool:, token:, engine: windows)
    breaker:<engine>     hash: f consecutive failures, o open-until (ms), c cooldown (ms)
    probe:<engine>       the half-open probe's lease (SET NX PX; value: the holder's token)
    latency:<engine>     list: the last 20 response times in seconds
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

import coredis
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
    Windows,
    engine_window,
    lua,
)

PREFIX = "rypsok:"
PROBE_LEASE_MARGIN_MS = 1000
"""A probe's lease outlives the search deadline by this much, so it ends even if the
replica carrying it dies; the next call after it probes again."""
MAX_CONNECTIONS = 16

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


async def _send(redis: coredis.Redis[str], words: Sequence[str | int]) -> Any:
    """One command straight on a pooled connection: coredis's connection, packer and parser
    without its per-command layers (request objects that copy the arguments, the retry
    policy, telemetry), which cost more CPU than the round trip itself."""
    async with redis.connection_pool.acquire() as connection:
        # released before the reply is awaited: the connection is multiplexed
        request = connection.create_request(str(words[0]).encode(), *words[1:], decode=True)
    return await request


class RedisStore:
    shared = True

    def __init__(self, config: Config):
        state = config.state
        self._url = state.url
        self._password = state.password
        self._timeout_s = state.timeout_ms / 1000
        self._breaker = config.breaker
        self._cache = config.cache
        self._lease_ms = config.search.deadline_ms + PROBE_LEASE_MARGIN_MS
        self._redis: coredis.Redis[str] | None = None
        self._exit: contextlib.AsyncExitStack | None = None

    def _client(self) -> coredis.Redis[str]:
        options: dict[str, Any] = {}
        if self._url.startswith("rediss://"):
            # Verified against the system's CAs (SSL_CERT_FILE names another) and the host
            # name; coredis's own default checks neither the name nor a missing certificate.
            options["ssl_context"] = ssl.create_default_context()
        return coredis.Redis.from_url(
            self._url,
            decode_responses=True,
            password=self._password,
            connect_timeout=self._timeout_s,
            max_connections=MAX_CONNECTIONS,
            client_name="rypsok",
            retry_policy=NoRetryPolicy(),
            verify_version=False,
            **options,
        )

    async def __aenter__(self) -> RedisStore:
        self._exit = contextlib.AsyncExitStack()
        self._redis = await self._exit.enter_async_context(self._client())
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        exit_stack, self._exit, self._redis = self._exit, None, None
        if exit_stack is not None:
            await exit_stack.aclose()

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[coredis.Redis[str]]:
        if self._redis is not None:
            yield self._redis
            return
        async with self._client() as redis:
            yield redis

    async def _command(self, *words: str | int) -> Any:
        async with self._connection() as redis:
            return await _send(redis, words)

    async def _eval(self, script: _Script, keys: Sequence[str], args: Sequence[str | int]) -> Any:
        """EVALSHA, loading the script when the server does not know it (its first use, or
        a store that restarted empty)."""
        words = ("EVALSHA", script.sha, len(keys), *keys, *args)
        async with self._connection() as redis:
            try:
                return await _send(redis, words)
            except NoScriptError:
                await _send(redis, ("SCRIPT", "LOAD", script.source))
                return await _send(redis, words)

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
            keys += [
                entry,
                _key("window", engine_window(ask.engine)),
                _key("breaker", ask.engine),
                _key("probe", ask.engine),
            ]
            args += [ask.rate_per_minute, 1 if ask.cache_key else 0]
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
            keys += [
                _key("breaker", outcome.engine),
                _key("probe", outcome.engine),
                _key("latency", outcome.engine),
                _key("cache", entry.digest()) if entry else _key("cache", "-"),
            ]
            retry_s = outcome.retry_after_s
            args += [
                1 if outcome.answered else 0,
                "" if outcome.latency_s is None else repr(outcome.latency_s),
                round(retry_s * 1000) if retry_s and retry_s > 0 else 0,
                outcome.lease or "",
                encode_results(outcome.results) if entry else "",
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
        return await self._command("PING") == "PONG"
