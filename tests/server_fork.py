"""``rypsok`` processes for the tests, forked from one that has already imported rypsok.

A ``rypsok serve`` started as ``python -m rypsok`` spends about 2 s of CPU importing (the mcp
SDK, pydantic, httpx, lxml, hypercorn) before it reads its first byte, and the suite starts
some two hundred of them. Here one process per test session (the *zygote*) imports what a
server loads, then waits; each server a test asks for is a fork of it, so it starts in a few
milliseconds of CPU and is still a process of its own: its own state, stdin, stdout, stderr,
environment, working directory and exit status, as fresh as a new process after the same
imports.

The command a test runs (:func:`rypsok_command`) is a small stdlib-only *stub*: it hands its
stdin, stdout and stderr, its argv, environment and working directory to the zygote over a
Unix socket, forwards SIGTERM, SIGINT and SIGHUP to the server, and ends as the server
ended (its exit status, or the same signal). The stub's own descriptors go to /dev/null once
the server has them, so the server alone holds the test's pipes. Its resource limits (such
as a lowered RLIMIT_NOFILE) are the server's too. If the stub is killed, the server is
killed with it. The stub is what ``Popen``, the SDK's ``stdio_client`` and
``subprocess.run`` see, so tests need not know.

Per fork: the zygote forks a *monitor* for each stub, the monitor forks the server, waits
for it and reports its status; the zygote stays single-threaded, so forking it is safe.

``RYPSOK_TEST_FORK=0`` starts every server as ``python -m rypsok`` instead. The tests of
start-up itself (tests/test_startup.py, tests/test_cli.py, tests/test_install_docs.py,
tests/test_dist.py) always start real processes.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import socket
import struct
import sys
import traceback

_HEADER = struct.Struct(">I")
_FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
_LIMITS = ("RLIMIT_NOFILE", "RLIMIT_AS", "RLIMIT_DATA", "RLIMIT_CPU", "RLIMIT_NPROC")
"""Resource limits the stub passes on (a test may lower them in ``preexec_fn``)."""
PRELOAD = (
    "rypsok.__main__",
    "rypsok.server",
    "rypsok.serve_stdio.run",
    "rypsok.serve_http.run",
    "rypsok.client",
    "rypsok.metasearch.search",
    "rypsok.metasearch.orchestrate",
    "rypsok.webfetch.fetcher",
)
"""What a server loads before and soon after its first call (the search and fetch modules
its warm-up loads in a thread); nothing that reads the environment or builds a TLS context
at import."""


# The stub: runs as ``python -S -m tests.server_fork stub SOCKET ARGV...`` -----------------


def _stub(socket_path: str, argv: list[str]) -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, _FORWARDED)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(socket_path)
        limits = {name: resource.getrlimit(getattr(resource, name)) for name in _LIMITS}
        request = json.dumps(
            {"argv": argv, "env": dict(os.environ), "cwd": os.getcwd(), "limits": limits}
        )
        payload = request.encode("utf-8", "surrogateescape")
        socket.send_fds(conn, [_HEADER.pack(len(payload))], [0, 1, 2])
        conn.sendall(payload)
        replies = conn.makefile("rb")
        pid = int(replies.readline().split()[1])
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)

        def forward(signum: int, _frame: object) -> None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)

        for signum in _FORWARDED:
            signal.signal(signum, forward)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORWARDED)
        ended = replies.readline().split()
    if not ended:
        os._exit(70)  # the monitor died: EX_SOFTWARE
    kind, number = ended[0], int(ended[1])
    if kind == b"exit":
        os._exit(number)
    signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
    os.kill(os.getpid(), number)
    os._exit(128 + number)


# The zygote: ``python -m tests.server_fork zygote SOCKET`` ---------------------------------


def _zygote(socket_path: str) -> None:
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # monitors are reaped by the kernel
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(64)
    print("ready", flush=True)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 1)
    while True:  # stdin is the lifeline: it ends when the test session does
        ready, _, _ = select.select([listener, 0], [], [])
        if 0 in ready and not os.read(0, 1 << 12):
            return
        if listener in ready:
            conn, _ = listener.accept()
            if os.fork() == 0:
                listener.close()
                os.dup2(devnull, 0)
                _monitor(conn)
            conn.close()


def _receive(conn: socket.socket) -> tuple[dict, list[int]]:
    header, fds, _, _ = socket.recv_fds(conn, _HEADER.size, 3)
    while len(header) < _HEADER.size:
        header += conn.recv(_HEADER.size - len(header))
    (length,) = _HEADER.unpack(header)
    payload = b""
    while len(payload) < length:
        chunk = conn.recv(length - len(payload))
        if not chunk:
            raise EOFError("the stub went away")
        payload += chunk
    return json.loads(payload.decode("utf-8", "surrogateescape")), fds


def _monitor(conn: socket.socket) -> None:
    """Fork the server, tell the stub its pid, report how it ended; never returns."""
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        request, fds = _receive(conn)
        pid = os.fork()
        if pid == 0:
            _server(conn, request, fds)
        for fd in fds:
            os.close(fd)
        conn.sendall(f"pid {pid}\n".encode())
        pidfd = os.pidfd_open(pid)
        while True:
            ready, _, _ = select.select([conn, pidfd], [], [])
            if pidfd in ready:
                break
            if not conn.recv(1):  # the stub was killed: so is its server
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                break
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            ended = f"signal {os.WTERMSIG(status)}\n"
        else:
            ended = f"exit {os.waitstatus_to_exitcode(status)}\n"
        with contextlib.suppress(OSError):
            conn.sendall(ended.encode())
    except BaseException:
        traceback.print_exc()
    os._exit(0)


def _server(conn: socket.socket, request: dict, fds: list[int]) -> None:
    """Become ``rypsok ARGV`` on the stub's descriptors; never returns."""
    code: object = 1
    try:
        conn.close()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        for name, (soft, hard) in request["limits"].items():
            with contextlib.suppress(ValueError, OSError):  # raising a hard limit needs root
                resource.setrlimit(getattr(resource, name), (soft, hard))
        os.environ.clear()
        os.environ.update(request["env"])
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.argv = ["rypsok", *request["argv"]]
        from rypsok.__main__ import main

        code = main(request["argv"])
    except SystemExit as exc:
        code = exc.code
    except BaseException:
        traceback.print_exc()
    finally:
        import atexit

        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        if code is None:
            code = 0
        elif not isinstance(code, int):
            with contextlib.suppress(Exception):
                print(code, file=sys.stderr, flush=True)
            code = 1
        os._exit(code)


# The test side ---------------------------------------------------------------------------


class _Zygote:
    """The session's zygote, started on first use and ended with the test process."""

    def __init__(self) -> None:
        self._process = None
        self._folder = None

    def socket_path(self) -> str:
        if self._process is None or self._process.poll() is not None:
            self._start()
        return os.path.join(self._folder, "zygote.sock")

    def _start(self) -> None:
        import atexit
        import subprocess
        import tempfile

        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        self._folder = tempfile.mkdtemp(prefix="rypsok-zygote-")
        path = os.path.join(self._folder, "zygote.sock")
        env = {**os.environ, "PYTHONPATH": root}
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.server_fork", "zygote", path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=root,
            env=env,
        )
        line = process.stdout.readline()
        process.stdout.close()
        if line != b"ready\n":
            process.kill()
            raise RuntimeError(f"the test servers' zygote did not start: {line!r}")
        self._process = process
        atexit.register(self.stop)

    def stop(self) -> None:
        import shutil

        if self._process is not None:
            self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except Exception:
                self._process.kill()
            self._process = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)


_ZYGOTE = _Zygote()


def forking() -> bool:
    return os.environ.get("RYPSOK_TEST_FORK", "1") != "0"


def rypsok_command(*argv: str) -> list[str]:
    """The command line of ``rypsok ARGV`` (``python -m rypsok ARGV``) for a test: a fork of
    the zygote, or with ``RYPSOK_TEST_FORK=0`` a new interpreter."""
    if not forking():
        return [sys.executable, "-m", "rypsok", *argv]
    stub = os.path.abspath(__file__)
    return [sys.executable, "-S", "-I", stub, "stub", _ZYGOTE.socket_path(), *argv]


if __name__ == "__main__":
    if sys.argv[1] == "stub":
        _stub(sys.argv[2], sys.argv[3:])
    else:
        _zygote(sys.argv[2])
