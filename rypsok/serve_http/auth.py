"""Bearer tokens for the HTTP server: the operator's static tokens and JWTs from an issuer.

Both are one SDK ``TokenVerifier``: the SDK's bearer middleware calls it for every request
and answers 401 with ``WWW-Authenticate`` when it returns None. A token is never logged or
kept; what is kept of a static token is its SHA-256 digest, and what the rest of rypsok sees
of any token is its name (``AccessToken.client_id``): the static token's name, or
``jwt:`` and the JWT's client (``client_id``, ``azp``, else ``sub``; see :func:`jwt_name`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from typing import Any

import anyio
import httpx
import jwt
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser, BearerAuthBackend
from mcp.server.auth.provider import AccessToken
from starlette.authentication import AuthCredentials, BaseUser
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rypsok.config import ServerConfig, StaticToken
from rypsok.version import USER_AGENT

log = logging.getLogger("rypsok.http")

ASYMMETRIC = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512")
ASYMMETRIC_KEY_TYPES = ("RSA", "EC", "OKP")
JWKS_MAX_AGE_S = 300.0
"""Keys are fetched again after this long, so a rotated key is picked up."""
JWKS_REFETCH_MIN_S = 30.0
"""An unknown ``kid`` fetches the keys again, but not more often than this (a flood of
forged tokens must not become a flood of requests to the issuer)."""
JWKS_TIMEOUT_S = 5.0
JWKS_MAX_BYTES = 1_000_000
LEEWAY_S = 10
MAX_TOKEN_CHARS = 8192
MAX_JWT_NAME_CHARS = 128
"""The longest JWT name kept as written; a longer one is named by its digest (jwt_name)."""


class StaticTokens:
    """The operator's tokens, compared as SHA-256 digests in constant time."""

    def __init__(self, tokens: tuple[StaticToken, ...]):
        self._tokens = tokens

    def __bool__(self) -> bool:
        return bool(self._tokens)

    def name_of(self, token: str) -> str | None:
        digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()
        found = None
        for known in self._tokens:  # every digest is compared: the time says nothing
            if hmac.compare_digest(digest, known.sha256):
                found = known.name
        return found


class JwksVerifier:
    """JWTs signed by a key of the issuer's JWKS, for this audience, not expired.

    PyJWT checks signatures and claims. Its PyJWKClient fetches with urllib, which would
    block the Trio loop and refetches on every unknown ``kid``; so the key set is fetched
    here with httpx, cached, and refetched at most every JWKS_REFETCH_MIN_S.
    """

    def __init__(self, server: ServerConfig, clock=time.monotonic):
        self._url = server.jwks_url
        self._issuer = server.issuer
        self._audience = server.audience
        self._clock = clock
        self._keys: dict[str | None, jwt.PyJWK] = {}
        self._fetched_at: float | None = None
        self._lock = anyio.Lock()
        self._http = httpx.AsyncClient(
            trust_env=False,
            follow_redirects=False,
            timeout=httpx.Timeout(JWKS_TIMEOUT_S),
            headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def verify(self, token: str) -> AccessToken | None:
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            return None
        if header.get("alg") not in ASYMMETRIC:
            return None
        key = await self._key(header.get("kid"))
        if key is None:
            return None
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=[key.algorithm_name],
                audience=self._audience,
                issuer=self._issuer,
                leeway=LEEWAY_S,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.PyJWTError as exc:
            log.debug("jwt_refused", extra={"fields": {"why": exc.__class__.__name__}})
            return None
        client = claims.get("client_id") or claims.get("azp") or claims.get("sub")
        if not isinstance(client, str) or not client:
            return None
        return AccessToken(
            token="",
            client_id=jwt_name(client),
            scopes=_scopes(claims),
            expires_at=int(claims["exp"]),
            resource=self._audience,
            subject=claims.get("sub") if isinstance(claims.get("sub"), str) else None,
            claims={"iss": claims["iss"]},
        )

    async def _key(self, kid: Any) -> jwt.PyJWK | None:
        if not isinstance(kid, str | None):
            return None
        now = self._clock()
        stale = self._fetched_at is None or now - self._fetched_at >= JWKS_MAX_AGE_S
        unknown = self._find(kid) is None
        may_refetch = self._fetched_at is None or now - self._fetched_at >= JWKS_REFETCH_MIN_S
        if stale or (unknown and may_refetch):
            async with self._lock:
                if self._fetched_at is None or self._fetched_at <= now:
                    await self._fetch()
        return self._find(kid)

    def _find(self, kid: str | None) -> jwt.PyJWK | None:
        if kid is not None:
            return self._keys.get(kid)
        # No kid: only unambiguous when the set holds one key.
        return next(iter(self._keys.values())) if len(self._keys) == 1 else None

    async def _fetch(self) -> None:
        self._fetched_at = self._clock()
        try:
            response = await self._http.get(self._url)
            if response.status_code != 200 or len(response.content) > JWKS_MAX_BYTES:
                raise ValueError(f"status {response.status_code}")
            keys = jwt.PyJWKSet.from_dict(response.json()).keys
        except (httpx.HTTPError, ValueError, jwt.PyJWTError) as exc:
            # Keep the keys we had: an issuer hiccup must not lock everybody out.
            log.warning("jwks_unavailable", extra={"fields": {"why": exc.__class__.__name__}})
            return
        self._keys = {
            key.key_id: key
            for key in keys
            if key.key_type in ASYMMETRIC_KEY_TYPES
            and key.algorithm_name in ASYMMETRIC
            and key.public_key_use in (None, "sig")
        }
        log.info("jwks_fetched", extra={"fields": {"keys": len(self._keys)}})


def jwt_name(client: str) -> str:
    """A JWT's name: ``jwt:`` and its client, or for a client too long to log,
    ``jwt-sha256:`` and the SHA-256 of the client in hex. Never a prefix: the name keys the
    per-token limits and the cancellation of calls, so two clients must never share one.
    (A static token's name holds no colon, so no name can be taken for another.)"""
    name = f"jwt:{client}"
    if len(name) <= MAX_JWT_NAME_CHARS:
        return name
    return "jwt-sha256:" + hashlib.sha256(client.encode("utf-8", "surrogatepass")).hexdigest()


def _scopes(claims: dict[str, Any]) -> list[str]:
    scope = claims.get("scope", claims.get("scp", ""))
    if isinstance(scope, str):
        return scope.split()
    if isinstance(scope, list):
        return [s for s in scope if isinstance(s, str)]
    return []


class Verifier:
    """The SDK's TokenVerifier: a static token first, then a JWT when an issuer is set."""

    def __init__(self, static: StaticTokens, jwks: JwksVerifier | None):
        self._static = static
        self._jwks = jwks

    def __bool__(self) -> bool:
        return bool(self._static) or self._jwks is not None

    async def verify_token(self, token: str) -> AccessToken | None:
        if len(token) > MAX_TOKEN_CHARS:
            return None
        name = self._static.name_of(token)
        if name is not None:
            return AccessToken(token="", client_id=name, scopes=[])
        if self._jwks is not None and token.count(".") == 2:
            return await self._jwks.verify(token)
        return None

    async def aclose(self) -> None:
        if self._jwks is not None:
            await self._jwks.aclose()


TOKEN_REQUIRED = "a bearer token is required"
TOKEN_INVALID = "the token is not valid"
ONE_AUTHORIZATION = "send one Authorization header"

NO_TOKEN, ONE_TOKEN, AMBIGUOUS = "no_token", "token", "ambiguous"


def credentials_sent(scope: Scope) -> str:
    """What the request's ``Authorization`` headers carry: AMBIGUOUS for more than one
    (RFC 9110 allows one; a proxy and rypsok could each read a different one), ONE_TOKEN
    for ``Bearer`` (any case), one or more spaces and a token (RFC 6750, 2.1), else NO_TOKEN."""
    values = [value for name, value in scope.get("headers", ()) if name.lower() == b"authorization"]
    if len(values) > 1:
        return AMBIGUOUS
    if values and bearer_token(values[0].decode("latin-1")) is not None:
        return ONE_TOKEN
    return NO_TOKEN


def bearer_token(value: str) -> str | None:
    """The token of an ``Authorization`` value ``Bearer 1*SP token``, else None."""
    scheme, space, token = value.partition(" ")
    token = token.lstrip(" ")
    if scheme.lower() != "bearer" or not space or not token:
        return None
    return token


class BearerBackend(BearerAuthBackend):
    """The SDK's bearer backend, reading the header as RFC 6750 writes it: ``Bearer`` and
    one or more spaces before the token (the SDK took exactly one, so ``Bearer  TOKEN``
    was refused), and no token at all from a request with two ``Authorization`` headers
    (the SDK read the first)."""

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:
        values = conn.headers.getlist("authorization")
        token = bearer_token(values[0]) if len(values) == 1 else None
        if token is None:
            return None
        access = await self.token_verifier.verify_token(token)
        if access is None or (access.expires_at and access.expires_at < int(time.time())):
            return None
        if self.resource_server_url and not self._issued_for_this_resource(access.resource):
            return None
        return AuthCredentials(access.scopes), AuthenticatedUser(access)


def challenge(sent: str, metadata_url: str | None) -> tuple[int, bytes, bytes]:
    """The status, the ``WWW-Authenticate`` value and the JSON body of a refusal.

    No token: 401 without an error code (RFC 6750, 3.1: a request without credentials is
    not an error of the token). A token that is not accepted: 401 ``invalid_token``. Two
    ``Authorization`` headers: 400 ``invalid_request`` (RFC 6750, 3.1: a malformed request).
    Which is decided by the headers alone, so the constant-time check is unchanged.
    """
    status = 401
    if sent == AMBIGUOUS:
        status = 400
        params = ['error="invalid_request"', f'error_description="{ONE_AUTHORIZATION}"']
        body: dict[str, str] = {"error": "invalid_request", "error_description": ONE_AUTHORIZATION}
    elif sent == ONE_TOKEN:
        params = ['error="invalid_token"', f'error_description="{TOKEN_INVALID}"']
        body = {"error": "invalid_token", "error_description": TOKEN_INVALID}
    else:
        params = ['realm="rypsok"', f'error_description="{TOKEN_REQUIRED}"']
        body = {"error_description": TOKEN_REQUIRED}
    if metadata_url:
        params.append(f'resource_metadata="{metadata_url}"')
    return status, ("Bearer " + ", ".join(params)).encode("latin-1"), json.dumps(body).encode()


class BearerChallenge:
    """Every 401 the SDK's bearer middleware answers, told apart: no token, one not valid,
    or two ``Authorization`` headers (then 400).

    The SDK says "Authentication required" with ``error="invalid_token"`` in every case;
    this rewrites the 401 as it goes out (status, headers and body are replaced whole).
    """

    def __init__(self, app: ASGIApp, metadata_url: str | None):
        self.app = app
        self.metadata_url = metadata_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        replaced = False

        async def rewrite(message: Message) -> None:
            nonlocal replaced
            if message["type"] == "http.response.start" and message["status"] == 401:
                replaced = True
                status, header, body = challenge(credentials_sent(scope), self.metadata_url)
                await send(
                    {
                        "type": "http.response.start",
                        "status": status,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"www-authenticate", header),
                            # Its body, if one is coming, is never read: Hypercorn closes
                            # the connection after the answer, and the client is told so.
                            (b"connection", b"close"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
            elif not replaced:
                await send(message)

        await self.app(scope, receive, rewrite)
