"""An identity provider on loopback for the JWT tests: it signs tokens with an RSA key and
serves that key's JWKS over HTTP."""

from __future__ import annotations

import contextlib
import http.server
import json
import socketserver
import threading
import time
from collections.abc import Iterator
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm


class Issuer:
    """An identity provider on loopback: signs tokens, serves its JWKS, counts fetches."""

    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = "key-1"
        self.fetches = 0
        issuer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                issuer.fetches += 1
                jwk = RSAAlgorithm.to_jwk(issuer.key.public_key(), as_dict=True)
                body = json.dumps(
                    {"keys": [{**jwk, "kid": issuer.kid, "alg": "RS256", "use": "sig"}]}
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        class Threading(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self._httpd = Threading(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self.name = f"{self.url}/issuer"

    def token(self, audience: str, key=None, kid: str | None = None, **claims: Any) -> str:
        now = int(time.time())
        payload = {
            "iss": self.name,
            "aud": audience,
            "sub": "agent-7",
            "iat": now,
            "exp": now + 300,
            **claims,
        }
        return jwt.encode(
            payload, key or self.key, algorithm="RS256", headers={"kid": kid or self.kid}
        )

    @contextlib.contextmanager
    def running(self) -> Iterator[Issuer]:
        thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._httpd.shutdown()
            self._httpd.server_close()
