"""Progress of one tool call, for a caller that asked for it (MCP's ``progressToken``).

The transport gives a :data:`Send` (the SDK's ``report_progress``, which sends
``notifications/progress`` under the caller's token); the tools report through a
:class:`Progress`. Reporting is best effort and never holds a call up: a notification that
cannot be handed over within ``SEND_S`` (a client that stops reading) is dropped, a
transport that fails is not asked again, and the deadline that bounds the call bounds the
reporting too. Messages name engines, stages, statuses and byte counts: never a query, a
URL or page text.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import anyio

log = logging.getLogger("rypsok.progress")

Send = Callable[[float, float | None, str | None], Awaitable[None]]
"""``(progress, total, message)``: one ``notifications/progress`` to the caller."""

SEND_S = 0.05
"""How long one notification may take to be handed over before it is dropped."""

BODY_EVERY_S = 0.25
"""web_fetch reports the body's bytes at most this often while they arrive."""


class Progress:
    """The reports of one call: ``progress`` only ever increases, as MCP requires."""

    def __init__(self, send: Send | None = None):
        self._send = send
        self.progress: float = 0
        self._body_reported_at: float | None = None

    @property
    def wanted(self) -> bool:
        return self._send is not None

    async def report(self, progress: float, total: float | None, message: str) -> None:
        """Send ``progress`` (of ``total``, when known) unless it would not increase."""
        if self._send is None or progress <= self.progress:
            return
        self.progress = progress = _whole(progress)
        with anyio.move_on_after(SEND_S):
            try:
                await self._send(progress, None if total is None else _whole(total), message)
            except Exception as exc:  # the client went away: the call goes on without it
                log.info("progress_failed", extra={"fields": {"error": exc.__class__.__name__}})
                self._send = None

    async def step(self, message: str) -> None:
        """One more stage done, of a number not known beforehand (web_fetch)."""
        await self.report(self.progress + 1, None, message)

    async def body_bytes(self, received: int, *, done: bool = False) -> None:
        """The page's bytes so far: a step when the body is complete, or when ``BODY_EVERY_S``
        has passed since the last such report."""
        if self._send is None:
            return
        now = anyio.current_time()
        if self._body_reported_at is None:
            self._body_reported_at = now
        if not done and now - self._body_reported_at < BODY_EVERY_S:
            return
        self._body_reported_at = now
        state = "received in full" if done else "received so far"
        await self.step(f"page body: {received:,} bytes {state}")


def _whole(number: float) -> float:
    """A whole number as an int: JSON ``1``, not ``1.0``, whatever the transport (the SDK
    passes the value through as it is given)."""
    return int(number) if isinstance(number, float) and number.is_integer() else number


NO_PROGRESS = Progress()
"""For a call whose caller asked for none: every report returns at once."""
