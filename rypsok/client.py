"""Client: one rypsok instance, owning the HTTP client, the concurrency limits and the
state (``rypsok.state``: per-minute limits, engine budgets and health, the cache, the
URLs web_search returned for strict mode; in memory, or shared through ``[state]``).
The library, the MCP server and the probe all go through it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import anyio

from rypsok import errors, validate
from rypsok.config import Config, load_config
from rypsok.engines.base import EngineSearch
from rypsok.engines.registry import engine_module
from rypsok.hygiene import secrets
from rypsok.limits import Clock, ConcurrencyLimit, OnTimeLimit
from rypsok.metasearch import merge
from rypsok.metasearch.cache import CacheKey
from rypsok.metasearch.orchestrate import EngineJob, EnginePools, EngineRun, run_engines
from rypsok.model import EngineState, FetchResponse, Notice, Notices, SearchResponse, StatusResponse
from rypsok.net.egress import EgressPolicy
from rypsok.observe import NOBODY, Observer
from rypsok.state import (
    EngineAsk,
    EngineOutcome,
    Store,
    Windows,
    open_store,
    token_window,
    tool_window,
)
from rypsok.version import USER_AGENT

log = logging.getLogger("rypsok.client")

STATIC_SKIP_ORDER = ("time_range", "language", "query_too_long")
SEARCH_LATE_S = 0.1
"""A search that ends this long after it could have ended narrows the admission window:
a third of the 300 ms the deadline allows, so that a window doubled from calls on time
stays within it with room for the machine's own jitter."""


@dataclass
class _SearchClock:
    """When one search started, and when it could have ended at the earliest: its deadline,
    or its last engine's answer if that came first."""

    started: float
    ready_at: float

    def lag_s(self) -> float:
        return anyio.current_time() - self.ready_at


class Client:
    """``async with Client(config) as client: await client.search("trio")``."""

    def __init__(
        self,
        config: Config | None = None,
        *,
        clock: Clock = time.monotonic,
        fetch_options: dict[str, Any] | None = None,
        observer: Observer = NOBODY,
    ):
        self.config = config or load_config()
        self._clock = clock
        self._observer = observer
        self._policy = EgressPolicy.from_cidrs(self.config.fetch.allow_networks)
        limits = self.config.limits
        self._per_minute = {
            "web_search": limits.web_search,
            "web_fetch": limits.web_fetch,
            "engine_status": limits.engine_status,
        }
        self._search_admission = OnTimeLimit(self.config.search.max_concurrent, SEARCH_LATE_S)
        self._concurrency = {"web_fetch": ConcurrencyLimit(self.config.fetch.max_concurrent)}
        self.state: Store = open_store(self.config, clock, on_fallback=observer.store_fallback)
        """Where the state lives; ``state.shared``, ``state.fallbacks`` (with ``[state]``)
        and ``await state.store_answers()`` are for health checks and metrics."""
        self.last_engine_states: list[EngineState] = []
        """engine_status as last read (the metrics scrape reads it after refreshing)."""
        self._fetch_options = fetch_options or {}
        self._pools: EnginePools | None = None
        self._fetcher: Any = None
        self._state_entered = False

    async def __aenter__(self) -> Client:
        await self.state.__aenter__()
        self._state_entered = True
        self._pools = self._engine_pools([engine.id for engine in self.config.usable_engines()])
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
        if self._state_entered:
            self._state_entered = False
            await self.state.__aexit__(*exc_info)

    async def aclose(self) -> None:
        if self._fetcher is not None:
            await self._fetcher.aclose()
            self._fetcher = None
        if self._pools is not None:
            await self._pools.aclose()
            self._pools = None

    # Tool calls by name, as the MCP server makes them.

    async def call_tool(
        self, name: str, arguments: dict[str, Any], *, caller: str | None = None
    ) -> dict[str, Any]:
        """The tool's JSON response; raises ToolError for every refusal.

        ``caller`` names the bearer token of an HTTP call: its [limits.per_token] apply too.
        """
        tool = name if name in self.tool_names() else "unknown"
        started = anyio.current_time()
        outcome, reason = "cancelled", ""
        try:
            payload = await self._call_tool(name, arguments, caller)
            outcome = payload.get("outcome", "ok")
            return payload
        except errors.ToolError as exc:
            outcome, reason = exc.kind, str((exc.detail or {}).get("reason", ""))
            raise
        except Exception:
            outcome = "internal"
            raise
        finally:
            self._observer.call(tool, outcome, reason, anyio.current_time() - started)

    async def _call_tool(
        self, name: str, arguments: dict[str, Any], caller: str | None
    ) -> dict[str, Any]:
        if name == "web_search":
            request = validate.search_request(arguments, self.config)
            return (
                await self._limited("web_search", self._search, request, caller=caller)
            ).to_json()
        if name == "web_fetch":
            request = validate.fetch_request(arguments, self.config)
            return (await self._limited("web_fetch", self._fetch, request, caller=caller)).to_json()
        if name == "engine_status" and self.config.status.enabled:
            validate.status_request(arguments)
            return (
                await self._limited("engine_status", self._engine_status, caller=caller)
            ).to_json()
        raise errors.not_allowed("name", self.tool_names())

    def tool_names(self) -> list[str]:
        names = ["web_search", "web_fetch"]
        if self.config.status.enabled:
            names.insert(1, "engine_status")
        return names

    # The library surface.

    async def search(
        self,
        query: str,
        *,
        category: str | None = None,
        max_results: int | None = None,
        language: str | None = None,
        time_range: str | None = None,
    ) -> SearchResponse:
        """``None`` (the default) for an argument means the caller did not give it."""
        arguments = given(
            query=query,
            category=category,
            max_results=max_results,
            language=language,
            time_range=time_range,
        )
        request = validate.search_request(arguments, self.config)
        return await self._limited("web_search", self._search, request)

    async def fetch(
        self, url: str, *, max_chars: int | None = None, start_char: int | None = None
    ) -> FetchResponse:
        """``None`` (the default) for an argument means the caller did not give it."""
        arguments = given(url=url, max_chars=max_chars, start_char=start_char)
        request = validate.fetch_request(arguments, self.config)
        return await self._limited("web_fetch", self._fetch, request)

    async def engine_status(self) -> StatusResponse:
        return await self._limited("engine_status", self._engine_status)

    async def search_with_timeline(
        self, arguments: dict[str, Any]
    ) -> tuple[SearchResponse | errors.ToolError, list[EngineRun]]:
        """One search and the per-engine timeline behind it (for the probe)."""
        timeline: list[EngineRun] = []
        try:
            request = validate.search_request(arguments, self.config)
            response = await self._limited("web_search", self._search, request, timeline)
        except errors.ToolError as exc:
            return exc, timeline
        return response, timeline

    # Limits shared by every way in.

    async def take_minute(self, window: str, limit: int) -> None:
        """One event from a per-minute window (``rypsok.state.tool_window`` or
        ``token_window``), shared with every replica under ``[state]``; raises
        unavailable rate_limited when the window is full."""
        await self._take([(window, limit)])

    async def _take(self, windows: Windows) -> None:
        retry_after_ms = await self.state.acquire(windows)
        if retry_after_ms:
            raise errors.rate_limited(retry_after_ms)

    def _windows(self, tool: str, caller: str | None) -> list[tuple[str, int]]:
        """The per-minute windows a call of ``tool`` takes, in order: the caller's own
        ([limits.per_token]) first, then the process's. A call refused by one spends neither."""
        windows = []
        limit = getattr(self.config.per_token_limits, tool) if caller is not None else None
        if limit is not None:
            windows.append((token_window(caller, tool), limit))
        windows.append((tool_window(tool), self._per_minute[tool]))
        return windows

    async def _limited(self, tool: str, call, *args, caller: str | None = None):
        """Per-minute windows (rate_limited), then the concurrency limit (busy), then the call.

        web_search takes its windows in the round trip that plans its engines
        (``Store.plan``); a search refused before that point takes them on its own first,
        so the order of refusals is the same either way.
        """
        windows = self._windows(tool, caller)
        deferred = tool == "web_search"
        if not deferred:
            await self._take(windows)
        concurrency = self._concurrency.get(tool)
        if concurrency is not None and not concurrency.try_enter():
            if deferred:
                await self._take(windows)
            raise errors.busy(tool)
        try:
            if deferred:
                return await call(*args, windows=windows)
            return await call(*args)
        finally:
            if concurrency is not None:
                concurrency.leave()

    # engine_status

    async def store_health(self) -> str:
        """What /healthz reports of the shared state store: none, ok or unavailable."""
        if not self.state.shared:
            return "none"
        return "ok" if await self.state.store_answers() else "unavailable"

    async def _engine_status(self) -> StatusResponse:
        return StatusResponse(await self.engine_states())

    async def engine_states(self) -> list[EngineState]:
        """Each engine's state now, sorted by id (no per-minute limit: for metrics too)."""
        engine_ids = sorted(self.config.engines)
        views = await self.state.views(engine_ids)
        states = []
        for engine_id in engine_ids:
            reason = self.config.engines[engine_id].unusable_reason
            view = views[engine_id]
            state = "disabled" if reason else view.state
            states.append(EngineState(engine_id, state, view.latency_ms, reason))
        self.last_engine_states = states
        return states

    # web_search

    async def _search(
        self,
        request: validate.SearchRequest,
        timeline: list[EngineRun] | None = None,
        *,
        windows: Windows = (),
    ) -> SearchResponse:
        """Admission (``busy`` beyond what ends on time, see OnTimeLimit), then the search."""
        admission = self._search_admission.try_enter()
        if admission is None:
            await self._take(windows)
            raise errors.busy("web_search")
        now = anyio.current_time()
        clock = _SearchClock(started=now, ready_at=now)
        try:
            response = await self._admitted_search(request, timeline, clock, windows)
        except errors.ToolError:
            self._search_admission.leave(admission, clock.lag_s())
            raise
        except BaseException:
            self._search_admission.leave(admission, None)
            raise
        self._search_admission.leave(admission, clock.lag_s())
        return response

    async def _admitted_search(
        self,
        request: validate.SearchRequest,
        timeline: list[EngineRun] | None,
        clock: _SearchClock,
        windows: Windows,
    ) -> SearchResponse:
        started = clock.started
        deadline_at = started + self.config.search.deadline_ms / 1000
        notices = Notices()
        try:
            query = self._query_after_secrets(request, notices)
        except errors.ToolError:
            await self._take(windows)
            raise
        plan = await self._plan(request, query, started, windows)
        jobs, cached, skipped = plan.jobs, plan.cached, plan.skipped
        if timeline is not None:
            timeline.extend(skipped + cached)
        if not jobs and not cached:
            self._log_skips(skipped)
            raise self._nothing_to_ask(request, skipped, plan.retry_after_ms)
        for run in skipped:
            notices.add(Notice("engine_skipped", engine=run.engine, reason=run.reason))
        for run in cached:
            notices.add(Notice("from_cache", engine=run.engine))
        runs = {}
        if jobs:
            try:
                async with self._engine_session(jobs) as pools:
                    runs = await run_engines(pools, jobs, started, deadline_at)
            except BaseException:
                # The call was cancelled (the client went away): a probe it carried must not
                # leave its engine half-open for good.
                with anyio.CancelScope(shield=True):
                    await self.state.abandon_probes(
                        [(job.config.id, plan.leases.get(job.config.id)) for job in jobs]
                    )
                raise
        asked = [runs[job.config.id] for job in jobs]
        if asked:
            last_answer = started + max(run.end_ms or 0.0 for run in asked) / 1000
            clock.ready_at = min(deadline_at, last_answer)
        if timeline is not None:
            timeline.extend(asked)
        for run in asked:
            self._observer.engine_request(
                run.engine, "answered" if run.outcome == "answered" else run.reason, run.latency_s
            )
        outcomes = self._outcomes(jobs, runs, plan.leases)
        try:
            response = self._respond(request, cached + asked, notices)
        except errors.ToolError:
            with anyio.CancelScope(shield=True):
                await self.state.settle(outcomes, ())
            raise
        # One round trip for the breakers, latencies, cache and the URLs strict mode allows
        # (kept only when strict mode is on: nothing else reads them).
        returned = [result.url for result in response.results] if self.config.fetch.strict else []
        # Shielded (and bounded by the store): the engines were asked, so what they did counts
        # even if the caller goes away now; a probe's lease is released here.
        with anyio.CancelScope(shield=True):
            await self.state.settle(outcomes, returned)
        return response

    def _query_after_secrets(self, request: validate.SearchRequest, notices: Notices) -> str:
        found = secrets.find_secrets(request.raw_query)
        if not found:
            return request.query
        first = found[0]
        log.warning(
            "secret_in_query",
            extra={"fields": {"kind": first.kind, "position": first.start, "count": len(found)}},
        )
        if self.config.search.secrets == "deny":
            raise errors.secret_in_query(first.kind, first.start)
        notices.count("credential_masked", len(found))
        return secrets.mask(request.raw_query, found).strip()

    async def _plan(
        self, request: validate.SearchRequest, query: str, started: float, windows: Windows
    ) -> _Plan:
        """Engines to ask, answers from the cache, and engines skipped with the reason.

        Static reasons (time_range, language, query length) come first; then the state
        decides in one step (``Store.plan``, which takes the call's ``windows`` first): a
        cache hit sends nothing, so it spends neither the engine's budget nor its probe.
        """
        cache_on = self.config.cache.enabled
        # With the cache on, ask for the ceiling so one cached answer serves any max_results.
        max_results = self.config.search.max_results if cache_on else request.max_results
        now = dt.datetime.now(dt.UTC)
        default_language = self.config.default_language
        static_skips: dict[str, str] = {}
        candidates: dict[str, EngineJob] = {}
        asks: list[EngineAsk] = []
        order: list[str] = []
        for engine in self.config.usable_engines():
            module = engine_module(engine.id)
            info = module.INFO
            if request.category not in info.categories:
                continue
            order.append(engine.id)
            language = request.language or default_language
            honours_language = info.honours_language(language)
            cache_key = CacheKey(engine.id, query, request.category, language, request.time_range)
            reason = None
            if request.time_range and not info.honours_time_range(request.time_range):
                reason = "time_range"
            elif language != default_language and not honours_language:
                reason = "language"
            elif not info.query_limit.admits(query):
                reason = "query_too_long"
            if reason is not None:
                static_skips[engine.id] = reason
                continue
            search = EngineSearch(
                query=query,
                category=request.category,
                max_results=max_results,
                language=language if honours_language else None,
                time_range=request.time_range,
                now=now,
                user_agent=USER_AGENT,
            )
            candidates[engine.id] = EngineJob(engine, module, search, cache_key)
            asks.append(
                EngineAsk(engine.id, engine.rate_per_minute, cache_key if cache_on else None)
            )
        refused, granted = await self.state.plan(asks, windows)
        if refused:
            raise errors.rate_limited(refused)
        grants = {grant.engine: grant for grant in granted}
        at_ms = (anyio.current_time() - started) * 1000
        plan = _Plan()
        for engine_id in order:
            if engine_id in static_skips:
                plan.skipped.append(EngineRun(engine_id, "skipped", reason=static_skips[engine_id]))
                continue
            grant = grants[engine_id]
            if cache_on:
                self._observer.cache_lookup(engine_id, grant.decision == "cached")
            if grant.decision == "cached":
                plan.cached.append(
                    EngineRun(engine_id, "cached", at_ms, at_ms, list(grant.results))
                )
            elif grant.decision in ("rate_limited", "cooldown"):
                plan.skipped.append(EngineRun(engine_id, "skipped", reason=grant.decision))
                plan.retry_after_ms[engine_id] = grant.retry_after_ms
            else:
                plan.jobs.append(candidates[engine_id])
                if grant.lease is not None:
                    plan.leases[engine_id] = grant.lease
        return plan

    def _outcomes(
        self, jobs: list[EngineJob], runs: dict[str, EngineRun], leases: dict[str, str]
    ) -> list[EngineOutcome]:
        """What the state records of each engine asked; answers are cached when it is on."""
        cache_on = self.config.cache.enabled
        outcomes = []
        for job in jobs:
            run = runs[job.config.id]
            answered = run.outcome == "answered"
            cached = answered and cache_on
            outcomes.append(
                EngineOutcome(
                    run.engine,
                    answered,
                    latency_s=run.latency_s,
                    retry_after_s=run.retry_after_s if run.reason == "rate_limited" else None,
                    lease=leases.get(run.engine),
                    cache_key=job.cache_key if cached else None,
                    results=tuple(run.results) if cached else (),
                )
            )
        return outcomes

    def _nothing_to_ask(
        self,
        request: validate.SearchRequest,
        skipped: list[EngineRun],
        retry_after_ms: dict[str, int],
    ) -> errors.ToolError:
        if not skipped:
            return errors.no_engine_for_category(request.category)
        resting = [run.engine for run in skipped if run.reason in ("cooldown", "rate_limited")]
        if resting:
            return errors.rate_limited(min(retry_after_ms[engine_id] for engine_id in resting))
        reasons = {run.reason for run in skipped}
        parameter = next(r for r in STATIC_SKIP_ORDER if r in reasons)
        return errors.no_engine_for_parameter(
            "query" if parameter == "query_too_long" else parameter
        )

    def _log_skips(self, skipped: list[EngineRun]) -> None:
        for run in skipped:
            log.info(
                "engine_skipped", extra={"fields": {"engine": run.engine, "reason": run.reason}}
            )

    def _respond(
        self, request: validate.SearchRequest, runs: list[EngineRun], notices: Notices
    ) -> SearchResponse:
        answered = [run for run in runs if run.outcome in ("answered", "cached")]
        failed = [run for run in runs if run.outcome == "failed"]
        log.info(
            "search",
            extra={
                "fields": {
                    "category": request.category,
                    "query_chars": len(request.query),
                    "engines": {run.engine: run.reason or run.outcome for run in runs},
                }
            },
        )
        if not answered:
            if all(run.reason == "timeout" for run in failed):
                raise errors.search_deadline()
            raise errors.all_failed()
        for run in failed:
            notices.add(Notice("engine_unavailable", engine=run.engine, reason=run.reason))
        engines = self.config.engines
        answers = [
            merge.EngineAnswer(
                run.engine, engines[run.engine].weight, engines[run.engine].attribution, run.results
            )
            for run in answered
        ]
        ranked = merge.fuse(answers, self._policy, notices)
        results = merge.finish(
            ranked,
            request.max_results,
            attribution=self.config.search.attribution,
            attributed_engines=frozenset(a.engine for a in answers if a.attribution),
            drop_instruction_like=self.config.search.instruction_like == "drop",
            notices=notices,
        )
        if not results:
            outcome = "empty"
        elif failed:
            outcome = "partial"
        else:
            outcome = "ok"
        return SearchResponse(outcome, notices.as_list(), results)

    def _engine_pools(self, engine_ids: list[str]) -> EnginePools:
        return EnginePools(engine_ids, self.config.search.max_concurrent, USER_AGENT)

    @contextlib.asynccontextmanager
    async def _engine_session(self, jobs: list[EngineJob]):
        """The client's engine connection pools, or pools for this call's engines when the
        client is used outside ``async with``."""
        if self._pools is not None:
            yield self._pools
            return
        pools = self._engine_pools([job.config.id for job in jobs])
        try:
            yield pools
        finally:
            await pools.aclose()

    # web_fetch

    async def _fetch(self, request: validate.FetchRequest) -> FetchResponse:
        if self._fetcher is None:
            # web_fetch's imports (lxml, protego) are heavy: load them on first use.
            from rypsok.webfetch.fetcher import Fetcher

            self._fetcher = Fetcher(
                self.config, was_returned=self.state.was_returned, **self._fetch_options
            )
        return await self._fetcher.fetch(
            request.url, max_chars=request.max_chars, start_char=request.start_char
        )


@dataclass
class _Plan:
    """What ``Client._plan`` decided for one search."""

    jobs: list[EngineJob] = field(default_factory=list)
    cached: list[EngineRun] = field(default_factory=list)
    skipped: list[EngineRun] = field(default_factory=list)
    retry_after_ms: dict[str, int] = field(default_factory=dict)
    """For each engine skipped for cooldown or rate_limited: when it could be asked."""
    leases: dict[str, str] = field(default_factory=dict)
    """The probe leases this search holds, by engine."""


def given(**arguments: Any) -> dict[str, Any]:
    """The tool arguments of a library call: only those its caller gave. In Python ``None``
    says "not given"; in a tool call a JSON null is a value, and a wrong one (validate.py)."""
    return {name: value for name, value in arguments.items() if value is not None}
