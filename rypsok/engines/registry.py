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


_LOADED: dict[str, ModuleType] = {}


def engine_module(engine_id: str) -> ModuleType:
    """The module of one engine; it has INFO, build_request and parse."""
    module = _LOADED.get(engine_id)
    if module is None:
        if engine_id not in ENGINE_IDS:
            raise KeyError(engine_id)
        # Kept once imported: every search asks for each engine's module.
        module = _LOADED[engine_id] = importlib.import_module(f"rypsok.engines.{engine_id}")
    return module
