"""rypsok: web search and fetch for AI agents, as an MCP server, a library and a CLI.

Library use::

    results = await rypsok.search("trio nursery", category="code")
    page = await rypsok.fetch("https://example.org/")
    async with rypsok.Client(rypsok.load_config("rypsok.toml")) as client:
        await client.search("...")

Errors raise :class:`rypsok.ToolError` with ``kind``, ``message`` and ``detail``.
"""

from __future__ import annotations

__version__ = "0.1.0"
USER_AGENT = f"rypsok/{__version__} (+https://pypi.org/project/rypsok/)"
"""Sent to engines and sites: the ``rypsok`` product token robots.txt rules name, and the version."""

from rypsok.client import Client  # noqa: E402
from rypsok.config import Config, ConfigError, load_config  # noqa: E402
from rypsok.errors import ToolError  # noqa: E402
from rypsok.model import FetchResponse, SearchResponse, StatusResponse  # noqa: E402

_default_client: Client | None = None


def _client() -> Client:
    """One Client per process for the module-level functions, so engine health persists."""
    global _default_client
    if _default_client is None:
        _default_client = Client(load_config())
    return _default_client


async def search(
    query: str,
    *,
    category: str | None = None,
    max_results: int | None = None,
    language: str | None = None,
    time_range: str | None = None,
) -> SearchResponse:
    """Search the engines of ``category`` with the default configuration."""
    return await _client().search(
        query,
        category=category,
        max_results=max_results,
        language=language,
        time_range=time_range,
    )


async def fetch(
    url: str, *, max_chars: int | None = None, start_char: int | None = None
) -> FetchResponse:
    """Read one public page as Markdown with the default configuration."""
    return await _client().fetch(url, max_chars=max_chars, start_char=start_char)


async def engine_status() -> StatusResponse:
    return await _client().engine_status()


__all__ = [
    "Client",
    "Config",
    "ConfigError",
    "FetchResponse",
    "SearchResponse",
    "StatusResponse",
    "ToolError",
    "engine_status",
    "fetch",
    "load_config",
    "search",
    "__version__",
]
