"""The state in this process's memory: what every Client keeps without ``[state]``, and
what a replica falls back to while its shared store does not answer.

Each operation is bookkeeping over the pure rules below both the state and the tools
(windows from ``limits``, breakers from ``breaker``, the cache from ``result_cache``); none
awaits anything, so none yields to another task.
"""

from __future__ import annotations

import collections
from collections.abc import Sequence

from rypsok.config import Config
from rypsok.state import (
    RETURNED_URLS_KEPT,
    EngineAsk,
    EngineGrant,
    EngineOutcome,
    EngineView,
    Windows,
    engine_window,
    month_counter,
)
from rypsok.state.breaker import EngineHealth
from rypsok.state.limits import Clock, MinuteWindows
from rypsok.state.result_cache import ResultCache


class MemoryStore:
    shared = False
    fallbacks = 0

    def __init__(self, config: Config, clock: Clock):
        self._breaker = config.breaker
        self._clock = clock
        self._windows = MinuteWindows(clock)
        self._health: dict[str, EngineHealth] = {}
        cache = config.cache
        self._cache = ResultCache(cache.ttl_s, cache.max_entries, clock) if cache.enabled else None
        self._returned_urls: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._months: collections.Counter[str] = collections.Counter()
        """Requests sent to each engine this month (``max_calls_per_month``)."""
        self._costs: dict[str, float] = {}
        """What each engine cost this month (``max_cost_per_month``)."""
        self._rests: dict[str, float] = {}
        """Until when (the clock's time) each engine with a spent plan rests."""

    async def __aenter__(self) -> MemoryStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        pass

    def health(self, engine: str) -> EngineHealth:
        found = self._health.get(engine)
        if found is None:
            found = self._health[engine] = EngineHealth(self._breaker, self._clock)
        return found

    async def acquire(self, windows: Windows) -> int:
        for name, limit in windows:
            retry_after_ms = self._windows.acquire(name, limit)
            if retry_after_ms:
                return retry_after_ms
        return 0

    async def plan(
        self, asks: Sequence[EngineAsk], windows: Windows = ()
    ) -> tuple[int, list[EngineGrant]]:
        refused = await self.acquire(windows)
        if refused:
            return refused, []
        grants = []
        for ask in asks:
            if ask.cache_key is not None and self._cache is not None:
                hit = self._cache.get(ask.cache_key)
                if hit is not None:
                    grants.append(EngineGrant(ask.engine, "cached", results=hit))
                    continue
            budget = self._windows.window(engine_window(ask.engine), ask.rate_per_minute)
            health = self.health(ask.engine)
            month = month_counter(ask.engine, ask.monthly.month) if ask.monthly else ""
            capped = ask.monthly is not None and self._months[month] >= ask.monthly.limit
            cost_cap = ask.monthly_cost
            cost_month = month_counter(ask.engine, cost_cap.month) if cost_cap else ""
            capped = capped or (
                cost_cap is not None and self._costs.get(cost_month, 0.0) >= cost_cap.limit
            )
            rest_ms = max(0.0, self._rests.get(ask.engine, 0.0) - self._clock()) * 1000
            if not budget.has_room() or capped or rest_ms > 0:
                decision = "rate_limited"
            elif (admission := health.admit()) == "cooldown":
                decision = "cooldown"
            else:
                budget.try_acquire()
                if ask.monthly is not None:
                    self._forget_past_months(ask.engine, month)
                    self._months[month] += 1
                grants.append(EngineGrant(ask.engine, admission))
                continue
            cooldown_ms = health.retry_after_s() * 1000
            month_ends = (ask.monthly or cost_cap).ends_in_ms if ask.monthly or cost_cap else 0
            month_ms = month_ends if capped else 0
            retry_ms = max(1, round(max(cooldown_ms, budget.retry_after_ms(), month_ms, rest_ms)))
            grants.append(EngineGrant(ask.engine, decision, retry_after_ms=retry_ms))
        return 0, grants

    def _forget_past_months(self, engine: str, month: str) -> None:
        prefix = month_counter(engine, "")
        for name in [n for n in self._months if n.startswith(prefix) and n != month]:
            del self._months[name]
        for name in [n for n in self._costs if n.startswith(prefix) and n != month]:
            del self._costs[name]

    async def settle(self, outcomes: Sequence[EngineOutcome], returned_urls: Sequence[str]) -> None:
        for outcome in outcomes:
            health = self.health(outcome.engine)
            if outcome.latency_s is not None:
                health.record_latency(outcome.latency_s)
            if outcome.answered:
                health.record_success()
            else:
                health.record_failure(outcome.retry_after_s)
            if outcome.rest_s:
                until = self._clock() + outcome.rest_s
                self._rests[outcome.engine] = max(self._rests.get(outcome.engine, 0.0), until)
            if outcome.monthly_cost is not None and outcome.cost:
                month = month_counter(outcome.engine, outcome.monthly_cost.month)
                self._forget_past_months(outcome.engine, month)
                self._costs[month] = self._costs.get(month, 0.0) + outcome.cost
        if self._cache is not None:
            for outcome in outcomes:
                if outcome.cache_key is not None:
                    self._cache.put(outcome.cache_key, list(outcome.results))
        for url in returned_urls:
            self._returned_urls[url] = None
            self._returned_urls.move_to_end(url)
        while len(self._returned_urls) > RETURNED_URLS_KEPT:
            self._returned_urls.popitem(last=False)

    async def flush(self) -> None:
        pass

    async def abandon_probes(self, leases: Sequence[tuple[str, str | None]]) -> None:
        for engine, _lease in leases:
            self.health(engine).abandon_probe()

    async def views(
        self, engines: Sequence[str], windows: Windows = ()
    ) -> tuple[int, dict[str, EngineView]]:
        refused = await self.acquire(windows)
        if refused:
            return refused, {}
        return 0, {
            engine: EngineView(self.health(engine).state, self.health(engine).latency_ms())
            for engine in engines
        }

    async def was_returned(self, urls: Sequence[str]) -> bool:
        return any(url in self._returned_urls for url in urls)

    async def store_answers(self) -> bool:
        return True

    def reach(self) -> dict[str, object]:
        return {}
