"""An engine's connection pool (metasearch/pool.py) against a real loopback server: what it
keeps, reuses, bounds and closes."""

from __future__ import annotations

import ssl

import anyio
import httpcore
import pytest

from rypsok.engines.request import Wire
from rypsok.metasearch.orchestrate import TLS_CONTEXT
from rypsok.metasearch.pool import EnginePool
from tests.engine_servers import EngineServer, Play

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["trio", "asyncio"])
def anyio_backend(request) -> str:
    """The library runs under either loop; its connections use httpcore's backend for each."""
    return request.param


@pytest.fixture
def engines():
    """A server for each test (conftest's is one per module): these tests count the
    connections open, and an earlier test's handler may still be closing under load."""
    with EngineServer() as server:
        yield server


async def make_pool(
    max_connections: int = 4,
    max_idle: int = 4,
    keepalive_expiry: float = 5.0,
    tls: ssl.SSLContext | None = None,
) -> EnginePool:
    tls = tls or await TLS_CONTEXT.get()
    return EnginePool(tls, max_connections, max_idle, keepalive_expiry)


def wire(server: EngineServer, engine: str = "x") -> Wire:
    host = f"{server.host}:{server.port}".encode()
    return Wire(
        "GET",
        server.scheme.encode(),
        server.host.encode(),
        server.port,
        f"/e/{engine}/search".encode(),
        [(b"Host", host)],
        b"",
    )


async def get(pool: EnginePool, server: EngineServer, engine: str = "x") -> tuple[int, bytes]:
    """One GET through the pool, its body read and its answer closed (as _send does)."""
    answer = await pool.send(wire(server, engine))
    try:
        body = b"".join([part async for part in answer.body])
    finally:
        await answer.body.aclose()
    return answer.status, body


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


async def test_an_idle_connection_the_server_closed_is_not_used(engines):
    engines.plays["x"] = Play(body=b"{}", mode="answer_then_close")
    pool = await make_pool()
    try:
        assert await get(pool, engines) == (200, b"{}")
        assert pool.idle == 1  # nothing in the answer said it would close
        await until(lambda: engines.connections_open == 0)
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
        nothing = Wire("GET", b"http", b"127.0.0.1", 9, b"/", [(b"Host", b"x")], b"")
        for _ in range(2):
            with pytest.raises(httpcore.ConnectError):
                await pool.send(nothing)
        assert pool.connections == 0


@pytest.mark.parametrize(
    ("mode", "error"),
    [
        ("close", httpcore.RemoteProtocolError),
        ("short", httpcore.RemoteProtocolError),
        ("rst", httpcore.ReadError),
    ],
)
async def test_a_server_that_fails_before_its_answer_ends_is_httpcores_error(engines, mode, error):
    engines.plays["x"] = Play(mode=mode, body=b'{"results": []}')
    pool = await make_pool(max_connections=1)
    try:
        with pytest.raises(error):
            await get(pool, engines)
        assert pool.connections == 0
        engines.plays["x"] = Play(body=b"{}")
        with anyio.fail_after(2):
            assert await get(pool, engines) == (200, b"{}")
    finally:
        await pool.aclose()


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


@pytest.fixture(scope="module")
def tls_server():
    """An engine over TLS with a certificate for 127.0.0.1 from a CA of the test's own, and a
    client context that trusts that CA (and one that trusts another)."""
    import trustme

    ca, stranger = trustme.CA(), trustme.CA()
    server_side = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_side.set_alpn_protocols(["h2", "http/1.1"])
    ca.issue_cert("127.0.0.1").configure_cert(server_side)
    trusting, refusing = ssl.create_default_context(), ssl.create_default_context()
    ca.configure_trust(trusting)
    stranger.configure_trust(refusing)
    with EngineServer(tls=server_side) as server:
        server.plays["x"] = Play(body=b'{"tls": true}')
        yield server, trusting, refusing


async def test_an_engine_over_tls_is_reached_by_http_1_1_and_its_connection_kept(tls_server):
    server, trusting, _ = tls_server
    pool = await make_pool(tls=trusting)
    opened = server.connections_opened
    try:
        for _ in range(3):
            assert await get(pool, server) == (200, b'{"tls": true}')
        assert server.connections_opened - opened == 1
        assert (pool.connections, pool.idle) == (1, 1)
        # The server would speak h2 if offered: the client offers HTTP/1.1 only.
        assert server.alpn == "http/1.1"
    finally:
        await pool.aclose()


async def test_a_certificate_the_client_does_not_trust_is_a_connect_error(tls_server):
    server, _, refusing = tls_server
    pool = await make_pool(max_connections=1, tls=refusing)
    try:
        for _ in range(2):
            with pytest.raises(httpcore.ConnectError):
                await get(pool, server)
        assert pool.connections == 0
    finally:
        await pool.aclose()
