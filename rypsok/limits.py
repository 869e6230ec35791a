"""Per-minute windows and concurrency limits, with the clock passed in."""

from __future__ import annotations

import collections
import math
from collections.abc import Callable

Clock = Callable[[], float]


class MinuteWindow:
    """At most ``limit`` events in any 60-second window (a sliding log, bounded by ``limit``)."""

    WINDOW_S = 60.0

    def __init__(self, limit: int, clock: Clock):
        self.limit = limit
        self._clock = clock
        self._events: collections.deque[float] = collections.deque()

    def _expire(self, now: float) -> None:
        while self._events and now - self._events[0] >= self.WINDOW_S:
            self._events.popleft()

    def has_room(self) -> bool:
        self._expire(self._clock())
        return len(self._events) < self.limit

    def try_acquire(self) -> bool:
        now = self._clock()
        self._expire(now)
        if len(self._events) >= self.limit:
            return False
        self._events.append(now)
        return True

    def retry_after_ms(self) -> int:
        """Milliseconds until the next event would be admitted (0 when one would be now)."""
        now = self._clock()
        self._expire(now)
        if len(self._events) < self.limit:
            return 0
        return max(1, math.ceil((self._events[0] + self.WINDOW_S - now) * 1000))


class MinuteWindows:
    """Named :class:`MinuteWindow` s made on first use: a tool's, a token's, an engine's budget.

    In-memory state; with ``[state] url`` the same names key the shared windows
    (``rypsok.state``). A window keeps the limit it was last asked with.
    """

    def __init__(self, clock: Clock):
        self._clock = clock
        self._windows: dict[str, MinuteWindow] = {}

    def window(self, name: str, limit: int) -> MinuteWindow:
        window = self._windows.get(name)
        if window is None:
            window = self._windows[name] = MinuteWindow(limit, self._clock)
        window.limit = limit
        return window

    def acquire(self, name: str, limit: int) -> int:
        """0 when an event was taken from ``name``, else the milliseconds until one could be."""
        window = self.window(name, limit)
        return 0 if window.try_acquire() else window.retry_after_ms()


class ConcurrencyLimit:
    """A counter of calls in flight; beyond ``limit`` a call is refused rather than queued."""

    def __init__(self, limit: int):
        self.limit = limit
        self.in_flight = 0

    def try_enter(self) -> bool:
        if self.in_flight >= self.limit:
            return False
        self.in_flight += 1
        return True

    def leave(self) -> None:
        self.in_flight -= 1
