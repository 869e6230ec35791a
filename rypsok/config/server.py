"""[server] and [limits.per_token]: the Streamable HTTP transport's table, its bearer tokens
(kept as SHA-256 digests) and the checks that refuse an exposed listener without them."""

from __future__ import annotations

import hashlib
import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rypsok.config import checks
from rypsok.config.checks import ConfigError

LOOPBACK_NAMES = ("localhost",)
TOKEN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
SHA256_HEX = re.compile(r"^[0-9a-f]{64}$")
MIN_TOKEN_CHARS = 16
DEFAULT_HTTP_HOST = "127.0.0.1"


def parse_listen(key: str, value: Any) -> tuple[str, int]:
    """``HOST:PORT``, ``[V6]:PORT`` or ``PORT`` (then 127.0.0.1); port 0 picks a free one."""
    text = checks.string(key, value).strip()
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
    text = checks.string(key, value)
    if not text or any(c.isspace() or c in "/," for c in text):
        raise ConfigError(
            key, 'must be a Host header value such as "search.example.org" or "10.0.0.5:*"'
        )
    return text


def _origin(key: str, value: Any) -> str:
    text = checks.string(key, value)
    if not re.fullmatch(r"https?://[^\s/]+", text):
        raise ConfigError(key, 'must be an origin such as "https://search.example.org"')
    return text


def _secure_url(key: str, value: Any) -> str:
    """An https URL; plain http only to a loopback host."""
    text = checks.http_url(key, value)
    host = re.match(r"^https?://(?:[^@/]*@)?(\[[^\]]+\]|[^:/]+)", text)
    bare = host[1].strip("[]") if host else ""
    if text.startswith("http://") and not is_loopback(bare):
        raise ConfigError(key, "must be an https URL (plain http only to a loopback address)")
    return text


@dataclass(frozen=True)
class ServerConfig:
    """The HTTP transport; stdio ignores this table."""

    listen: str = field(default="", metadata={"check": _listen})
    tokens_env: str = field(default="", metadata={"check": checks.env_name})
    tokens_file: str = field(default="", metadata={"check": checks.file_path})
    allowed_hosts: tuple[str, ...] = field(
        default=(), metadata={"check": checks.list_of(_host_pattern)}
    )
    allowed_origins: tuple[str, ...] = field(
        default=(), metadata={"check": checks.list_of(_origin)}
    )
    max_request_body: int = field(default=65536, metadata={"check": checks.integer(1024)})
    body_timeout_ms: int = field(default=10000, metadata={"check": checks.integer(100, 600_000)})
    """How long a request's body may take to arrive once its headers have: 408 past it."""
    jwks_url: str = field(default="", metadata={"check": _secure_url})
    issuer: str = field(default="", metadata={"check": checks.http_url})
    audience: str = field(default="", metadata={"check": checks.string})
    resource_url: str = field(default="", metadata={"check": checks.http_url})

    @property
    def jwt(self) -> bool:
        return bool(self.jwks_url)

    @property
    def resource(self) -> str:
        """The /mcp URL clients reach (through the proxy), named in the protected-resource metadata."""
        return self.resource_url or self.audience


@dataclass(frozen=True)
class PerTokenLimitsConfig:
    """Calls per minute for each token on top of [limits]; a key left out sets no per-token
    bound. ``max_concurrent``: the most web_search (and web_fetch) calls one token may have
    in flight at once; left out, half of [search] (or [fetch]) max_concurrent, rounded up."""

    web_search: int | None = field(default=None, metadata={"check": checks.integer(1)})
    web_fetch: int | None = field(default=None, metadata={"check": checks.integer(1)})
    engine_status: int | None = field(default=None, metadata={"check": checks.integer(1)})
    max_concurrent: int | None = field(default=None, metadata={"check": checks.integer(1)})


@dataclass(frozen=True)
class StaticToken:
    name: str
    sha256: bytes = field(repr=False)


def check_server(server: ServerConfig) -> None:
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
