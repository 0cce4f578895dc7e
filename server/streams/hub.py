"""One blocking XREAD per process, fanned out to every open stream of that process.

Each subscription names a Redis stream key; the hub keeps one cursor per key (the last entry it
handed out) and one reader connection blocked in `XREAD BLOCK` over all keys at once. When a
subscription brings a key the blocked read does not cover, the hub wakes its reader with
`CLIENT UNBLOCK` (no write to Redis), so the next read covers it at once. Entries are rendered
once per (render, viewer) and queued to each subscriber in order.

A subscriber reads the backlog *after* subscribing and drops what it already sent, so nothing
between its backlog read and the hub's next delivery can fall through the gap (see `Subscription`).
When Redis goes away the reader retries with a short backoff; cursors survive, so the next read
resumes where the last one stopped and subscribers miss nothing.
"""
from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any, Hashable

import redis.asyncio as aioredis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from ..sse import PAGE, Backlog, Frame, Render, Source, StreamId, format_id, parse_id

log = logging.getLogger("arena.streams")
BLOCK_MS = 20_000                   # a quiet read returns this often (and is simply read again)
BACKOFF = (0.05, 0.1, 0.2, 0.5, 1.0)  # seconds between reconnection attempts, the last repeated
POOL_SIZE = 32                      # connections for backlog reads
UNBLOCK_TRIES = 50                  # the reader may not be blocked yet when a wake is sent


class Subscription:
    """One open stream: frames queued by the hub, in order; None means "close, the reader lagged"."""

    def __init__(self, source: Source, max_pending: int) -> None:
        self.source = source
        self.queue: asyncio.Queue[list[Frame] | None] = asyncio.Queue()
        self.max_pending = max_pending

    def offer(self, frames: list[Frame]) -> None:
        if self.queue.qsize() >= self.max_pending:           # a client that does not read: let it resume
            self.queue.put_nowait(None)
        else:
            self.queue.put_nowait(frames)


class StreamHub:
    def __init__(self, url: str, *, max_pending: int = 256, block_ms: int = BLOCK_MS) -> None:
        timeout = block_ms / 1000 + 10
        self.reader = aioredis.Redis.from_url(url, single_connection_client=True, socket_timeout=timeout,
                                              socket_connect_timeout=2, retry=Retry(NoBackoff(), 0))
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=POOL_SIZE, timeout=10, socket_timeout=5,
                                                        socket_connect_timeout=2)
        self.redis = aioredis.Redis(connection_pool=pool)           # backlogs and wake-ups: a burst waits its turn
        self.block_ms = block_ms
        self.max_pending = max_pending
        self.subscribers: dict[str, set[Subscription]] = defaultdict(set)
        self.cursors: dict[str, StreamId] = {}
        self.connected: bool | None = None                     # None: no read tried yet
        self.last_error: str | None = None
        self._new_keys = asyncio.Event()
        self._reading: frozenset[str] = frozenset()          # the keys of the read in flight
        self._reader_id: int | None = None
        self._task: asyncio.Task | None = None
        self._waking: asyncio.Task | None = None

    # --- life ------------------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="stream-hub")

    async def stop(self) -> None:
        for task in (self._task, self._waking):
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for t in (self._task, self._waking) if t is not None), return_exceptions=True)
        await self.reader.aclose()
        await self.redis.aclose()

    def status(self) -> dict:
        ok = self.connected is not False
        open_streams = sum(len(s) for s in self.subscribers.values())
        return {"ok": ok, "open_streams": open_streams, "keys": len(self.cursors),
                "reader": "connected" if self.connected else "idle" if self.connected is None
                else f"reconnecting: {self.last_error}"}

    # --- subscribers -------------------------------------------------------------------------------

    def subscribe(self, source: Source, after: StreamId) -> Subscription:
        """Frames of `source.key` after the hub's cursor (at most from `after`) from now on."""
        sub = Subscription(source, self.max_pending)
        self.subscribers[source.key].add(sub)
        if source.key not in self.cursors:
            self.cursors[source.key] = after
            self._new_keys.set()
            if self._waking is None or self._waking.done():
                self._waking = asyncio.create_task(self._wake())
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self.subscribers.get(sub.source.key)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            del self.subscribers[sub.source.key]
            self.cursors.pop(sub.source.key, None)

    async def read_after(self, source: Source, after: StreamId) -> Backlog:
        """The backlog after `after`, read with the hub's own client (the async twin of sse.read_after)."""
        backlog = Backlog(source, after)
        while not backlog.take(await self.redis.xrange(*backlog.query(), count=PAGE)):
            pass
        return backlog

    # --- the reader --------------------------------------------------------------------------------

    async def _run(self) -> None:
        failures = 0
        while True:
            if not self.cursors:
                self._new_keys.clear()
                await self._new_keys.wait()
                continue
            self._new_keys.clear()
            streams = {key: format_id(cursor) for key, cursor in self.cursors.items()}
            try:
                if self._reader_id is None:
                    self._reader_id = int(await self.reader.client_id())
                self._reading = frozenset(streams)
                reply = await self.reader.xread(streams, count=PAGE, block=self.block_ms)
            except (RedisError, OSError) as exc:
                self._reading, self._reader_id = frozenset(), None
                self._lost(exc)
                await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF) - 1)])
                failures += 1
                continue
            self._reading = frozenset()
            if not self.connected:
                log.info("stream reader connected to Redis")
            self.connected, self.last_error, failures = True, None, 0
            self._deliver(reply)

    def _lost(self, exc: BaseException) -> None:
        if self.connected is not False:
            log.warning("stream reader lost Redis (%s); retrying", exc)
        self.connected, self.last_error = False, str(exc) or type(exc).__name__

    async def _wake(self) -> None:
        """Make a blocked read return, so the next one covers the keys subscribed since."""
        try:
            for _ in range(UNBLOCK_TRIES):
                if not self._new_keys.is_set():
                    return                                      # the read in flight already covers them
                if self._reading and self._reader_id is not None and await self.redis.client_unblock(self._reader_id):
                    return
                await asyncio.sleep(0.002)
        except (RedisError, OSError):
            return                                              # the reader notices by itself

    def _deliver(self, reply: Any) -> None:
        items = reply.items() if isinstance(reply, dict) else reply or []
        for raw_key, entries in items:
            key = raw_key.decode() if isinstance(raw_key, bytes) else raw_key
            if not entries or key not in self.cursors:
                continue
            self.cursors[key] = max(self.cursors[key], parse_id(entries[-1][0]))
            rendered: dict[tuple[Render, Hashable], list[Frame]] = {}
            for sub in list(self.subscribers.get(key, ())):
                view = (sub.source.render, sub.source.viewer)
                if view not in rendered:
                    rendered[view] = sub.source.render(entries, sub.source.viewer)
                if rendered[view]:
                    sub.offer(rendered[view])
