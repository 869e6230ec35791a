"""A real redis-server or valkey-server on a free loopback port, started by the tests.

No mock: the shared-state tests run against every server installed of the two,
Debian's redis-server (Redis 7) and valkey-server (Valkey 8, from bookworm-backports:
``just valkey``). ``just test`` installs redis-server when neither is there
(``just redis``); with neither, the tests fail saying what to install.
"""

from __future__ import annotations

import contextlib
import dataclasses
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rypsok.config import Config

STARTUP_S = 10.0
SHARING_BOUND_MS = 1000
"""The store operation bound of the tests of what replicas share, ten times the product's
ceiling of 100 ms (tests/test_state_config.py checks that range). A loaded CI machine
(load 4.8 on 2 cores) once left a test process unscheduled past 100 ms, an operation went
to memory, and a sharing test failed as a test of the fallback instead. The tests of the
fallback itself (a killed or hung store) keep a bound in the product's range."""


SERVERS = ("redis-server", "valkey-server")


def installed_servers() -> list[str]:
    """The servers on PATH, by name; redis-server alone when there is neither, so that
    the tests that need one fail and say what to install (they are not skipped)."""
    return [name for name in SERVERS if shutil.which(name)] or [SERVERS[0]]


def server_binary(name: str | None = None) -> str:
    """The path of ``name`` (by default the first installed of :data:`SERVERS`)."""
    names = [name] if name else [n for n in SERVERS if shutil.which(n)] or [SERVERS[0]]
    found = shutil.which(names[0])
    if found is None:
        raise RuntimeError(
            f"{names[0]} is not installed: run `just redis` (apt-get install -y redis-server), "
            "or install Redis 7 or Valkey 8 and put redis-server or valkey-server on PATH"
        )
    return found


def sharing_bound(config: Config) -> Config:
    """``config`` with its store operations bounded by :data:`SHARING_BOUND_MS`: set past
    the parsing, which refuses more than 100 ms in a configuration file."""
    state = dataclasses.replace(config.state, timeout_ms=SHARING_BOUND_MS)
    return dataclasses.replace(config, state=state)


_PORTS_GIVEN: set[int] = set()


def free_port() -> int:
    """A port nothing listens on now and that no server of this test process was given
    before: a server takes its port when it is made and binds it when it starts, so two
    servers made before either started could otherwise be given the same one (the second
    to start then fails, and its readiness probe reaches the first)."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port not in _PORTS_GIVEN:
            _PORTS_GIVEN.add(port)
            return port


class RedisServer:
    """``with RedisServer() as redis:`` a server on 127.0.0.1; ``kill``, ``start`` again
    (same port, empty: nothing is saved), ``pause``/``resume`` (SIGSTOP: a hung store).

    ``tls=(cert_file, key_file)`` serves TLS only; ``password`` requires AUTH; ``server``
    names the binary (redis-server or valkey-server; by default the first installed).
    """

    def __init__(
        self,
        tls: tuple[str, str] | None = None,
        password: str | None = None,
        server: str | None = None,
        args: tuple[str, ...] = (),
        sentinel: str | None = None,
    ) -> None:
        self.binary = server_binary(server)
        self.port = free_port()
        self.tls = tls
        self.password = password
        self.args = args
        """More options for the server (--replicaof, --cluster-enabled...)."""
        self.sentinel = sentinel
        """sentinel.conf's lines: the process is a sentinel (it rewrites the file it is given)."""
        self._dir = tempfile.TemporaryDirectory(prefix="rypsok-redis-")
        self._process: subprocess.Popen | None = None
        self.paused = False

    def url(self, db: int = 0) -> str:
        return f"{'rediss' if self.tls else 'redis'}://127.0.0.1:{self.port}/{db}"

    def state(self, **more: object) -> dict[str, object]:
        """The [state] table that reaches this server."""
        return {"url": self.url(), **more}

    def start(self) -> None:
        assert self._process is None
        if self.tls:
            cert, key = self.tls
            listen = [
                "--port",
                "0",
                "--tls-port",
                str(self.port),
                "--tls-cert-file",
                cert,
                "--tls-key-file",
                key,
                "--tls-auth-clients",
                "no",
            ]
        else:
            listen = ["--port", str(self.port)]
        if self.password:
            listen += ["--requirepass", self.password]
        head = [self.binary]
        if self.sentinel is not None:
            conf = Path(self._dir.name) / "sentinel.conf"
            if not conf.exists():
                conf.write_text(self.sentinel)
            head += [str(conf), "--sentinel"]
        self._process = subprocess.Popen(
            [
                *head,
                *listen,
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--dir", self._dir.name,
                *self.args,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + STARTUP_S
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if self.command("PING") == b"+PONG":
                    return
            time.sleep(0.02)
        raise RuntimeError(f"{self.binary} did not answer on port {self.port}")

    def kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def pause(self) -> None:
        assert self._process is not None
        self._process.send_signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        assert self._process is not None
        self._process.send_signal(signal.SIGCONT)
        self.paused = False

    @property
    def running(self) -> bool:
        return self._process is not None

    def command(self, *words: str) -> bytes:
        """One command over its own connection; its reply as RESP's first line (b":3")."""
        reply = self.reply(*words)
        if isinstance(reply, int):
            return b":%d" % reply
        if isinstance(reply, list):
            return b"*%d" % len(reply)
        return b"+" + reply if reply is not None else b"$-1"

    def reply(self, *words: str) -> bytes | int | list | None:
        """One command over its own connection (after AUTH, over TLS if served), parsed."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as plain:
            connection = plain
            if self.tls:
                # the test's own look at its own server: no verification needed here
                context = ssl.create_default_context()
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
                connection = context.wrap_socket(plain)
            stream = connection.makefile("rb")
            if self.password:
                connection.sendall(_encode(("AUTH", self.password)))
                _read(stream)
            connection.sendall(_encode(words))
            return _read(stream)

    def flush(self) -> None:
        if not self.running:
            self.start()
        assert self.command("FLUSHALL") == b"+OK"

    def keys(self, pattern: str = "*") -> list[str]:
        """The keys that match ``pattern`` (in db 0)."""
        return [key.decode() for key in self.reply("KEYS", pattern)]  # type: ignore[union-attr]

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()
        self._dir.cleanup()


def _encode(words: tuple[str, ...]) -> bytes:
    parts = [f"*{len(words)}\r\n".encode()]
    for word in words:
        data = word.encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def _read(stream) -> bytes | int | list | None:
    """One RESP2 reply: a status or error line, an integer, a bulk string or an array."""
    line = stream.readline().rstrip(b"\r\n")
    kind, rest = line[:1], line[1:]
    if kind == b"+":
        return rest
    if kind == b"-":
        raise RuntimeError(rest.decode())
    if kind == b":":
        return int(rest)
    if kind == b"$":
        size = int(rest)
        if size < 0:
            return None
        data = stream.read(size + 2)
        return data[:-2]
    if kind == b"*":
        return [_read(stream) for _ in range(int(rest))]
    raise ValueError(f"not a RESP reply: {line!r}")


def log_lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []
