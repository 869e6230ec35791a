"""The state a Client keeps between calls, behind one interface with two homes.

In memory (:class:`~rypsok.state.memory.MemoryStore`, the default: each process keeps its
own, reset on restart) or in Redis or Valkey (:class:`~rypsok.state.redis.RedisStore`,
when ``[state] url`` is set: one server, a Sentinel-managed primary or a Cluster, which
every replica shares), the latter always wrapped in
:class:`~rypsok.state.fallback.FallbackStore` so that the store failing never fails a
call. What lives here: the per-minute windows (tool limits, per-token limits, engine
budgets), each engine's breaker and latency window, the result cache, and the URLs
web_search returned (strict mode). Concurrency limits are not here: they guard one
process's resources.

The operations are batched by what a call needs (one ``plan`` before the engines, with
the call's per-minute windows, and one ``settle`` after), so a search costs the shared
store two round trips, and only one before its answer when the settle holds nothing but
latencies (:func:`may_wait`); engine_status costs one (``views``, with its windows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from rypsok import errors
from rypsok.config import Config
from rypsok.engines.base import RawResult
from rypsok.state.limits import Clock, MonthlyCap
from rypsok.state.result_cache import CacheKey

RETURNED_URLS_KEPT = 10_000
"""How many URLs web_search returned are kept for strict mode (the most recent)."""

Windows = Sequence[tuple[str, int]]
"""Per-minute windows a call takes, in order: (name, limit a minute)."""

Decision = Literal["cached", "go", "probe", "rate_limited", "cooldown"]
BreakerState = Literal["closed", "open", "half_open"]


def tool_window(tool: str) -> str:
    """The per-minute window of one tool, for the whole process (or every replica)."""
    return f"tool:{tool}"


def token_window(token_name: str, tool: str) -> str:
    """The per-minute window of one tool for one token, by the token's name."""
    return f"token:{token_name}:{tool}"


def engine_window(engine: str) -> str:
    """An engine's own budget (``rate_per_minute``)."""
    return f"engine:{engine}"


def month_counter(engine: str, month: str) -> str:
    """The requests sent to an engine in one calendar month (``max_calls_per_month``), or
    what they cost (``max_cost_per_month``, under its own key prefix)."""
    return f"{engine}:{month}"


@dataclass(frozen=True)
class EngineAsk:
    """An engine a search would like to use, after the static checks passed."""

    engine: str
    rate_per_minute: int
    cache_key: CacheKey | None
    """None when the result cache is off."""
    monthly: MonthlyCap | None = None
    """The engine's ``max_calls_per_month`` for this month; None when it has none."""
    monthly_cost: MonthlyCap | None = None
    """The engine's ``max_cost_per_month`` for this month; None when it has none."""


@dataclass(frozen=True)
class EngineGrant:
    """What the state said about one :class:`EngineAsk`.

    cached: ``results`` came from the cache (nothing spent). go or probe: the budget was
    spent and the engine may be asked (probe: this call carries the breaker's probe,
    ``lease`` names it). rate_limited or cooldown: skipped; ``retry_after_ms`` is when the
    engine could be asked again (the later of its budget and its cooldown).
    """

    engine: str
    decision: Decision
    results: tuple[RawResult, ...] = ()
    retry_after_ms: int = 0
    lease: str | None = None
    clean: bool = False
    """go or probe: the engine's breaker held nothing (no failure counted, not open), so
    an answer leaves it as it is. False when not known (in memory)."""


@dataclass(frozen=True)
class EngineOutcome:
    """What happened to one engine that was asked."""

    engine: str
    answered: bool
    latency_s: float | None = None
    retry_after_s: float | None = None
    """A rate limit's Retry-After: opens the breaker for that long."""
    lease: str | None = None
    """The probe lease this call held, if it carried the probe."""
    cache_key: CacheKey | None = None
    """Where to cache ``results`` (answered and the cache on), else None."""
    results: tuple[RawResult, ...] = ()
    clean: bool = False
    """The grant said the breaker held nothing (:attr:`EngineGrant.clean`)."""
    rest_s: float | None = None
    """The provider said the plan is spent: the engine rests this long (every replica skips
    it with ``rate_limited``), unless it already rests longer."""
    cost: float = 0.0
    """What the call cost, in the provider's unit, counted against ``monthly_cost``."""
    monthly_cost: MonthlyCap | None = None
    """The engine's ``max_cost_per_month`` for this month, when ``cost`` counts against one."""


def may_wait(outcomes: Sequence[EngineOutcome], returned_urls: Sequence[str]) -> bool:
    """Whether what a search settles may reach the store after its answer: only latencies,
    of engines that answered with a clean breaker and no probe, nothing to cache and no URL
    for strict mode. Everything else (a failure, a breaker to close, a probe's lease, a cache
    entry, a returned URL) is in the store before the answer, so that a call on another
    replica that follows the answer sees it."""
    return not returned_urls and all(
        o.answered
        and o.clean
        and o.lease is None
        and o.cache_key is None
        and o.monthly_cost is None
        for o in outcomes
    )


class NotConnected(ConnectionError):
    """The shared store has no connection open now (one is being opened in the background):
    raised at once, so that no operation waits for a handshake."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
        """The class name of the last attempt's error (TimeoutError, AuthenticationError...)."""


@dataclass(frozen=True)
class EngineView:
    state: BreakerState
    latency_ms: int | None


class Store(Protocol):
    """Every operation of the state; ``async with`` opens and closes its connections."""

    shared: bool
    """True when replicas share it (Redis or Valkey), False in memory."""
    fallbacks: int
    """Operations answered from memory because the shared store failed (0 in memory)."""

    async def __aenter__(self) -> Store: ...

    async def __aexit__(self, *exc_info: object) -> None: ...

    async def acquire(self, windows: Windows) -> int:
        """One event from each window in order; the first that is full refuses (those
        before it stay taken). 0 when all were taken, else ms until the full one has room."""
        ...

    async def plan(
        self, asks: Sequence[EngineAsk], windows: Windows = ()
    ) -> tuple[int, list[EngineGrant]]:
        """``acquire(windows)``, then, unless it refused, for each ask in order: the cache,
        then the engine's rest (a spent plan), its budget and its monthly caps, then its
        breaker; a request granted counts against the budget and the calls cap. One step, so a search's windows and
        engines cost one round trip. Returns (the refusal's ms or 0, the grants)."""
        ...

    async def settle(self, outcomes: Sequence[EngineOutcome], returned_urls: Sequence[str]) -> None:
        """Breakers, latency windows, rests, the month's cost and the cache after the
        engines ran, and the URLs the search returned (what strict mode lets web_fetch read). What :func:`may_wait` allows
        the shared store writes after returning (see :meth:`flush`)."""
        ...

    async def flush(self) -> None:
        """Returns once every settle that returned before its writes were done has written
        them (to the store, or to memory if the store failed)."""
        ...

    async def abandon_probes(self, leases: Sequence[tuple[str, str | None]]) -> None:
        """The call carrying these (engine, lease) ended without an answer: next call probes."""
        ...

    async def views(
        self, engines: Sequence[str], windows: Windows = ()
    ) -> tuple[int, dict[str, EngineView]]:
        """``acquire(windows)``, then, unless it refused, each engine's breaker state and
        median latency, for engine_status: one round trip. Returns (the refusal's ms or 0,
        the views)."""
        ...

    async def was_returned(self, urls: Sequence[str]) -> bool:
        """Whether web_search returned any of ``urls`` (the kept ones: the last 10,000)."""
        ...

    async def store_answers(self) -> bool:
        """Whether the store answers now (True in memory): for health checks."""
        ...

    def reach(self) -> dict[str, object]:
        """What the last health check reached, for /healthz: the store's ``form``
        (``server``, ``sentinel``: with its ``service`` and the ``primary`` connected to,
        ``cluster``: with how many ``nodes`` its slot map names and ``nodes_reached``);
        empty in memory."""
        ...


async def take_windows(store: Store, windows: Windows) -> None:
    """One event from each per-minute window, or ``unavailable rate_limited`` when one is full."""
    retry_after_ms = await store.acquire(windows)
    if retry_after_ms:
        raise errors.rate_limited(retry_after_ms)


def open_store(
    config: Config, clock: Clock, on_fallback: Callable[[str], None] | None = None
) -> Store:
    """The store ``config`` asks for: in memory, or Redis with the in-memory fallback
    (``on_fallback`` is told the operation each time memory answers for the store)."""
    from rypsok.state.memory import MemoryStore

    memory = MemoryStore(config, clock)
    if not config.state.url:
        return memory
    from rypsok.state.fallback import FallbackStore
    from rypsok.state.redis import RedisStore

    return FallbackStore(
        RedisStore(config), memory, config.state.timeout_ms / 1000, clock, on_fallback
    )
