"""A real HTTP server on loopback that plays search engines for the tests.

Each engine is reached at ``http://127.0.0.1:PORT/e/<name>`` (the engine's
endpoint); the engine appends its documented path, and the server answers with
the :class:`Play` set for ``<name>``: a fixture, a delay, a hang, a dribble, a
status with headers, garbage, or a reset connection. Requests are recorded so
tests can check what was sent.
"""

from __future__ import annotations

import contextlib
import gzip
import http.server
import socket
import socketserver
import ssl
import struct
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass
class Play:
    body: bytes = b"{}"
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "application/json"})
    delay_s: float = 0.0
    mode: str = "answer"
    """answer, hang (accept and never answer), dribble (a byte every 100 ms, forever), reset,
    close (close without answering), short (headers and half the body, then close),
    answer_then_close (answer as if keeping the connection, then close it), rst (read the
    request and reset the connection at once, without the FIN reset sends first)."""
    gzip: bool = False


def fixture(path: str) -> bytes:
    return (FIXTURES / path).read_bytes()


def json_play(path: str, **kwargs) -> Play:
    return Play(body=fixture(path), **kwargs)


@dataclass
class Seen:
    engine: str
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class EngineServer:
    def __init__(self, host: str = "127.0.0.1", tls: ssl.SSLContext | None = None):
        self.plays: dict[str, Play] = {}
        self.seen: list[Seen] = []
        self.connections_opened = 0
        """Connections accepted since the last ``reset``."""
        self.connections_open = 0
        """Connections open now (a handler runs until its client closes or goes idle; a
        connection counts until its socket is closed)."""
        self._counted: set[int] = set()
        self.most_open = 0
        """The most connections open at once since the last ``reset``."""
        self._count_lock = threading.Lock()
        self._stop = threading.Event()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def setup(self) -> None:
                if tls is not None:
                    # In the handler's thread, so that a client refusing the certificate
                    # stops only its own connection.
                    self.request.settimeout(5)
                    try:
                        self.request.do_handshake()
                    finally:
                        self.request.settimeout(None)
                    server.alpn = self.request.selected_alpn_protocol()
                super().setup()
                with server._count_lock:
                    server.connections_opened += 1
                    server.connections_open += 1
                    server.most_open = max(server.most_open, server.connections_open)
                    server._counted.add(id(self.request))

            def do_GET(self) -> None:
                self._answer()

            def do_POST(self) -> None:
                self._answer()

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parts = self.path.split("/")
                engine = parts[2] if len(parts) > 2 and parts[1] == "e" else ""
                server.seen.append(
                    Seen(engine, self.command, self.path, dict(self.headers.items()), body)
                )
                play = server.plays.get(engine, Play(status=404, body=b"no play"))
                if play.delay_s:
                    server._stop.wait(play.delay_s)
                if play.mode == "hang":
                    server._stop.wait(60)
                    return
                if play.mode == "reset":
                    self.connection.setsockopt(
                        socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                    )
                    self.close_connection = True
                    return
                if play.mode == "rst":
                    self.connection.setsockopt(
                        socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                    )
                    self.connection.close()
                    self.close_connection = True
                    return
                if play.mode == "close":
                    self.close_connection = True
                    return
                payload = gzip.compress(play.body) if play.gzip else play.body
                self.send_response(play.status)
                for name, value in play.headers.items():
                    self.send_header(name, value)
                if play.gzip:
                    self.send_header("Content-Encoding", "gzip")
                if play.mode == "dribble":
                    self.send_header("Content-Length", "1000000")
                    self.end_headers()
                    with contextlib.suppress(OSError):
                        while not server._stop.wait(0.1):
                            self.wfile.write(b" ")
                            self.wfile.flush()
                    return
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if play.mode == "short":
                    self.wfile.write(payload[: len(payload) // 2])
                    self.close_connection = True
                    return
                self.wfile.write(payload)
                if play.mode == "answer_then_close":
                    self.close_connection = True

        class Threading(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True
            request_queue_size = 128
            """socketserver's listen backlog is 5: a burst of connections beyond it had
            their SYNs dropped and retried a second later, past a test's deadline."""

            def handle_error(self, request: object, client_address: object) -> None:
                """A client that hung up (rypsok stopping a bomb or a call at its deadline)
                is what the tests do; anything else is the test server's own fault."""
                if not isinstance(sys.exc_info()[1], ConnectionError | ssl.SSLError):
                    super().handle_error(request, client_address)

            def shutdown_request(self, request: socket.socket) -> None:
                """A connection counts as open until its socket is closed, so that a test
                that sees none open knows the client can see the close too."""
                super().shutdown_request(request)
                with server._count_lock:
                    if id(request) in server._counted:
                        server._counted.discard(id(request))
                        server.connections_open -= 1

        self._httpd = Threading((host, 0), Handler)
        if tls is not None:
            self._httpd.socket = tls.wrap_socket(
                self._httpd.socket, server_side=True, do_handshake_on_connect=False
            )
        self.host = host
        self.scheme = "https" if tls is not None else "http"
        self.alpn: str | None = None
        """The protocol the last TLS client chose by ALPN."""
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def endpoint(self, name: str) -> str:
        return f"{self.scheme}://{self.host}:{self.port}/e/{name}"

    def requests_for(self, engine: str) -> list[Seen]:
        return [s for s in self.seen if s.engine == engine]

    def reset(self) -> None:
        self.plays.clear()
        self.seen.clear()
        with self._count_lock:
            self.connections_opened = 0
            self.most_open = self.connections_open

    def __enter__(self) -> EngineServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        time.sleep(0)
