"""The three forms of shared store, started by the tests on loopback: one server, a primary
with a replica watched by three sentinels, and a Cluster of three primaries.

Each is a set of real redis-server (or valkey-server) processes of tests/redis_server.py,
in temporary directories on free ports. Every form answers the same questions, so the
tests of what replicas share run on each: ``state`` (the [state] table that reaches it),
``flush()``, and ``reply(key, *words)`` (one command about ``key``, sent to the server
that holds it).
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from typing import Any

from tests.redis_server import STARTUP_S, RedisServer, free_port, server_binary

SERVICE = "rypsok"
DOWN_AFTER_MS = 500
"""How long the sentinels wait before they call the primary down: short, so that a
failover in the tests takes about two seconds, not thirty."""
FAILOVER_TIMEOUT_MS = 2000


class SingleServer:
    form = "server"

    def __init__(self, server: str | None = None) -> None:
        self.server = RedisServer(server=server)

    def start(self) -> None:
        self.server.start()

    def stop(self) -> None:
        self.server.kill()

    def state(self, **more: Any) -> dict[str, Any]:
        return self.server.state(**more)

    def key(self, tag: str, rest: str) -> str:
        """A key's name on this form (docs/state.md): without the hash tag."""
        return "rypsok:" + rest

    def flush(self) -> None:
        self.server.flush()

    def reply(self, key: str, *words: str) -> Any:
        return self.server.reply(*words)

    def key_count(self, pattern: str) -> int:
        return len(self.server.keys(pattern))


class SentinelTopology:
    """A primary, one replica of it, and three sentinels (quorum two) that promote the
    replica when the primary is killed."""

    form = "sentinel"

    def __init__(
        self,
        server: str | None = None,
        password: str | None = None,
        sentinel_password: str | None = None,
        tls: tuple[str, str, str] | None = None,
    ) -> None:
        """``password``: the data nodes' (and the replica's to its primary);
        ``sentinel_password``: the sentinels' own; ``tls`` (certificate, key and CA files):
        every node and sentinel speaks TLS only, to clients and to each other."""
        self.binary = server
        self.password = password
        self.tls = tls
        # a replica syncs at once, not after the 5 s Redis waits for more replicas to join
        quick: tuple[str, ...] = ("--repl-diskless-sync-delay", "0")
        if password:
            quick += ("--masterauth", password)
        links: tuple[str, ...] = ()
        served: tuple[str, str] | None = None
        if tls:
            served = tls[:2]
            links = ("--tls-replication", "yes", "--tls-ca-cert-file", tls[2])
        self.primary = RedisServer(
            server=server, args=(*quick, *links), password=password, tls=served
        )
        self.replica = RedisServer(
            server=server,
            args=(*quick, *links, "--replicaof", "127.0.0.1", str(self.primary.port)),
            password=password,
            tls=served,
        )
        self.sentinels = [
            RedisServer(
                server=server,
                sentinel=self._sentinel_conf(),
                password=sentinel_password,
                tls=served,
                args=links,
            )
            for _ in range(3)
        ]

    def _sentinel_conf(self) -> str:
        auth = f"sentinel auth-pass {SERVICE} {self.password}\n" if self.password else ""
        return (
            f"sentinel monitor {SERVICE} 127.0.0.1 {self.primary.port} 2\n"
            + auth
            + f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
            f"sentinel failover-timeout {SERVICE} {FAILOVER_TIMEOUT_MS}\n"
            f"sentinel parallel-syncs {SERVICE} 1\n"
        )

    def start(self) -> None:
        """The sentinels start once the replica is in sync: a sentinel reads the replica's
        INFO when it first meets it and then only every ten seconds."""
        self.primary.start()
        self.replica.start()
        self._wait(
            lambda: b"state=online" in self.primary.reply("INFO", "replication"),  # type: ignore[operator]
            "the replica to be in sync",
        )
        for sentinel in self.sentinels:
            sentinel.start()
        self._wait(
            lambda: all(self._promotable(s) for s in self.sentinels),
            "every sentinel to hold the replica promotable",
        )

    def stop(self) -> None:
        for server in (*self.sentinels, self.replica, self.primary):
            server.kill()

    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)
        return f"{'rediss' if self.tls else 'redis'}+sentinel://{hosts}/{SERVICE}"

    def state(self, **more: Any) -> dict[str, Any]:
        return {"url": self.url(), **more}

    def key(self, tag: str, rest: str) -> str:
        return "rypsok:" + rest

    def primary_port(self) -> int:
        """The port the sentinels name as the primary now."""
        for sentinel in self.sentinels:
            if sentinel.running and not sentinel.paused:
                with contextlib.suppress(OSError, RuntimeError):
                    reply = sentinel.reply("SENTINEL", "GET-MASTER-ADDR-BY-NAME", SERVICE)
                    assert isinstance(reply, list)
                    return int(reply[1])
        raise RuntimeError("no sentinel answers")

    def current_primary(self) -> RedisServer:
        port = self.primary_port()
        return next(s for s in (self.primary, self.replica) if s.port == port)

    @staticmethod
    def _promotable(sentinel: RedisServer) -> bool:
        """What a sentinel asks of a replica before it promotes one (else NOGOODSLAVE):
        linked, not down, its INFO read lately and its link to the primary up. A replica
        the sentinel has only heard of from the primary's INFO is listed but not yet read."""
        reply = sentinel.reply("SENTINEL", "REPLICAS", SERVICE)
        for fields in reply if isinstance(reply, list) else []:
            seen = dict(zip(fields[::2], fields[1::2], strict=True))
            if (
                seen.get(b"flags") == b"slave"
                and seen.get(b"master-link-status") == b"ok"
                and int(seen.get(b"info-refresh", b"-1")) in range(0, 5000)
                and int(seen.get(b"last-ok-ping-reply", b"-1")) in range(0, 2000)
            ):
                return True
        return False

    def wait_for_failover(self, old_port: int, timeout_s: float = 20.0) -> None:
        self._wait(lambda: self.primary_port() != old_port, "a new primary", timeout_s)

    def _wait(self, done, what: str, timeout_s: float = STARTUP_S) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, RuntimeError):
                if done():
                    return
            time.sleep(0.05)
        raise RuntimeError(f"waited {timeout_s} s for {what}")

    def flush(self) -> None:
        self.current_primary().command("FLUSHALL")

    def wait_replicated(self, timeout_s: float = STARTUP_S) -> None:
        """Until the replica has applied every write the primary has taken. (``WAIT`` on a
        connection of its own says nothing of the writes of other connections: it counts
        replicas that acknowledged that connection's writes, and it made none.)"""

        def offset(server: RedisServer) -> int:
            info = server.reply("INFO", "replication").decode()
            return int(info.split("master_repl_offset:")[1].split()[0])

        self._wait(
            lambda: offset(self.replica) >= offset(self.primary) > 0,
            "the replica to apply the primary's writes",
            timeout_s,
        )

    def reply(self, key: str, *words: str) -> Any:
        return self.current_primary().reply(*words)

    def key_count(self, pattern: str) -> int:
        return len(self.current_primary().keys(pattern))


class ClusterTopology:
    """Three primaries: ``redis-cli --cluster create`` gives each a third of the slots
    (0-5460, 5461-10922, 10923-16383), and with ``replicas`` each primary that many
    replicas, which take its slots when it fails."""

    form = "cluster"

    def __init__(
        self, server: str | None = None, replicas: int = 0, node_timeout_ms: int = 5000
    ) -> None:
        """``node_timeout_ms``: by default long enough that a node paused for a test is not
        voted out (without replicas none would take its slots: the whole Cluster would refuse
        until it is back); shorter for a test of a failover."""
        args = ("--cluster-enabled", "yes", "--cluster-node-timeout", str(node_timeout_ms))
        # a replica syncs at once, not after the 5 s Redis waits for more replicas to join;
        # and CLUSTER SLOTS lists it once its offset is past 0, which the primary's pings
        # move every second, not every ten
        args += ("--repl-diskless-sync-delay", "0", "--repl-ping-replica-period", "1")
        self.replicas = replicas
        # the bus port named, not the default port + 10000 (past 65535 for a high free port)
        self.nodes = [
            RedisServer(server=server, args=(*args, "--cluster-port", str(free_port())))
            for _ in range(3 * (1 + replicas))
        ]
        self.entry = self.nodes[0]
        """The node rypsok is configured with (any node leads it to the others)."""
        self.cli = server_binary("redis-cli") if server != "valkey-server" else _valkey_cli()

    def start(self) -> None:
        for node in self.nodes:
            node.start()
        subprocess.run(
            [
                self.cli,
                "--cluster",
                "create",
                *(f"127.0.0.1:{node.port}" for node in self.nodes),
                "--cluster-replicas",
                str(self.replicas),
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=STARTUP_S,
        )
        self.wait_healthy()
        deadline = time.monotonic() + STARTUP_S
        while self.replicas and time.monotonic() < deadline:
            slots = self.entry.reply("CLUSTER", "SLOTS")
            if len(slots) == 3 and all(len(entry) == 3 + self.replicas for entry in slots):  # type: ignore[arg-type]
                self.wait_replicated()
                return
            time.sleep(0.05)
        if self.replicas:
            raise RuntimeError("the replicas did not join")

    def wait_healthy(self) -> None:
        """Until every node says the Cluster is up (cluster_state:ok)."""
        deadline = time.monotonic() + STARTUP_S
        while time.monotonic() < deadline:
            live = [node for node in self.nodes if node.running]
            if all(b"cluster_state:ok" in node.reply("CLUSTER", "INFO") for node in live):  # type: ignore[operator]
                return
            time.sleep(0.05)
        raise RuntimeError("the cluster is not up")

    def stop(self) -> None:
        for node in self.nodes:
            node.kill()

    def state(self, **more: Any) -> dict[str, Any]:
        return {"url": self.entry.url(), "cluster": True, **more}

    def key(self, tag: str, rest: str) -> str:
        """With the hash tag: ``main``, or ``engine:<id>`` (docs/state.md)."""
        return "rypsok:{" + tag + "}:" + rest

    def flush(self) -> None:
        for node in self.nodes:
            node.command("FLUSHALL")

    def node_for(self, key: str) -> RedisServer:
        """The primary that holds ``key``'s slot, as the entry node sees it."""
        slot = self.entry.reply("CLUSTER", "KEYSLOT", key)
        for first, last, (_host, port, *_), *_replicas in self.entry.reply("CLUSTER", "SLOTS"):  # type: ignore[union-attr]
            if first <= slot <= last:
                return next(node for node in self.nodes if node.port == port)
        raise RuntimeError(f"no node holds slot {slot}")

    def replicas_of(self, primary: RedisServer) -> list[RedisServer]:
        """The nodes that replicate ``primary``, as the entry node sees them."""
        for _first, _last, (_host, port, *_), *replicas in self.entry.reply("CLUSTER", "SLOTS"):  # type: ignore[union-attr]
            if port == primary.port:
                ports = {replica[1] for replica in replicas}
                return [node for node in self.nodes if node.port in ports]
        return []

    def wait_replicated(self) -> None:
        """Until every replica has applied every write its primary has taken."""

        def offset(node: RedisServer, field: bytes) -> int:
            info = node.reply("INFO", "replication")
            return int(info.split(field + b":")[1].split()[0])  # type: ignore[union-attr]

        deadline = time.monotonic() + STARTUP_S
        while time.monotonic() < deadline:
            pairs = [
                (primary, replica)
                for primary in {self.node_for(key) for key in self._slot_keys()}
                for replica in self.replicas_of(primary)
            ]
            if all(
                offset(replica, b"slave_repl_offset") >= offset(primary, b"master_repl_offset")
                for primary, replica in pairs
            ):
                return
            time.sleep(0.05)
        raise RuntimeError("the replicas did not catch up")

    @staticmethod
    def _slot_keys() -> list[str]:
        """One key in each third of the slots (tags whose slots are 0-5460, 5461-10922 and
        10923-16383): a key per primary."""
        return ["{a}", "{b}", "{c}"]

    def reply(self, key: str, *words: str) -> Any:
        return self.node_for(key).reply(*words)

    def key_count(self, pattern: str) -> int:
        return sum(len(node.keys(pattern)) for node in self.nodes)


def _valkey_cli() -> str:
    return server_binary("valkey-cli")


FORMS = {"server": SingleServer, "sentinel": SentinelTopology, "cluster": ClusterTopology}
