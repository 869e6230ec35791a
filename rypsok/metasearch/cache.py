"""The result cache: each engine's parsed answer, kept for ``ttl_s``, at most ``max_entries``.

Keyed by (engine, query, category, language, time_range). An expired entry is never
served; the least recently used entry goes first when the cache is full. This is the
in-memory cache; with ``[state] url`` the same rules hold in the shared store
(``rypsok.state.redis``).
"""

from __future__ import annotations

import collections
import hashlib
import json
from dataclasses import astuple, dataclass

from rypsok.engines.base import RawResult
from rypsok.limits import Clock


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


class ResultCache:
    def __init__(self, ttl_s: float, max_entries: int, clock: Clock):
        self._ttl_s = ttl_s
        self._max_entries = max_entries
        self._clock = clock
        self._entries: collections.OrderedDict[CacheKey, tuple[float, tuple[RawResult, ...]]] = (
            collections.OrderedDict()
        )

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: CacheKey) -> tuple[RawResult, ...] | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        expires, results = entry
        if self._clock() >= expires:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return results

    def put(self, key: CacheKey, results: list[RawResult]) -> None:
        self._entries[key] = (self._clock() + self._ttl_s, tuple(results))
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)
