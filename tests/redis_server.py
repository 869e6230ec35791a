"""A real redis-server (or valkey-server) on a free loopback port, started by the tests.

No mock: the shared-state tests run against the server Debian packages (Redis 7).
``just test`` installs it when it is missing (``just redis``).
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

STARTUP_S = 10.0


def server_binary() -> str:
    found = shutil.which("redis-server") or shutil.which("valkey-server")
    if found is None:
        raise RuntimeError(
            "redis-server is not installed: run `just redis` (apt-get install -y redis-server), "
            "or install Redis 7 or Valkey 8 and put redis-server or valkey-server on PATH"
        )
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """``with RedisServer() as redis:`` a server on 127.0.0.1; ``kill``, ``start`` again
    (same port, empty: nothing is saved), ``pause``/``resume`` (SIGSTOP: a hung store)."""

    def __init__(self) -> None:
        self.binary = server_binary()
        self.port = free_port()
        self._dir = tempfile.TemporaryDirectory(prefix="rypsok-redis-")
        self._process: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, *extra: str) -> None:
        assert self._process is None
        self._process = subprocess.Popen(
            [
                self.binary,
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--dir", self._dir.name,
                *extra,
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

    def resume(self) -> None:
        assert self._process is not None
        self._process.send_signal(signal.SIGCONT)

    @property
    def running(self) -> bool:
        return self._process is not None

    def command(self, *words: str) -> bytes:
        """One command over a plain socket; the first line of the answer."""
        payload = f"*{len(words)}\r\n" + "".join(f"${len(w.encode())}\r\n{w}\r\n" for w in words)
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as connection:
            connection.sendall(payload.encode())
            answer = b""
            while not answer.endswith(b"\r\n"):
                chunk = connection.recv(65536)
                if not chunk:
                    break
                answer += chunk
        return answer.split(b"\r\n", 1)[0]

    def flush(self) -> None:
        if not self.running:
            self.start()
        assert self.command("FLUSHALL") == b"+OK"

    def keys(self, pattern: str = "*") -> int:
        """How many keys match ``pattern`` (in db 0)."""
        return int(self.command("EVAL", f"return #redis.call('KEYS', '{pattern}')", "0")[1:])

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()
        self._dir.cleanup()


def log_lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []
