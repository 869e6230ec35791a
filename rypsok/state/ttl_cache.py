"""One cache for whatever rypsok keeps for a while: entries live ``ttl_s`` seconds of a
clock, at most ``max_entries`` of them, the least recently used going first. An expired
entry is never served. The result cache and the robots.txt cache are both this."""

from __future__ import annotations

import collections
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class TtlLruCache(Generic[K, V]):
    def __init__(self, ttl_s: float, max_entries: int, clock: Callable[[], float]):
        self._ttl_s = ttl_s
        self._max_entries = max_entries
        self._clock = clock
        self._entries: collections.OrderedDict[K, tuple[float, V]] = collections.OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: K) -> V | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        expires_at, value = entry
        if self._clock() >= expires_at:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._entries[key] = (self._clock() + self._ttl_s, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)
