"""Starting rypsok as a subprocess and talking to it with the mcp SDK's own clients,
over stdio or over Streamable HTTP (``rypsok serve --http`` on a loopback port)."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TextIO

import anyio
import httpx
import httpx2
import jsonschema
import mcp
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import get_default_environment, stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.server_fork import rypsok_command

RAW_INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
"""The handshake's first line as a client writes it by hand on the raw pipe."""
RAW_INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}

ROOT = Path(__file__).resolve().parent.parent
TRANSPORTS = ("stdio", "http")
READY_TIMEOUT_S = 30.0


def write_toml(data: dict[str, Any], path: Path) -> Path:
    """A minimal TOML writer for the config shapes the tests use (tables of scalars and lists)."""

    def scalar(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return repr(value)
        if isinstance(value, str):
            return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(value, list | tuple):
            return "[" + ", ".join(scalar(v) for v in value) + "]"
        raise TypeError(value)

    lines: list[str] = []

    def table(prefix: str, values: dict[str, Any]) -> None:
        plain = {k: v for k, v in values.items() if not isinstance(v, dict)}
        nested = {k: v for k, v in values.items() if isinstance(v, dict)}
        if prefix:
            lines.append(f"[{prefix}]")
        lines.extend(f"{k} = {scalar(v)}" for k, v in plain.items())
        for key, sub in nested.items():
            table(f"{prefix}.{key}" if prefix else key, sub)

    table("", data)
    text = "\n".join(lines) + "\n"
    tomllib.loads(text)
    path.write_text(text)
    return path


def server_parameters(
    config_path: Path, env: dict[str, str] | None = None
) -> StdioServerParameters:
    command = rypsok_command("serve", "--config", str(config_path))
    return StdioServerParameters(
        command=command[0],
        args=command[1:],
        env={"PYTHONPATH": str(ROOT), "HOME": os.environ.get("HOME", "/tmp"), **(env or {})},
        cwd=str(ROOT),
    )


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


@contextlib.asynccontextmanager
async def http_server(
    config_path: Path,
    env: dict[str, str] | None = None,
    errlog: TextIO | None = None,
    listen: str | None = None,
    open_files: int | None = None,
) -> AsyncIterator[tuple[str, subprocess.Popen]]:
    """``rypsok serve --http`` as a subprocess; yields its base URL once /healthz answers.

    The environment is what the SDK's stdio client gives a server (PATH, HOME, ...) and
    ``env``, so both transports run rypsok alike. Stopped with SIGTERM, as an operator would.
    ``open_files``: the server's RLIMIT_NOFILE (soft and hard), lowered for the test.
    """
    listen = listen or f"127.0.0.1:{free_port()}"
    base = f"http://{listen}"
    process = subprocess.Popen(
        rypsok_command("serve", "--config", str(config_path), "--http", listen),
        env={**get_default_environment(), "PYTHONPATH": str(ROOT), **(env or {})},
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=errlog,
        preexec_fn=None if open_files is None else functools.partial(_limit_files, open_files),
    )
    try:
        async with httpx.AsyncClient(trust_env=False) as probe:
            with anyio.fail_after(READY_TIMEOUT_S):
                while True:
                    assert process.poll() is None, f"rypsok --http exited {process.returncode}"
                    with contextlib.suppress(httpx.TransportError):
                        # 421: serving, with allowed_hosts that do not name the address
                        if (await probe.get(f"{base}/healthz")).status_code in (200, 421):
                            break
                    await anyio.sleep(0.05)
        yield base, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            with anyio.CancelScope(shield=True), anyio.move_on_after(15):
                while process.poll() is None:
                    await anyio.sleep(0.05)
        if process.poll() is None:
            process.kill()
        process.wait()


def _limit_files(count: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


def http_client(token: str | None = None) -> httpx2.AsyncClient:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    return httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=300.0))


@contextlib.asynccontextmanager
async def http_session(url: str, token: str | None = None) -> AsyncIterator[ClientSession]:
    """A handshake-era session over Streamable HTTP with the SDK's client."""
    async with (
        http_client(token) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as client,
    ):
        await client.initialize()
        yield client


@contextlib.asynccontextmanager
async def session(
    config_path: Path,
    env: dict[str, str] | None = None,
    transport: str = "stdio",
    errlog: TextIO | None = None,
) -> AsyncIterator[ClientSession]:
    """A handshake-era (2025-11-25) session with rypsok over stdio or Streamable HTTP."""
    if transport == "http":
        async with (
            http_server(config_path, env, errlog) as (base, _),
            http_session(f"{base}/mcp") as client,
        ):
            yield client
        return
    params = server_parameters(config_path, env)
    async with (
        stdio_client(params, errlog=errlog or sys.stderr) as (read, write),
        ClientSession(read, write) as client,
    ):
        await client.initialize()
        yield client


@contextlib.asynccontextmanager
async def modern_client(
    config_path: Path, mode: str = "auto", transport: str = "stdio"
) -> AsyncIterator[mcp.Client]:
    """mcp.Client: mode "auto" negotiates 2026-07-28, "legacy" the handshake."""
    if transport == "http":
        async with (
            http_server(config_path) as (base, _),
            mcp.Client(f"{base}/mcp", mode=mode) as client,
        ):
            yield client
        return
    async with mcp.Client(server_parameters(config_path), mode=mode) as client:
        yield client


SPEC_NOTICES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "engine_unavailable": (
        frozenset({"engine", "reason"}),
        frozenset(
            {"timeout", "rate_limited", "blocked", "parse_failure", "auth_failure"}
            | {"request_failure"}
        ),
    ),
    "engine_skipped": (
        frozenset({"engine", "reason"}),
        frozenset({"time_range", "language", "query_too_long", "cooldown", "rate_limited"}),
    ),
    "results_dropped": (
        frozenset({"reason", "count"}),
        frozenset({"instruction_like_content", "url_too_long", "url_invalid"}),
    ),
    "from_cache": (frozenset({"engine"}), frozenset()),
    "extraction_partial": (frozenset(), frozenset()),
    **{
        code: (frozenset({"count"}), frozenset())
        for code in (
            "snippet_truncated",
            "title_truncated",
            "characters_removed",
            "instruction_like_content",
            "credential_masked",
        )
    },
}
"""tools.md and reading-a-response.md: each notice code, the fields it carries besides
``code``, and the reasons it may give (a fixed vocabulary per code)."""


def assert_spec_notices(payload: dict[str, Any]) -> None:
    """An answer is a response with an outcome or an error with a kind, never both; each
    notice has exactly its code's fields, with a reason from that code's list."""
    assert ("outcome" in payload) != ("error" in payload), payload
    for notice in payload.get("notices", []):
        fields, reasons = SPEC_NOTICES[notice["code"]]
        assert set(notice) - {"code"} == fields, notice
        if "reason" in fields:
            assert notice["reason"] in reasons, notice
        if "count" in fields:
            assert type(notice["count"]) is int and notice["count"] >= 1, notice


def structured(result: Any) -> dict[str, Any]:
    """The structured content, checked to equal the JSON text block, to be an error exactly
    when isError says so, and to give each notice as the spec writes it."""
    assert result.structured_content is not None
    texts = [c.text for c in result.content if getattr(c, "type", "") == "text"]
    assert len(texts) == 1
    assert json.loads(texts[0]) == result.structured_content
    assert_spec_notices(result.structured_content)
    assert ("error" in result.structured_content) == bool(result.is_error)
    return result.structured_content


def assert_conforms(payload: dict[str, Any], schema: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(schema).validate(payload)


def rpc_call(tool: str, arguments: Any, request_id: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }


MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-11-25",
}


async def post_mcp(
    base: str,
    message: dict[str, Any] | bytes,
    token: str | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """One raw POST to /mcp (stateless: no initialize needed), for status codes and headers."""
    sent = {**MCP_HEADERS, **(headers or {})}
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        return await http.post(f"{base}/mcp", content=body, headers=sent)


def read_until_closed(sock: socket.socket, within_s: float) -> tuple[bytes, bool]:
    """What the server sent on a raw socket within ``within_s``, and whether it closed the
    connection."""
    received = b""
    deadline = time.monotonic() + within_s
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return received, False
        except ConnectionResetError:
            return received, True
        if not chunk:
            return received, True
        received += chunk
    return received, False
