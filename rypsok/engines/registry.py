"""Every engine rypsok knows, by id, in id order."""

from __future__ import annotations

import importlib
from types import ModuleType

ENGINE_IDS: tuple[str, ...] = (
    "arxiv",
    "brave",
    "brave_news",
    "crossref",
    "duckduckgo",
    "exa",
    "gdelt",
    "github",
    "hackernews",
    "kagi",
    "marginalia",
    "mojeek",
    "openalex",
    "searxng",
    "serper",
    "stackexchange",
    "tavily",
    "wikipedia",
)


def engine_module(engine_id: str) -> ModuleType:
    """The module of one engine; it has INFO, build_request and parse."""
    if engine_id not in ENGINE_IDS:
        raise KeyError(engine_id)
    return importlib.import_module(f"rypsok.engines.{engine_id}")
