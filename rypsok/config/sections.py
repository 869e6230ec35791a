"""The tools' tables of the configuration ([search], [fetch], [status], [limits], [cache],
[breaker], [state], [log], [telemetry]): one frozen dataclass each, every key with its
default and check."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rypsok.bounds import MIN_MAX_CHARS
from rypsok.config import checks
from rypsok.config.checks import ConfigError
from rypsok.config.store_url import StoreAddress, StoreUrlError, parse_store_url

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
    """Empty (state in memory), or the store's URL in one of the forms of
    :mod:`rypsok.config.store_url`, with no password: it comes from ``state.password_env``.
    Whether it fits ``state.cluster`` is checked with the whole table (:func:`checked_state`)."""
    text = checks.string(key, value)
    if text:
        try:
            parse_store_url(text)
        except StoreUrlError as exc:
            raise ConfigError(key, str(exc)) from None
    return text


KEY_PREFIX = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def _key_prefix(key: str, value: Any) -> str:
    """What every store key starts with: 1 to 64 letters, digits and ``_ . : -`` (no
    braces: a Cluster's hash tag follows the prefix, and a brace in it would move the tag)."""
    text = checks.string(key, value)
    if not KEY_PREFIX.fullmatch(text):
        raise ConfigError(key, "must be 1 to 64 letters, digits and _ . : -")
    return text


@dataclass(frozen=True)
class StateConfig:
    """Where replicas share their state; empty ``url``: every replica keeps its own in memory."""

    url: str = field(default="", metadata={"check": _state_url})
    cluster: bool = field(default=False, metadata={"check": checks.boolean})
    """``url`` names a node of a Redis or Valkey Cluster."""
    password_env: str | None = field(default=None, metadata={"check": checks.env_name})
    sentinel_password_env: str | None = field(default=None, metadata={"check": checks.env_name})
    """The sentinels' own password (``requirepass`` in sentinel.conf), when they have one."""
    timeout_ms: int = field(default=20, metadata={"check": checks.integer(1, 100)})
    """The bound on one store operation; past it the replica answers from memory."""
    key_prefix: str = field(default="rypsok:", metadata={"check": _key_prefix})
    """Every key's start: two deployments that share a store (and database) but must not
    share limits, budgets, breakers or the cache each take their own."""
    password: str | None = field(default=None, repr=False, compare=False)
    """Read from ``password_env`` at load time; never printed."""
    sentinel_password: str | None = field(default=None, repr=False, compare=False)
    """Read from ``sentinel_password_env`` at load time; never printed."""

    @property
    def address(self) -> StoreAddress:
        """Where the store is (``url`` must be set)."""
        return parse_store_url(self.url, self.cluster)


def _secret(env: Mapping[str, str], key: str, name: str) -> str:
    password = env.get(name)
    if not password:
        raise ConfigError(key, f"names {name}, which is not set or is empty")
    return password


def checked_state(section: StateConfig, env: Mapping[str, str]) -> StateConfig:
    """[state] checked as a whole (``cluster`` and the sentinel keys against the URL's form),
    with the passwords read from the variables it names."""
    if not section.url:
        for key in ("password_env", "sentinel_password_env"):
            if getattr(section, key) is not None:
                raise ConfigError(f"state.{key}", "is set but state.url is not")
        if section.cluster:
            raise ConfigError("state.cluster", "is true but state.url is not")
        return section
    try:
        form = section.address.form
    except StoreUrlError as exc:
        raise ConfigError("state.url", str(exc)) from None
    if section.sentinel_password_env is not None and form != "sentinel":
        raise ConfigError("state.sentinel_password_env", "is set but state.url names no sentinels")
    found: dict[str, str] = {}
    if section.password_env is not None:
        found["password"] = _secret(env, "state.password_env", section.password_env)
    if section.sentinel_password_env is not None:
        found["sentinel_password"] = _secret(
            env, "state.sentinel_password_env", section.sentinel_password_env
        )
    return dataclasses.replace(section, **found)


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
