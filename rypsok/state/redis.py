"""The state in Redis or Valkey, shared by every replica that names the same ``[state] url``:
one server, a Sentinel-managed primary, or a Cluster (how each is reached: ``links.py``).

The client is coredis (AnyIO-native, so it runs on the Trio backend). Each operation is
one Lua script (``lua.py``), atomic on the server, so a search costs two round trips:
``plan`` (its per-minute windows, then its engines) and ``settle``; engine_status one
(``views``, with its windows). On a Cluster a search's keys are in several hash slots,
and each operation is one script per slot: ``plan`` then costs two round trips (the
shared slot, then each engine's slot at once), the others one (their scripts at once).
Errors are raised as they come; bounding each operation and falling back to memory is
:class:`~rypsok.state.fallback.FallbackStore`'s job.

Keys, all under ``[state] key_prefix`` (``rypsok:`` by default)::

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

On a Cluster each name carries a hash tag after the prefix: ``{engine:<id>}`` for an
engine's budget window, breaker, probe, latencies, months, cost and rest (``rypsok:{engine:github}:
breaker:github``), ``{main}`` for the rest (the call and token windows, the cache and
its index, the returned URLs), so that every script's keys share one slot.
"""

from __future__ import annotations

import json
import statistics
import uuid
from collections.abc import Sequence
from typing import Any

import anyio

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
    month_counter,
)
from rypsok.state.links import Script, open_link
from rypsok.state.result_cache import CacheKey

MAIN_TAG = "main"
"""A Cluster's hash tag for the keys that are not one engine's."""
PROBE_LEASE_MARGIN_MS = 1000
"""A probe's lease outlives the search deadline by this much, so it ends even if the
replica carrying it dies; the next call after it probes again."""

_ACQUIRE = Script(lua.ACQUIRE)
_PLAN = Script(lua.PLAN)
_PLAN_CALL = Script(lua.PLAN_CALL)
_PLAN_ENGINE = Script(lua.PLAN_ENGINE)
_SETTLE = Script(lua.SETTLE)
_SETTLE_ENGINE = Script(lua.SETTLE_ENGINE)
_SETTLE_CALL = Script(lua.SETTLE_CALL)
_VIEWS = Script(lua.VIEWS)
_ABANDON = Script(lua.ABANDON)


class KeyLayout:
    """The keys' names, after ``[state] key_prefix``: plain on one server (and a Sentinel's
    primary), with a hash tag on a Cluster."""

    def __init__(self, tagged: bool, prefix: str):
        self.tagged = tagged
        self.prefix = prefix

    def _name(self, tag: str, parts: Sequence[str]) -> str:
        rest = ":".join(parts)
        return f"{self.prefix}{{{tag}}}:{rest}" if self.tagged else self.prefix + rest

    def main(self, *parts: str) -> str:
        return self._name(MAIN_TAG, parts)

    def engine(self, engine: str, *parts: str) -> str:
        return self._name(f"engine:{engine}", parts)

    def window(self, name: str) -> str:
        return self.main("window", name)

    def cache(self, key: CacheKey | None) -> str:
        """A cached answer's entry ("-" for none: the scripts take one per engine)."""
        return self.main("cache", key.digest() if key else "-")


def encode_results(results: Sequence[RawResult]) -> str:
    return json.dumps([[r.title, r.url, r.snippet, r.date] for r in results], ensure_ascii=False)


def decode_results(text: str) -> tuple[RawResult, ...]:
    return tuple(
        RawResult(title, url, snippet, date) for title, url, snippet, date in json.loads(text)
    )


async def _each(calls: Sequence[Any]) -> list[Any]:
    """Awaits every coroutine in ``calls`` at once (one round trip); their answers in order.
    The first error is raised."""
    answers: list[Any] = [None] * len(calls)

    async def one(n: int) -> None:
        answers[n] = await calls[n]

    try:
        async with anyio.create_task_group() as group:
            for n in range(len(calls)):
                group.start_soon(one, n)
    except BaseExceptionGroup as group_error:
        raise group_error.exceptions[0] from None
    return answers


class RedisStore:
    shared = True

    def __init__(self, config: Config):
        self._link = open_link(config)
        self._keys = KeyLayout(tagged=self._link.split, prefix=config.state.key_prefix)
        self._breaker = config.breaker
        self._cache = config.cache
        self._lease_ms = config.search.deadline_ms + PROBE_LEASE_MARGIN_MS

    async def __aenter__(self) -> RedisStore:
        """Starts the task that keeps a connection open; ``await store_answers()`` waits for
        its first attempt (start-up does, within its warm-up bound)."""
        await self._link.__aenter__()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._link.__aexit__(*exc_info)

    def _eval(self, script: Script, keys: Sequence[str], args: Sequence[Any]) -> Any:
        return self._link.eval(script, keys, args)

    async def acquire(self, windows: Windows) -> int:
        if not windows:
            return 0
        keys = [self._keys.window(name) for name, _ in windows]
        args = [uuid.uuid4().hex, *(limit for _, limit in windows)]
        return int(await self._eval(_ACQUIRE, keys, args))

    def _engine_plan(self, ask: EngineAsk) -> tuple[list[str], list[Any]]:
        """One engine's keys and arguments for its rest, budget, monthly caps and breaker."""
        monthly, monthly_cost, engine, keys = ask.monthly, ask.monthly_cost, ask.engine, self._keys
        month = month_counter(engine, monthly.month if monthly else "-")
        cost = month_counter(engine, monthly_cost.month if monthly_cost else "-")
        either = monthly or monthly_cost
        return [
            keys.engine(engine, "window", engine_window(engine)),
            keys.engine(engine, "breaker", engine),
            keys.engine(engine, "probe", engine),
            keys.engine(engine, "month", month),
            keys.engine(engine, "rest", engine),
            keys.engine(engine, "cost", cost),
        ], [
            ask.rate_per_minute,
            monthly.limit if monthly else 0,
            repr(monthly_cost.limit) if monthly_cost else 0,
            either.ends_in_ms if either else 0,
        ]

    async def plan(
        self, asks: Sequence[EngineAsk], windows: Windows = ()
    ) -> tuple[int, list[EngineGrant]]:
        if not asks and not windows:
            return 0, []
        token = uuid.uuid4().hex
        if self._keys.tagged:
            refused, answers = await self._plan_by_slot(token, asks, windows)
        else:
            keys = [self._keys.main("cache-index"), *(self._keys.window(n) for n, _ in windows)]
            args: list[Any] = [token, self._lease_ms, len(windows), *(n for _, n in windows)]
            for ask in asks:
                engine_keys, (rate, *caps) = self._engine_plan(ask)
                keys += [self._keys.cache(ask.cache_key), *engine_keys]
                args += [rate, 1 if ask.cache_key else 0, *caps]
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

    async def _plan_by_slot(
        self, token: str, asks: Sequence[EngineAsk], windows: Windows
    ) -> tuple[int, list[Any]]:
        """PLAN on a Cluster: the windows and the cache in the shared slot, then each engine
        the cache did not answer in its own slot, all at once. Answers as PLAN's."""
        keys = [self._keys.main("cache-index"), *(self._keys.window(n) for n, _ in windows)]
        keys += [self._keys.cache(ask.cache_key) for ask in asks]
        args: list[Any] = [token, len(windows), *(n for _, n in windows)]
        args += [1 if ask.cache_key else 0 for ask in asks]
        refused, hits = await self._eval(_PLAN_CALL, keys, args)
        if refused:
            return int(refused), []
        missed = [ask for ask, hit in zip(asks, hits, strict=True) if not hit]
        engine_answers = iter(
            await _each(
                [
                    self._eval(_PLAN_ENGINE, keys, [token, self._lease_ms, *args])
                    for keys, args in map(self._engine_plan, missed)
                ]
            )
        )
        return 0, [["cached", hit] if hit else next(engine_answers) for hit in hits]

    async def settle(self, outcomes: Sequence[EngineOutcome], returned_urls: Sequence[str]) -> None:
        if not outcomes and not returned_urls:
            return
        breaker, cache, keys = self._breaker, self._cache, self._keys
        rules = [
            breaker.failures,
            round(breaker.cooldown_s * 1000),
            round(breaker.max_cooldown_s * 1000),
        ]
        engine_keys, engine_args, entries, values = [], [], [], []
        for outcome in outcomes:
            engine, monthly_cost = outcome.engine, outcome.monthly_cost
            counted = monthly_cost is not None and outcome.cost > 0
            cost = month_counter(engine, monthly_cost.month if monthly_cost else "-")
            engine_keys.append(
                [
                    keys.engine(engine, "breaker", engine),
                    keys.engine(engine, "probe", engine),
                    keys.engine(engine, "latency", engine),
                    keys.engine(engine, "rest", engine),
                    keys.engine(engine, "cost", cost),
                ]
            )
            retry_s, rest_s = outcome.retry_after_s, outcome.rest_s
            engine_args.append(
                [
                    1 if outcome.answered else 0,
                    "" if outcome.latency_s is None else repr(outcome.latency_s),
                    round(retry_s * 1000) if retry_s and retry_s > 0 else 0,
                    outcome.lease or "",
                    round(rest_s * 1000) if rest_s and rest_s > 0 else 0,
                    repr(outcome.cost) if counted else "",
                    monthly_cost.ends_in_ms if monthly_cost else 0,
                ]
            )
            entries.append(keys.cache(outcome.cache_key))
            values.append(encode_results(outcome.results) if outcome.cache_key else "")
        urls = list(dict.fromkeys(returned_urls))
        shared_keys = [keys.main("cache-index"), keys.main("returned-urls")]
        cache_rules = [cache.ttl_s * 1000, cache.max_entries, RETURNED_URLS_KEPT]
        if keys.tagged:
            cached = [(entry, value) for entry, value in zip(entries, values, strict=True) if value]
            calls = [
                self._eval(_SETTLE_ENGINE, k, [*rules, *a])
                for k, a in zip(engine_keys, engine_args, strict=True)
            ]
            if cached or urls:
                calls.append(
                    self._eval(
                        _SETTLE_CALL,
                        [*shared_keys, *(entry for entry, _ in cached)],
                        [*cache_rules, len(cached), *(value for _, value in cached), *urls],
                    )
                )
            await _each(calls)
            return
        all_keys, args = list(shared_keys), [*rules, *cache_rules, len(outcomes)]
        for k, a, entry, value in zip(engine_keys, engine_args, entries, values, strict=True):
            all_keys += [*k, entry]
            args += [*a, value]
        await self._eval(_SETTLE, all_keys, [*args, *urls])

    async def flush(self) -> None:
        pass

    async def abandon_probes(self, leases: Sequence[tuple[str, str | None]]) -> None:
        held = [(engine, lease) for engine, lease in leases if lease]
        if not held:
            return
        probes = [(self._keys.engine(engine, "probe", engine), lease) for engine, lease in held]
        if self._keys.tagged:
            await _each([self._eval(_ABANDON, [key], [lease]) for key, lease in probes])
        else:
            await self._eval(_ABANDON, [key for key, _ in probes], [lease for _, lease in probes])

    async def views(
        self, engines: Sequence[str], windows: Windows = ()
    ) -> tuple[int, dict[str, EngineView]]:
        if not engines and not windows:
            return 0, {}
        token, keys = uuid.uuid4().hex, self._keys
        window_keys = [keys.window(name) for name, _ in windows]
        limits = [limit for _, limit in windows]
        engine_keys = [
            [
                keys.engine(engine, "probe", engine),
                keys.engine(engine, "breaker", engine),
                keys.engine(engine, "latency", engine),
            ]
            for engine in engines
        ]
        if keys.tagged:
            # the windows in the shared slot and each engine in its own, at once: reading
            # a state takes nothing, so a refusal only leaves the states unread
            refused, *each = await _each(
                [
                    self.acquire(windows),
                    *(self._eval(_VIEWS, k, [token, 0]) for k in engine_keys),
                ]
            )
            answers = [found[0] for _, found in each]
        else:
            all_keys = window_keys + [key for k in engine_keys for key in k]
            refused, answers = await self._eval(_VIEWS, all_keys, [token, len(windows), *limits])
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
        scores = await self._link.scores(self._keys.main("returned-urls"), urls)
        return any(score is not None for score in scores)

    async def store_answers(self) -> bool:
        """A PING (on a Cluster, one to every node). Inside ``async with`` with no
        connection open, it first waits for the next attempt to connect (woken now): a
        health check may wait for a handshake, within its caller's bound; an operation
        never does."""
        return await self._link.ping()

    def reach(self) -> dict[str, Any]:
        """For /healthz: the store's form, and the primary it reaches (Sentinel) or how
        many nodes answered the last PING (Cluster)."""
        return self._link.reach()
