"""Client: one rypsok instance, owning the HTTP client, engine health, limits and the
URLs web_search returned (for strict mode). The library, the MCP server and the
probe all go through it.
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import logging
import time
from dataclasses import dataclass
from typing import Any

import anyio

from rypsok import errors, validate
from rypsok.config import Config, load_config
from rypsok.engines.base import EngineSearch
from rypsok.engines.registry import engine_module
from rypsok.hygiene import secrets
from rypsok.limits import Clock, ConcurrencyLimit, MinuteWindow, OnTimeLimit
from rypsok.metasearch import merge
from rypsok.metasearch.cache import CacheKey, ResultCache
from rypsok.metasearch.health import EngineHealth
from rypsok.metasearch.orchestrate import EngineJob, EnginePools, EngineRun, run_engines
from rypsok.model import EngineState, FetchResponse, Notice, Notices, SearchResponse, StatusResponse
from rypsok.net.egress import EgressPolicy
from rypsok.observe import NOBODY, Observer
from rypsok.version import USER_AGENT

log = logging.getLogger("rypsok.client")

RETURNED_URLS_KEPT = 10_000
PER_TOKEN_WINDOWS_KEPT = 10_000
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
        self._health = {
            engine_id: EngineHealth(self.config.breaker, clock) for engine_id in self.config.engines
        }
        self._engine_budget = {
            engine_id: MinuteWindow(engine.rate_per_minute, clock)
            for engine_id, engine in self.config.engines.items()
        }
        limits = self.config.limits
        self._per_minute = {
            "web_search": MinuteWindow(limits.web_search, clock),
            "web_fetch": MinuteWindow(limits.web_fetch, clock),
            "engine_status": MinuteWindow(limits.engine_status, clock),
        }
        self._search_admission = OnTimeLimit(self.config.search.max_concurrent, SEARCH_LATE_S)
        self._concurrency = {"web_fetch": ConcurrencyLimit(self.config.fetch.max_concurrent)}
        self._per_token: collections.OrderedDict[tuple[str, str], MinuteWindow] = (
            collections.OrderedDict()
        )
        cache = self.config.cache
        self._cache = ResultCache(cache.ttl_s, cache.max_entries, clock) if cache.enabled else None
        self._returned_urls: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._fetch_options = fetch_options or {}
        self._pools: EnginePools | None = None
        self._fetcher: Any = None

    async def __aenter__(self) -> Client:
        self._pools = self._engine_pools([engine.id for engine in self.config.usable_engines()])
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

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

    async def _limited(self, tool: str, call, *args, caller: str | None = None):
        own = self._token_window(caller, tool)
        if own is not None and not own.has_room():
            raise errors.rate_limited(own.retry_after_ms())
        window = self._per_minute[tool]
        if not window.try_acquire():
            raise errors.rate_limited(window.retry_after_ms())
        if own is not None:
            own.try_acquire()
        concurrency = self._concurrency.get(tool)
        if concurrency is not None and not concurrency.try_enter():
            raise errors.busy(tool)
        try:
            return await call(*args)
        finally:
            if concurrency is not None:
                concurrency.leave()

    def _token_window(self, caller: str | None, tool: str) -> MinuteWindow | None:
        """The caller's own window for ``tool``; only so many callers are remembered."""
        limit = getattr(self.config.per_token_limits, tool) if caller is not None else None
        if limit is None:
            return None
        key = (caller, tool)
        window = self._per_token.get(key)
        if window is None:
            window = self._per_token[key] = MinuteWindow(limit, self._clock)
            while len(self._per_token) > PER_TOKEN_WINDOWS_KEPT:
                self._per_token.popitem(last=False)
        self._per_token.move_to_end(key)
        return window

    # engine_status

    async def store_health(self) -> str:
        """What /healthz reports of the shared state store: "none" while there is none."""
        return "none"

    async def _engine_status(self) -> StatusResponse:
        return StatusResponse(self.engine_states())

    def engine_states(self) -> list[EngineState]:
        """Each engine's state now, sorted by id (no per-minute limit: for metrics too)."""
        states = []
        for engine_id in sorted(self.config.engines):
            engine = self.config.engines[engine_id]
            health = self._health[engine_id]
            reason = engine.unusable_reason
            state = "disabled" if reason else health.state
            states.append(EngineState(engine_id, state, health.latency_ms(), reason))
        return states

    # web_search

    async def _search(
        self, request: validate.SearchRequest, timeline: list[EngineRun] | None = None
    ) -> SearchResponse:
        """Admission (``busy`` beyond what ends on time, see OnTimeLimit), then the search."""
        admission = self._search_admission.try_enter()
        if admission is None:
            raise errors.busy("web_search")
        now = anyio.current_time()
        clock = _SearchClock(started=now, ready_at=now)
        try:
            response = await self._admitted_search(request, timeline, clock)
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
    ) -> SearchResponse:
        started = clock.started
        deadline_at = started + self.config.search.deadline_ms / 1000
        notices = Notices()
        query = self._query_after_secrets(request, notices)
        jobs, cached, skipped = self._plan(request, query, started)
        if timeline is not None:
            timeline.extend(skipped + cached)
        if not jobs and not cached:
            self._log_skips(skipped)
            raise self._nothing_to_ask(request, skipped)
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
                for job in jobs:
                    self._health[job.config.id].abandon_probe()
                raise
        asked = [runs[job.config.id] for job in jobs]
        if asked:
            last_answer = started + max(run.end_ms or 0.0 for run in asked) / 1000
            clock.ready_at = min(deadline_at, last_answer)
        if timeline is not None:
            timeline.extend(asked)
        self._record_health(asked)
        self._fill_cache(jobs, runs)
        return self._respond(request, cached + asked, notices)

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

    def _plan(
        self, request: validate.SearchRequest, query: str, started: float
    ) -> tuple[list[EngineJob], list[EngineRun], list[EngineRun]]:
        """Engines to ask, answers from the cache, and engines skipped with the reason.

        Static reasons (time_range, language, query length) come first; a cache hit
        sends nothing, so it spends neither the engine's budget nor its breaker probe.
        """
        jobs: list[EngineJob] = []
        cached: list[EngineRun] = []
        skipped: list[EngineRun] = []
        # With the cache on, ask for the ceiling so one cached answer serves any max_results.
        max_results = self.config.search.max_results if self._cache else request.max_results
        now = dt.datetime.now(dt.UTC)
        default_language = self.config.default_language
        for engine in self.config.usable_engines():
            module = engine_module(engine.id)
            info = module.INFO
            if request.category not in info.categories:
                continue
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
            elif (hit := self._cached(cache_key)) is not None:
                at_ms = (anyio.current_time() - started) * 1000
                cached.append(EngineRun(engine.id, "cached", at_ms, at_ms, list(hit)))
                continue
            elif not self._engine_budget[engine.id].has_room():
                reason = "rate_limited"
            else:
                admission = self._health[engine.id].admit()
                if admission == "cooldown":
                    reason = "cooldown"
                else:
                    self._engine_budget[engine.id].try_acquire()
            if reason is not None:
                skipped.append(EngineRun(engine.id, "skipped", reason=reason))
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
            jobs.append(EngineJob(engine, module, search, cache_key))
        return jobs, cached, skipped

    def _cached(self, key: CacheKey) -> tuple | None:
        if self._cache is None:
            return None
        hit = self._cache.get(key)
        self._observer.cache_lookup(key.engine, hit is not None)
        return hit

    def _fill_cache(self, jobs: list[EngineJob], runs: dict[str, EngineRun]) -> None:
        if self._cache is None:
            return
        for job in jobs:
            run = runs[job.config.id]
            if run.outcome == "answered":
                self._cache.put(job.cache_key, run.results)

    def _nothing_to_ask(
        self, request: validate.SearchRequest, skipped: list[EngineRun]
    ) -> errors.ToolError:
        if not skipped:
            return errors.no_engine_for_category(request.category)
        resting = [run.engine for run in skipped if run.reason in ("cooldown", "rate_limited")]
        if resting:
            soonest = min(self._retry_after_ms(engine_id) for engine_id in resting)
            return errors.rate_limited(soonest)
        reasons = {run.reason for run in skipped}
        parameter = next(r for r in STATIC_SKIP_ORDER if r in reasons)
        return errors.no_engine_for_parameter(
            "query" if parameter == "query_too_long" else parameter
        )

    def _retry_after_ms(self, engine_id: str) -> int:
        cooldown_ms = self._health[engine_id].retry_after_s() * 1000
        budget_ms = self._engine_budget[engine_id].retry_after_ms()
        return max(1, round(max(cooldown_ms, budget_ms)))

    def _log_skips(self, skipped: list[EngineRun]) -> None:
        for run in skipped:
            log.info(
                "engine_skipped", extra={"fields": {"engine": run.engine, "reason": run.reason}}
            )

    def _record_health(self, runs: list[EngineRun]) -> None:
        for run in runs:
            health = self._health[run.engine]
            self._observer.engine_request(
                run.engine, "answered" if run.outcome == "answered" else run.reason, run.latency_s
            )
            if run.latency_s is not None:
                health.record_latency(run.latency_s)
            if run.outcome == "answered":
                health.record_success()
            else:
                health.record_failure(run.retry_after_s if run.reason == "rate_limited" else None)

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
        for result in results:
            self._remember_url(result.url)
        if not results:
            outcome = "empty"
        elif failed:
            outcome = "partial"
        else:
            outcome = "ok"
        return SearchResponse(outcome, notices.as_list(), results)

    def _remember_url(self, url: str) -> None:
        self._returned_urls[url] = None
        self._returned_urls.move_to_end(url)
        while len(self._returned_urls) > RETURNED_URLS_KEPT:
            self._returned_urls.popitem(last=False)

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
            # web_fetch's imports (lxml, markdownify, protego) are heavy: load them on first use.
            from rypsok.webfetch.fetcher import Fetcher

            self._fetcher = Fetcher(
                self.config, returned_urls=self._returned_urls, **self._fetch_options
            )
        return await self._fetcher.fetch(
            request.url, max_chars=request.max_chars, start_char=request.start_char
        )


def given(**arguments: Any) -> dict[str, Any]:
    """The tool arguments of a library call: only those its caller gave. In Python ``None``
    says "not given"; in a tool call a JSON null is a value, and a wrong one (validate.py)."""
    return {name: value for name, value in arguments.items() if value is not None}
