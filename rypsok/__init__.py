"""rypsok: web search and fetch for AI agents, as an MCP server, a library and a CLI.

Library use::

    results = await rypsok.search("trio nursery", category="code")
    page = await rypsok.fetch("https://example.org/")
    async with rypsok.Client(rypsok.load_config("rypsok.toml")) as client:
        await client.search("...")

Errors raise :class:`rypsok.ToolError` with ``kind``, ``message`` and ``detail``.

The names below load on first use (PEP 562), so importing one pure part such as
``rypsok.hygiene.text`` does not load the client, the HTTP stack or AnyIO.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rypsok.version import __version__

if TYPE_CHECKING:
    from rypsok.client import Client
    from rypsok.config import Config, ConfigError, ConfigFileError, load_config
    from rypsok.errors import ToolError
    from rypsok.library import engine_status, fetch, search
    from rypsok.model import FetchResponse, SearchResponse, StatusResponse

_HOMES = {
    "Client": "rypsok.client",
    "Config": "rypsok.config",
    "ConfigError": "rypsok.config",
    "ConfigFileError": "rypsok.config",
    "load_config": "rypsok.config",
    "ToolError": "rypsok.errors",
    "FetchResponse": "rypsok.model",
    "SearchResponse": "rypsok.model",
    "StatusResponse": "rypsok.model",
    "search": "rypsok.library",
    "fetch": "rypsok.library",
    "engine_status": "rypsok.library",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'rypsok' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


__all__ = [
    "Client",
    "Config",
    "ConfigError",
    "ConfigFileError",
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
