"""The search policy: which engines a search asks, what the cache and the breakers say,
what is recorded afterwards, and the outcome the caller sees. The Client validates and
limits a call, then hands it here; the network part is :mod:`orchestrate`."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field

import anyio

from rypsok import errors, validate
from rypsok.config import Config
from rypsok.engines.base import EngineSearch
from rypsok.engines.registry import engine_module
from rypsok.hygiene import secrets
from rypsok.metasearch import merge
from rypsok.metasearch.orchestrate import EngineJob, EnginePools, EngineRun, run_engines
from rypsok.model import Notice, Notices, SearchResponse
from rypsok.net.egress import EgressPolicy
from rypsok.observability.observer import Observer
from rypsok.progress import NO_PROGRESS, Progress
from rypsok.state import EngineAsk, EngineOutcome, Store, Windows, take_windows
from rypsok.state.limits import MonthlyCap, monthly_cap
from rypsok.state.result_cache import CacheKey
from rypsok.version import USER_AGENT

log = logging.getLogger("rypsok.metasearch")

STATIC_SKIP_ORDER = ("time_range", "language", "query_too_long")

EngineSession = Callable[[list[EngineJob]], AbstractAsyncContextManager[EnginePools]]
"""The connection pools a search's engines are asked through (the Client owns them)."""


@dataclass
class SearchClock:
    """When one search started, and when it could have ended at the earliest: its deadline,
    or its last engine's answer if that came first."""

    started: float
    ready_at: float

    def lag_s(self) -> float:
        return anyio.current_time() - self.ready_at


class MetaSearch:
    """The policy of web_search over one configuration and one state store."""

    def __init__(
        self, config: Config, state: Store, observer: Observer, policy: EgressPolicy
    ) -> None:
        self.config = config
        self.state = state
        self._observer = observer
        self._policy = policy
        self._rest_logged_until: dict[str, float] = {}
        """Per engine, until when (anyio time) the rest already logged lasts: a spent plan
        is said once in the log, not by every search that was in flight when it came."""

    async def run(
        self,
        request: validate.SearchRequest,
        timeline: list[EngineRun] | None,
        clock: SearchClock,
        windows: Windows,
        engine_session: EngineSession,
        progress: Progress = NO_PROGRESS,
    ) -> SearchResponse:
        """One admitted search, from the query's secrets to the settled state; ``progress``
        hears of each engine as it finishes."""
        started = clock.started
        deadline_at = started + self.config.search.deadline_ms / 1000
        notices = Notices()
        try:
            query = self._query_after_secrets(request, notices)
        except errors.ToolError:
            await take_windows(self.state, windows)
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
                async with engine_session(jobs) as pools:
                    runs = await run_engines(pools, jobs, started, deadline_at, progress)
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
            if run.usage is not None:
                usage = run.usage
                self._observer.engine_usage(run.engine, usage.unit, usage.cost, usage.balance)
            if run.spent:
                self._log_rest(run.engine)
        outcomes = self._outcomes(jobs, runs, plan)
        try:
            response = self._respond(request, cached + asked, notices)
        except errors.ToolError:
            with anyio.CancelScope(shield=True):
                await self.state.settle(outcomes, ())
            raise
        # One round trip for the breakers, latencies, cache and the URLs strict mode allows
        # (kept only when strict mode is on: nothing else reads them). When it holds only
        # latencies, the shared store writes it after the answer (``state.may_wait``).
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
        cost_caps: dict[str, MonthlyCap | None] = {}
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
                region=engine.region,
            )
            candidates[engine.id] = EngineJob(engine, module, search, cache_key)
            cost_caps[engine.id] = monthly_cap(engine.max_cost_per_month, now)
            asks.append(
                EngineAsk(
                    engine.id,
                    engine.rate_per_minute,
                    cache_key if cache_on else None,
                    monthly_cap(engine.max_calls_per_month, now),
                    cost_caps[engine.id],
                )
            )
        refused, granted = await self.state.plan(asks, windows)
        if refused:
            raise errors.rate_limited(refused)
        grants = {grant.engine: grant for grant in granted}
        at_ms = (anyio.current_time() - started) * 1000
        plan = _Plan(cost_caps=cost_caps)
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
                if grant.clean:
                    plan.clean.add(engine_id)
        return plan

    def _outcomes(
        self, jobs: list[EngineJob], runs: dict[str, EngineRun], plan: _Plan
    ) -> list[EngineOutcome]:
        """What the state records of each engine asked; answers are cached when it is on."""
        cache_on = self.config.cache.enabled
        outcomes = []
        for job in jobs:
            run = runs[job.config.id]
            answered = run.outcome == "answered"
            cached = answered and cache_on
            cost = run.usage.cost if run.usage is not None else None
            outcomes.append(
                EngineOutcome(
                    run.engine,
                    answered,
                    latency_s=run.latency_s,
                    retry_after_s=run.retry_after_s if run.reason == "rate_limited" else None,
                    lease=plan.leases.get(run.engine),
                    cache_key=job.cache_key if cached else None,
                    results=tuple(run.results) if cached else (),
                    clean=run.engine in plan.clean,
                    rest_s=job.config.spent_rest_s if run.spent else None,
                    cost=cost or 0.0,
                    monthly_cost=plan.cost_caps.get(run.engine) if cost else None,
                )
            )
        return outcomes

    def _log_rest(self, engine: str) -> None:
        """``engine_resting``, once for each rest a spent plan starts in this process."""
        now = anyio.current_time()
        if now < self._rest_logged_until.get(engine, 0.0):
            return
        rest_s = self.config.engine(engine).spent_rest_s
        self._rest_logged_until[engine] = now + rest_s
        log.warning(
            "engine_resting",
            extra={"fields": {"engine": engine, "reason": "plan_spent", "rest_s": rest_s}},
        )

    def _nothing_to_ask(
        self,
        request: validate.SearchRequest,
        skipped: list[EngineRun],
        retry_after_ms: dict[str, int],
    ) -> errors.ToolError:
        if not skipped:
            return errors.no_engine_for_category(request.category)
        resting = [run for run in skipped if run.reason in ("cooldown", "rate_limited")]
        if resting:
            return errors.engines_resting(
                min(retry_after_ms[run.engine] for run in resting),
                budgets_too=any(run.reason == "rate_limited" for run in resting),
            )
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
        if log.isEnabledFor(logging.INFO):
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
    clean: set[str] = field(default_factory=set)
    """Engines asked whose breaker held nothing (``EngineGrant.clean``)."""
    cost_caps: dict[str, MonthlyCap | None] = field(default_factory=dict)
    """Each engine's ``max_cost_per_month`` for this month, which its cost counts against."""
