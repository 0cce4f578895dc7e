"""A bounded, expiring per-process memory, for Redis reads a hot path need not repeat.

Each entry is forgotten `ttl` seconds after it was put (and the oldest first beyond `size`), so a
process never holds more than `size` entries nor trusts one for longer than `ttl`. Thread-safe:
the WSGI threads of a process share one.

    seats = Memo(size=65536, ttl=60)
    seats.put((game_id, token_hash), 1)
    seats.get((game_id, token_hash))         # 1 within the minute, then None
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

V = TypeVar("V")


class Memo(Generic[V]):
    def __init__(self, size: int, ttl: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.size, self.ttl, self.clock = size, ttl, clock
        self._entries: OrderedDict[Hashable, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] <= self.clock():
                del self._entries[key]
                return None
            return entry[1]

    def put(self, key: Hashable, value: V, ttl: float | None = None) -> None:
        """Keep `value` for `ttl` seconds (None: the memo's own)."""
        with self._lock:
            self._entries.pop(key, None)
            self._entries[key] = (self.clock() + (self.ttl if ttl is None else ttl), value)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def forget(self, key: Hashable) -> None:
        with self._lock:
            self._entries.pop(key, None)
