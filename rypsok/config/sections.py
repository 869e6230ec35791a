"""The tools' tables of the configuration ([search], [fetch], [status], [limits], [cache],
[breaker], [state], [log], [telemetry]): one frozen dataclass each, every key with its
default and check."""

from __future__ import annotations

import dataclasses
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rypsok.bounds import MIN_MAX_CHARS
from rypsok.config import checks
from rypsok.config.checks import ConfigError

LOG_LEVELS = ("debug", "info", "warning", "error")
"""The log levels, least severe first: [log] level and the CLI's --log-level."""


@dataclass(frozen=True)
class SearchConfig:
    deadline_ms: int = field(default=2500, metadata={"check": checks.integer(1)})
    languages: tuple[str, ...] = field(default=("en",), metadata={"check": checks.languages})
    max_query_chars: int = field(default=400, metadata={"check": checks.integer(1)})
    max_results: int = field(default=20, metadata={"check": checks.integer(1)})
    attribution: bool = field(default=False, metadata={"check": checks.boolean})
    instruction_like: str = field(default="keep", metadata={"check": checks.choice("keep", "drop")})
    secrets: str = field(default="deny", metadata={"check": checks.choice("deny", "mask")})
    max_concurrent: int = field(default=8, metadata={"check": checks.integer(1)})


@dataclass(frozen=True)
class FetchConfig:
    allow_http: bool = field(default=False, metadata={"check": checks.boolean})
    ports: tuple[int, ...] = field(
        default=(80, 443), metadata={"check": checks.list_of(checks.port)}
    )
    max_chars: int = field(default=20000, metadata={"check": checks.integer(MIN_MAX_CHARS)})
    byte_limit: int = field(default=5242880, metadata={"check": checks.integer(1)})
    timeout_ms: int = field(default=10000, metadata={"check": checks.integer(1)})
    follow_redirects: str = field(
        default="same_host", metadata={"check": checks.choice("same_host", "any")}
    )
    max_redirects: int = field(default=5, metadata={"check": checks.integer(0)})
    strict: bool = field(default=False, metadata={"check": checks.boolean})
    allow_urls: tuple[str, ...] = field(
        default=(), metadata={"check": checks.list_of(checks.http_url)}
    )
    allow_networks: tuple[str, ...] = field(
        default=(), metadata={"check": checks.list_of(checks.cidr)}
    )
    max_concurrent: int = field(default=4, metadata={"check": checks.integer(1)})


@dataclass(frozen=True)
class StatusConfig:
    enabled: bool = field(default=True, metadata={"check": checks.boolean})


@dataclass(frozen=True)
class LimitsConfig:
    web_search: int = field(default=60, metadata={"check": checks.integer(1)})
    web_fetch: int = field(default=30, metadata={"check": checks.integer(1)})
    engine_status: int = field(default=30, metadata={"check": checks.integer(1)})


@dataclass(frozen=True)
class CacheConfig:
    enabled: bool = field(default=False, metadata={"check": checks.boolean})
    ttl_s: int = field(default=300, metadata={"check": checks.integer(1)})
    max_entries: int = field(default=1000, metadata={"check": checks.integer(1)})


@dataclass(frozen=True)
class BreakerConfig:
    failures: int = field(default=3, metadata={"check": checks.integer(1)})
    cooldown_s: float = field(default=30.0, metadata={"check": checks.number(0.001)})
    max_cooldown_s: float = field(default=600.0, metadata={"check": checks.number(0.001)})


def _state_url(key: str, value: Any) -> str:
    """Empty (state in memory), or redis:// or rediss:// with a host, an optional port and
    database, and no password: the password comes from ``state.password_env``."""
    text = checks.string(key, value)
    if not text:
        return text
    shape = 'must be "redis://HOST:PORT/DB" or "rediss://HOST:PORT/DB" (or "" for memory)'
    if any(c.isspace() for c in text):
        raise ConfigError(key, shape)
    parts = urllib.parse.urlsplit(text)
    try:
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        raise ConfigError(key, shape) from None
    database = parts.path.removeprefix("/")
    if (
        parts.scheme not in ("redis", "rediss")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or (database and not database.isdigit())
    ):
        raise ConfigError(key, shape)
    if parts.password is not None:
        raise ConfigError(
            key, "must not hold a password: name its environment variable in state.password_env"
        )
    return text


@dataclass(frozen=True)
class StateConfig:
    """Where replicas share their state; empty ``url``: every replica keeps its own in memory."""

    url: str = field(default="", metadata={"check": _state_url})
    password_env: str | None = field(default=None, metadata={"check": checks.env_name})
    timeout_ms: int = field(default=20, metadata={"check": checks.integer(1, 100)})
    """The bound on one store operation; past it the replica answers from memory."""
    password: str | None = field(default=None, repr=False, compare=False)
    """Read from ``password_env`` at load time; never printed."""


def with_password(section: StateConfig, env: Mapping[str, str]) -> StateConfig:
    """[state] with the store's password read from ``password_env`` (when it names one)."""
    if section.password_env is None:
        return section
    if not section.url:
        raise ConfigError("state.password_env", "is set but state.url is not")
    password = env.get(section.password_env)
    if not password:
        raise ConfigError(
            "state.password_env", f"names {section.password_env}, which is not set or is empty"
        )
    return dataclasses.replace(section, password=password)


@dataclass(frozen=True)
class LogConfig:
    level: str = field(default="info", metadata={"check": checks.choice(*LOG_LEVELS)})
    path: str = field(default="", metadata={"check": checks.string})


def _optional_url(key: str, value: Any) -> str:
    return "" if value == "" else checks.endpoint(key, value)


OTLP_PROTOCOLS = ("http/protobuf",)
"""The OTLP transports rypsok exports traces over."""


@dataclass(frozen=True)
class TelemetryConfig:
    """OpenTelemetry traces over OTLP: off while no endpoint is set here or by the standard
    ``OTEL_EXPORTER_OTLP_*`` variables (:func:`with_otel_env`)."""

    endpoint: str = field(default="", metadata={"check": _optional_url})
    """The collector's base URL; traces go to ``<endpoint>/v1/traces``."""
    traces_endpoint: str = field(default="", metadata={"check": _optional_url})
    """The full URL traces go to (wins over ``endpoint``)."""
    protocol: str = field(
        default="http/protobuf", metadata={"check": checks.choice(*OTLP_PROTOCOLS)}
    )
    service_name: str = field(default="rypsok", metadata={"check": checks.string})

    @property
    def traces_url(self) -> str:
        """Where spans are exported, or "" when telemetry is off."""
        if self.traces_endpoint:
            return self.traces_endpoint
        return f"{self.endpoint}/v1/traces" if self.endpoint else ""


def with_otel_env(section: TelemetryConfig, env: Mapping[str, str]) -> TelemetryConfig:
    """[telemetry] completed by the OpenTelemetry SDK's standard variables where the file is
    silent: OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL and
    OTEL_SERVICE_NAME; OTEL_SDK_DISABLED=true turns it off."""
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return TelemetryConfig()
    found: dict[str, str] = {}
    if not section.endpoint and not section.traces_endpoint:
        for key, name in (
            ("traces_endpoint", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
            ("endpoint", "OTEL_EXPORTER_OTLP_ENDPOINT"),
        ):
            if env.get(name):
                found[key] = _optional_url(name, env[name])
    for name in ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"):
        if env.get(name):
            found["protocol"] = checks.choice(*OTLP_PROTOCOLS)(name, env[name].strip())
            break
    if env.get("OTEL_SERVICE_NAME") and section.service_name == TelemetryConfig.service_name:
        found["service_name"] = env["OTEL_SERVICE_NAME"]
    return dataclasses.replace(section, **found)


SECTIONS = {
    "search": SearchConfig,
    "fetch": FetchConfig,
    "status": StatusConfig,
    "limits": LimitsConfig,
    "cache": CacheConfig,
    "breaker": BreakerConfig,
    "state": StateConfig,
    "log": LogConfig,
    "telemetry": TelemetryConfig,
}
