"""Response bodies under a byte limit: the one decoder for pages, robots.txt and engine answers.

httpx's own decoders inflate a whole network read at once, which a compression bomb turns
into tens of megabytes (gzip, about 1000:1) or gigabytes (brotli) before any byte count
can stop it. Here the raw bytes (``aiter_raw``) are inflated in pieces of at most
:data:`PIECE_BYTES`, each counted before it is kept, so a body costs at most its limit,
one network read and one piece, plus the decoder's own window (32 KiB for zlib, up to
16 MiB for brotli, as the stream declares), however well it compresses.

A body is also judged whole: a gzip, deflate or brotli stream that stops before its end
is :class:`BodyTruncated`. (A body shorter than its Content-Length, or a chunked body cut
off, already fails inside httpcore as ``RemoteProtocolError``, under httpx or not.)

:class:`BoundedBody` is the sans-IO core; :func:`read_body` feeds it from an httpx response,
:func:`read_raw` from any stream of raw chunks (an engine's httpcore response) and
:func:`inflate` from bytes already in hand.
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import AsyncIterable, Awaitable, Callable, Iterable, Iterator

import brotli
import httpx

PIECE_BYTES = 64 * 1024
"""The most one decoder step may produce: the cap on the output of each feed."""
BROTLI_BOUNDED = hasattr(brotli.Decompressor(), "can_accept_more_data")
"""Brotli is offered only with a decoder whose output can be capped (brotli >= 1.2)."""
ACCEPT_ENCODING = "gzip, deflate, br" if BROTLI_BOUNDED else "gzip, deflate"
"""What every request offers: exactly the codings :func:`content_decoder` can bound."""


CLIENT_FAILURES = (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError)
"""Every exception httpx raises while a request is sent or its body read: ``InvalidURL``
(a Location httpx cannot read, for one) and ``StreamError`` are not HTTPErrors."""


class BodyTooLarge(Exception):
    """The decoded body exceeded the byte limit."""


class BodyUndecodable(Exception):
    """The body's Content-Encoding is unknown or stacked, or its compressed data is corrupt."""


class BodyTruncated(BodyUndecodable):
    """The compressed stream ended before its end marker: the body was cut short."""


class _Identity:
    finished = False
    """Never known from the bytes: only the HTTP framing (Content-Length, chunks) tells."""

    def feed(self, data: bytes) -> Iterator[bytes]:
        for start in range(0, len(data), PIECE_BYTES):
            yield data[start : start + PIECE_BYTES]

    def flush(self) -> Iterator[bytes]:
        return iter(())


class _Zlib:
    """gzip (``wbits`` 16+15) or deflate, zlib-wrapped as HTTP says or raw as some servers send."""

    def __init__(self, wbits: int, fallback_wbits: int | None = None):
        self._inflate = zlib.decompressobj(wbits)
        self._fallback_wbits = fallback_wbits
        self._started = False

    @property
    def finished(self) -> bool:
        return self._inflate.eof

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Bytes after the end of the stream (a second gzip member, trailing junk) are ignored."""
        while data and not self._inflate.eof:
            try:
                piece = self._inflate.decompress(data, PIECE_BYTES)
            except zlib.error:
                if self._started or self._fallback_wbits is None:
                    raise BodyUndecodable("corrupt compressed data") from None
                self._inflate = zlib.decompressobj(self._fallback_wbits)
                self._fallback_wbits = None
                continue
            self._started = True
            tail = self._inflate.unconsumed_tail
            if not piece and tail == data:
                break
            data = tail
            if piece:
                yield piece

    def flush(self) -> Iterator[bytes]:
        """What the inflater still holds (at most a match, since ``feed`` leaves no input)."""
        try:
            piece = self._inflate.flush()
        except zlib.error:
            raise BodyUndecodable("corrupt compressed data") from None
        if piece:
            yield piece
        if not self._inflate.eof:
            raise BodyTruncated("the compressed stream ended early")


_BROTLI_STEP = 1
"""brotli's ``output_buffer_limit`` stops the growth of a buffer made of blocks (32 KiB, then
64 KiB, ...) once it reaches the limit, so a 64 KiB limit yields pieces of 96 KiB. The
smallest limit keeps the first block alone: pieces of at most 32 KiB."""


class _Brotli:
    def __init__(self) -> None:
        self._inflate = brotli.Decompressor()

    @property
    def finished(self) -> bool:
        return self._inflate.is_finished()

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Inflate ``data``, then drain what the decoder holds: it may keep pending output
        even when it says it can accept more input."""
        if self._inflate.is_finished():
            return
        try:
            piece = self._inflate.process(data, output_buffer_limit=_BROTLI_STEP)
            while piece or not self._inflate.can_accept_more_data():
                if piece:
                    yield piece
                if self._inflate.is_finished():
                    return
                piece = self._inflate.process(b"", output_buffer_limit=_BROTLI_STEP)
        except brotli.error:
            raise BodyUndecodable("corrupt compressed data") from None

    def flush(self) -> Iterator[bytes]:
        yield from self.feed(b"")
        if not self._inflate.is_finished():
            raise BodyTruncated("the compressed stream ended early")


Decoder = _Identity | _Zlib | _Brotli


def content_decoder(content_encoding: str) -> Decoder:
    """A bounded decoder for one Content-Encoding (RFC 9110 section 8.4); BodyUndecodable for
    any other, and for stacked codings, which no server sends in good faith."""
    codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
    codings = [c for c in codings if c != "identity"]
    if not codings:
        return _Identity()
    if len(codings) > 1:
        raise BodyUndecodable("stacked content codings")
    coding = codings[0]
    if coding in ("gzip", "x-gzip"):
        return _Zlib(16 + zlib.MAX_WBITS)
    if coding == "deflate":
        return _Zlib(zlib.MAX_WBITS, fallback_wbits=-zlib.MAX_WBITS)
    if coding == "br" and BROTLI_BOUNDED:
        return _Brotli()
    raise BodyUndecodable("unknown content coding")


class BoundedBody:
    """The decoded bytes of one body, fed its raw bytes as they arrive (sans-IO).

    Beyond ``limit`` decoded bytes: BodyTooLarge, or with ``cut`` the first ``limit``
    bytes are kept and the rest is not read (robots.txt is read that way).
    """

    def __init__(self, content_encoding: str, limit: int, *, cut: bool = False):
        self._decoder = content_decoder(content_encoding)
        self._limit = limit
        self._cut = cut
        self._pieces: list[bytes] = []
        """Kept as they come, joined once: a growing bytearray would be copied as it grows."""
        self._size = 0
        self._full = False

    def feed(self, raw: bytes) -> bool:
        """Take ``raw``; False once nothing more is wanted (the limit cut, or the stream's end)."""
        return self._take(self._decoder.feed(raw)) and not self._decoder.finished

    def finish(self) -> bytes:
        """The body, once the raw bytes ran out; BodyTruncated if the stream had not ended."""
        if not self._full:
            self._take(self._decoder.flush())
        return b"".join(self._pieces)

    def _take(self, pieces: Iterable[bytes]) -> bool:
        for piece in pieces:
            room = self._limit - self._size
            if len(piece) > room:
                if not self._cut:
                    raise BodyTooLarge()
                self._pieces.append(piece[:room])
                self._size = self._limit
                self._full = True
                return False
            self._pieces.append(piece)
            self._size += len(piece)
        return True


async def read_body(
    response: httpx.Response,
    limit: int,
    *,
    cut: bool = False,
    received: Callable[[int], Awaitable[None]] | None = None,
) -> bytes:
    """The decoded body of a streamed response, at most ``limit`` bytes (see BoundedBody).
    ``received`` is told the raw bytes received so far after each chunk.

    Raises BodyTooLarge, BodyUndecodable (BodyTruncated included), or httpx's errors.
    """
    body = BoundedBody(response.headers.get("content-encoding", ""), limit, cut=cut)
    async with contextlib.aclosing(response.aiter_raw()) as raw_chunks:
        await _feed(body, raw_chunks, received)
    return body.finish()


async def read_raw(raw_chunks: AsyncIterable[bytes], content_encoding: str, limit: int) -> bytes:
    """The decoded body of a stream of raw chunks sent as ``content_encoding`` (an engine's
    httpcore response), at most ``limit`` bytes; the caller closes the stream.

    Raises BodyTooLarge, BodyUndecodable (BodyTruncated included), or the stream's errors.
    """
    if not content_encoding:
        # What BoundedBody does with no coding (most engine answers), without its decoder:
        # the chunks kept as they come, BodyTooLarge at the chunk that passes the limit.
        pieces: list[bytes] = []
        size = 0
        async for raw in raw_chunks:
            size += len(raw)
            if size > limit:
                raise BodyTooLarge()
            pieces.append(raw)
        return b"".join(pieces)
    body = BoundedBody(content_encoding, limit)
    await _feed(body, raw_chunks, None)
    return body.finish()


async def _feed(
    body: BoundedBody,
    raw_chunks: AsyncIterable[bytes],
    received: Callable[[int], Awaitable[None]] | None,
) -> None:
    raw_bytes = 0
    async for raw in raw_chunks:
        raw_bytes += len(raw)
        if received is not None:
            await received(raw_bytes)
        if not body.feed(raw):
            break


def inflate(data: bytes, content_encoding: str, limit: int) -> bytes:
    """``data`` decoded as ``content_encoding``, at most ``limit`` bytes (see BoundedBody)."""
    body = BoundedBody(content_encoding, limit)
    for start in range(0, len(data), PIECE_BYTES):
        if not body.feed(data[start : start + PIECE_BYTES]):
            break
    return body.finish()
