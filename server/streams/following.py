"""What every reader of the stream hub shares: a cursor per key, delivery of what it read, its health."""
from __future__ import annotations

import logging
from typing import Callable

from ..sse import StreamId, parse_id

log = logging.getLogger("arena.streams")


class Following:
    def __init__(self, deliver: Callable[[str, list], None], where: str) -> None:
        self.deliver, self.where = deliver, where
        self.cursors: dict[str, StreamId] = {}
        self.connected: bool | None = None                     # None: no read tried yet
        self.last_error: str | None = None

    def take(self, key: str, entries: list) -> bool:
        """Hand on entries read after the key's cursor (unless the key was let go); whether any were."""
        if not entries or key not in self.cursors:
            return False
        self.cursors[key] = max(self.cursors[key], parse_id(entries[-1][0]))
        self.deliver(key, entries)
        return True

    def lost(self, exc: BaseException) -> None:
        if self.connected is not False:
            log.warning("stream reader lost %s (%s); retrying", self.where, exc)
        self.connected, self.last_error = False, str(exc) or type(exc).__name__

    def back(self) -> None:
        if self.connected is False:
            log.info("stream reader back on %s", self.where)
        self.connected, self.last_error = True, None
