"""The module-level library functions: ``rypsok.search``, ``rypsok.fetch``, ``rypsok.engine_status``."""

from __future__ import annotations

from rypsok.client import Client
from rypsok.config import load_config
from rypsok.model import FetchResponse, SearchResponse, StatusResponse

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
    """engine_status with the default configuration."""
    return await _client().engine_status()
