"""Per-minute windows and concurrency limits, with the clock passed in."""

from __future__ import annotations

import collections
import datetime as dt
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class MonthlyCap:
    """An engine's ``max_calls_per_month`` (requests) or ``max_cost_per_month`` (the
    provider's unit) for the calendar month (UTC) a search falls in."""

    limit: float
    month: str
    """``YYYY-MM``: the counter's name; a new month starts a new count."""
    ends_in_ms: int
    """Milliseconds until the month ends: when a spent cap lets the engine be asked again."""


def monthly_cap(limit: float | None, now: dt.datetime) -> MonthlyCap | None:
    """The cap for the month of ``now`` (a UTC time), or None when there is no cap."""
    if limit is None:
        return None
    now = now.astimezone(dt.UTC)
    first = dt.datetime(now.year, now.month, 1, tzinfo=dt.UTC)
    following = (first + dt.timedelta(days=32)).replace(day=1)
    ends_in_ms = max(1, math.ceil((following - now).total_seconds() * 1000))
    return MonthlyCap(limit, f"{now.year:04d}-{now.month:02d}", ends_in_ms)


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


class TokenShares:
    """Calls in flight for each token and tool: a token may hold at most its share of the
    tool's bound, so that one token's slow calls cannot take every slot and make every
    other token's calls busy. The share is ``per_token`` when set. Else it is the whole
    bound while no other token has called in the last ``SHARE_WINDOW_S`` (a deployment
    with one token keeps every slot), and half of it, rounded up, once another has (a fair
    share between two; with a bound of 1 it is the whole of it). A call refused counts as
    a call: the token it comes from has the next free slot beside the one holding many."""

    def __init__(self, per_token: int | None, clock: Clock = time.monotonic):
        self.per_token = per_token
        self._clock = clock
        self._in_flight: collections.Counter[tuple[str, str]] = collections.Counter()
        self._last_seen: dict[str, float] = {}

    def share(self, bound: int, token: str | None = None) -> int:
        if self.per_token is not None:
            return self.per_token
        if token is not None and not self._others_active(token):
            return bound
        return max(1, math.ceil(bound / 2))

    def try_enter(self, token: str, tool: str, bound: int) -> bool:
        self.note(token)
        key = (token, tool)
        if self._in_flight[key] >= self.share(bound, token):
            return False
        self._in_flight[key] += 1
        return True

    def leave(self, token: str, tool: str) -> None:
        key = (token, tool)
        self._in_flight[key] -= 1
        if self._in_flight[key] <= 0:
            del self._in_flight[key]

    def note(self, token: str) -> None:
        """A call of any tool from ``token`` came now."""
        now = self._clock()
        self._last_seen[token] = now
        if len(self._last_seen) > _SHARE_TOKENS_KEPT:
            horizon = now - SHARE_WINDOW_S
            self._last_seen = {t: at for t, at in self._last_seen.items() if at >= horizon}

    def _others_active(self, token: str) -> bool:
        horizon = self._clock() - SHARE_WINDOW_S
        recent = any(at >= horizon for other, at in self._last_seen.items() if other != token)
        return recent or any(other != token for other, _ in self._in_flight)


SHARE_WINDOW_S = 60.0
"""How recently another token must have called for a token's share to be half the bound."""
_SHARE_TOKENS_KEPT = 1024


@dataclass(frozen=True)
class Admission:
    """What one call was let in under; handed back to :meth:`OnTimeLimit.leave`."""

    cut: int
    """How many times the window had been cut when the call came in."""
    crowded: bool
    """Other calls were in flight."""
    window_used: bool
    """The call filled at least half the window."""


class OnTimeLimit:
    """Calls in flight: at most ``limit``, and fewer while calls end late.

    The deadline is a contract, so a call the process cannot finish in time is refused at
    the door rather than answered late. How many calls finish in time depends on the
    machine and its load, so the window of calls let in at once is learned from how late
    calls end (``lag``: seconds past the moment the call could have ended, its deadline
    or its last engine's answer, whichever came first):

    - it starts at ``min(limit, start)``;
    - a call that ends within ``late_s`` and filled at least half the window widens it
      by one, so a round of such calls doubles it; after the first cut, by one per round;
    - a call later than ``late_s`` that shared the process with other calls halves it,
      once per round: calls let in before the last cut do not cut again. A call late on
      its own says nothing about concurrency and changes nothing.

    Lag grows with the calls that end together, so doubling a window whose calls ended
    within ``late_s`` keeps them within about twice that.
    """

    def __init__(self, limit: int, late_s: float, start: int = 8):
        self.limit = limit
        self.late_s = late_s
        self.window = float(min(limit, start))
        self.in_flight = 0
        self._cuts = 0

    @property
    def capacity(self) -> int:
        """How many calls the window lets in at once now."""
        return max(1, int(self.window))

    def try_enter(self) -> Admission | None:
        if self.in_flight >= self.capacity:
            return None
        self.in_flight += 1
        return Admission(
            cut=self._cuts,
            crowded=self.in_flight > 1,
            window_used=self.in_flight * 2 >= self.window,
        )

    def leave(self, admission: Admission, lag_s: float | None) -> None:
        """``lag_s`` is None when the call did not run to its end (it was cancelled)."""
        self.in_flight -= 1
        if lag_s is None:
            return
        if lag_s > self.late_s:
            if admission.crowded and admission.cut == self._cuts:
                self.window = max(1.0, self.window / 2)
                self._cuts += 1
        elif admission.window_used:
            step = 1.0 if self._cuts == 0 else 1.0 / self.window
            self.window = min(float(self.limit), self.window + step)
