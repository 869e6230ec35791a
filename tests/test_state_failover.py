"""A store that survives its own failures: a Sentinel-managed primary killed (or handed
over) mid-run, and a Cluster whose primaries each hold part of one search's keys.

Two library Clients stand for two replicas, as in tests/test_state.py; the servers are
real (tests/redis_topologies.py), each test's own, so that a failover in one leaves the
next a fresh set. What must hold: every call is answered within its deadline while the
sentinels have no primary to name; once they name the new one, the replicas share again
within two seconds without a restart, and what was replicated before the kill still
counts.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio
import pytest

from rypsok import Client, ToolError
from rypsok.state import token_window
from rypsok.state.fallback import RETRY_AFTER_S
from tests.conftest import make_config
from tests.engine_servers import json_play
from tests.redis_server import sharing_bound
from tests.redis_topologies import ClusterTopology, SentinelTopology

pytestmark = pytest.mark.anyio

CODE = {"github", "stackexchange"}
SLACK_S = 0.3
"""The spec's contract: a call ends within its deadline plus 300 ms."""
SHARING_AGAIN_S = 2.0
"""The issue's bound: sharing again this long after the new primary is known."""
BOTH_CACHED = [("github", None), ("stackexchange", None)]


def plays(engines) -> None:
    engines.plays["github"] = json_play("github/search.json")
    engines.plays["stackexchange"] = json_play("stackexchange/search.json")


def cached(response) -> list[tuple[str, str | None]]:
    return sorted((n.engine, n.reason) for n in response.notices if n.code == "from_cache")


@pytest.fixture
def sentinels(store_server):
    topology = SentinelTopology(server=store_server)
    topology.start()
    try:
        yield topology
    finally:
        topology.stop()


def config(engines, topology, deadline_ms: int = 1000):
    return make_config(
        engines,
        CODE,
        cache={"enabled": True},
        search={"deadline_ms": deadline_ms},
        # calls every tenth of a second until the failover ends: no limit reached meanwhile
        limits={"web_search": 1000, "engine_status": 1000},
        state=topology.state(timeout_ms=100),
    )


def patient(engines, topology):
    """For the tests of what is kept, not of the deadline: SHARING_BOUND_MS."""
    return sharing_bound(config(engines, topology))


async def shared_within(a: Client, b: Client, engines, bound_s: float) -> float:
    """How long until a search on A is a cache hit on B (each try a new query), failing
    past ``bound_s``."""
    started = anyio.current_time()
    n = 0
    while anyio.current_time() - started < bound_s:
        n += 1
        await a.search(f"after {n}", category="code")
        engines.seen.clear()
        if cached(await b.search(f"after {n}", category="code")) == BOTH_CACHED:
            return anyio.current_time() - started
        await anyio.sleep(0.05)
    raise AssertionError(f"the replicas did not share again within {bound_s} s")


async def timed_calls_until(done: Callable[[], bool], *clients: Client) -> list[float]:
    """A search and an engine_status on each client every tenth of a second until ``done()``
    (within 30 s), every search ``ok``: how long each call took."""
    timings: list[float] = []
    n = 0
    with anyio.fail_after(30):
        while not done():
            n += 1
            for client in clients:
                started = anyio.current_time()
                response = await client.search(f"during {n}", category="code")
                timings.append(anyio.current_time() - started)
                assert response.outcome == "ok"
                started = anyio.current_time()
                await client.engine_status()
                timings.append(anyio.current_time() - started)
            await anyio.sleep(0.1)
    return timings


async def write_before(engines, topology) -> None:
    """A cached answer and a per-token window taken twice, written by a third replica whose
    bound no load passes (SHARING_BOUND_MS): what is tested is what becomes of them, not
    whether a loaded machine let them be written."""
    async with Client(patient(engines, topology)) as writer:
        await writer.search("before", category="code")
        await writer.take_minute(token_window("alice", "web_search"), 2)
        assert writer.state.fallbacks == 0


async def assert_still_counted(engines, topology) -> None:
    """What ``write_before`` wrote is still there after the failover, and still counts."""
    async with (
        Client(patient(engines, topology)) as c,
        Client(patient(engines, topology)) as d,
    ):
        engines.seen.clear()
        assert cached(await c.search("before", category="code")) == BOTH_CACHED
        await d.take_minute(token_window("alice", "web_search"), 2)
        with pytest.raises(ToolError) as raised:
            await c.take_minute(token_window("alice", "web_search"), 2)
        assert raised.value.detail["reason"] == "rate_limited"
        assert c.state.fallbacks == d.state.fallbacks == 0


async def test_two_replicas_share_through_a_primary_killed_mid_run(engines, sentinels):
    """The primary killed, and the first sentinel hung (SIGSTOP) with it."""
    plays(engines)
    deadline_ms = 800
    async with (
        Client(config(engines, sentinels, deadline_ms)) as a,
        Client(config(engines, sentinels, deadline_ms)) as b,
    ):
        assert a.state.reach()["primary"] == f"127.0.0.1:{sentinels.primary.port}"
        await write_before(engines, sentinels)
        # replicated before the kill: what the replica has is what the new primary has
        sentinels.wait_replicated()
        old_port = sentinels.primary_port()
        # the sentinel every replica asked first hangs: the other two fail over, and are
        # asked in its stead
        sentinels.sentinels[0].pause()
        sentinels.primary.kill()

        timings = await timed_calls_until(lambda: sentinels.primary_port() != old_port, a, b)
        assert sentinels.primary_port() == sentinels.replica.port
        assert timings and max(timings) < deadline_ms / 1000 + SLACK_S
        assert a.state.fallbacks > 0 and b.state.fallbacks > 0

        await shared_within(a, b, engines, SHARING_AGAIN_S)
        assert a.state.reach()["primary"] == f"127.0.0.1:{sentinels.replica.port}"
    # written before the failover and replicated: still there, still counted
    await assert_still_counted(engines, sentinels)


async def test_a_handed_over_primary_is_followed_and_never_written_to(engines, sentinels):
    """SENTINEL FAILOVER: the old primary stays up (the sentinels make it a replica later).
    Every replica moves its writes to the new primary once the sentinels name it."""
    plays(engines)
    async with (
        Client(patient(engines, sentinels)) as a,
        Client(patient(engines, sentinels)) as b,
    ):
        await a.search("before", category="code")
        old_port = sentinels.primary_port()
        assert sentinels.sentinels[0].reply("SENTINEL", "FAILOVER", "rypsok") == b"OK"
        with anyio.fail_after(30):
            while sentinels.primary_port() == old_port:
                await anyio.sleep(0.05)
        known = anyio.current_time()
        new_primary = f"127.0.0.1:{sentinels.replica.port}"
        while {a.state.reach()["primary"], b.state.reach()["primary"]} != {new_primary}:
            assert anyio.current_time() - known < SHARING_AGAIN_S
            await a.search("during", category="code")
            await b.search("during", category="code")
            await anyio.sleep(0.05)
        await shared_within(a, b, engines, SHARING_AGAIN_S - (anyio.current_time() - known))
        # from here on every operation reaches the new primary
        fallbacks = (a.state.fallbacks, b.state.fallbacks)
        for n in range(3):
            await a.search(f"settled {n}", category="code")
            assert cached(await b.search(f"settled {n}", category="code")) == BOTH_CACHED
        assert (a.state.fallbacks, b.state.fallbacks) == fallbacks


async def test_a_primary_demoted_under_the_connection_is_left_at_its_first_refused_write(
    engines, sentinels
):
    """-READONLY: the primary is made a replica while no sentinel can say so (all three
    hung). Its first refused write closes the connection, and the call is answered within its
    deadline from memory; once the sentinels answer again, the connection goes to the
    primary they name."""
    plays(engines)
    deadline_ms = 800
    primary, replica = sentinels.primary, sentinels.replica
    async with Client(config(engines, sentinels, deadline_ms)) as a:
        assert a.state.reach()["primary"] == f"127.0.0.1:{primary.port}"
        for sentinel in sentinels.sentinels:
            sentinel.pause()
        try:
            replica.command("REPLICAOF", "NO", "ONE")
            primary.command("REPLICAOF", "127.0.0.1", str(replica.port))
            assert b"role:slave" in primary.reply("INFO", "replication")  # type: ignore[operator]
            fallbacks = a.state.fallbacks
            started = anyio.current_time()
            response = await a.search("demoted", category="code")
            assert anyio.current_time() - started < deadline_ms / 1000 + SLACK_S
            assert response.outcome == "ok"
            assert a.state.fallbacks > fallbacks
            assert a.state.reach()["primary"] is None
        finally:
            primary.command("REPLICAOF", "NO", "ONE")
            replica.command("REPLICAOF", "127.0.0.1", str(primary.port))
            for sentinel in sentinels.sentinels:
                sentinel.resume()
        # the store is tried again RETRY_AFTER_S after the failure
        with anyio.fail_after(RETRY_AFTER_S + SHARING_AGAIN_S + 5):
            n, fallbacks = 0, -1
            while fallbacks != a.state.fallbacks:
                n, fallbacks = n + 1, a.state.fallbacks
                await a.search(f"after {n}", category="code")
                await anyio.sleep(0.1)
        assert a.state.reach()["primary"] == f"127.0.0.1:{primary.port}"


async def test_one_search_whose_keys_live_on_different_primaries(engines, cluster_topology):
    cluster = cluster_topology
    """github's keys and stackexchange's hash to slots of different primaries; the call's
    window and the cache to a third slot. Each script stays in one slot."""
    cluster.flush()
    plays(engines)
    holders = {
        tag: cluster.node_for(cluster.key(tag, "x")).port
        for tag in ("main", "engine:github", "engine:stackexchange")
    }
    assert holders["engine:github"] != holders["engine:stackexchange"]
    data = sharing_bound(
        make_config(
            engines,
            CODE,
            cache={"enabled": True},
            limits={"web_search": 3},
            state=cluster.state(),
        )
    )
    async with Client(data) as a, Client(data) as b:
        assert await a.state.store_answers()
        assert a.state.reach() == {"form": "cluster", "nodes": 3, "nodes_reached": 3}
        await a.search("spread", category="code")
        engines.seen.clear()
        assert cached(await b.search("spread", category="code")) == BOTH_CACHED
        assert engines.seen == []
        await b.search("third", category="code")
        with pytest.raises(ToolError) as raised:
            await a.search("fourth", category="code")
        assert raised.value.detail["reason"] == "rate_limited"
        assert a.state.fallbacks == b.state.fallbacks == 0
    for tag, engine in (("engine:github", "github"), ("engine:stackexchange", "stackexchange")):
        window = cluster.key(tag, f"window:engine:{engine}")
        holder = cluster.node_for(window)
        assert holder.port == holders[tag]
        assert holder.reply("ZCARD", window) == 2
    window = cluster.key("main", "window:tool:web_search")
    assert cluster.node_for(window).reply("ZCARD", window) == 3


async def test_a_hung_cluster_primary_costs_a_call_at_most_its_bound(engines, cluster_topology):
    """The primary of stackexchange's slot hangs (SIGSTOP): the operations that reach it,
    split by slot and sent at once, are cut off at the bound together, and every call is
    answered from memory within its deadline."""
    cluster = cluster_topology
    cluster.flush()
    plays(engines)
    deadline_ms = 500
    data = make_config(
        engines,
        CODE,
        search={"deadline_ms": deadline_ms},
        state=cluster.state(timeout_ms=50),
    )
    hung = cluster.node_for(cluster.key("engine:stackexchange", "x"))
    async with Client(data) as a:
        await a.search("warm", category="code")
        assert a.state.fallbacks == 0
        hung.pause()
        try:
            for n in range(3):
                started = anyio.current_time()
                response = await a.search(f"hung {n}", category="code")
                assert response.outcome == "ok"
                assert anyio.current_time() - started < deadline_ms / 1000 + SLACK_S
                await anyio.sleep(RETRY_AFTER_S / 2)  # the store is tried again
            assert not await a.state.store_answers()
            assert a.state.reach()["nodes_reached"] == 2
        finally:
            hung.resume()
            cluster.wait_healthy()
        assert a.state.fallbacks >= 3


@pytest.fixture
def cluster_with_replicas(store_server):
    """Three primaries with a replica each; a primary that stops answering for a second is
    voted out and its replica takes its slots."""
    topology = ClusterTopology(server=store_server, replicas=1, node_timeout_ms=1000)
    topology.start()
    try:
        yield topology
    finally:
        topology.stop()


async def test_a_cluster_primary_killed_is_replaced_by_its_replica(engines, cluster_with_replicas):
    """The primary of the calls' windows (the ``{main}`` slot) is killed; its replica is
    promoted by the Cluster's own vote. Every call is answered within its deadline meanwhile;
    once the Cluster is whole again the replicas share within two seconds, and what was
    replicated before the kill still counts."""
    cluster = cluster_with_replicas
    plays(engines)
    deadline_ms = 800
    victim = cluster.node_for(cluster.key("main", "x"))
    (successor,) = cluster.replicas_of(victim)
    cluster.entry = next(node for node in cluster.nodes if node not in (victim, successor))
    async with (
        Client(config(engines, cluster, deadline_ms)) as a,
        Client(config(engines, cluster, deadline_ms)) as b,
    ):
        assert a.state.reach() == {"form": "cluster", "nodes": 6, "nodes_reached": 6}
        await write_before(engines, cluster)
        cluster.wait_replicated()
        victim.kill()

        timings = await timed_calls_until(
            lambda: cluster.node_for(cluster.key("main", "x")) is successor, a, b
        )
        cluster.wait_healthy()
        assert timings and max(timings) < deadline_ms / 1000 + SLACK_S
        await shared_within(a, b, engines, SHARING_AGAIN_S)
    await assert_still_counted(engines, cluster)
