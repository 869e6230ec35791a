"""Shared fixtures: one engine server per test module, and configurations pointing at it."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from rypsok.config import Config, config_from_dict
from rypsok.engines.registry import ENGINE_IDS
from tests.engine_servers import EngineServer
from tests.mcp_harness import TRANSPORTS
from tests.redis_server import installed_servers


@pytest.fixture
def anyio_backend() -> str:
    return "trio"


@pytest.fixture(scope="module", autouse=True)
def settled_heap() -> None:
    """What earlier modules left on the heap is collected once and frozen (``gc.freeze``).

    The deadline contracts are asserted to within 300 ms, and the test process's heap grows
    far beyond a server's: 859,000 objects by tests/test_resilience.py, where a full
    collection took 0.46 s on the 2-core machine and once stalled a burst of searches past
    their deadline (a rypsok server holds about 115,000 objects, 68 ms). Frozen objects are
    left out of later collections, so one during a test scans what its own module made."""
    gc.collect()
    gc.freeze()


@pytest.fixture(params=TRANSPORTS)
def transport(request: pytest.FixtureRequest) -> str:
    """The MCP-level tests run over stdio and over Streamable HTTP alike."""
    return request.param


@pytest.fixture(scope="module")
def engine_server():
    with EngineServer() as server:
        yield server


@pytest.fixture
def engines(engine_server: EngineServer) -> EngineServer:
    engine_server.reset()
    return engine_server


def config_data(
    server: EngineServer,
    enabled: set[str],
    engine_overrides: dict[str, dict] | None = None,
    **sections: dict[str, Any],
) -> dict[str, Any]:
    """TOML-shaped data: the ``enabled`` engines point at ``server``, every other engine is off."""
    engine_tables: dict[str, dict[str, Any]] = {}
    for engine_id in ENGINE_IDS:
        if engine_id in enabled:
            table: dict[str, Any] = {
                "endpoint": server.endpoint(engine_id),
                "rate_per_minute": 1000,
            }
        else:
            table = {"enabled": False}
        table.update((engine_overrides or {}).get(engine_id, {}))
        engine_tables[engine_id] = table
    return {**sections, "engines": engine_tables}


def make_config(
    server: EngineServer,
    enabled: set[str],
    engine_overrides: dict[str, dict] | None = None,
    env: dict[str, str] | None = None,
    **sections: dict[str, Any],
) -> Config:
    return config_from_dict(
        config_data(server, enabled, engine_overrides, **sections), env=env or {}
    )


@pytest.fixture(scope="session", params=installed_servers())
def store_server(request) -> str:
    """Each shared-state test runs against every store server installed: redis-server,
    valkey-server (ids redis-server, valkey-server)."""
    return request.param


@pytest.fixture(scope="module")
def redis_server(store_server):
    """A real redis-server (or valkey-server) on a free loopback port, once per module."""
    from tests.redis_server import RedisServer

    with RedisServer(server=store_server) as server:
        yield server


@pytest.fixture
def redis(redis_server):
    """The module's redis-server, running and empty."""
    redis_server.flush()
    return redis_server


def _topology(form: str, store_server: str):
    from tests.redis_topologies import FORMS

    topology = FORMS[form](server=store_server)
    topology.start()
    try:
        yield topology
    finally:
        topology.stop()


@pytest.fixture(scope="session")
def server_topology(store_server):
    yield from _topology("server", store_server)


@pytest.fixture(scope="session")
def sentinel_topology(store_server):
    yield from _topology("sentinel", store_server)


@pytest.fixture(scope="session")
def cluster_topology(store_server):
    yield from _topology("cluster", store_server)


@pytest.fixture(scope="session", params=["server", "sentinel", "cluster"])
def store_topology(request, store_server):
    """Each form of shared store, once per session: one server, a Sentinel-managed primary
    with a replica, a Cluster of three primaries (tests/redis_topologies.py)."""
    return request.getfixturevalue(f"{request.param}_topology")


@pytest.fixture
def store(store_topology):
    """The module's store of each form, running and empty."""
    store_topology.flush()
    return store_topology


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory) -> dict[str, str]:
    """A CA and certificates for 127.0.0.1 (ip) and redis.test (name), and a CA nobody
    trusts (stranger), as files."""
    import trustme

    folder = tmp_path_factory.mktemp("tls")
    ca, stranger = trustme.CA(), trustme.CA()
    files = {}
    for name, cert in (("ip", ca.issue_cert("127.0.0.1")), ("name", ca.issue_cert("redis.test"))):
        cert.cert_chain_pems[0].write_to_path(folder / f"{name}.pem")
        cert.private_key_pem.write_to_path(folder / f"{name}.key")
        files[name] = str(folder / f"{name}.pem")
        files[f"{name}_key"] = str(folder / f"{name}.key")
    ca.cert_pem.write_to_path(folder / "ca.pem")
    stranger.cert_pem.write_to_path(folder / "stranger.pem")
    return {**files, "ca": str(folder / "ca.pem"), "stranger": str(folder / "stranger.pem")}
