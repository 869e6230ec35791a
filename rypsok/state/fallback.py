"""The shared store, bounded, with this replica's memory behind it: the store failing never
fails a call.

Each operation gets ``[state] timeout_ms``. One that fails or runs out of time is
answered from memory instead, and the store is left alone for ``RETRY_AFTER_S``: every
operation meanwhile goes straight to memory, so a call pays the bound at most once. The
first operation after that tries the store again; when it answers, the replica is back
on the shared state. ``state_store_unavailable`` is logged at most once a minute.

A settle that holds only latencies (``may_wait``) is written after the search answered,
by one writer task that batches whatever has queued up into one operation (bounded like
any other). At most ``MAX_DEFERRED`` outcomes wait; past that a settle writes at once.
Outside ``async with`` there is no writer, and every settle writes at once; leaving
``async with`` lets the writer finish what is queued, each operation within its bound.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

import anyio

from rypsok.observability import telemetry
from rypsok.state import (
    EngineAsk,
    EngineGrant,
    EngineOutcome,
    EngineView,
    NotConnected,
    Store,
    Windows,
    may_wait,
)
from rypsok.state.limits import Clock

log = logging.getLogger("rypsok.state")

RETRY_AFTER_S = 1.0
"""How long a replica answers from memory after the store failed before trying it again."""
LOG_EVERY_S = 60.0
WARM_UP_S = 1.0
"""How long start-up (no call waits yet) waits for the first connection to the store."""
MAX_DEFERRED = 240
"""Engine outcomes (forty searches of six engines) that may wait for the writer."""


class FallbackStore:
    shared = True

    def __init__(
        self,
        store: Store,
        memory: Store,
        timeout_s: float,
        clock: Clock,
        on_fallback: Callable[[str], None] | None = None,
    ):
        self._store = store
        self._memory = memory
        self._timeout_s = timeout_s
        self._clock = clock
        self._down_until: float | None = None
        self._logged_at: float | None = None
        self._down_logged = False
        self._on_fallback = on_fallback
        self.fallbacks = 0
        """Operations answered from memory because the store failed or was being left
        alone: a counter for the operator's metrics."""
        self._deferred: list[EngineOutcome] = []
        self._wake = anyio.Event()
        self._drained = anyio.Event()
        self._closing = False
        self._writer: contextlib.AsyncExitStack | None = None

    async def __aenter__(self) -> FallbackStore:
        await self._store.__aenter__()
        try:
            # Wait for the first connection now, so that the first calls find it open.
            with anyio.fail_after(WARM_UP_S):
                await self._store.store_answers()
        except Exception as exc:
            self._failed(exc)
        # made in the event loop that enters, as is the writer
        self._wake, self._drained, self._closing = anyio.Event(), anyio.Event(), False
        self._drained.set()
        self._writer = contextlib.AsyncExitStack()
        group = await self._writer.enter_async_context(anyio.create_task_group())
        group.start_soon(self._write_deferred)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            self._closing = True
            self._wake.set()
            await writer.aclose()
        await self._store.__aexit__(*exc_info)

    async def _write_deferred(self) -> None:
        while True:
            await self._wake.wait()
            self._wake = anyio.Event()
            while self._deferred:
                batch, self._deferred = self._deferred, []
                try:
                    await self._run("settle", batch, ())
                except Exception:
                    # memory failing is a bug; it must not take the replica's task down
                    log.exception("state_write_failed")
            self._drained.set()
            if self._closing:
                return

    @property
    def using_memory(self) -> bool:
        """Whether operations go to memory now (the store failed less than a second ago)."""
        return self._down_until is not None and self._clock() < self._down_until

    async def _run(self, operation: str, *args: Any) -> Any:
        with telemetry.span(f"state {operation}") as span:
            span.set_attribute("rypsok.state.operation", operation)
            if not self.using_memory:
                try:
                    with anyio.fail_after(self._timeout_s):
                        answer = await getattr(self._store, operation)(*args)
                except Exception as exc:
                    self._failed(exc)
                else:
                    self._answered()
                    span.set_attribute("rypsok.state.answered_by", "store")
                    return answer
            span.set_attribute("rypsok.state.answered_by", "memory")
            self.fallbacks += 1
            if self._on_fallback is not None:
                self._on_fallback(operation)
            return await getattr(self._memory, operation)(*args)

    def _failed(self, exc: Exception) -> None:
        now = self._clock()
        self._down_until = now + RETRY_AFTER_S
        if self._logged_at is None or now - self._logged_at >= LOG_EVERY_S:
            self._logged_at = now
            self._down_logged = True
            log.warning(
                "state_store_unavailable",
                extra={"fields": {"error": _error_name(exc), "retry_after_s": RETRY_AFTER_S}},
            )

    def _answered(self) -> None:
        self._down_until = None
        if self._down_logged:
            self._down_logged = False
            log.info("state_store_available")

    async def acquire(self, windows: Windows) -> int:
        return await self._run("acquire", windows)

    async def plan(
        self, asks: Sequence[EngineAsk], windows: Windows = ()
    ) -> tuple[int, list[EngineGrant]]:
        return await self._run("plan", asks, windows)

    async def settle(self, outcomes: Sequence[EngineOutcome], returned_urls: Sequence[str]) -> None:
        if (
            self._writer is not None
            and not self._closing
            and not self.using_memory
            and len(self._deferred) + len(outcomes) <= MAX_DEFERRED
            and may_wait(outcomes, returned_urls)
        ):
            if outcomes:
                self._deferred.extend(outcomes)
                self._drained = anyio.Event()
                self._wake.set()
            return
        await self._run("settle", outcomes, returned_urls)

    async def flush(self) -> None:
        if self._writer is None:
            await anyio.lowlevel.checkpoint()
        else:
            await self._drained.wait()

    async def abandon_probes(self, leases: Sequence[tuple[str, str | None]]) -> None:
        await self._run("abandon_probes", leases)

    async def views(
        self, engines: Sequence[str], windows: Windows = ()
    ) -> tuple[int, dict[str, EngineView]]:
        return await self._run("views", engines, windows)

    async def was_returned(self, urls: Sequence[str]) -> bool:
        return await self._run("was_returned", urls)

    async def store_answers(self) -> bool:
        """A PING within the bound (for /healthz); it does not change where calls go."""
        try:
            with anyio.fail_after(self._timeout_s):
                return await self._store.store_answers()
        except Exception:
            return False

    def reach(self) -> dict[str, object]:
        return self._store.reach()


def _error_name(exc: Exception) -> str:
    """The error's class name, for the log (no address, no password); for no connection,
    the last attempt's."""
    if isinstance(exc, NotConnected):
        return f"NotConnected({exc.reason})"
    return exc.__class__.__name__
