"""Reading and writing the wire's descriptors without a thread hop where that cannot block.

The descriptors stay in blocking mode: a non-blocking ``FdStream`` would change the mode of
a descriptor rypsok shares with its parent. What an MCP client gives is a pipe (Python's
and most clients' ``subprocess``) or a socket (Node's ``child_process``: libuv makes a
socketpair), and on both a read or a write can be made that returns at once:

- a read waits in Trio's own loop until the descriptor is readable; a blocking read of a
  readable pipe or socket returns what is there (or its end) at once;
- on a pipe, a reply is written at once when nothing is left unread in it (only rypsok
  writes to it) and the pipe holds the reply (Linux: ``FIONREAD``, ``F_GETPIPE_SZ``);
- on a socket, ``send`` with ``MSG_DONTWAIT`` writes what the socket takes now, whatever
  the descriptor's mode.

Anything else (a file, a terminal, a platform without these calls; the rest of a reply the
client has not made room for) is read or written in a worker thread
(``abandon_on_cancel``), as every read and write was before. A thread hop costs about a
third of a millisecond of CPU per message (docs/performance.md, issue 28).
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import sys

import trio

try:
    import fcntl
    import termios
except ImportError:  # Windows
    fcntl = termios = None  # type: ignore[assignment]

READ_CHUNK = 1 << 16


def _write_all(fd: int, data: bytes | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _kind(fd: int) -> str:
    """The descriptor's kind: a pipe, a socket, or other (read and written in a thread)."""
    if os.name != "posix" or fcntl is None:
        return "other"
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return "other"
    if stat.S_ISFIFO(mode):
        return "pipe"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "other"


def fits_empty_pipe(fd: int, size: int) -> bool:
    """Whether a blocking write of ``size`` bytes to the pipe ``fd`` returns at once: nothing
    is left unread in it (so every slot is free) and it holds ``size`` bytes. False where
    the platform cannot tell (``F_GETPIPE_SZ`` is Linux's)."""
    try:
        unread = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
        if int.from_bytes(unread, sys.byteorder):
            return False
        return size <= fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
    except (OSError, AttributeError, TypeError):
        return False


class Descriptor:
    """One end of the wire: ``fd`` is read (stdin) or written (stdout), never closed here."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.kind = _kind(fd)
        self._socket: socket.socket | None = None
        if self.kind == "socket":
            try:  # a socket object of its own descriptor, so closing it leaves ``fd`` open
                self._socket = socket.socket(fileno=os.dup(fd))
            except OSError:
                self.kind = "other"

    def close(self) -> None:
        """Close the socket object's own descriptor (``fd`` stays open)."""
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.close()
            self._socket = None

    async def read(self) -> bytes:
        """What the descriptor holds next, up to ``READ_CHUNK`` bytes; b"" at its end."""
        if self.kind == "other":
            return await trio.to_thread.run_sync(
                os.read, self.fd, READ_CHUNK, abandon_on_cancel=True
            )
        await trio.lowlevel.wait_readable(self.fd)
        return os.read(self.fd, READ_CHUNK)

    async def write_all(self, data: bytes) -> None:
        """Write every byte of ``data`` (OSError when the reader is gone)."""
        view = memoryview(data)
        if self.kind == "pipe" and fits_empty_pipe(self.fd, len(view)):
            _write_all(self.fd, view)
            return
        if self._socket is not None:
            with contextlib.suppress(BlockingIOError, InterruptedError):
                while view:
                    view = view[self._socket.send(view, socket.MSG_DONTWAIT) :]
        if view:
            await trio.to_thread.run_sync(_write_all, self.fd, view, abandon_on_cancel=True)
