"""Whether an open stream may go on: its token or session still valid, its viewer's mutes as at the
opening; asked of Redis at most every few seconds per stream, not before every delivery.

A stream (all the parts of a merged one) shares one `Standing`. A check that holds is trusted for
ARENA_STREAM_RECHECK_SECONDS; after that the next delivery or heartbeat asks again (one thread
hop, one or two round trips), so a revoked token stops receiving within that bound whatever
else happens. Sooner in practice: whoever revokes a token, closes a session or changes mutes
publishes the player's id (events/stream_terms.py), and `StandingNews` makes that player's
streams ask again before their next delivery. Once a check fails it stays failed.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from concurrent.futures import Executor
from typing import Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from events import keys

log = logging.getLogger("arena.streams")
BACKOFF = (0.1, 0.5, 1.0, 2.0)      # seconds between attempts to listen again


class Standing:
    __slots__ = ("check", "player", "seconds", "clock", "until", "failed", "generation", "_asking")

    def __init__(self, check: Callable[[], bool] | None, player: str | None, seconds: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.check, self.player, self.seconds, self.clock = check, player, seconds, clock
        self.until = float("-inf")                 # trusted until then (the clock's time)
        self.failed = False
        self.generation = 0                        # bumped by expire(): an answer asked before it is stale
        self._asking: asyncio.Future[tuple[bool, int]] | None = None

    def expire(self) -> None:
        """Ask again before the next delivery (the player's credentials or mutes just changed)."""
        self.until = float("-inf")
        self.generation += 1

    async def holds(self, executor: Executor) -> bool:
        if self.check is None:
            return True
        if self.failed:
            return False
        if self.clock() < self.until:
            return True
        while True:
            if self._asking is None:               # the parts of a merged stream ask once between them
                self._asking = asyncio.ensure_future(self._ask(executor))
            ok, asked_in = await asyncio.shield(self._asking)
            if not ok or asked_in == self.generation:
                return ok
            # the terms changed while that answer was on its way (expire() came meanwhile): ask again

    async def _ask(self, executor: Executor) -> tuple[bool, int]:
        """The check's answer, and the generation it was asked in."""
        asked_at, generation = self.clock(), self.generation
        try:
            assert self.check is not None
            ok = await asyncio.get_running_loop().run_in_executor(executor, self.check)
        except RedisError:
            ok = False                             # closed: the client resumes from its last id
        finally:
            self._asking = None
        if not ok:
            self.failed = True
        elif generation == self.generation:
            self.until = asked_at + self.seconds
        return ok, generation


class StandingNews:
    """The open streams of this process by player, told when that player's terms change (one
    subscription per process). A subscription lost and made again expires every stream's trust,
    since news may have been missed meanwhile."""

    def __init__(self, url: str | None) -> None:
        self.url = url
        self.by_player: dict[str, set[Standing]] = defaultdict(set)
        self._task: asyncio.Task | None = None

    def join(self, standing: Standing) -> None:
        if standing.player is not None and standing.check is not None:
            self.by_player[standing.player].add(standing)
            if self._task is None and self.url is not None:         # listens from the first stream on
                self._task = asyncio.create_task(self._listen(self.url), name="stream-terms")

    def leave(self, standing: Standing) -> None:
        held = self.by_player.get(standing.player or "")
        if held is not None:
            held.discard(standing)
            if not held:
                del self.by_player[standing.player or ""]

    def changed(self, player: str) -> None:
        for standing in self.by_player.get(player, ()):
            standing.expire()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _listen(self, url: str) -> None:
        failures = 0
        while True:
            client = aioredis.Redis.from_url(url, socket_connect_timeout=2)
            try:
                pubsub = client.pubsub()
                await pubsub.subscribe(keys.STREAM_TERMS)
                for held in self.by_player.values():
                    for standing in held:
                        standing.expire()
                failures = 0
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        data = message["data"]
                        self.changed(data.decode() if isinstance(data, bytes) else data)
            except (RedisError, OSError) as exc:
                log.info("stream terms listener stopped (%s); streams re-check every few seconds meanwhile", exc)
            finally:
                await client.aclose()
            await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF) - 1)])
            failures += 1
