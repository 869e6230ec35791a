"""Starting rypsok as a subprocess and talking to it with the mcp SDK's own clients."""

from __future__ import annotations

import contextlib
import os
import sys
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jsonschema
import mcp
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parent.parent


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
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "rypsok", "serve", "--config", str(config_path)],
        env={"PYTHONPATH": str(ROOT), "HOME": os.environ.get("HOME", "/tmp"), **(env or {})},
        cwd=str(ROOT),
    )


@contextlib.asynccontextmanager
async def session(
    config_path: Path, env: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    """A handshake-era (2025-11-25) session with rypsok over stdio."""
    params = server_parameters(config_path, env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        yield client


@contextlib.asynccontextmanager
async def modern_client(config_path: Path, mode: str = "auto") -> AsyncIterator[mcp.Client]:
    """mcp.Client over stdio: mode "auto" negotiates 2026-07-28, "legacy" the handshake."""
    async with mcp.Client(server_parameters(config_path), mode=mode) as client:
        yield client


def structured(result: Any) -> dict[str, Any]:
    """The structured content, checked to equal the JSON text block."""
    import json

    assert result.structured_content is not None
    texts = [c.text for c in result.content if getattr(c, "type", "") == "text"]
    assert len(texts) == 1
    assert json.loads(texts[0]) == result.structured_content
    return result.structured_content


def assert_conforms(payload: dict[str, Any], schema: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(schema).validate(payload)
