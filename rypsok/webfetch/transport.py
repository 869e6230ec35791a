"""web_fetch's HTTP transport: the egress policy judged at connect time.

Connect-time vetting: httpcore hands the network backend the host name and port of each
new connection. :class:`VettedBackend` resolves the name once, judges every address with
the egress policy (a name is refused if any of its addresses is refused) and connects only
to an address it judged, so a name that changes its answer between a check and the
connection (DNS rebinding) cannot slip through. TLS still runs against the host name:
httpcore passes the origin's host as the server name, so SNI and certificate checks are
unchanged.

The fetcher calls :class:`VettedTransport` directly, never through an ``httpx.AsyncClient``:
a client reads every redirect's Location to prepare the next request even when it does not
follow redirects, and raises ``InvalidURL`` on ``javascript:`` and the like before rypsok
can judge the target. Bodies are read with :mod:`rypsok.net.body`.
"""

from __future__ import annotations

import logging
import ssl
from collections.abc import Iterable
from typing import TYPE_CHECKING

import httpcore
import httpx

from rypsok.webfetch.resolver import IPAddress, ResolutionFailed, Resolver

if TYPE_CHECKING:
    from rypsok.webfetch.egress import EgressPolicy

log = logging.getLogger("rypsok.webfetch")


class EgressRefused(Exception):
    """The name resolves to at least one address the egress policy refuses."""

    def __init__(self, denial: str):
        super().__init__(denial)
        self.denial = denial


class VettedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's AnyIO backend (Trio and asyncio), connecting only to judged addresses."""

    def __init__(self, policy: EgressPolicy, resolver: Resolver):
        self._policy = policy
        self._resolver = resolver
        self._inner = httpcore.AnyIOBackend()

    async def judged_addresses(self, host: str, port: int) -> list[IPAddress]:
        """Every address of ``host``, all of them allowed; else EgressRefused (logged as
        ``refused`` with the denial's name, never the host) or ResolutionFailed."""
        addresses = await self._resolver.resolve(host, port)
        if not addresses:
            raise ResolutionFailed("no address")
        for address in addresses:
            denial = self._policy.refusal(address)
            if denial is not None:
                log.warning("refused", extra={"fields": {"denial": denial}})
                raise EgressRefused(denial)
        return addresses

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        failure: Exception | None = None
        for address in await self.judged_addresses(host, port):
            try:
                return await self._inner.connect_tcp(
                    str(address),
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise EgressRefused("unix_socket")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class VettedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport over a connection pool whose connections go through VettedBackend.

    httpx.AsyncHTTPTransport takes no network backend, so its pool (``_pool``) is replaced
    by one built with ours; request and exception mapping stay httpx's own. No proxy is
    ever used (environment variables are ignored).
    """

    def __init__(
        self,
        backend: VettedBackend,
        ssl_context: ssl.SSLContext,
        *,
        max_connections: int = 16,
        max_keepalive_connections: int = 8,
        keepalive_expiry: float = 5.0,
    ):
        super().__init__(verify=ssl_context, trust_env=False, http1=True, http2=False)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context,
            max_connections=max_connections,
            max_keepalive_connections=max_keepalive_connections,
            keepalive_expiry=keepalive_expiry,
            http1=True,
            http2=False,
            network_backend=backend,
        )
