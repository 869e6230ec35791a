"""An engine's connection pool (metasearch/pool.py) against a real loopback server: what it
keeps, reuses, bounds and closes."""

from __future__ import annotations

import anyio
import httpcore
import pytest

from rypsok.metasearch.orchestrate import TLS_CONTEXT
from rypsok.metasearch.pool import EnginePool
from tests.engine_servers import EngineServer, Play

pytestmark = pytest.mark.anyio


@pytest.fixture
def engines():
    """A server for each test (conftest's is one per module): these tests count the
    connections open, and an earlier test's handler may still be closing under load."""
    with EngineServer() as server:
        yield server


async def make_pool(
    max_connections: int = 4, max_idle: int = 4, keepalive_expiry: float = 5.0
) -> EnginePool:
    return EnginePool(await TLS_CONTEXT.get(), max_connections, max_idle, keepalive_expiry)


async def get(pool: EnginePool, server: EngineServer, engine: str = "x") -> tuple[int, bytes]:
    """One GET through the pool, its body read and its response closed (as _send does)."""
    request = httpcore.Request(
        "GET",
        server.endpoint(engine) + "/search",
        headers=[(b"Host", f"{server.host}:{server.port}".encode())],
    )
    response = await pool.handle_async_request(request)
    try:
        body = b"".join([part async for part in response.stream])
    finally:
        await response.aclose()
    return response.status, body


async def until(condition, timeout_s: float = 3.0) -> None:
    """Wait for what the server's handler threads see to catch up."""
    with anyio.fail_after(timeout_s):
        while not condition():
            await anyio.sleep(0.01)


async def test_a_connection_is_kept_alive_and_reused(engines):
    engines.plays["x"] = Play(body=b"{}")
    pool = await make_pool()
    try:
        for _ in range(5):
            assert await get(pool, engines) == (200, b"{}")
        assert engines.connections_opened == 1
        assert (pool.connections, pool.idle) == (1, 1)
    finally:
        await pool.aclose()


async def test_no_more_than_max_connections_are_open_at_once(engines):
    engines.plays["x"] = Play(body=b"{}", delay_s=0.2)
    pool = await make_pool(max_connections=2, max_idle=2)
    answers = []

    async def one() -> None:
        answers.append(await get(pool, engines))

    try:
        async with anyio.create_task_group() as group:
            for _ in range(5):
                group.start_soon(one)
        assert answers == [(200, b"{}")] * 5
        assert engines.most_open <= 2 and engines.connections_opened == 2
    finally:
        await pool.aclose()


async def test_idle_connections_are_kept_while_the_pool_holds_no_more_than_max_idle(engines):
    engines.plays["x"] = Play(body=b"{}", delay_s=0.2)
    pool = await make_pool(max_connections=6, max_idle=3)
    try:
        async with anyio.create_task_group() as group:
            for _ in range(6):
                group.start_soon(get, pool, engines)
        assert engines.connections_opened == 6
        assert pool.connections <= 3 and pool.idle == pool.connections
        await until(lambda: engines.connections_open <= 3)
    finally:
        await pool.aclose()


async def test_an_expired_connection_is_closed_not_used(engines):
    engines.plays["x"] = Play(body=b"{}")
    pool = await make_pool(keepalive_expiry=0.2)
    try:
        await get(pool, engines)
        await anyio.sleep(0.3)
        assert await get(pool, engines) == (200, b"{}")
        assert engines.connections_opened == 2
        assert (pool.connections, pool.idle) == (1, 1)
    finally:
        await pool.aclose()


async def test_a_connection_the_server_closes_is_not_kept(engines):
    engines.plays["x"] = Play(body=b"{}", headers={"Connection": "close"})
    pool = await make_pool()
    try:
        assert await get(pool, engines) == (200, b"{}")
        assert (pool.connections, pool.idle) == (0, 0)
        assert await get(pool, engines) == (200, b"{}")
        assert engines.connections_opened == 2
    finally:
        await pool.aclose()


async def test_a_cancelled_request_closes_its_connection_and_frees_its_place(engines):
    engines.plays["x"] = Play(mode="hang")
    pool = await make_pool(max_connections=1, max_idle=1)
    try:
        with anyio.move_on_after(0.2):
            await get(pool, engines)
        assert pool.connections == 0
        engines.plays["x"] = Play(body=b"{}")
        with anyio.fail_after(2):
            assert await get(pool, engines) == (200, b"{}")
        assert engines.connections_opened == 2
    finally:
        await pool.aclose()


async def test_a_request_that_cannot_connect_frees_its_place():
    with anyio.fail_after(5):
        pool = await make_pool(max_connections=1, max_idle=1)
        nothing = httpcore.Request("GET", "http://127.0.0.1:9/", headers=[(b"Host", b"x")])
        for _ in range(2):
            with pytest.raises(httpcore.ConnectError):
                await pool.handle_async_request(nothing)
        assert pool.connections == 0


async def test_aclose_closes_every_connection():
    # A server of its own: the shared one's handlers of earlier tests (a hanging answer) may
    # close while this test counts, under load, and move the count it compares with.
    with EngineServer() as server:
        server.plays["x"] = Play(body=b"{}")
        pool = await make_pool()
        await get(pool, server)
        await until(lambda: server.connections_open == 1)
        await pool.aclose()
        assert pool.connections == 0
        await until(lambda: server.connections_open == 0)
