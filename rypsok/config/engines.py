"""[engines.*]: one table per engine, its defaults taken from the engine's INFO, its credential
read from the environment."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rypsok.config import checks
from rypsok.config.checks import ConfigError
from rypsok.engines.registry import ENGINE_IDS, engine_module

SPENT_REST_S = 3600
"""How long an engine rests (is skipped with ``rate_limited``, not asked) after its provider
said the plan's money or credits are spent (Tavily's 432 and 433, Exa's and Kagi's 402,
Kagi's error 101, Serper's "Not enough credits"): a spent plan does not clear in a minute.
``[engines.<id>] spent_rest_s`` changes it."""


@dataclass(frozen=True)
class EngineConfig:
    """One engine as the operator set it up; defaults come from the engine's INFO."""

    id: str
    enabled: bool = field(default=True, metadata={"check": checks.boolean})
    weight: float = field(default=1.0, metadata={"check": checks.number(0.0)})
    endpoint: str = field(default="", metadata={"check": checks.endpoint})
    credential_env: str | None = field(default=None, metadata={"check": checks.env_name})
    rate_per_minute: int = field(default=60, metadata={"check": checks.integer(1)})
    attribution: bool = field(default=False, metadata={"check": checks.boolean})
    max_calls_per_month: int | None = field(default=None, metadata={"check": checks.integer(1)})
    """At most this many requests to the engine in a calendar month (UTC), counted in the
    state store so replicas share it; None for no cap. For the paid APIs."""
    max_cost_per_month: float | None = field(default=None, metadata={"check": checks.number(0)})
    """At most this much spent on the engine in a calendar month (UTC), in the unit its
    answers report (``EngineInfo.cost_unit``: dollars for exa, credits for tavily and
    serper), summed from those answers in the state store; None for no cap. Only for the
    engines whose answers report a cost."""
    spent_rest_s: int = field(default=SPENT_REST_S, metadata={"check": checks.integer(1)})
    """How long the engine rests after its provider said the plan is spent."""
    region: str | None = field(default=None, metadata={"check": checks.region})
    """The country results are for (ISO 3166-1 alpha-2), for the engines that take one
    (``EngineInfo.takes_region``: serper's ``gl``, kagi's ``filters.region``); None sends
    none, and the provider's default applies."""
    credential: str | None = field(default=None, repr=False, compare=False)
    """Read from ``credential_env`` at load time; never printed."""

    @property
    def unusable_reason(self) -> str | None:
        """Why engine_status reports this engine disabled, or None when it is in use."""
        if not self.enabled:
            return "disabled"
        info = engine_module(self.id).INFO
        if info.credential_required and not self.credential:
            return "no_credential"
        return None

    @property
    def offered(self) -> bool:
        """Whether engine_status lists the engine: every engine, but a bring-your-own-key
        engine (``EngineInfo.listed_without_credential`` False) only with its key."""
        info = engine_module(self.id).INFO
        return info.listed_without_credential or bool(self.credential)


def _engine_defaults(engine_id: str) -> dict[str, Any]:
    info = engine_module(engine_id).INFO
    return {
        "id": engine_id,
        "enabled": engine_id != "searxng",
        "endpoint": info.default_endpoint,
        "credential_env": info.credential_env,
        "rate_per_minute": info.rate_per_minute,
        "attribution": info.attribution,
    }


def read_engines(table: Any, env: Mapping[str, str]) -> dict[str, EngineConfig]:
    """Every known engine, in id order, with its table from ``[engines]`` (if any) applied."""
    if not isinstance(table, dict):
        raise ConfigError("engines", "must be a table of engine tables")
    for engine_id in table:
        if engine_id not in ENGINE_IDS:
            raise ConfigError(
                f"engines.{engine_id}", "unknown engine; known engines: " + ", ".join(ENGINE_IDS)
            )
    engines = {}
    for engine_id in ENGINE_IDS:
        given = table.get(engine_id, {})
        defaults = _engine_defaults(engine_id)
        if engine_id == "searxng" and isinstance(given, dict) and "endpoint" in given:
            defaults["enabled"] = True
        engine = checks.read_table(EngineConfig, f"engines.{engine_id}", given, defaults)
        _check_engine_keys(engine)
        if engine_id == "searxng" and engine.enabled and not engine.endpoint:
            raise ConfigError("engines.searxng.endpoint", "must be set to enable searxng")
        credential = env.get(engine.credential_env) if engine.credential_env else None
        engines[engine_id] = dataclasses.replace(engine, credential=credential or None)
    return engines


def _check_engine_keys(engine: EngineConfig) -> None:
    """Refuse the keys an engine cannot honour, rather than ignore them."""
    info = engine_module(engine.id).INFO
    if engine.region is not None and not info.takes_region:
        raise ConfigError(f"engines.{engine.id}.region", f"{engine.id} takes no region")
    if engine.max_cost_per_month is not None and info.cost_unit is None:
        raise ConfigError(
            f"engines.{engine.id}.max_cost_per_month",
            f"{engine.id}'s answers report no cost; use max_calls_per_month",
        )
