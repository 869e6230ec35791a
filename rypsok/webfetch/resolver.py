"""Name resolution for web_fetch, as a seam: the system resolver, or a fixed table in tests.

A resolver returns every address a name has; the transport judges them all before it
connects (see :mod:`rypsok.webfetch.transport`).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Mapping, Sequence
from typing import Protocol

import anyio

from rypsok.net.egress import IPAddress


class ResolutionFailed(Exception):
    """The name has no address (no such name, or the resolver failed)."""


class Resolver(Protocol):
    async def resolve(self, host: str, port: int) -> list[IPAddress]:
        """Every address of ``host``, without duplicates; raise ResolutionFailed if none."""
        ...


def literal_address(host: str) -> IPAddress | None:
    """``host`` as an IP address when it is written as one (IPv6 with or without brackets)."""
    try:
        return ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        return None


def _unique(addresses: Sequence[IPAddress]) -> list[IPAddress]:
    return list(dict.fromkeys(addresses))


class SystemResolver:
    """The operating system's resolver (getaddrinfo in a worker thread, via AnyIO)."""

    async def resolve(self, host: str, port: int) -> list[IPAddress]:
        literal = literal_address(host)
        if literal is not None:
            return [literal]
        try:
            answers = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:
            raise ResolutionFailed(type(exc).__name__) from None
        addresses = []
        for _family, _type, _proto, _canonname, sockaddr in answers:
            try:
                addresses.append(ipaddress.ip_address(sockaddr[0]))
            except ValueError:
                continue
        if not addresses:
            raise ResolutionFailed("no address")
        return _unique(addresses)


class StaticResolver:
    """A fixed table of names to addresses (tests); literal addresses resolve to themselves."""

    def __init__(self, mapping: Mapping[str, Sequence[str]]):
        self._table = {
            name.lower().rstrip("."): [ipaddress.ip_address(a) for a in addresses]
            for name, addresses in mapping.items()
        }

    async def resolve(self, host: str, port: int) -> list[IPAddress]:
        literal = literal_address(host)
        if literal is not None:
            return [literal]
        addresses = self._table.get(host.lower().rstrip("."))
        if not addresses:
            raise ResolutionFailed("no address")
        return _unique(addresses)
