"""The operator's configuration: one TOML file, read once, frozen, passed down.

This package is the only reader of the configuration file or the environment (for the
file's location and the engines' credentials). A bad file stops start-up with a
:class:`ConfigError` naming the key and what it allows. Each table's dataclass and checks
live with their part: :mod:`.sections` (the tools' tables), :mod:`.engines`,
:mod:`.server` (the HTTP transport), :mod:`.checks` (the value checks).
"""

from __future__ import annotations

import functools
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rypsok.config.checks import ConfigError, read_table
from rypsok.config.engines import EngineConfig, read_engines
from rypsok.config.sections import (
    LOG_LEVELS,
    SECTIONS,
    BreakerConfig,
    CacheConfig,
    FetchConfig,
    LimitsConfig,
    LogConfig,
    SearchConfig,
    StateConfig,
    StatusConfig,
    TelemetryConfig,
    checked_state,
    with_otel_env,
)
from rypsok.config.server import (
    PerTokenLimitsConfig,
    ServerConfig,
    StaticToken,
    check_exposure,
    check_server,
    is_loopback,
    parse_listen,
    read_tokens,
)
from rypsok.engines.registry import engine_module

__all__ = [
    "LOG_LEVELS",
    "BreakerConfig",
    "CacheConfig",
    "Config",
    "ConfigError",
    "EngineConfig",
    "FetchConfig",
    "LimitsConfig",
    "LogConfig",
    "PerTokenLimitsConfig",
    "SearchConfig",
    "ServerConfig",
    "StateConfig",
    "StaticToken",
    "StatusConfig",
    "TelemetryConfig",
    "check_exposure",
    "config_from_dict",
    "config_path",
    "is_loopback",
    "load_config",
    "parse_listen",
    "read_tokens",
]


@dataclass(frozen=True)
class Config:
    """The whole configuration: one table each, every engine, the HTTP transport."""

    search: SearchConfig = field(default_factory=SearchConfig)
    fetch: FetchConfig = field(default_factory=FetchConfig)
    status: StatusConfig = field(default_factory=StatusConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    cache: CacheConfig = field(default_factory=CacheConfig)
    breaker: BreakerConfig = field(default_factory=BreakerConfig)
    state: StateConfig = field(default_factory=StateConfig)
    log: LogConfig = field(default_factory=LogConfig)
    telemetry: TelemetryConfig = field(default_factory=TelemetryConfig)
    engines: Mapping[str, EngineConfig] = field(default_factory=dict)
    server: ServerConfig = field(default_factory=ServerConfig)
    per_token_limits: PerTokenLimitsConfig = field(default_factory=PerTokenLimitsConfig)
    source: str = "defaults"
    """Where the configuration came from: a path, or "defaults"."""

    def engine(self, engine_id: str) -> EngineConfig:
        return self.engines[engine_id]

    def usable_engines(self) -> list[EngineConfig]:
        return list(self._usable_engines)

    def served_categories(self) -> list[str]:
        return list(self._served_categories)

    # Read by every search, three times each (the schema, validation and the plan), and fixed
    # with the configuration: worked out once. A cached_property writes the instance's
    # __dict__ directly, which a frozen dataclass allows.

    @functools.cached_property
    def _usable_engines(self) -> tuple[EngineConfig, ...]:
        return tuple(e for e in self.engines.values() if e.unusable_reason is None)

    @functools.cached_property
    def _served_categories(self) -> tuple[str, ...]:
        from rypsok.engines.base import CATEGORIES

        served = set()
        for engine in self._usable_engines:
            served |= engine_module(engine.id).INFO.categories
        return tuple(c for c in CATEGORIES if c in served)

    @property
    def default_language(self) -> str:
        return self.search.languages[0]


def _split_limits(data: Mapping[str, Any]) -> tuple[dict[str, Any], Any]:
    """[limits] without its per_token sub-table, and that sub-table."""
    tables = dict(data)
    limits = tables.get("limits")
    if isinstance(limits, dict) and "per_token" in limits:
        limits = dict(limits)
        per_token = limits.pop("per_token")
        tables["limits"] = limits
        return tables, per_token
    return tables, {}


def config_from_dict(
    data: Mapping[str, Any], env: Mapping[str, str] | None = None, source: str = "defaults"
) -> Config:
    """A Config from parsed TOML; credentials are read from ``env`` (default: os.environ)."""
    env = os.environ if env is None else env
    allowed = [*SECTIONS, "server", "engines"]
    for key in data:
        if key not in allowed:
            raise ConfigError(key, "unknown section; allowed sections: " + ", ".join(allowed))
    data, per_token = _split_limits(data)
    sections = {name: read_table(cls, name, data.get(name, {})) for name, cls in SECTIONS.items()}
    breaker = sections["breaker"]
    if breaker.max_cooldown_s < breaker.cooldown_s:
        raise ConfigError("breaker.max_cooldown_s", "must be at least breaker.cooldown_s")
    sections["state"] = checked_state(sections["state"], env)
    sections["telemetry"] = with_otel_env(sections["telemetry"], env)
    server = read_table(ServerConfig, "server", data.get("server", {}))
    check_server(server)
    return Config(
        **sections,
        engines=read_engines(data.get("engines", {}), env),
        server=server,
        per_token_limits=read_table(PerTokenLimitsConfig, "limits.per_token", per_token),
        source=source,
    )


def config_path(explicit: str | None, env: Mapping[str, str]) -> Path | None:
    """--config, else $RYPSOK_CONFIG, else the XDG file if it exists, else None."""
    if explicit:
        return Path(explicit)
    if env.get("RYPSOK_CONFIG"):
        return Path(env["RYPSOK_CONFIG"])
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".config")
    candidate = Path(base) / "rypsok" / "config.toml"
    return candidate if candidate.is_file() else None


def load_config(path: str | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Read the configuration by the documented lookup order; raise ConfigError if it is bad."""
    env = os.environ if env is None else env
    found = config_path(path, env)
    if found is None:
        return config_from_dict({}, env)
    try:
        data = tomllib.loads(found.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError("--config", f"no such file: {found}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError("--config", f"cannot read {found}: {exc.__class__.__name__}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("--config", f"{found} is not valid TOML: {exc}") from None
    return config_from_dict(data, env, source=str(found))
