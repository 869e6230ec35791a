"""Per-engine health: the circuit breaker's transitions and the latency window, pure.

The one home of these rules, below both the state (``state.memory`` keeps one per engine;
with ``[state] url`` the same rules run in the shared store, ``rypsok/state/lua.py``, where
the half-open probe is a lease one replica wins) and the search that reads the decisions.

closed: in use. After ``failures`` consecutive failures the engine is open for
the cooldown. It stays open until the first call after the cooldown, which
carries the probe: half_open while that one request is in flight (other calls
still skip it). Success closes it; failure reopens it with the cooldown
doubled, up to ``max_cooldown_s``. A rate limit with Retry-After opens it for
that long.
"""

from __future__ import annotations

import collections
from typing import Literal

from rypsok.config import BreakerConfig
from rypsok.state.limits import Clock

BreakerDecision = Literal["go", "probe", "cooldown"]
LATENCY_WINDOW = 20


class EngineHealth:
    def __init__(self, breaker: BreakerConfig, clock: Clock):
        self._config = breaker
        self._clock = clock
        self._consecutive_failures = 0
        self._open_until: float | None = None
        self._cooldown_s = breaker.cooldown_s
        self._probe_in_flight = False
        self._latencies: collections.deque[float] = collections.deque(maxlen=LATENCY_WINDOW)

    @property
    def state(self) -> Literal["closed", "open", "half_open"]:
        if self._probe_in_flight:
            return "half_open"
        if self._open_until is not None:
            return "open"
        return "closed"

    def admit(self) -> BreakerDecision:
        """Whether a call may use the engine now; "probe" makes this call the probe."""
        if self._probe_in_flight:
            return "cooldown"
        if self._open_until is None:
            return "go"
        if self._clock() < self._open_until:
            return "cooldown"
        self._probe_in_flight = True
        return "probe"

    def retry_after_s(self) -> float:
        if self._open_until is None:
            return 0.0
        return max(0.0, self._open_until - self._clock())

    def record_latency(self, seconds: float) -> None:
        self._latencies.append(seconds)

    def latency_ms(self) -> int | None:
        if not self._latencies:
            return None
        import statistics  # at the first latency read: the store is made before tools/list

        return round(statistics.median(self._latencies) * 1000)

    def abandon_probe(self) -> None:
        """The call carrying the probe ended without an answer: the next call probes again."""
        self._probe_in_flight = False

    def record_success(self) -> None:
        self._probe_in_flight = False
        self._consecutive_failures = 0
        self._open_until = None
        self._cooldown_s = self._config.cooldown_s

    def record_failure(self, retry_after_s: float | None = None) -> None:
        was_probe = self._probe_in_flight
        self._probe_in_flight = False
        self._consecutive_failures += 1
        if retry_after_s is not None and retry_after_s > 0:
            self._open(min(retry_after_s, self._config.max_cooldown_s))
        elif was_probe:
            self._cooldown_s = min(self._cooldown_s * 2, self._config.max_cooldown_s)
            self._open(self._cooldown_s)
        elif self._consecutive_failures >= self._config.failures:
            self._open(self._cooldown_s)

    def _open(self, seconds: float) -> None:
        self._open_until = self._clock() + seconds
