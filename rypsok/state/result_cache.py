"""The result cache: each engine's parsed answer, kept for ``ttl_s``, at most ``max_entries``.

Keyed by (engine, query, category, language, time_range): the search builds the key and
the state keeps the entries, so both live here, below the two. An expired entry is never
served; the least recently used entry goes first when the cache is full. This is the
in-memory cache; with ``[state] url`` the same rules hold in the shared store
(``rypsok.state.redis``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import astuple, dataclass

from rypsok.engines.base import RawResult
from rypsok.state.limits import Clock
from rypsok.state.ttl_cache import TtlLruCache


@dataclass(frozen=True)
class CacheKey:
    engine: str
    query: str
    category: str
    language: str | None
    time_range: str | None

    def digest(self) -> str:
        """A fixed-length name for the shared store: the query itself is not a key there."""
        text = json.dumps(astuple(self), ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()


class ResultCache(TtlLruCache[CacheKey, tuple[RawResult, ...]]):
    def __init__(self, ttl_s: float, max_entries: int, clock: Clock):
        super().__init__(ttl_s, max_entries, clock)

    def put(self, key: CacheKey, results: list[RawResult]) -> None:  # type: ignore[override]
        super().put(key, tuple(results))
