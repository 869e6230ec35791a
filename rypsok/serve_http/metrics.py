"""Prometheus metrics for the HTTP server: the Client's Observer, and the breaker read at scrape.

Labels come only from fixed vocabularies (tool names, outcomes, error kinds and reasons,
engine ids, engine failure reasons, breaker states): never a query, a URL or a token.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from rypsok.model import EngineState
from rypsok.observability.observer import Observer

BREAKER_STATES = ("closed", "open", "half_open", "disabled")
CALL_BUCKETS_S = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0)
ENGINE_BUCKETS_S = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class BreakerCollector(Collector):
    """Each engine's breaker state, read from the running Client when Prometheus scrapes."""

    def __init__(self, states: Callable[[], Iterable[EngineState]]):
        self._states = states

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "rypsok_engine_breaker_state",
            "1 for the engine's current breaker state (closed, open, half_open, disabled)",
            labels=["engine", "state"],
        )
        for engine in self._states():
            for state in BREAKER_STATES:
                family.add_metric([engine.id, state], 1.0 if engine.state == state else 0.0)
        yield family


class Metrics(Observer):
    """One registry per server process (not the global one), so nothing leaks between apps."""

    def __init__(self) -> None:
        disable_created_metrics()  # the *_created series only double the scrape
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        registry = self.registry
        self.calls = Counter(
            "rypsok_calls",
            "Tool calls by tool and outcome (ok, partial, empty, or the error kind) and error "
            "reason (engines_resting: every engine resting, not the call limit)",
            ["tool", "outcome", "reason"],
            registry=registry,
        )
        self.call_seconds = Histogram(
            "rypsok_call_duration_seconds",
            "Time from a tool call's arrival to its answer",
            ["tool"],
            buckets=CALL_BUCKETS_S,
            registry=registry,
        )
        self.engine_requests = Counter(
            "rypsok_engine_requests",
            "Requests sent to engines, by result (answered, or the failure reason)",
            ["engine", "result"],
            registry=registry,
        )
        self.engine_seconds = Histogram(
            "rypsok_engine_request_duration_seconds",
            "Time from sending a request to an engine to its last byte",
            ["engine"],
            buckets=ENGINE_BUCKETS_S,
            registry=registry,
        )
        self.engine_cost = Counter(
            "rypsok_engine_cost",
            "What the paid engines' answers said their calls cost, by engine and the "
            "provider's unit (usd, credits)",
            ["engine", "unit"],
            registry=registry,
        )
        self.engine_balance = Gauge(
            "rypsok_engine_balance",
            "The account balance a paid engine's last answer reported, by engine and unit",
            ["engine", "unit"],
            registry=registry,
        )
        self.cache_lookups = Counter(
            "rypsok_cache_lookups",
            "Result cache lookups by engine and result (hit, miss)",
            ["engine", "result"],
            registry=registry,
        )
        self.store_fallbacks = Counter(
            "rypsok_store_fallbacks",
            "Operations answered from in-memory state because the shared store did not answer",
            ["operation"],
            registry=registry,
        )
        self.unauthorized = Counter(
            "rypsok_http_unauthorized",
            "HTTP requests refused for their bearer token: missing, not valid (401) or sent twice (400)",
            registry=registry,
        )

    def watch(self, states: Callable[[], Iterable[EngineState]]) -> None:
        self.registry.register(BreakerCollector(states))

    def exposition(self) -> tuple[bytes, str]:
        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    # Observer

    def call(self, tool: str, outcome: str, reason: str, duration_s: float) -> None:
        self.calls.labels(tool, outcome, reason).inc()
        self.call_seconds.labels(tool).observe(duration_s)

    def engine_request(self, engine: str, result: str, latency_s: float | None) -> None:
        self.engine_requests.labels(engine, result).inc()
        if latency_s is not None:
            self.engine_seconds.labels(engine).observe(latency_s)

    def engine_usage(
        self, engine: str, unit: str, cost: float | None, balance: float | None
    ) -> None:
        if cost is not None:
            self.engine_cost.labels(engine, unit).inc(cost)
        if balance is not None:
            self.engine_balance.labels(engine, unit).set(balance)

    def cache_lookup(self, engine: str, hit: bool) -> None:
        self.cache_lookups.labels(engine, "hit" if hit else "miss").inc()

    def store_fallback(self, operation: str) -> None:
        self.store_fallbacks.labels(operation).inc()
