"""Viewers counted as watching while their stream is open, refreshed for the whole process at once.

An open stream whose Source names a presence joins this book and leaves it when it closes; one
task writes the changes (events/presence.py): new viewers and leavers within FLUSH_SECONDS, and
every viewer again each TTL/3, all in one pipeline. Thousands of open streams so cost one round
trip every few seconds, not a thread and a round trip each.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, defaultdict

from redis.exceptions import RedisError

from events import keys, presence

log = logging.getLogger("arena.streams")
FLUSH_SECONDS = 0.5
Entry = tuple[str, str]                 # (game id, viewer)


class PresenceBook:
    def __init__(self, redis) -> None:
        self.redis = redis                                      # an asyncio client
        self.open: Counter[Entry] = Counter()                   # a player may watch in two tabs
        self.joined: set[Entry] = set()
        self.left: set[Entry] = set()
        self._task: asyncio.Task | None = None

    def join(self, entry: Entry) -> None:
        self.open[entry] += 1
        if self.open[entry] == 1:
            self.joined.add(entry)
            self.left.discard(entry)
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="presence")

    def leave(self, entry: Entry) -> None:
        self.open[entry] -= 1
        if self.open[entry] <= 0:
            del self.open[entry]
            self.left.add(entry)
            self.joined.discard(entry)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self.left |= set(self.open)
        self.open.clear()
        await self.flush(everyone=False)

    async def _run(self) -> None:
        refreshed = float("-inf")
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            everyone = time.monotonic() - refreshed >= presence.TTL / 3
            if await self.flush(everyone) and everyone:
                refreshed = time.monotonic()

    async def flush(self, everyone: bool) -> bool:
        """Write the joins and leaves (and, if `everyone`, refresh all); False if Redis refused."""
        touch, left = (set(self.open) if everyone else self.joined), self.left
        self.joined, self.left = set(), set()
        if not touch and not left:
            return True
        by_game: dict[str, list[str]] = defaultdict(list)
        for game_id, viewer in touch:
            by_game[game_id].append(viewer)
        pipe = self.redis.pipeline(transaction=False)
        now = time.time()
        for game_id, viewers in by_game.items():
            presence.queue_touch(pipe, game_id, viewers, now)
        for game_id, viewer in left:
            pipe.zrem(keys.presence(game_id), viewer)
        try:
            await pipe.execute()
            return True
        except (RedisError, OSError) as exc:
            log.warning("presence not written (%r); retrying", exc)
            self.joined |= touch & set(self.open)
            self.left |= left
            return False
