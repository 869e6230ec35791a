"""The operator's configuration: one TOML file, read once, frozen, passed down.

This is the only module that reads the configuration file or the environment
(for the file's location and the engines' credentials). A bad file stops
start-up with a :class:`ConfigError` naming the key and what it allows.
"""

from __future__ import annotations

import dataclasses
import hashlib
import ipaddress
import os
import re
import tomllib
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rypsok.bounds import MIN_MAX_CHARS
from rypsok.engines.registry import ENGINE_IDS, engine_module

LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ConfigError(Exception):
    """A configuration key is unknown or has a bad value; the message names the key."""

    def __init__(self, key: str, problem: str):
        super().__init__(f"configuration key {key}: {problem}")
        self.key = key


LOG_LEVELS = ("debug", "info", "warning", "error")
"""The log levels, least severe first: [log] level and the CLI's --log-level."""


def _int(minimum: int | None = None, maximum: int | None = None):
    def check(key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(key, f"must be an integer, not {type(value).__name__}")
        if minimum is not None and value < minimum:
            raise ConfigError(key, f"must be at least {minimum}")
        if maximum is not None and value > maximum:
            raise ConfigError(key, f"must be at most {maximum}")
        return value

    return check


def _number(minimum: float):
    def check(key: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(key, f"must be a number, not {type(value).__name__}")
        if value < minimum:
            raise ConfigError(key, f"must be at least {minimum}")
        return float(value)

    return check


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(key, "must be true or false")
    return value


def _choice(*allowed: str):
    def check(key: str, value: Any) -> str:
        if value not in allowed:
            raise ConfigError(key, "must be one of " + ", ".join(f'"{a}"' for a in allowed))
        return value

    return check


def _string(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ConfigError(key, "must be a string")
    return value


def _list_of(item, *, non_empty: bool = False):
    def check(key: str, value: Any) -> tuple:
        if not isinstance(value, list):
            raise ConfigError(key, "must be a list")
        if non_empty and not value:
            raise ConfigError(key, "must not be empty")
        return tuple(item(f"{key}[{i}]", v) for i, v in enumerate(value))

    return check


def _language(key: str, value: Any) -> str:
    if not isinstance(value, str) or not LANGUAGE_CODE.match(value):
        raise ConfigError(key, 'must be a lower-case language code such as "en" or "pt-br"')
    return value


def _languages(key: str, value: Any) -> tuple[str, ...]:
    codes = _list_of(_language, non_empty=True)(key, value)
    if len(set(codes)) != len(codes):
        raise ConfigError(key, "must not repeat a language")
    return codes


def _cidr(key: str, value: Any) -> str:
    try:
        return str(ipaddress.ip_network(_string(key, value), strict=False))
    except ValueError:
        raise ConfigError(key, 'must be a CIDR such as "10.0.0.0/8" or "fd00::/8"') from None


def _http_url(key: str, value: Any) -> str:
    text = _string(key, value)
    if not re.match(r"^https?://[^\s/]+", text) or any(c.isspace() for c in text):
        raise ConfigError(key, 'must be an http or https URL such as "https://example.org"')
    return text


def _endpoint(key: str, value: Any) -> str:
    return _http_url(key, value).rstrip("/")


def _env_name(key: str, value: Any) -> str:
    if not isinstance(value, str) or not ENV_NAME.match(value):
        raise ConfigError(key, "must be the name of an environment variable, such as GITHUB_TOKEN")
    return value


def _port(key: str, value: Any) -> int:
    return _int(1, 65535)(key, value)


@dataclass(frozen=True)
class SearchConfig:
    deadline_ms: int = field(default=2500, metadata={"check": _int(1)})
    languages: tuple[str, ...] = field(default=("en",), metadata={"check": _languages})
    max_query_chars: int = field(default=400, metadata={"check": _int(1)})
    max_results: int = field(default=20, metadata={"check": _int(1)})
    attribution: bool = field(default=False, metadata={"check": _bool})
    instruction_like: str = field(default="keep", metadata={"check": _choice("keep", "drop")})
    secrets: str = field(default="deny", metadata={"check": _choice("deny", "mask")})
    max_concurrent: int = field(default=8, metadata={"check": _int(1)})


@dataclass(frozen=True)
class FetchConfig:
    allow_http: bool = field(default=False, metadata={"check": _bool})
    ports: tuple[int, ...] = field(default=(80, 443), metadata={"check": _list_of(_port)})
    max_chars: int = field(default=20000, metadata={"check": _int(MIN_MAX_CHARS)})
    byte_limit: int = field(default=5242880, metadata={"check": _int(1)})
    timeout_ms: int = field(default=10000, metadata={"check": _int(1)})
    follow_redirects: str = field(
        default="same_host", metadata={"check": _choice("same_host", "any")}
    )
    max_redirects: int = field(default=5, metadata={"check": _int(0)})
    strict: bool = field(default=False, metadata={"check": _bool})
    allow_urls: tuple[str, ...] = field(default=(), metadata={"check": _list_of(_http_url)})
    allow_networks: tuple[str, ...] = field(default=(), metadata={"check": _list_of(_cidr)})
    max_concurrent: int = field(default=4, metadata={"check": _int(1)})


@dataclass(frozen=True)
class StatusConfig:
    enabled: bool = field(default=True, metadata={"check": _bool})


@dataclass(frozen=True)
class LimitsConfig:
    web_search: int = field(default=60, metadata={"check": _int(1)})
    web_fetch: int = field(default=30, metadata={"check": _int(1)})
    engine_status: int = field(default=30, metadata={"check": _int(1)})


@dataclass(frozen=True)
class CacheConfig:
    enabled: bool = field(default=False, metadata={"check": _bool})
    ttl_s: int = field(default=300, metadata={"check": _int(1)})
    max_entries: int = field(default=1000, metadata={"check": _int(1)})


@dataclass(frozen=True)
class BreakerConfig:
    failures: int = field(default=3, metadata={"check": _int(1)})
    cooldown_s: float = field(default=30.0, metadata={"check": _number(0.001)})
    max_cooldown_s: float = field(default=600.0, metadata={"check": _number(0.001)})


def _state_url(key: str, value: Any) -> str:
    """Empty (state in memory), or redis:// or rediss:// with a host, an optional port and
    database, and no password: the password comes from ``state.password_env``."""
    text = _string(key, value)
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
    password_env: str | None = field(default=None, metadata={"check": _env_name})
    timeout_ms: int = field(default=20, metadata={"check": _int(1, 100)})
    """The bound on one store operation; past it the replica answers from memory."""
    password: str | None = field(default=None, repr=False, compare=False)
    """Read from ``password_env`` at load time; never printed."""


def _state(section: StateConfig, env: Mapping[str, str]) -> StateConfig:
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
    level: str = field(default="info", metadata={"check": _choice(*LOG_LEVELS)})
    path: str = field(default="", metadata={"check": _string})


@dataclass(frozen=True)
class EngineConfig:
    """One engine as the operator set it up; defaults come from the engine's INFO."""

    id: str
    enabled: bool = field(default=True, metadata={"check": _bool})
    weight: float = field(default=1.0, metadata={"check": _number(0.0)})
    endpoint: str = field(default="", metadata={"check": _endpoint})
    credential_env: str | None = field(default=None, metadata={"check": _env_name})
    rate_per_minute: int = field(default=60, metadata={"check": _int(1)})
    attribution: bool = field(default=False, metadata={"check": _bool})
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


@dataclass(frozen=True)
class Config:
    search: SearchConfig = field(default_factory=SearchConfig)
    fetch: FetchConfig = field(default_factory=FetchConfig)
    status: StatusConfig = field(default_factory=StatusConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    cache: CacheConfig = field(default_factory=CacheConfig)
    breaker: BreakerConfig = field(default_factory=BreakerConfig)
    state: StateConfig = field(default_factory=StateConfig)
    log: LogConfig = field(default_factory=LogConfig)
    engines: Mapping[str, EngineConfig] = field(default_factory=dict)
    server: ServerConfig = field(default_factory=lambda: ServerConfig())
    per_token_limits: PerTokenLimitsConfig = field(default_factory=lambda: PerTokenLimitsConfig())
    source: str = "defaults"
    """Where the configuration came from: a path, or "defaults"."""

    def engine(self, engine_id: str) -> EngineConfig:
        return self.engines[engine_id]

    def usable_engines(self) -> list[EngineConfig]:
        return [e for e in self.engines.values() if e.unusable_reason is None]

    def served_categories(self) -> list[str]:
        from rypsok.engines.base import CATEGORIES

        served = set()
        for engine in self.usable_engines():
            served |= engine_module(engine.id).INFO.categories
        return [c for c in CATEGORIES if c in served]

    @property
    def default_language(self) -> str:
        return self.search.languages[0]


SECTIONS = {
    "search": SearchConfig,
    "fetch": FetchConfig,
    "status": StatusConfig,
    "limits": LimitsConfig,
    "cache": CacheConfig,
    "breaker": BreakerConfig,
    "state": StateConfig,
    "log": LogConfig,
}


def _section(cls, name: str, table: Any, defaults: Mapping[str, Any] | None = None):
    if not isinstance(table, dict):
        raise ConfigError(name, "must be a table")
    known = {f.name: f for f in dataclasses.fields(cls) if "check" in f.metadata}
    values = dict(defaults or {})
    for key, value in table.items():
        if key not in known:
            raise ConfigError(f"{name}.{key}", "unknown key; allowed keys: " + ", ".join(known))
        values[key] = known[key].metadata["check"](f"{name}.{key}", value)
    return cls(**values)


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


def _engines(table: Any, env: Mapping[str, str]) -> dict[str, EngineConfig]:
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
        engine = _section(EngineConfig, f"engines.{engine_id}", given, defaults)
        if engine_id == "searxng" and engine.enabled and not engine.endpoint:
            raise ConfigError("engines.searxng.endpoint", "must be set to enable searxng")
        credential = env.get(engine.credential_env) if engine.credential_env else None
        engines[engine_id] = dataclasses.replace(engine, credential=credential or None)
    return engines


# --- [server] and [limits.per_token]: the Streamable HTTP transport -------------------------

LOOPBACK_NAMES = ("localhost",)
TOKEN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
SHA256_HEX = re.compile(r"^[0-9a-f]{64}$")
MIN_TOKEN_CHARS = 16
DEFAULT_HTTP_HOST = "127.0.0.1"


def parse_listen(key: str, value: Any) -> tuple[str, int]:
    """``HOST:PORT``, ``[V6]:PORT`` or ``PORT`` (then 127.0.0.1); port 0 picks a free one."""
    text = _string(key, value).strip()
    match = re.fullmatch(
        r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<host>[^\s:\[\]]*)):(?P<port>\d{1,5})", text
    )
    if match is None and text.isdigit():
        host, port = DEFAULT_HTTP_HOST, int(text)
    elif match is not None:
        host = match["v6"] or match["host"] or DEFAULT_HTTP_HOST
        port = int(match["port"])
    else:
        raise ConfigError(key, 'must be "HOST:PORT" such as "127.0.0.1:8080" (or "[::1]:8080")')
    if port > 65535:
        raise ConfigError(key, "must name a port from 0 to 65535")
    return host, port


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _listen(key: str, value: Any) -> str:
    parse_listen(key, value)
    return value.strip()


def _host_pattern(key: str, value: Any) -> str:
    text = _string(key, value)
    if not text or any(c.isspace() or c in "/," for c in text):
        raise ConfigError(
            key, 'must be a Host header value such as "search.example.org" or "10.0.0.5:*"'
        )
    return text


def _origin(key: str, value: Any) -> str:
    text = _string(key, value)
    if not re.fullmatch(r"https?://[^\s/]+", text):
        raise ConfigError(key, 'must be an origin such as "https://search.example.org"')
    return text


def _secure_url(key: str, value: Any) -> str:
    """An https URL; plain http only to a loopback host."""
    text = _http_url(key, value)
    host = re.match(r"^https?://(?:[^@/]*@)?(\[[^\]]+\]|[^:/]+)", text)
    bare = host[1].strip("[]") if host else ""
    if text.startswith("http://") and not is_loopback(bare):
        raise ConfigError(key, "must be an https URL (plain http only to a loopback address)")
    return text


def _path(key: str, value: Any) -> str:
    text = _string(key, value)
    if not text.strip():
        raise ConfigError(key, "must be a file path")
    return text


@dataclass(frozen=True)
class ServerConfig:
    """The HTTP transport; stdio ignores this table."""

    listen: str = field(default="", metadata={"check": _listen})
    tokens_env: str = field(default="", metadata={"check": _env_name})
    tokens_file: str = field(default="", metadata={"check": _path})
    allowed_hosts: tuple[str, ...] = field(default=(), metadata={"check": _list_of(_host_pattern)})
    allowed_origins: tuple[str, ...] = field(default=(), metadata={"check": _list_of(_origin)})
    max_request_body: int = field(default=65536, metadata={"check": _int(1024)})
    jwks_url: str = field(default="", metadata={"check": _secure_url})
    issuer: str = field(default="", metadata={"check": _http_url})
    audience: str = field(default="", metadata={"check": _string})
    resource_url: str = field(default="", metadata={"check": _http_url})

    @property
    def jwt(self) -> bool:
        return bool(self.jwks_url)

    @property
    def resource(self) -> str:
        """The /mcp URL clients reach (through the proxy), named in the protected-resource metadata."""
        return self.resource_url or self.audience


@dataclass(frozen=True)
class PerTokenLimitsConfig:
    """Calls per minute for each token on top of [limits]; a key left out sets no per-token bound."""

    web_search: int | None = field(default=None, metadata={"check": _int(1)})
    web_fetch: int | None = field(default=None, metadata={"check": _int(1)})
    engine_status: int | None = field(default=None, metadata={"check": _int(1)})


@dataclass(frozen=True)
class StaticToken:
    name: str
    sha256: bytes = field(repr=False)


def _check_server(server: ServerConfig) -> None:
    if server.jwt:
        if not server.issuer:
            raise ConfigError("server.issuer", "must be set with server.jwks_url")
        if not server.audience:
            raise ConfigError("server.audience", "must be set with server.jwks_url")
        if not re.match(r"^https?://", server.resource):
            raise ConfigError(
                "server.resource_url",
                "must be set with server.jwks_url when server.audience is not a URL",
            )
    elif server.issuer or server.audience or server.resource_url:
        key = next(
            f"server.{k}" for k in ("issuer", "audience", "resource_url") if getattr(server, k)
        )
        raise ConfigError(key, "needs server.jwks_url")


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


def _env_tokens(server: ServerConfig, env: Mapping[str, str]) -> list[tuple[str, str, bytes]]:
    key = "server.tokens_env"
    text = env.get(server.tokens_env, "")
    if not text.strip():
        raise ConfigError(key, f"names {server.tokens_env}, which is not set or empty")
    found = []
    for n, pair in enumerate(re.split(r"[\s,]+", text.strip()), start=1):
        name, colon, token = pair.partition(":")
        if not colon or not TOKEN_NAME.match(name):
            raise ConfigError(key, f"pair {n} of {server.tokens_env} must be NAME:TOKEN")
        if len(token) < MIN_TOKEN_CHARS:
            raise ConfigError(
                key, f"the token of {name} must be at least {MIN_TOKEN_CHARS} characters"
            )
        found.append((key, name, hashlib.sha256(token.encode()).digest()))
    return found


def _file_tokens(server: ServerConfig) -> list[tuple[str, str, bytes]]:
    key = "server.tokens_file"
    try:
        lines = Path(server.tokens_file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(
            key, f"cannot read {server.tokens_file}: {exc.__class__.__name__}"
        ) from None
    found = []
    for n, line in enumerate(lines, start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, digest = line.partition(":")
        if not TOKEN_NAME.match(name) or not SHA256_HEX.match(digest.strip().lower()):
            raise ConfigError(
                key, f"line {n} must be NAME:SHA256 (64 hex digits of the token's hash)"
            )
        found.append((key, name, bytes.fromhex(digest.strip())))
    return found


def read_tokens(
    server: ServerConfig, env: Mapping[str, str] | None = None
) -> tuple[StaticToken, ...]:
    """The static bearer tokens of tokens_env and tokens_file, kept only as SHA-256 digests."""
    env = os.environ if env is None else env
    found = []
    if server.tokens_env:
        found += _env_tokens(server, env)
    if server.tokens_file:
        found += _file_tokens(server)
    seen: set[str] = set()
    for key, name, _ in found:
        if name in seen:
            raise ConfigError(key, f"names {name} twice")
        seen.add(name)
    return tuple(StaticToken(name, digest) for _, name, digest in found)


def check_exposure(host: str, server: ServerConfig) -> None:
    """Off loopback, nobody gets in without a token: refuse to start instead."""
    if is_loopback(host):
        return
    if not (server.tokens_env or server.tokens_file or server.jwt):
        raise ConfigError(
            "server.tokens_env",
            f"must be set (or server.tokens_file, or server.jwks_url) to listen on {host}",
        )
    if host in ("", "0.0.0.0", "::") and not server.allowed_hosts:
        raise ConfigError(
            "server.allowed_hosts",
            "must list the Host names clients use when listening on every address",
        )


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
    sections = {name: _section(cls, name, data.get(name, {})) for name, cls in SECTIONS.items()}
    breaker = sections["breaker"]
    if breaker.max_cooldown_s < breaker.cooldown_s:
        raise ConfigError("breaker.max_cooldown_s", "must be at least breaker.cooldown_s")
    sections["state"] = _state(sections["state"], env)
    server = _section(ServerConfig, "server", data.get("server", {}))
    _check_server(server)
    return Config(
        **sections,
        engines=_engines(data.get("engines", {}), env),
        server=server,
        per_token_limits=_section(PerTokenLimitsConfig, "limits.per_token", per_token),
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
