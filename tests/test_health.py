"""The circuit breaker and latency window, driven by a fake clock."""

from __future__ import annotations

from rypsok.config import BreakerConfig
from rypsok.state.breaker import EngineHealth


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def breaker(failures=3, cooldown_s=30.0, max_cooldown_s=100.0):
    clock = FakeClock()
    return EngineHealth(BreakerConfig(failures, cooldown_s, max_cooldown_s), clock), clock


def test_opens_after_consecutive_failures_only():
    health, _ = breaker()
    for _ in range(2):
        assert health.admit() == "go"
        health.record_failure()
    health.record_success()
    for _ in range(2):
        health.record_failure()
    assert health.state == "closed"
    health.record_failure()
    assert health.state == "open"
    assert health.admit() == "cooldown"


def test_probe_after_cooldown_is_single_and_success_closes():
    health, clock = breaker()
    for _ in range(3):
        health.record_failure()
    clock.now += 29.9
    assert health.admit() == "cooldown"
    clock.now += 0.2
    assert health.state == "open"
    assert health.admit() == "probe"
    assert health.state == "half_open"
    assert health.admit() == "cooldown"
    health.record_success()
    assert health.state == "closed"
    assert health.admit() == "go"


def test_failed_probe_doubles_cooldown_up_to_the_maximum():
    health, clock = breaker(cooldown_s=30, max_cooldown_s=100)
    for _ in range(3):
        health.record_failure()
    expected = [60, 100, 100]
    for cooldown in expected:
        clock.now += 1000
        assert health.admit() == "probe"
        health.record_failure()
        assert health.state == "open"
        assert round(health.retry_after_s()) == cooldown


def test_retry_after_opens_for_that_long():
    health, clock = breaker()
    health.record_failure(retry_after_s=12)
    assert health.state == "open"
    clock.now += 11
    assert health.admit() == "cooldown"
    clock.now += 2
    assert health.admit() == "probe"


def test_latency_is_the_median_of_the_last_20():
    health, _ = breaker()
    assert health.latency_ms() is None
    for ms in [1000] * 10 + [10] * 11 + [20] * 9:
        health.record_latency(ms / 1000)
    assert health.latency_ms() == 10
