"""The wire's descriptors read and written on real pipes, socketpairs and files: every byte
arrives in order, the end reads as b"", a write the reader has no room for waits without
holding up Trio's loop, and the descriptors' blocking mode is never changed; and rypsok
serve on sockets, as Node's child_process starts it."""

from __future__ import annotations

import fcntl
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pytest
import trio

from rypsok.serve_stdio.descriptors import READ_CHUNK, Descriptor, fits_empty_pipe
from tests.conftest import config_data
from tests.engine_servers import json_play
from tests.mcp_harness import RAW_INITIALIZE, RAW_INITIALIZED, ROOT, write_toml
from tests.server_fork import rypsok_command

pytestmark = pytest.mark.anyio


def pipe_pair() -> tuple[int, int]:
    read_end, write_end = os.pipe()
    return read_end, write_end


def socket_pair() -> tuple[int, int]:
    ours, theirs = socket.socketpair()
    return ours.detach(), theirs.detach()


PAIRS = {"pipe": pipe_pair, "socket": socket_pair}


def read_all(fd: int, into: bytearray) -> None:
    while chunk := os.read(fd, 1 << 16):
        into += chunk


@pytest.mark.parametrize("kind", sorted(PAIRS))
async def test_what_is_written_is_read_in_order_and_the_end_reads_empty(kind):
    read_end, write_end = PAIRS[kind]()
    reader, writer = Descriptor(read_end), Descriptor(write_end)
    assert reader.kind == writer.kind == kind
    try:
        lines = [b'{"id": %d}\n' % n for n in range(50)]
        for line in lines:
            await writer.write_all(line)
        assert os.get_blocking(read_end) and os.get_blocking(write_end)
        writer.close()
        os.close(write_end)
        got = bytearray()
        while chunk := await reader.read():
            assert len(chunk) <= READ_CHUNK
            got += chunk
        assert bytes(got) == b"".join(lines)
        assert os.get_blocking(read_end)
    finally:
        reader.close()
        os.close(read_end)


@pytest.mark.parametrize("kind", sorted(PAIRS))
async def test_a_reply_the_reader_has_no_room_for_waits_without_holding_up_the_loop(kind):
    read_end, write_end = PAIRS[kind]()
    writer = Descriptor(write_end)
    reply = bytes(range(256)) * 20_000  # 5 MB: more than a pipe or a socket buffer holds
    ticks = 0
    written = trio.Event()
    got = bytearray()
    reading = threading.Thread(target=read_all, args=(read_end, got))
    try:
        async with trio.open_nursery() as nursery:

            async def tick() -> None:
                nonlocal ticks
                while True:
                    ticks += 1
                    await trio.sleep(0.01)

            async def write() -> None:
                await writer.write_all(reply)
                await writer.write_all(b"\n")
                written.set()

            nursery.start_soon(tick)
            nursery.start_soon(write)
            await trio.sleep(0.3)
            assert not written.is_set()  # nobody reads: the write waits...
            assert ticks >= 10  # ...and the loop runs meanwhile
            assert os.get_blocking(write_end)
            reading.start()
            await written.wait()
            nursery.cancel_scope.cancel()
    finally:
        writer.close()
        os.close(write_end)
        if reading.is_alive():
            await trio.to_thread.run_sync(reading.join)
        os.close(read_end)
    assert bytes(got) == reply + b"\n"


async def test_a_write_to_a_closed_reader_raises_os_error():
    for make in PAIRS.values():
        read_end, write_end = make()
        os.close(read_end)
        writer = Descriptor(write_end)
        try:
            with pytest.raises(OSError):
                await writer.write_all(b"x" * 100)
        finally:
            writer.close()
            os.close(write_end)


@pytest.mark.skipif(sys.platform != "linux", reason="F_GETPIPE_SZ is Linux's")
def test_an_empty_pipe_holds_a_reply_up_to_its_size_and_an_unread_one_none():
    read_end, write_end = os.pipe()
    size = fcntl.fcntl(write_end, fcntl.F_GETPIPE_SZ)
    try:
        assert fits_empty_pipe(write_end, 1)
        assert fits_empty_pipe(write_end, size)
        assert not fits_empty_pipe(write_end, size + 1)
        os.write(write_end, b"x")
        assert not fits_empty_pipe(write_end, 1)
        os.read(read_end, 1)
        assert fits_empty_pipe(write_end, 1)
    finally:
        os.close(read_end)
        os.close(write_end)


async def test_a_file_is_read_in_a_worker_thread(tmp_path):
    path = tmp_path / "lines"
    path.write_bytes(b"x" * (READ_CHUNK + 10))
    fd = os.open(path, os.O_RDONLY)
    reader = Descriptor(fd)
    try:
        assert reader.kind == "other"
        assert len(await reader.read()) == READ_CHUNK
        assert await reader.read() == b"x" * 10
        assert await reader.read() == b""
    finally:
        reader.close()
        os.close(fd)


def test_closing_a_socket_descriptor_leaves_the_wire_open():
    ours, theirs = socket_pair()
    writer = Descriptor(ours)
    writer.close()
    try:
        os.write(ours, b"still open")
        assert os.read(theirs, 100) == b"still open"
    finally:
        os.close(ours)
        os.close(theirs)


def test_rypsok_serve_on_sockets_answers_every_request_whole(engines, tmp_path):
    """As Node's ``child_process`` starts a server (libuv gives it a socketpair for stdin and
    one for stdout). The client writes every request before it reads anything, so the
    replies outgrow the socket's buffer and are written partly at once, partly in a thread."""
    engines.plays["github"] = json_play("github/search.json")
    config = write_toml(config_data(engines, {"github"}), tmp_path / "rypsok.toml")
    stdin_ours, stdin_theirs = socket.socketpair()
    stdout_ours, stdout_theirs = socket.socketpair()
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            rypsok_command("serve", "--config", str(config)),
            stdin=stdin_theirs.fileno(),
            stdout=stdout_theirs.fileno(),
            stderr=log,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        stdin_theirs.close()
        stdout_theirs.close()
        try:
            requests = [RAW_INITIALIZE, RAW_INITIALIZED]
            requests += [{"jsonrpc": "2.0", "id": n, "method": "tools/list"} for n in range(100)]
            requests += [{"jsonrpc": "2.0", "id": f"ping {n}", "method": "ping"} for n in range(50)]
            search = {"name": "web_search", "arguments": {"query": "asyncio", "category": "code"}}
            requests.append(
                {"jsonrpc": "2.0", "id": "search", "method": "tools/call", "params": search}
            )
            stdin_ours.sendall(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
            time.sleep(1)  # the replies wait for the client meanwhile
            stdin_ours.shutdown(socket.SHUT_WR)  # the end of stdin
            stdout_ours.settimeout(30)
            received = bytearray()
            while chunk := stdout_ours.recv(1 << 16):
                received += chunk
            assert process.wait(timeout=10) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            stdin_ours.close()
            stdout_ours.close()
        log.seek(0)
        assert "Traceback" not in log.read().decode("utf-8", "replace")
    assert len(received) > 4 * (1 << 20) // 8  # more than a socket's buffer
    replies = {reply["id"]: reply for reply in map(json.loads, received.splitlines())}
    assert len(replies) == len(received.splitlines()) == 152
    tools = replies[0]["result"]["tools"]
    assert [tool["name"] for tool in tools] == ["web_search", "engine_status", "web_fetch"]
    assert all(replies[n]["result"] == replies[0]["result"] for n in range(100))
    assert all(replies[f"ping {n}"]["result"] == {} for n in range(50))
    answer = replies["search"]["result"]
    assert answer["isError"] is False and answer["structuredContent"]["results"]
    assert [json.loads(block["text"]) for block in answer["content"]] == [
        answer["structuredContent"]
    ]
