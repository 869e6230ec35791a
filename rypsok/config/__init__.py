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

from rypsok.config.checks import ConfigError, ConfigFileError, read_table
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
    "ConfigFileError",
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


def config_path(explicit: str | os.PathLike[str] | None, env: Mapping[str, str]) -> Path | None:
    """--config, else $RYPSOK_CONFIG, else the XDG file if it exists, else None."""
    return _located(explicit, env)[0]


def _located(
    explicit: str | os.PathLike[str] | None, env: Mapping[str, str]
) -> tuple[Path | None, str]:
    """The file to read and what named it, the key a problem with the file is told under:
    ``--config``, ``RYPSOK_CONFIG``, or "" for the XDG file."""
    if explicit is not None:
        if not os.fspath(explicit):
            raise ConfigError("--config", "must name a file, not an empty path")
        return Path(explicit), "--config"
    if env.get("RYPSOK_CONFIG"):
        return Path(env["RYPSOK_CONFIG"]), "RYPSOK_CONFIG"
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".config")
    candidate = Path(base) / "rypsok" / "config.toml"
    return (candidate if candidate.is_file() else None), ""


def _line_and_column(data: bytes, offset: int) -> str:
    """Where byte ``offset`` is, as an editor counts (the column in bytes)."""
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"


def read_toml(path: Path, key: str) -> dict[str, Any]:
    """The file parsed as TOML, or a ConfigFileError naming the file, what named it
    (``key``) and, for bytes that are not UTF-8 or text that is not TOML, the line and
    column. A UTF-8 byte order mark (Windows editors write one) is read past: it is no part
    of the text."""

    def refused(problem: str) -> ConfigFileError:
        return ConfigFileError(key, problem, file=str(path))

    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise refused("does not exist") from None
    except IsADirectoryError:
        raise refused("is a directory, not a file") from None
    except PermissionError:
        raise refused("cannot be read: permission denied") from None
    except OSError as exc:
        raise refused(f"cannot be read: {exc.strerror or type(exc).__name__}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        where = _line_and_column(exc.object, exc.start)  # the bytes after a BOM
        raise refused(f"is not UTF-8 text: byte 0x{exc.object[exc.start]:02x} at {where}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise refused(f"is not valid TOML: {exc}") from None


def load_config(
    path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None
) -> Config:
    """The configuration: the file ``path`` names, else the one ``$RYPSOK_CONFIG`` names,
    else ``$XDG_CONFIG_HOME/rypsok/config.toml`` (or ``~/.config/rypsok/config.toml``) if it
    exists, else the defaults. Credentials are read from ``env`` (default: os.environ).

    Raises ConfigError, naming the key (and the file), for a file that cannot be read, is not
    TOML, or holds an unknown key or a bad value."""
    env = os.environ if env is None else env
    found, key = _located(path, env)
    if found is None:
        return config_from_dict({}, env)
    data = read_toml(found, key)
    try:
        return config_from_dict(data, env, source=str(found))
    except ConfigError as exc:
        raise exc.read_from(str(found)) from None
