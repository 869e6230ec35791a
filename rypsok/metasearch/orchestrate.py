"""Running engines under the deadline: the only place a search touches the network.

One task group per search, wrapped by a cancel scope at the deadline (the trio idiom).
Each engine runs as a child task that reports into a memory channel; the parent collects
until every engine reported, or the deadline cancels the collecting and whatever engine
is left. A search that asks one engine runs it in its own task under the same scope (the
group, its channel and their scheduling cost about 0.17 ms of CPU a search). Nothing
outlives the call.

Each engine has its own connection pool (:class:`EnginePools`, each a
:class:`~rypsok.metasearch.pool.EnginePool` of HTTP/1.1 connections), sized for every search
that admission lets in at once, so an engine request never queues behind another. A pool
is made when its engine is first asked, inside that search's deadline; the TLS context they
share is built once, in a worker thread (:class:`rypsok.lazy.Once`), so a slow build costs a
search no more than its deadline.

The engines build :class:`~rypsok.engines.request.EngineRequest` objects (an
``httpx.Request``'s arguments and its wire form); they are sent on h11 over a network stream
made as httpcore's backend makes it (:mod:`rypsok.metasearch.http11`), because an engine's
request needs none of what an ``httpx.AsyncClient`` adds around it (redirects, cookies, auth
flows, event hooks, response wrapping) nor what httpcore's connections add (locks, traces,
a timeout scope per read), and these cost most of a search's transport CPU
(docs/performance.md, "CPU per search"). :func:`_send` keeps what the client did for these
requests: the endpoint's userinfo as Basic auth, no timeout of its own, the body read raw and
inflated by :mod:`rypsok.net.body`, httpcore's exceptions.
"""

from __future__ import annotations

import contextlib
import logging
import ssl
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from types import ModuleType

import anyio
import httpcore
import httpx

from rypsok.config import EngineConfig
from rypsok.engines.base import (
    MAX_BODY_BYTES,
    EngineFailure,
    EngineSearch,
    RawResult,
    Usage,
    read_reading,
)
from rypsok.engines.request import EngineRequest, Wire
from rypsok.lazy import Once
from rypsok.metasearch.pool import EnginePool
from rypsok.net.body import ACCEPT_ENCODING, BodyTooLarge, BodyUndecodable, read_raw
from rypsok.observability import telemetry
from rypsok.progress import NO_PROGRESS, Progress

log = logging.getLogger("rypsok.metasearch")

KEPT_ALIVE_PER_ENGINE = 8
"""Idle connections an engine's pool keeps while it holds no more than this many in all
(beyond, each connection is closed as it goes idle), as httpcore's pool kept them: with 64
idle connections httpcore's walk over them cost milliseconds per event (its pool is no
longer used, :mod:`rypsok.metasearch.pool`; the bound stays)."""


KEEP_ALIVE_S = 5.0
"""How long an idle connection is kept (httpx's default, which the engines had before)."""

SEND_FAILURES = (
    httpcore.NetworkError,
    httpcore.ProtocolError,
    httpcore.UnsupportedProtocol,
    httpcore.ProxyError,
    httpcore.ConnectionNotAvailable,
)
"""Every exception httpcore raises while a request is sent or its body read, but timeouts
(none is set: the deadline cancels the request, so these do not come)."""


def _tls_context() -> ssl.SSLContext:
    return httpx.create_ssl_context()


TLS_CONTEXT: Once[ssl.SSLContext] = Once(_tls_context)
"""One TLS context for every engine pool of the process: building one (loading the CA
bundle) takes tens of milliseconds, which pools made for a single call would pay."""


class EnginePools:
    """One HTTP connection pool per engine, each with a connection for every search in flight.

    A search sends at most one request to each engine, so with ``connections`` equal to the
    number of searches admitted at once no request ever waits for a connection. That wait
    is what broke the deadline under load with one shared pool of 64: hundreds of requests
    queued behind connections held by slow engines, and httpcore walks its whole queue
    against every connection on each request, answer and cancellation, so the
    cancellations at the deadline took seconds of CPU. Separate pools also keep a hanging
    engine from holding connections another engine needs.

    Engines are operator-trusted endpoints: no proxy (the connections read no proxy
    variables), no redirects (none is followed), no timeout (the search deadline bounds every
    request), HTTP/1.1 only. Each engine sets its own User-Agent in ``build_request``.
    """

    def __init__(
        self,
        engine_ids: Iterable[str],
        connections: int,
        tls: Once[ssl.SSLContext] | None = None,
    ):
        self._engine_ids = frozenset(engine_ids)
        self._connections = connections
        self._tls = tls or TLS_CONTEXT
        self._pools: dict[str, EnginePool] = {}
        self._closed = False

    async def pool(self, engine_id: str) -> EnginePool:
        """The engine's pool, made on first use: one per engine however many searches ask
        at once (only the shared TLS context is awaited; the pool is made after it without a
        checkpoint, on the event loop's thread)."""
        found = self._pools.get(engine_id)
        if found is not None:
            return found
        if engine_id not in self._engine_ids:
            raise KeyError(engine_id)
        tls = await self._tls.get()
        if self._closed:
            raise RuntimeError("the engine pools are closed")
        return self._pools.setdefault(engine_id, self._make(tls))

    def _make(self, tls: ssl.SSLContext) -> EnginePool:
        return EnginePool(
            tls,
            max_connections=self._connections,
            max_idle=min(self._connections, KEPT_ALIVE_PER_ENGINE),
            keepalive_expiry=KEEP_ALIVE_S,
        )

    async def warm(self) -> None:
        """Make every engine's pool now: what a first search would otherwise wait for."""
        for engine_id in sorted(self._engine_ids):
            await self.pool(engine_id)

    async def aclose(self) -> None:
        self._closed = True
        pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            await pool.aclose()


async def _send(pool: EnginePool, wire: Wire) -> tuple[int, httpx.Headers, bytes]:
    """Send an engine's request; its status, headers and body, read raw and inflated under
    ``MAX_BODY_BYTES``. Raises what httpcore raises, BodyTooLarge or BodyUndecodable."""
    answer = await pool.send(wire)
    try:
        headers = httpx.Headers(answer.headers)
        body = await read_raw(answer.body, headers.get("content-encoding", ""), MAX_BODY_BYTES)
    finally:
        await answer.body.aclose()
    return answer.status, headers, body


@dataclass
class EngineJob:
    config: EngineConfig
    module: ModuleType
    search: EngineSearch
    cache_key: Hashable = None
    """Where the answer is cached, when the result cache is on."""


@dataclass
class EngineRun:
    """What happened to one engine in one search; the probe's timeline is a list of these."""

    engine: str
    outcome: str
    """answered, failed, skipped or cached"""
    start_ms: float | None = None
    end_ms: float | None = None
    results: list[RawResult] = field(default_factory=list)
    reason: str | None = None
    retry_after_s: float | None = None
    latency_s: float | None = None
    """Time from sending the request to the last byte, when a response came."""
    spent: bool = False
    """The provider said the plan is spent (``EngineFailure.spent``)."""
    usage: Usage | None = None
    """What the answer said the call cost or what is left, for a paid engine that says."""

    def to_json(self) -> dict:
        report = {
            "engine": self.engine,
            "outcome": self.outcome,
            "start_ms": None if self.start_ms is None else round(self.start_ms, 1),
            "end_ms": None if self.end_ms is None else round(self.end_ms, 1),
            "results": len(self.results),
            "reason": self.reason,
        }
        if self.usage is not None:
            usage = self.usage
            report["usage"] = {"unit": usage.unit, "cost": usage.cost, "balance": usage.balance}
        return report


async def _run_engine(
    pools: EnginePools,
    job: EngineJob,
    started: float,
    send: anyio.abc.ObjectSendStream[EngineRun],
) -> None:
    """One engine as a child task of the search: its run goes into the channel."""
    async with send:
        run = await _engine_run(pools, job, started)
        with contextlib.suppress(anyio.BrokenResourceError):
            await send.send(run)


async def _engine_run(pools: EnginePools, job: EngineJob, started: float) -> EngineRun:
    """Build the engine's request, send it and read the answer. Cancelled at the deadline,
    the run is never returned: that is its timeout."""
    engine = job.config.id
    run = EngineRun(engine, "failed", start_ms=(anyio.current_time() - started) * 1000)
    with telemetry.span(f"engine {engine}") as span:
        try:
            try:
                request = job.module.build_request(
                    job.config.endpoint, job.search, job.config.credential
                )
            except Exception:
                log.exception("engine_build_failed", extra={"fields": {"engine": engine}})
                run.reason = "parse_failure"
            else:
                await _exchange(pools, job, request, run)
        finally:
            run.end_ms = (anyio.current_time() - started) * 1000
            if span.is_recording():
                failure = (run.reason or "timeout") if run.outcome == "failed" else ""
                span.set_attributes(
                    {
                        "rypsok.engine": engine,
                        "rypsok.outcome": run.outcome,
                        "rypsok.reason": failure,
                        "rypsok.ms": round(run.end_ms - (run.start_ms or 0.0), 1),
                    }
                )
    return run


async def _exchange(
    pools: EnginePools, job: EngineJob, request: EngineRequest, run: EngineRun
) -> None:
    # The body is read raw and inflated by rypsok.net.body under MAX_BODY_BYTES, so offer
    # exactly the codings it bounds.
    wire = request.wire(ACCEPT_ENCODING)
    try:
        pool = await pools.pool(run.engine)
    except (ssl.SSLError, OSError):
        log.exception("engine_pool_failed", extra={"fields": {"engine": run.engine}})
        run.reason = "request_failure"
        return
    sent = anyio.current_time()
    try:
        status, headers, body = await _send(pool, wire)
    except httpcore.TimeoutException:
        run.reason = "timeout"
        return
    except BodyTooLarge:
        # The engine answered, but with nothing its API sends: like a body not in its format.
        run.reason = "parse_failure"
        return
    except (*SEND_FAILURES, BodyUndecodable, OSError) as exc:
        log.info(
            "engine_request_failed",
            extra={"fields": {"engine": run.engine, "error": exc.__class__.__name__}},
        )
        run.reason = "request_failure"
        return
    run.latency_s = anyio.current_time() - sent
    # An answer that came in as the deadline passed is not worth parsing: its search is
    # cancelled, and the parse would only delay the other searches ending now.
    await anyio.lowlevel.checkpoint_if_cancelled()
    reading = read_reading(job.module, status, headers, body, job.search)
    parsed, run.usage = reading.answer, reading.usage
    if run.usage is not None:
        log.debug(
            "engine_usage",
            extra={
                "fields": {
                    "engine": run.engine,
                    "unit": run.usage.unit,
                    "cost": run.usage.cost,
                    "balance": run.usage.balance,
                }
            },
        )
    if isinstance(parsed, EngineFailure):
        run.reason = parsed.reason
        run.retry_after_s = parsed.retry_after_s
        run.spent = parsed.spent
    else:
        run.outcome = "answered"
        run.results = list(parsed)


async def _run_in_group(
    pools: EnginePools,
    jobs: list[EngineJob],
    started: float,
    runs: dict[str, EngineRun],
    progress: Progress,
) -> None:
    send, receive = anyio.create_memory_object_stream[EngineRun](len(jobs))
    async with anyio.create_task_group() as group:
        async with send:
            for job in jobs:
                group.start_soon(_run_engine, pools, job, started, send.clone())
        async with receive:
            async for run in receive:
                runs[run.engine] = run
                await progress.report(len(runs), len(jobs), progress_message(run))


def progress_message(run: EngineRun) -> str:
    """What a progress notification says of one engine that finished."""
    if run.outcome == "answered":
        return f"{run.engine}: answered with {len(run.results)} results"
    return f"{run.engine}: failed ({run.reason})"


async def run_engines(
    pools: EnginePools,
    jobs: list[EngineJob],
    started: float,
    deadline_at: float,
    progress: Progress = NO_PROGRESS,
) -> dict[str, EngineRun]:
    """Run every job; by ``deadline_at`` (anyio time) each has a run, timeouts included.
    ``progress`` hears of each engine as it finishes (engines finished of engines asked)."""
    runs: dict[str, EngineRun] = {}
    spawned_ms = (anyio.current_time() - started) * 1000
    # The deadline scope wraps the task group: at the deadline every engine task is cancelled
    # with the collecting loop; before it, the loop ends once every task has reported and
    # closed its end of the channel, so the group has nothing left to wait for. A search
    # that asks one engine runs it in its own task: no group, no channel.
    with anyio.CancelScope(deadline=deadline_at):
        if len(jobs) == 1:
            run = await _engine_run(pools, jobs[0], started)
            runs[run.engine] = run
            await progress.report(1, 1, progress_message(run))
        else:
            await _run_in_group(pools, jobs, started, runs, progress)
    end_ms = (anyio.current_time() - started) * 1000
    for job in jobs:
        if job.config.id not in runs:
            runs[job.config.id] = EngineRun(
                job.config.id, "failed", start_ms=spawned_ms, end_ms=end_ms, reason="timeout"
            )
    return runs
