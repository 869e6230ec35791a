"""The wire's descriptors read and written on real pipes, socketpairs and files: every byte
arrives in order, the end reads as b"", a write the reader has no room for waits without
holding up Trio's loop, and the descriptors' blocking mode is never changed."""

from __future__ import annotations

import fcntl
import os
import socket
import sys
import threading

import pytest
import trio

from rypsok.serve_stdio.descriptors import READ_CHUNK, Descriptor, fits_empty_pipe

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
