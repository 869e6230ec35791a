"""The ASGI app: the SDK's Streamable HTTP endpoint at /mcp, /healthz, /metrics, and the
protected-resource metadata when JWTs are accepted.

Stateless mode: every POST is answered on its own, so any replica can answer any request
behind a plain load balancer. The answer is JSON, unless the call asked for progress: then
an SSE stream of the notifications and the result (rypsok.serve_http.calls, which also stops
a call whose client cancels it or hangs up).
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
from mcp.server.auth.handlers.metadata import ProtectedResourceMetadataHandler
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser, RequireAuthMiddleware
from mcp.server.auth.routes import (
    build_resource_metadata_url,
    cors_middleware,
    create_protected_resource_routes,
)
from mcp.server.auth.settings import AuthSettings
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.auth import ProtectedResourceMetadata
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, request_response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rypsok.client import Client
from rypsok.config import Config, is_loopback
from rypsok.observability.log import request_fields
from rypsok.serve_http.auth import BearerBackend, BearerChallenge, Verifier
from rypsok.serve_http.calls import CallStreams, CallWatch, CancelCalls
from rypsok.serve_http.gate import Gate
from rypsok.serve_http.metrics import Metrics
from rypsok.server import build_server
from rypsok.version import __version__

log = logging.getLogger("rypsok.http")

MCP_PATH = "/mcp"
HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"
METADATA_PATH = "/.well-known/oauth-protected-resource"
LOOPBACK_HOSTS = ["127.0.0.1", "127.0.0.1:*", "localhost", "localhost:*", "[::1]", "[::1]:*"]


def allowed_hosts_and_origins(config: Config, host: str) -> tuple[list[str], list[str]]:
    """DNS-rebinding protection, always on: the Host and Origin headers every route accepts.

    Defaults: the loopback names on loopback, else the address listened on. An Origin is
    accepted when it is one of these hosts over http or https (agents send none at all).
    """
    server = config.server
    if server.allowed_hosts:
        hosts = list(server.allowed_hosts)
    elif is_loopback(host):
        hosts = LOOPBACK_HOSTS
    else:
        name = f"[{host}]" if ":" in host else host
        hosts = [name, f"{name}:*"]
    origins = list(server.allowed_origins) or [
        f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")
    ]
    return hosts, origins


def build_app(
    config: Config, client: Client, metrics: Metrics, verifier: Verifier, host: str
) -> ASGIApp:
    """The routes as the SDK's ``streamable_http_app`` lays them out, with rypsok's session
    manager (JSON or SSE per call) and its cancellation of calls whose client is gone.

    In order, a request meets: the Gate (framing, Host, Origin), 405 for anything but a
    POST to /mcp, the bearer token (judged on the headers alone: a request refused 401 has
    had no byte of its body read), then CallWatch, which reads the body within its time
    bound, and the SDK."""
    server = config.server
    auth = None
    metadata_url = None
    mcp_server = build_server(config, client=client)
    mcp_server.middleware.append(CancelCalls())
    manager = CallStreams(
        app=mcp_server,
        stateless=True,
        # Host and Origin are checked by the Gate in front of every route.
        security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        # CallWatch answers a body over the bound itself; the SDK's plain 413 never comes.
        max_request_body_size=server.max_request_body,
    )
    # The body is read only once the token has been judged on the headers (below).
    endpoint: Any = CallWatch(
        StreamableHTTPASGIApp(manager), server.max_request_body, server.body_timeout_ms / 1000
    )
    routes = [Route(HEALTH_PATH, _healthz(client), methods=["GET"])]
    if server.jwt:
        auth = AuthSettings(
            issuer_url=AnyHttpUrl(server.issuer),
            resource_server_url=AnyHttpUrl(server.resource),
        )
        metadata_url = build_resource_metadata_url(auth.resource_server_url)
        routes.append(_root_metadata_route(auth))
        routes.extend(create_protected_resource_routes(auth.resource_server_url, [auth.issuer_url]))
    scrape: Any = _scrape(metrics, client)
    middleware = []
    if verifier:
        # The verifier checks a JWT's audience itself.
        middleware = [
            Middleware(AuthenticationMiddleware, backend=BearerBackend(verifier)),
            Middleware(AuthContextMiddleware),
        ]
        scrape = RequireAuthMiddleware(request_response(scrape), [], metadata_url)
        endpoint = RequireAuthMiddleware(endpoint, [], metadata_url)
    routes.insert(0, Route(MCP_PATH, endpoint))
    routes.append(Route(METRICS_PATH, scrape, methods=["GET"]))
    app: ASGIApp = Starlette(
        routes=routes, middleware=middleware, lifespan=lambda _app: manager.run()
    )
    if verifier:
        app = BearerChallenge(app, str(metadata_url) if metadata_url else None)
    return AccessLog(Gate(PostOnly(app), *allowed_hosts_and_origins(config, host)), metrics)


def _healthz(client: Client):
    async def healthz(request: Request) -> JSONResponse:
        """No token: whether this process is up, whether the shared store answers, and
        what of it this replica reaches (``store_reach``, with [state] only)."""
        store = await client.store_health()
        body: dict[str, object] = {"status": "ok", "version": __version__, "store": store}
        if client.state.shared:
            body["store_reach"] = client.state.reach()
        return JSONResponse(body)

    return healthz


def _scrape(metrics: Metrics, client: Client):
    async def scrape(request: Request) -> Response:
        await client.engine_states()  # the breaker gauges read the states just refreshed
        body, content_type = metrics.exposition()
        return Response(body, media_type=content_type)

    return scrape


def _root_metadata_route(auth: AuthSettings) -> Route:
    """RFC 9728 metadata at the root well-known path too (the SDK serves the path-suffixed
    one, /.well-known/oauth-protected-resource/mcp); clients try both."""
    assert auth.resource_server_url is not None
    metadata = ProtectedResourceMetadata(
        resource=auth.resource_server_url, authorization_servers=[auth.issuer_url]
    )
    handler = ProtectedResourceMetadataHandler(metadata)
    return Route(
        METADATA_PATH,
        endpoint=cors_middleware(handler.handle, ["GET", "OPTIONS"]),
        methods=["GET", "OPTIONS"],
    )


class PostOnly:
    """405 for GET and DELETE on /mcp, as the transport spec allows a server without an SSE
    stream or sessions: in stateless mode the SDK would hold a GET open forever."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == MCP_PATH and scope["method"] != "POST":
            response = PlainTextResponse(
                "Method Not Allowed: POST JSON-RPC messages to /mcp",
                status_code=405,
                headers={"Allow": "POST"},
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


class AccessLog:
    """One log line per request, naming the token's name (never the token), and the
    refusals for the credentials (401, and 400 with ``WWW-Authenticate``) counted. The path
    is logged only when it is one of ours. Whatever any logger writes while the request is
    handled carries its method and path."""

    KNOWN = (MCP_PATH, HEALTH_PATH, METRICS_PATH)

    def __init__(self, app: ASGIApp, metrics: Metrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status: dict[str, Any] = {}

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                status["challenged"] = any(
                    name.lower() == b"www-authenticate" for name, _ in message.get("headers", ())
                )
            await send(message)

        path = scope.get("path", "")
        request = {
            "method": scope.get("method"),
            "path": path if path in self.KNOWN or path.startswith(METADATA_PATH) else "other",
        }
        started = anyio.current_time()
        try:
            with request_fields(request):
                await self.app(scope, receive, watch)
        finally:
            code = status.get("code")
            if status.get("challenged"):  # 401, or 400 for two Authorization headers
                self.metrics.unauthorized.inc()
            user = scope.get("user")
            fields = {
                **request,
                "status": code,
                "ms": round((anyio.current_time() - started) * 1000),
                "token": user.access_token.client_id
                if isinstance(user, AuthenticatedUser)
                else None,
            }
            level = logging.DEBUG if path == HEALTH_PATH else logging.INFO
            log.log(level, "http_request", extra={"fields": fields})
