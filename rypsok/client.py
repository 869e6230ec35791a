"""Client: one rypsok instance, owning the HTTP client, the concurrency limits and the
state (``rypsok.state``: per-minute limits, engine budgets and health, the cache, the
URLs web_search returned for strict mode; in memory, or shared through ``[state]``).
The library, the MCP server and the probe all go through it.

web_search's and web_fetch's modules (httpx, the hygiene modules, lxml, the engines'
parsers) and the TLS contexts are not loaded with this module: ``async with Client()``
loads what a first search needs (``warm=True``, the default), and ``Client(warm=False)``
leaves it for :meth:`Client.warm_up` or for the first call, under that call's deadline
(the stdio server answers tools/list first).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import time
from typing import TYPE_CHECKING, Any

import anyio

from rypsok import errors, validate
from rypsok.config import Config, load_config
from rypsok.lazy import Once
from rypsok.observability import telemetry
from rypsok.observability.observer import NOBODY, Observer
from rypsok.progress import NO_PROGRESS, Progress
from rypsok.state import (
    Store,
    Windows,
    open_store,
    take_windows,
    token_window,
    tool_window,
)
from rypsok.state.limits import Clock, ConcurrencyLimit, OnTimeLimit, TokenShares

if TYPE_CHECKING:
    from types import ModuleType

    from rypsok.metasearch.orchestrate import EngineJob, EnginePools, EngineRun
    from rypsok.metasearch.search import MetaSearch
    from rypsok.model import EngineState, FetchResponse, SearchResponse, StatusResponse
    from rypsok.webfetch.fetcher import Fetcher

log = logging.getLogger("rypsok.client")

SEARCH_LATE_S = 0.1
"""A search that ends this long after it could have ended narrows the admission window:
a third of the 300 ms the deadline allows, so that a window doubled from calls on time
stays within it with room for the machine's own jitter."""


def _load_search() -> ModuleType:
    """web_search's modules: the policy, fusion and cleaning (the hygiene modules), the
    network code (httpx), the parsers the engines load on their first answer and the
    instruction-like scorer's weights."""
    from rypsok.engines.base import PARSER_MODULES

    for name in PARSER_MODULES:
        importlib.import_module(name)
    search = importlib.import_module("rypsok.metasearch.search")
    importlib.import_module("rypsok.hygiene.instructions.scorer").model()
    return search


def _load_fetch() -> ModuleType:
    """web_fetch's modules (lxml, protego, w3lib, the extraction) and its TLS context."""
    fetcher = importlib.import_module("rypsok.webfetch.fetcher")
    fetcher.TLS_CONTEXT.get_sync()
    return fetcher


def log_engines_not_offered(config: Config) -> None:
    """One info line per bring-your-own-key engine left out for lack of its key (the
    variable's name, never a value)."""
    for engine in config.engines.values():
        if engine.enabled and not engine.offered:
            log.info(
                "engine_not_offered",
                extra={
                    "fields": {
                        "engine": engine.id,
                        "reason": "no_credential",
                        "credential_env": engine.credential_env,
                    }
                },
            )


SEARCH_MODULES: Once[ModuleType] = Once(_load_search)
FETCH_MODULES: Once[ModuleType] = Once(_load_fetch)


class Client:
    """``async with Client(config) as client: await client.search("trio")``.

    One instance of rypsok: its configuration (``config``, else ``load_config()``), per-minute
    limits, engine health and connection pools, shared by every call made through it,
    concurrent ones included (under Trio or asyncio). ``async with`` keeps engine connections
    pooled across calls and closes them, and the fetches' connections, at its end. Outside it
    (or after it) each search opens and closes its own engine connections, and fetches keep
    theirs until :meth:`aclose`. A closed client still answers, and can be entered again.

    ``warm``: whether ``async with`` loads web_search's modules and makes the engine pools
    (else the first search does, within its deadline, or :meth:`warm_up`).
    """

    def __init__(
        self,
        config: Config | None = None,
        *,
        clock: Clock = time.monotonic,
        fetch_options: dict[str, Any] | None = None,
        observer: Observer = NOBODY,
        warm: bool = True,
    ):
        if config is not None and not isinstance(config, Config):
            raise TypeError(
                f"Client takes a Config, such as rypsok.load_config(path), not "
                f"{type(config).__name__}"
            )
        self.config = config or load_config()
        log_engines_not_offered(self.config)
        self._clock = clock
        self._observer = observer
        limits = self.config.limits
        self._per_minute = {
            "web_search": limits.web_search,
            "web_fetch": limits.web_fetch,
            "engine_status": limits.engine_status,
        }
        self._search_admission = OnTimeLimit(self.config.search.max_concurrent, SEARCH_LATE_S)
        self._concurrency = {"web_fetch": ConcurrencyLimit(self.config.fetch.max_concurrent)}
        self._token_shares = TokenShares(self.config.per_token_limits.max_concurrent)
        self.state: Store = open_store(self.config, clock, on_fallback=observer.store_fallback)
        """Where the state lives; ``state.shared``, ``state.fallbacks`` (with ``[state]``)
        and ``await state.store_answers()`` are for health checks and metrics."""
        self._metasearch: MetaSearch | None = None
        self.last_engine_states: list[EngineState] = []
        """engine_status as last read (the metrics scrape reads it after refreshing)."""
        self._fetch_options = fetch_options or {}
        self._warm = warm
        self._entered = False
        self._pools: EnginePools | None = None
        self._fetcher: Fetcher | None = None
        self._state_entered = False

    async def __aenter__(self) -> Client:
        await self.state.__aenter__()
        self._state_entered = True
        self._entered = True
        if self._warm:
            await self.warm_up(fetch=False)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
        if self._state_entered:
            self._state_entered = False
            await self.state.__aexit__(*exc_info)

    async def aclose(self) -> None:
        self._entered = False
        if self._fetcher is not None:
            await self._fetcher.aclose()
            self._fetcher = None
        if self._pools is not None:
            await self._pools.aclose()
            self._pools = None

    # Tool calls by name, as the MCP server makes them.

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        *,
        caller: str | None = None,
        progress: Progress = NO_PROGRESS,
    ) -> dict[str, Any]:
        """The tool's JSON response; raises ToolError for every refusal.

        ``caller`` names the bearer token of an HTTP call: its [limits.per_token] apply too.
        ``progress`` receives the call's progress when its caller asked for it.
        """
        tool = name if name in self.tool_names() else "unknown"
        started = anyio.current_time()
        outcome, reason = "cancelled", ""
        with telemetry.span(f"rypsok {tool}") as span:
            try:
                payload = await self._call_tool(name, arguments, caller, progress)
                outcome = payload.get("outcome", "ok")
                return payload
            except errors.ToolError as exc:
                outcome, reason = exc.kind, exc.metric_reason
                raise
            except Exception:
                outcome = "internal"
                raise
            finally:
                elapsed = anyio.current_time() - started
                self._observer.call(tool, outcome, reason, elapsed)
                span.set_attributes(
                    {"rypsok.tool": tool, "rypsok.outcome": outcome, "rypsok.reason": reason}
                )

    async def _call_tool(
        self, name: str, arguments: dict[str, Any], caller: str | None, progress: Progress
    ) -> dict[str, Any]:
        if name == "web_search":
            request = validate.search_request(arguments, self.config)
            search = await self._limited(
                "web_search", self._search, request, None, progress, caller=caller
            )
            return search.to_json()
        if name == "web_fetch":
            request = validate.fetch_request(arguments, self.config)
            fetch = await self._limited("web_fetch", self._fetch, request, progress, caller=caller)
            return fetch.to_json()
        if name == "engine_status" and self.config.status.enabled:
            validate.status_request(arguments)
            return (
                await self._limited("engine_status", self._engine_status, caller=caller)
            ).to_json()
        raise errors.unknown_tool(name, self.tool_names())

    def known_tool(self, name: Any) -> None:
        """Raises UnknownTool, counted as a call of tool "unknown", unless ``name`` is the
        name of one of the tools (the MCP binding checks it before the SDK reads a call)."""
        names = self.tool_names()
        if isinstance(name, str) and name in names:
            return
        exc = errors.unknown_tool(name if isinstance(name, str) else "", names)
        self._observer.call("unknown", exc.kind, exc.metric_reason, 0.0)
        raise exc

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
        """web_search with this client's configuration, limits and engine pools; the
        arguments, the answer and the errors are as for :func:`rypsok.search`. ``None``
        (the default) for an argument means the caller did not give it."""
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
        """web_fetch with this client's configuration; the arguments, the answer and the
        errors are as for :func:`rypsok.fetch`. ``None`` (the default) for an argument means
        the caller did not give it."""
        arguments = given(url=url, max_chars=max_chars, start_char=start_char)
        request = validate.fetch_request(arguments, self.config)
        return await self._limited("web_fetch", self._fetch, request)

    async def engine_status(self) -> StatusResponse:
        """engine_status of this client's engines, as for :func:`rypsok.engine_status`."""
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
        await take_windows(self.state, windows)

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
        """The token's share of the concurrency (busy), the concurrency limit (busy), then
        the per-minute windows (rate_limited), then the call.

        A call refused ``busy`` did no work, so it takes nothing from the per-minute windows
        (and costs the shared store no round trip); only calls let in count. web_search
        takes its windows in the round trip that plans its engines (``Store.plan``) once
        admitted, engine_status in the one that reads the states (``Store.views``); a
        search refused after admission but before that point takes them on its own first,
        so the order of refusals is the same either way.
        """
        windows = self._windows(tool, caller)
        bound = self._concurrency_bound(tool)
        shared = caller is not None and bound is not None
        if caller is not None:
            self._token_shares.note(caller)
        if shared and not self._token_shares.try_enter(caller, tool, bound):
            admitted(tool, False)
            raise errors.busy(tool)
        try:
            concurrency = self._concurrency.get(tool)
            if concurrency is not None and not admitted(tool, concurrency.try_enter()):
                raise errors.busy(tool)
            try:
                if tool in ("web_search", "engine_status"):
                    return await call(*args, windows=windows)
                await self._take(windows)
                return await call(*args)
            finally:
                if concurrency is not None:
                    concurrency.leave()
        finally:
            if shared:
                self._token_shares.leave(caller, tool)

    def _concurrency_bound(self, tool: str) -> int | None:
        """How many calls of ``tool`` the process lets in at once now (None: no bound)."""
        if tool == "web_search":
            return self._search_admission.capacity
        concurrency = self._concurrency.get(tool)
        return concurrency.limit if concurrency is not None else None

    # engine_status

    async def store_health(self) -> str:
        """What /healthz reports of the shared state store: none, ok or unavailable."""
        if not self.state.shared:
            return "none"
        return "ok" if await self.state.store_answers() else "unavailable"

    async def _engine_status(self, *, windows: Windows = ()) -> StatusResponse:
        from rypsok.model import StatusResponse

        return StatusResponse(await self.engine_states(windows))

    async def engine_states(self, windows: Windows = ()) -> list[EngineState]:
        """Each engine's state now, sorted by id; the per-minute ``windows`` are taken in
        the same round trip (none for metrics)."""
        from rypsok.model import EngineState

        engine_ids = sorted(e.id for e in self.config.engines.values() if e.offered)
        refused, views = await self.state.views(engine_ids, windows)
        if refused:
            raise errors.rate_limited(refused)
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
        progress: Progress = NO_PROGRESS,
        *,
        windows: Windows = (),
    ) -> SearchResponse:
        """Admission (``busy`` beyond what ends on time, see OnTimeLimit; a refused search
        takes nothing from its windows), then the search."""
        admission = self._search_admission.try_enter()
        if not admitted("web_search", admission is not None):
            raise errors.busy("web_search")
        now = anyio.current_time()
        metasearch = self._ready_policy()
        try:
            if metasearch is None:
                with anyio.move_on_after(self.config.search.deadline_ms / 1000):
                    metasearch = await self._search_policy()
            if metasearch is None:
                # web_search's modules did not load within the deadline (a first search on a
                # starved machine): the call ends at its deadline, as if no engine answered.
                await self._take(windows)
                raise errors.search_deadline()
        except BaseException:
            self._search_admission.leave(admission, None)
            raise
        clock = SEARCH_MODULES.get_sync().SearchClock(started=now, ready_at=now)
        try:
            response = await metasearch.run(
                request, timeline, clock, windows, self._engine_session, progress
            )
        except errors.ToolError:
            self._search_admission.leave(admission, clock.lag_s())
            raise
        except BaseException:
            self._search_admission.leave(admission, None)
            raise
        self._search_admission.leave(admission, clock.lag_s())
        return response

    def _ready_policy(self) -> MetaSearch | None:
        """The search policy when ``_search_policy`` has nothing left to make (it would
        return it without a checkpoint): a search then opens no cancel scope to wait for it."""
        if self._metasearch is None or (self._entered and self._pools is None):
            return None
        return self._metasearch

    async def _search_policy(self) -> MetaSearch:
        """The search policy, web_search's modules loaded first if no call has loaded them;
        with the engine pools when the client was entered."""
        if self._metasearch is None:
            module = await SEARCH_MODULES.get()
            if self._metasearch is None:
                from rypsok.net.egress import EgressPolicy

                policy = EgressPolicy.from_cidrs(self.config.fetch.allow_networks)
                self._metasearch = module.MetaSearch(
                    self.config, self.state, self._observer, policy
                )
        if self._entered and self._pools is None:
            self._pools = self._engine_pools([e.id for e in self.config.usable_engines()])
        return self._metasearch

    async def warm_up(self, *, fetch: bool = True) -> None:
        """Load now what a first call would otherwise load under its deadline: web_search's
        modules and engine pools (with their TLS context), and with ``fetch`` the Fetcher
        and a child process ready to read pages (it loads the extraction's modules)."""
        await self._search_policy()
        if self._pools is not None:
            await self._pools.warm()
        if fetch:
            (await self._web_fetcher()).prepare()

    def _engine_pools(self, engine_ids: list[str]) -> EnginePools:
        orchestrate = importlib.import_module("rypsok.metasearch.orchestrate")
        return orchestrate.EnginePools(engine_ids, self.config.search.max_concurrent)

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

    async def _fetch(
        self, request: validate.FetchRequest, progress: Progress = NO_PROGRESS
    ) -> FetchResponse:
        # timeout_ms, and so the call's bound (timeout_ms + 1 s), counts from here: a first
        # fetch loads web_fetch's modules within it, and every fetch's checks run within it.
        since = anyio.current_time()
        fetcher = self._fetcher
        if fetcher is None:
            with anyio.move_on_after(self.config.fetch.timeout_ms / 1000):
                fetcher = await self._web_fetcher()
            if fetcher is None:
                raise errors.fetch_deadline()
        return await fetcher.fetch(
            request.url,
            max_chars=request.max_chars,
            start_char=request.start_char,
            since=since,
            progress=progress,
        )

    async def _web_fetcher(self) -> Fetcher:
        """The Fetcher, web_fetch's modules (lxml, protego, the extraction) loaded first in a
        worker thread if nothing has loaded them."""
        if self._fetcher is None:
            module = await FETCH_MODULES.get()
            if self._fetcher is None:
                self._fetcher = module.Fetcher(
                    self.config, was_returned=self.state.was_returned, **self._fetch_options
                )
        return self._fetcher


def admitted(tool: str, entered: bool) -> bool:
    """Admission's verdict, as a span of its own in the call's trace (rypsok admits or
    refuses at once: nothing waits)."""
    if telemetry.tracing():
        with telemetry.span("admission") as span:
            span.set_attributes(
                {"rypsok.tool": tool, "rypsok.outcome": "admitted" if entered else "busy"}
            )
    return entered


def given(**arguments: Any) -> dict[str, Any]:
    """The tool arguments of a library call: only those its caller gave. In Python ``None``
    says "not given"; in a tool call a JSON null is a value, and a wrong one (validate.py)."""
    return {name: value for name, value in arguments.items() if value is not None}
