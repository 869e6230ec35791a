"""The stdio pipe: bytes from stdin judged line by line (rypsok.serve_stdio.wire), replies written to stdout.

This replaces the SDK's ``stdio_server``, whose reader splits text on any line
end (a lone CR too), drops lines it cannot parse, reads without bound while
replies wait, and cancels the calls in flight when stdin ends. Here:

- every line is judged by :func:`rypsok.serve_stdio.wire.judge` and gets exactly one answer
  when it carries a readable id;
- a burst of lines whose id cannot be read (a flood of garbage) is answered and logged
  bounded: the first ``BURST_ANSWERS`` of a burst each get their -32700/-32600 with id null
  (or are ignored, as a broken notification is) and their log record, the rest are counted into one ``pipe_refused_burst`` record when
  the burst ends (at a readable line, at the end of stdin, or after ``BURST_S``); JSON-RPC
  owes no particular answer to input whose id it cannot read;
- at most ``MAX_OWED_REPLIES`` requests are owed an answer at once (in flight or
  written but not yet taken by the client); past that, stdin is not read, so a
  client that stops reading stdout stalls its own writes instead of growing
  the server;
- at the end of stdin the owed answers are written, then the process ends;
- a closed stdout, SIGINT and SIGTERM end it at once.

The descriptors stay blocking (rypsok shares them with its parent); on a pipe or a socket
a message is read and written without a thread hop (rypsok.serve_stdio.descriptors).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import select
import signal
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
import trio
from mcp.server import Server
from mcp.shared.message import ServerMessageMetadata, SessionMessage

from rypsok.serve_stdio import wire
from rypsok.serve_stdio.descriptors import Descriptor

log = logging.getLogger("rypsok.stdio")

MAX_OWED_REPLIES = 128
"""Requests owed an answer at once; past it, rypsok stops reading stdin until one is written."""
MAX_REPLIES_PER_WRITE = 64
BURST_ANSWERS = 10
"""Lines without a readable id answered (and logged) one by one in a burst; the rest are counted."""
BURST_S = 1.0
"""A burst of unreadable lines longer than this is summed up and a new one begins."""


@contextlib.contextmanager
def claimed_stdio() -> Iterator[tuple[int, int]]:
    """Private descriptors for the wire; meanwhile fd 0 reads /dev/null and fd 1 goes to stderr.

    So a stray print or a child process cannot read or write MCP (the SDK's
    stdio_server does the same). The private descriptors are never closed: a
    worker thread abandoned at exit may still block on them.
    """
    with contextlib.suppress(ValueError, OSError):
        sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        os.dup2(2, 1)
    except OSError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    try:
        yield wire_in, wire_out
    finally:
        with contextlib.suppress(OSError):
            os.dup2(wire_in, 0)
            os.dup2(wire_out, 1)


def id_key(request_id: Any) -> tuple[str, Any]:
    """1 and "1" are different ids."""
    return (type(request_id).__name__, request_id)


class Owed:
    """The requests owed an answer, counted by id (a client may reuse one)."""

    def __init__(self, bound: int = MAX_OWED_REPLIES):
        self.bound = bound
        self.total = 0
        self._by_key: collections.Counter[Any] = collections.Counter()
        self._changed = trio.Event()

    def add(self, key: Any) -> None:
        self._by_key[key] += 1
        self.total += 1

    def settle(self, key: Any) -> None:
        if self._by_key[key] <= 0:
            return
        self._by_key[key] -= 1
        self.total -= 1
        self._changed.set()
        self._changed = trio.Event()

    async def room(self) -> None:
        while self.total >= self.bound:
            await self._changed.wait()

    async def none(self) -> None:
        while self.total:
            await self._changed.wait()


@dataclass(frozen=True)
class Outgoing:
    """A reply the pipe wrote itself, with the owed key it settles."""

    data: bytes
    key: Any


def _encoded(item: SessionMessage | Outgoing) -> tuple[bytes, Any]:
    """The line for one reply and the owed key it settles; a reply that cannot be encoded
    is answered -32603 for its id, so the request still gets its one answer."""
    if isinstance(item, Outgoing):
        return item.data, item.key
    message = item.message
    request_id = getattr(message, "id", None)
    key = (
        id_key(request_id)
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError)
        else None
    )
    try:
        return message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n", key
    except Exception:
        pass
    try:  # a lone surrogate in a string: pydantic refuses it, an ASCII escape carries it
        return wire.encode(message.model_dump(mode="json", by_alias=True, exclude_unset=True)), key
    except Exception:
        log.exception("reply_unencodable")
    if key is None:
        return b"", None
    why = "the reply could not be encoded"
    return wire.encode(wire.rpc_error(request_id, types.INTERNAL_ERROR, why)), key


async def _write_replies(
    out: Descriptor, replies: Any, owed: Owed, stop: trio.CancelScope, written: Callable[[], None]
) -> None:
    async with replies:
        async for first in replies:
            batch = [first]
            with contextlib.suppress(anyio.WouldBlock):
                while len(batch) < MAX_REPLIES_PER_WRITE:
                    batch.append(replies.receive_nowait())
            lines = [_encoded(item) for item in batch]
            try:
                await out.write_all(b"".join(data for data, _ in lines))
            except OSError as exc:
                log.info("stdout_closed", extra={"fields": {"error": exc.strerror}})
                stop.cancel()
                return
            for _, key in lines:
                if key is not None:
                    owed.settle(key)
            written()


@dataclass
class Remembered:
    """What the pipe keeps from one request for the next."""

    envelope: dict[str, Any] | None = None
    """The per-request envelope (2026-07-28) of the client's last request that had one."""
    opened: bool = False
    """Whether a request that opens the session went to the SDK (wire.opens_session)."""


class Burst:
    """Consecutive lines whose id cannot be read: which of them are answered one by one,
    and one log record with the count of the rest when the burst ends."""

    def __init__(self, answers: int = BURST_ANSWERS, seconds: float = BURST_S):
        self.answers = answers
        self.seconds = seconds
        self.lines = 0
        self.started = 0.0

    def take(self, now: float) -> bool:
        """Count one such line; whether it is answered (and logged) on its own."""
        if self.lines and now - self.started >= self.seconds:
            self.end()
        if not self.lines:
            self.started = now
        self.lines += 1
        return self.lines <= self.answers

    def end(self) -> None:
        if self.lines > self.answers:
            counts = {"lines": self.lines, "unanswered": self.lines - self.answers}
            log.info("pipe_refused_burst", extra={"fields": counts})
        self.lines = 0


async def _read_requests(stdin: Descriptor, to_sdk: Any, replies: Any, owed: Owed) -> None:
    splitter = wire.LineSplitter()
    remembered = Remembered()
    burst = Burst()
    async with to_sdk, replies:
        while True:
            try:
                chunk = await stdin.read()
            except OSError:
                chunk = b""
            for line in splitter.feed(chunk) if chunk else splitter.close():
                verdict = wire.judge(line)
                if isinstance(verdict, wire.Ignore) and verdict.quiet:
                    continue
                if _unreadable(verdict):
                    if not burst.take(trio.current_time()):
                        continue
                else:
                    burst.end()
                await owed.room()
                await _take(verdict, to_sdk, replies, owed, remembered)
            if not chunk:
                break
        burst.end()
        await owed.none()
    log.info("stdin_closed")


def _unreadable(verdict: wire.Verdict) -> bool:
    """A line owed no answer under an id: answered with id null, or not at all."""
    return isinstance(verdict, wire.Ignore) or (
        isinstance(verdict, wire.Answer) and verdict.request_id is None
    )


async def _take(
    verdict: wire.Verdict, to_sdk: Any, replies: Any, owed: Owed, remembered: Remembered
) -> None:
    if isinstance(verdict, wire.Ignore):
        if not verdict.quiet:
            log.info("pipe_ignored", extra={"fields": {"reason": verdict.reason}})
    elif isinstance(verdict, wire.Answer):
        key = id_key(verdict.request_id) if verdict.request_id is not None else object()
        owed.add(key)
        error = verdict.reply["error"]
        log.info("pipe_refused", extra={"fields": {"code": error["code"], "reason": error["data"]}})
        await replies.send(Outgoing(wire.encode(verdict.reply), key))
    else:
        if not remembered.opened:
            early = wire.before_opening(verdict.message)
            if early is not None:
                await _take(early, to_sdk, replies, owed, remembered)
                return
            remembered.opened = wire.opens_session(verdict.message)
        message = verdict.message
        envelope = wire.envelope_of(message)
        if envelope is not None:
            remembered.envelope = envelope
        elif verdict.oversized and remembered.envelope is not None:
            message = wire.with_envelope(verdict.message, remembered.envelope)
        metadata = None
        if verdict.request_id is not None:
            key = id_key(verdict.request_id)
            owed.add(key)

            async def unanswered(key: Any = key) -> None:
                owed.settle(key)

            rejected = (
                wire.Rejected(verdict.rejection, verdict.name_unread) if verdict.rejection else None
            )
            metadata = ServerMessageMetadata(
                request_context=rejected, on_request_unanswered=unanswered
            )
        await to_sdk.send(SessionMessage(message, metadata=metadata))


async def _stop_on_signal(signals: Any, stop: trio.CancelScope) -> None:
    async for signum in signals:
        log.info("signal", extra={"fields": {"signal": signal.Signals(signum).name}})
        stop.cancel()
        return


async def _stop_on_hangup(fd: int, stop: trio.CancelScope) -> None:
    """A pipe's write end reports an error once its reader is gone: end then, not at the next write."""
    if not hasattr(select, "poll") or not stat.S_ISFIFO(os.fstat(fd).st_mode):
        return
    await trio.lowlevel.wait_readable(fd)
    poller = select.poll()
    poller.register(fd, 0)  # errors and hangups only
    if poller.poll(0):
        log.info("stdout_closed")
        stop.cancel()


async def serve_pipe(
    server: Server,
    in_fd: int,
    out_fd: int,
    max_owed: int = MAX_OWED_REPLIES,
    written: Callable[[], None] = lambda: None,
) -> None:
    """Serve MCP on two descriptors until stdin ends (and every owed answer is written),
    stdout closes, or SIGINT or SIGTERM arrives. ``written`` is called after each write."""
    to_sdk, from_pipe = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_pipe, replies = anyio.create_memory_object_stream[SessionMessage | Outgoing](0)
    owed = Owed(max_owed)
    stdin, stdout = Descriptor(in_fd), Descriptor(out_fd)
    try:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:
                stop = nursery.cancel_scope
                nursery.start_soon(_stop_on_signal, signals, stop)
                nursery.start_soon(_stop_on_hangup, out_fd, stop)
                nursery.start_soon(_write_replies, stdout, replies, owed, stop, written)
                nursery.start_soon(_read_requests, stdin, to_sdk, to_pipe.clone(), owed)
                await server.run(from_pipe, to_pipe, server.create_initialization_options())
                stop.cancel()
    finally:
        stdin.close()
        stdout.close()


async def serve_stdio(server: Server, written: Callable[[], None] = lambda: None) -> None:
    with claimed_stdio() as (in_fd, out_fd):
        await serve_pipe(server, in_fd, out_fd, written=written)
