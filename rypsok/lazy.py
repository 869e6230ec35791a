"""What start-up leaves for later: a value built once, on first need, off the event loop.

Loading a tool's modules and building a TLS context (the CA bundle) cost CPU that
``tools/list`` does not need. A :class:`Once` builds its value in a worker thread the first
time it is awaited, so a caller can bound the wait (the search deadline) and the event loop
keeps running meanwhile. Concurrent first callers get the one value one build made.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

import anyio

T = TypeVar("T")


class Once(Generic[T]):
    """``await once.get()``: the value of ``build()``, built at most once per success.

    A caller cancelled while the build runs (its deadline passed) leaves it running: the
    thread is abandoned, the value it makes is kept for the next caller. A build that
    raises is tried again by the next caller.
    """

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._built = False
        self._value: T | None = None

    @property
    def built(self) -> bool:
        return self._built

    def get_sync(self) -> T:
        """The value, building it in this thread if no one has (blocks while another builds)."""
        if not self._built:
            with self._lock:
                if not self._built:
                    self._value = self._build()
                    self._built = True
        return self._value  # type: ignore[return-value]

    async def get(self) -> T:
        if self._built:
            return self._value  # type: ignore[return-value]
        return await anyio.to_thread.run_sync(self.get_sync, abandon_on_cancel=True)
