"""Running the HTTP app: Hypercorn's Trio worker in the same Trio run (behind rypsok's
accept loop, rypsok.serve_http.listen), one Client for all.

SIGTERM (or SIGINT) starts a graceful shutdown: Hypercorn stops accepting, calls in flight
finish within their deadline (the grace period is the longest a call may last), then the
Client closes and the process exits 0.
"""

from __future__ import annotations

import functools
import logging
import signal

import trio
from hypercorn.config import Config as HypercornConfig

from rypsok import bounds
from rypsok.client import Client
from rypsok.config import Config
from rypsok.serve_http.app import build_app
from rypsok.serve_http.auth import JwksVerifier, StaticTokens, Verifier
from rypsok.serve_http.listen import connection_limit, open_file_limit
from rypsok.serve_http.listen import serve as serve_listeners
from rypsok.serve_http.metrics import Metrics
from rypsok.serve_http.plan import Plan

log = logging.getLogger("rypsok.http")

GRACE_MARGIN_S = 1.0
HEADERS_WITHIN_S = 5.0
"""How long a new connection (or one kept alive between requests) may take to send a
request's headers before it is closed (Hypercorn's keep_alive_timeout)."""


def grace_period_s(config: Config) -> float:
    """The longest a call in flight may still take, and a margin."""
    search_s = config.search.deadline_ms / 1000
    fetch_s = config.fetch.timeout_ms / 1000 + bounds.FETCH_EXTRACTION_S
    return max(search_s, fetch_s) + GRACE_MARGIN_S


async def _until_signalled() -> None:
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async for signum in signals:
            log.info("shutting_down", extra={"fields": {"signal": signal.Signals(signum).name}})
            return


def _bind(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def serve(config: Config, plan: Plan) -> None:
    metrics = Metrics()
    jwks = JwksVerifier(config.server) if config.server.jwt else None
    verifier = Verifier(StaticTokens(plan.tokens), jwks)
    hypercorn = HypercornConfig()
    hypercorn.bind = [_bind(plan.host, plan.port)]
    hypercorn.errorlog = logging.getLogger("rypsok.http.hypercorn")
    hypercorn.accesslog = None
    hypercorn.graceful_timeout = grace_period_s(config)
    hypercorn.keep_alive_timeout = HEADERS_WITHIN_S
    hypercorn.include_server_header = False
    max_connections = connection_limit(config, open_file_limit())
    try:
        async with Client(config, observer=metrics) as client, trio.open_nursery() as nursery:
            metrics.watch(lambda: client.last_engine_states)
            app = build_app(config, client, metrics, verifier, plan.host)
            binds = await nursery.start(
                functools.partial(
                    serve_listeners,
                    app,
                    hypercorn,
                    max_connections,
                    shutdown_trigger=_until_signalled,
                )
            )
            log.info(
                "listening",
                extra={
                    "fields": {
                        "urls": [f"{bind}/mcp" for bind in binds],
                        "tokens": [token.name for token in plan.tokens],
                        "jwt": config.server.jwt,
                        "max_connections": max_connections,
                    }
                },
            )
    finally:
        await verifier.aclose()
    log.info("stopped")
