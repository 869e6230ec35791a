"""Extraction in child processes, killed when their call ends.

A page is read (parsed, cleaned, paged) in a child process. When the call's deadline
passes or the call is cancelled, the child is killed at once: nothing it was doing, in
libxml2 or in Python, keeps a core busy after the call has answered, and none of it holds
the server's GIL or memory. A thread cannot be stopped from outside; docs/extraction.md
("Stopping extraction") has the measurements behind the choice.

Children are started as ``sys.executable -I -c BOOTSTRAP`` with this process's
``sys.path``, not through ``multiprocessing`` or ``anyio.to_process``: both re-run the
caller's ``__main__`` in every child (a library user's script without a ``__main__`` guard
would run again), and forking a process that runs threads is unsafe. A child loads only
the modules it needs (the pure parts of ``rypsok.webfetch`` and ``rypsok.hygiene``, not the
package's ``__init__`` with the client, httpx and Trio), so it starts in a fraction of a
second, and one idle child is kept ready for the next call.

Requests and replies are pickles, length-prefixed, over the child's stdin and stdout. A
child runs as the same user as the server and only rypsok's own functions.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from typing import IO, Any, TypeVar

import rypsok
from rypsok.errors import ToolError

T = TypeVar("T")

_LENGTH = struct.Struct(">Q")  # as _BOOTSTRAP reads it

# The child's first step: the server's import path, the rypsok package without running its
# __init__, then the request loop. Runs with -I: no PYTHON* variables, no user site.
_BOOTSTRAP = """\
import pickle, struct, sys, types
(length,) = struct.unpack(">Q", sys.stdin.buffer.read(8))
path, package, preload = pickle.loads(sys.stdin.buffer.read(length))
sys.path[:] = path
stub = types.ModuleType("rypsok")
stub.__path__ = package
sys.modules["rypsok"] = stub
from rypsok.webfetch.worker import serve
serve(preload)
"""


class WorkerFailed(Exception):
    """The function raised something other than a ToolError, or the child died or could
    not be started."""

    def __init__(self, trace: str):
        super().__init__("the worker process failed")
        self.trace = trace


class WorkerPool:
    """Runs functions in child processes, one call per child at a time.

    At most ``max_idle`` children wait between calls; a child that was sent more than
    ``retire_bytes`` is not kept (the memory a big page took goes back to the system), and
    its replacement is started as the call starts, so that it has loaded its modules by the
    time the big page is read (started after, it made a next call wait for its imports). A
    child killed is replaced at once, so the next call finds one ready."""

    def __init__(
        self, preload: tuple[str, ...] = (), max_idle: int = 2, retire_bytes: int = 1 << 20
    ) -> None:
        self._preload = preload
        self._max_idle = max_idle
        self._retire_bytes = retire_bytes
        self._idle: list[_Child] = []
        self._lock = threading.Lock()

    def prepare(self) -> None:
        """Start a child unless one is idle, so that the next call finds one ready (its
        modules load while the caller does other work)."""
        with self._lock:
            if any(child.alive() for child in self._idle):
                return
        with contextlib.suppress(OSError):  # the call that needs a child will say why not
            self._keep(_Child.start(self._preload))

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a child. A ToolError it raises is raised here; any other
        exception, or the child's death, is :class:`WorkerFailed` with the trace. When the
        call is cancelled (its deadline passed), the child is killed before this returns."""
        import anyio  # here: a child imports this module, and needs no anyio
        import anyio.to_thread

        payload = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        child = self._take()
        retiring = len(payload) > self._retire_bytes
        if retiring:
            self.prepare()
        try:
            reply = await anyio.to_thread.run_sync(child.call, payload, abandon_on_cancel=True)
        except BaseException as exc:
            child.kill(close_pipes=False)  # the thread that waits on them closes them
            if isinstance(exc, (Exception, anyio.get_cancelled_exc_class())):
                self.prepare()  # the next call finds a child ready
            raise
        if retiring:
            child.kill()
        else:
            self._keep(child)
        return _answer(reply)

    def close(self) -> None:
        """Kill the idle children (a running call's child ends with its call)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for child in idle:
            child.kill()

    def _take(self) -> _Child:
        with self._lock:
            while self._idle:
                child = self._idle.pop()
                if child.alive():
                    return child
                child.kill()
        try:
            return _Child.start(self._preload)
        except OSError as exc:  # no process could be started (a limit, no interpreter)
            raise WorkerFailed(f"no worker process could be started: {exc!r}") from None

    def _keep(self, child: _Child) -> None:
        with self._lock:
            if len(self._idle) < self._max_idle:
                self._idle.append(child)
                return
        child.kill()


def _answer(reply: tuple[Any, ...]) -> Any:
    status, *rest = reply
    if status == "ok":
        return rest[0]
    if status == "tool_error":
        kind, message, detail = rest
        raise ToolError(kind, message, detail)
    raise WorkerFailed(rest[0])


class _Child:
    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    @classmethod
    def start(cls, preload: tuple[str, ...]) -> _Child:
        process = subprocess.Popen(
            [sys.executable, "-I", "-c", _BOOTSTRAP],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        child = cls(process)
        try:
            _send(process.stdin, pickle.dumps((sys.path, list(rypsok.__path__), preload)))
        except OSError:
            child.kill()  # it died at once: the first call reports it
        return child

    def alive(self) -> bool:
        return self.process.poll() is None

    def call(self, payload: bytes) -> tuple[Any, ...]:
        """Send one request and wait for its reply (blocking: run in a worker thread)."""
        try:
            _send(self.process.stdin, payload)
            reply = _receive(self.process.stdout)
        except OSError:  # a broken pipe: the child died or was killed
            reply = None
        if reply is None:
            status = self.process.wait()
            self._close_pipes()
            raise WorkerFailed(f"the worker process ended with status {status}")
        return pickle.loads(reply)

    def kill(self, close_pipes: bool = True) -> None:
        """SIGKILL (TerminateProcess on Windows), then reap it."""
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.wait()
        if close_pipes:
            self._close_pipes()

    def _close_pipes(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                pipe.close()  # type: ignore[union-attr]


def _send(stream: IO[bytes] | None, data: bytes) -> None:
    assert stream is not None
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def _receive(stream: IO[bytes] | None) -> bytes | None:
    assert stream is not None
    header = stream.read(_LENGTH.size)
    if len(header) < _LENGTH.size:
        return None
    (length,) = _LENGTH.unpack(header)
    data = stream.read(length)
    return data if len(data) == length else None


# ---------------------------------------------------------------------------- the child


def serve(preload: tuple[str, ...]) -> None:
    """The child's loop: a request, its reply, until the server closes the pipe."""
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    sys.stdin = open(os.devnull)  # noqa: SIM115 - for the rest of the process
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - nothing else reaches the pipe
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's; it ends us
    broken = None
    try:
        for name in preload:
            importlib.import_module(name)
    except Exception:
        broken = traceback.format_exc()
    while (request := _receive(requests)) is not None:
        reply: tuple[Any, ...]
        if broken is not None:
            reply = ("failed", broken)
        else:
            try:
                function, args = pickle.loads(request)
                reply = ("ok", function(*args))
            except ToolError as exc:
                reply = ("tool_error", exc.kind, exc.message, exc.detail)
            except Exception:
                reply = ("failed", traceback.format_exc())
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            data = pickle.dumps(("failed", traceback.format_exc()))
        _send(replies, data)
