"""What can refuse to start the team server, checked before anything serving needs loads."""

from __future__ import annotations

from dataclasses import dataclass

from rypsok.config import (
    Config,
    ConfigError,
    StaticToken,
    check_exposure,
    parse_listen,
    read_tokens,
)


@dataclass(frozen=True)
class Plan:
    host: str
    port: int
    tokens: tuple[StaticToken, ...]


def prepare(config: Config, listen: str | None = None) -> Plan:
    """Everything that can refuse to start, before anything listens: raises ConfigError."""
    if listen:
        host, port = parse_listen("--http", listen)
    elif config.server.listen:
        host, port = parse_listen("server.listen", config.server.listen)
    else:
        raise ConfigError("server.listen", "must be set, or --http given, to serve over HTTP")
    check_exposure(host, config.server)
    return Plan(host, port, read_tokens(config.server))
