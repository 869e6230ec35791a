"""The team server: MCP over Streamable HTTP, with bearer tokens, /healthz and /metrics.

``prepare`` checks what can refuse to start (exit 2); ``serve`` runs until SIGTERM.
"""

from rypsok.serve_http.run import Plan, prepare, serve

__all__ = ["Plan", "prepare", "serve"]
