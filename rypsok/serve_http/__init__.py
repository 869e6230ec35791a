"""The team server: MCP over Streamable HTTP, with bearer tokens, /healthz and /metrics.

``prepare`` checks what can refuse to start (exit 2) and loads nothing serving needs;
``serve`` (loaded on first use) runs until SIGTERM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rypsok.serve_http.plan import Plan, prepare

if TYPE_CHECKING:
    from rypsok.serve_http.run import serve


def __getattr__(name: str) -> Any:
    if name == "serve":
        from rypsok.serve_http.run import serve

        return serve
    raise AttributeError(f"module 'rypsok.serve_http' has no attribute {name!r}")


__all__ = ["Plan", "prepare", "serve"]
