"""Real HTTP and HTTPS servers on loopback addresses for the web_fetch tests.

A :class:`Site` listens on one address (127.0.0.2, 127.0.0.3, ...) and answers each
request with the :class:`Reply` registered for the request's host name and path (or for
the path alone). Several names can share one server: the Host header picks the replies,
so each test can give its own origin its own robots.txt. Servers run in threads, so
they outlive any one event loop and can be module-scoped.
"""

from __future__ import annotations

import contextlib
import http.server
import logging
import socket
import ssl
import struct
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import brotli

from rypsok.config import Config, FetchConfig


@dataclass
class Reply:
    status: int = 200
    body: bytes | Callable[[], Iterable[bytes]] = b""
    """Bytes, or a function giving chunks (sent without Content-Length, then the connection closes)."""
    content_type: str | None = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    """Before the status line."""
    chunk_delay_s: float = 0.0
    """Between body chunks (a slow, dribbling server)."""
    close: bool = False
    """Send ``Connection: close`` and close after the answer."""
    drop: bool = False
    """Close the connection without answering."""
    content_length: int | None = None
    """Sent instead of the body's own length: more than it is makes a body cut short."""


def html(body: str, title: str = "Test page") -> Reply:
    return Reply(
        body=f"<!doctype html><html><head><title>{title}</title></head>"
        f"<body><main>{body}</main></body></html>".encode()
    )


def redirect(location: str, status: int = 302) -> Reply:
    return Reply(status=status, headers={"Location": location}, content_type=None)


REFUSED_SCHEME_TARGETS = {
    "javascript": "javascript:alert(document.cookie)",
    "data": "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "mailto": "mailto:someone@a.test?subject=Hello%20there",
    "file": "file:///etc/passwd",
}
"""Redirect targets outside http(s); httpx cannot even read the first three (InvalidURL)."""


def robots(text: str) -> Reply:
    return Reply(body=text.encode(), content_type="text/plain")


def gzip_bomb(decoded_bytes: int) -> bytes:
    """A valid gzip stream of ``decoded_bytes`` zero bytes (a multiple of 1 MiB; about 1000:1).

    Quick to build even for 1 GiB: one MiB of zeros is deflated once, ended by a full flush
    (a byte-aligned piece that refers to nothing before it), and that piece is repeated.
    """
    block = bytes(1 << 20)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    piece = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(decoded_bytes >> 20):
        crc = zlib.crc32(block, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    final_block = b"\x03\x00"  # an empty last block
    trailer = struct.pack("<II", crc, decoded_bytes & 0xFFFFFFFF)
    return header + piece * (decoded_bytes >> 20) + final_block + trailer


def brotli_bomb(decoded_bytes: int) -> bytes:
    """``decoded_bytes`` zero bytes as brotli, with the largest window (16 MiB) a decoder
    must accept: the most memory the stream can ask of a bounded decoder."""
    compressor = brotli.Compressor(quality=1, lgwin=24)
    block = bytes(1 << 20)
    parts = [compressor.process(block) for _ in range(decoded_bytes >> 20)]
    return b"".join(parts) + compressor.finish()


@dataclass
class Seen:
    host: str
    path: str
    headers: dict[str, str]


class Site:
    """One loopback server, plain or TLS, answering from a table of replies."""

    def __init__(self, address: str, tls: ssl.SSLContext | None = None):
        self.address = address
        self.replies: dict[tuple[str | None, str], Reply] = {}
        self.seen: list[Seen] = []
        self.connections = 0
        self._lock = threading.Lock()
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                with site._lock:
                    site.connections += 1
                if tls is not None:
                    self.request.settimeout(5)
                    self.request.do_handshake()
                super().setup()

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]")
                with site._lock:
                    site.seen.append(Seen(host, self.path, dict(self.headers.items())))
                reply = site.reply_for(host, self.path)
                site.answer(self, reply)

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
            block_on_close = False

            def handle_error(self, request: object, client_address: object) -> None:
                pass

        self._server = Server((address, 0), Handler)
        if tls is not None:
            self._server.socket = tls.wrap_socket(
                self._server.socket, server_side=True, do_handshake_on_connect=False
            )
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def start(self) -> Site:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def route(self, path: str, reply: Reply, host: str | None = None) -> None:
        self.replies[(host, path)] = reply

    def reply_for(self, host: str, path: str) -> Reply:
        return (
            self.replies.get((host, path))
            or self.replies.get((None, path))
            or Reply(status=404, body=b"no such page", content_type="text/plain")
        )

    def requests(self, host: str | None = None, path: str | None = None) -> list[Seen]:
        with self._lock:
            return [
                s
                for s in self.seen
                if (host is None or s.host == host) and (path is None or s.path == path)
            ]

    @staticmethod
    def answer(handler: http.server.BaseHTTPRequestHandler, reply: Reply) -> None:
        if reply.drop:
            handler.close_connection = True
            return
        if reply.delay_s:
            time.sleep(reply.delay_s)
        handler.send_response(reply.status)
        if reply.content_type is not None:
            handler.send_header("Content-Type", reply.content_type)
        for name, value in reply.headers.items():
            handler.send_header(name, value)
        streamed = callable(reply.body)
        if streamed or reply.close or reply.content_length is not None:
            handler.send_header("Connection", "close")
            handler.close_connection = True
        if not streamed:
            length = len(reply.body) if reply.content_length is None else reply.content_length
            handler.send_header("Content-Length", str(length))
        handler.end_headers()
        chunks = reply.body() if streamed else [reply.body]
        with contextlib.suppress(OSError):
            for chunk in chunks:
                handler.wfile.write(chunk)
                handler.wfile.flush()
                if reply.chunk_delay_s:
                    time.sleep(reply.chunk_delay_s)


@contextlib.contextmanager
def running(*sites: Site) -> Iterator[tuple[Site, ...]]:
    for site in sites:
        site.start()
    try:
        yield sites
    finally:
        for site in sites:
            site.stop()


@contextlib.contextmanager
def open_site(address: str = "127.0.0.2") -> Iterator[Site]:
    """A running site on ``address`` whose robots.txt allows everything."""
    site = Site(address)
    site.route("/robots.txt", robots("User-agent: *\nAllow: /\n"))
    with running(site):
        yield site


def site_config(site: Site, **fetch: object) -> Config:
    """web_fetch's configuration for ``site`` alone: plain http, its port and its address
    allowed; ``fetch`` overrides the fetch table."""
    settings: dict[str, object] = {
        "allow_http": True,
        "ports": (site.port,),
        "allow_networks": (f"{site.address}/32",),
    }
    settings.update(fetch)
    return Config(fetch=FetchConfig(**settings))  # type: ignore[arg-type]


def free_port(address: str) -> int:
    """A port on ``address`` with nothing listening (bound, then released)."""
    with socket.socket() as probe:
        probe.bind((address, 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def fetch_log() -> Iterator[list[logging.LogRecord]]:
    """The records the fetcher logs (``rypsok.webfetch``, every level) while the block runs."""
    records: list[logging.LogRecord] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger("rypsok.webfetch")
    handler = Collect(logging.DEBUG)
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        yield records
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
