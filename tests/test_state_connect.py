"""Connecting to the store is bounded apart from its operations: a store whose connections
take longer to open than an operation may last (a TLS handshake over a long link) is
still connected at start-up, and a reconnect runs in the background, never inside a call.

Replica A reaches a real redis-server through tests/slow_proxy.py, which holds each
connection's first bytes for ``DELAY_S``; replica B reaches it directly.
"""

from __future__ import annotations

import anyio
import pytest

from rypsok import Client
from rypsok.state.fallback import RETRY_AFTER_S
from tests.conftest import make_config
from tests.engine_servers import json_play
from tests.redis_server import RedisServer
from tests.slow_proxy import SlowProxy

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}
DELAY_S = 0.2
"""Twice the longest bound a store operation may be given (100 ms)."""
BOUND_MS = 100
SLACK_S = 0.3
"""The spec's contract: a call ends within its deadline plus 300 ms."""
BOTH_CACHED = [("github", None), ("stackexchange", None)]


def config(engines, url: str, deadline_ms: int = 1000):
    return make_config(
        engines,
        CODE,
        cache={"enabled": True},
        search={"deadline_ms": deadline_ms},
        state={"url": url, "timeout_ms": BOUND_MS},
    )


def plays(engines) -> None:
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")


def cached(response) -> list[tuple[str, str | None]]:
    return sorted((n.engine, n.reason) for n in response.notices if n.code == "from_cache")


async def shared_from(a: Client, b: Client, engines, query: str) -> list:
    """What B's search for ``query`` found in the cache after A's: BOTH_CACHED when shared."""
    await a.search(query, category="code")
    engines.seen.clear()
    return cached(await b.search(query, category="code"))


async def test_a_store_slow_to_handshake_is_connected_at_start_up(engines, redis):
    plays(engines)
    async with (
        SlowProxy(redis.port, DELAY_S) as proxy,
        Client(config(engines, proxy.url())) as a,
        Client(config(engines, redis.url())) as b,
    ):
        assert await shared_from(a, b, engines, "first calls") == BOTH_CACHED
        assert engines.seen == []
        assert a.state.fallbacks == 0
        assert proxy.accepted == 1


async def test_a_tls_store_slow_to_handshake_is_connected_at_start_up(
    engines, tls_files, monkeypatch, store_server
):
    """The TLS handshake itself is what waits: coredis bounds it with connect_timeout."""
    plays(engines)
    monkeypatch.setenv("SSL_CERT_FILE", tls_files["ca"])
    tls = (tls_files["ip"], tls_files["ip_key"])
    with RedisServer(tls=tls, server=store_server) as server:
        async with (
            SlowProxy(server.port, DELAY_S) as proxy,
            Client(config(engines, proxy.url("rediss"))) as a,
            Client(config(engines, server.url())) as b,
        ):
            assert await shared_from(a, b, engines, "over tls") == BOTH_CACHED
            assert engines.seen == []
            assert a.state.fallbacks == 0
            assert proxy.accepted == 1


async def test_a_reconnect_runs_in_the_background_never_inside_a_call(engines, redis):
    plays(engines)
    deadline_ms = 400
    async with SlowProxy(redis.port, DELAY_S) as proxy:
        slow, direct = config(engines, proxy.url(), deadline_ms), config(engines, redis.url())
        async with Client(slow) as a, Client(direct) as b:
            assert await shared_from(a, b, engines, "before") == BOTH_CACHED
            proxy.drop()
            for n in range(6):
                started = anyio.current_time()
                response = await a.search(f"during {n}", category="code")
                assert response.outcome == "ok"
                assert anyio.current_time() - started < deadline_ms / 1000 + SLACK_S
            assert a.state.fallbacks > 0
            await anyio.sleep(RETRY_AFTER_S)
            assert await shared_from(a, b, engines, "after") == BOTH_CACHED
            assert engines.seen == []
            # one connection opened again, by the background: none by the calls
            assert proxy.accepted == 2
