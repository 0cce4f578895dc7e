"""Blocking XREADs shared by every open stream of a process, fanned out to the subscribers.

Each subscription names a Redis stream key. The hub keeps one cursor per key (the last entry it
handed out) and a few reader connections, each blocked in one `XREAD BLOCK` over up to
SHARD_KEYS keys, so an event costs one read of its shard, not of every key followed. When a
subscription brings a key that no blocked read covers, the hub wakes that shard's reader with
`CLIENT UNBLOCK` (no write to Redis), so its next read covers the key at once. Entries are
rendered once per (render, viewer) and queued to each subscriber in order.

A subscriber reads the backlog *after* subscribing and drops what it already sent, so nothing
between its backlog read and the hub's next delivery can fall through the gap. When Redis goes
away each reader retries with a short backoff; cursors survive, so the next read resumes where
the last one stopped and subscribers miss nothing. On a Redis Cluster (REDIS_CLUSTER_URL), where
one XREAD cannot span slots, a single ClusterReader told of appends by every master takes the
readers' place (cluster_reader.py).
"""
from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any, Callable, Hashable

import redis.asyncio as aioredis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from events.connection import cluster_url, connect_async

from ..sse import PAGE, Backlog, Frame, Render, Source, StreamId, format_id
from .cluster_reader import ClusterReader
from .following import Following

log = logging.getLogger("arena.streams")
BLOCK_MS = 20_000                   # a quiet read returns this often (and is simply read again)
BACKOFF = (0.05, 0.1, 0.2, 0.5, 1.0)  # seconds between reconnection attempts, the last repeated
SHARD_KEYS = 128                    # keys per reader: what one event costs to read again
POOL_SIZE = 32                      # connections for backlog reads and wake-ups
UNBLOCK_TRIES = 50                  # the reader may not be blocked yet when a wake is sent


class Subscription:
    """One open stream: frames queued by the hub, in order; None means "close, the reader lagged".

    A list and one future at a time rather than an asyncio.Queue (four deques and an event, about
    3 KB): thousands of idle streams each hold one."""

    __slots__ = ("source", "pending", "max_pending", "dropped", "_waiter")

    def __init__(self, source: Source, max_pending: int) -> None:
        self.source = source
        self.pending: list[list[Frame] | None] = []
        self.max_pending = max_pending
        self.dropped = False
        self._waiter: asyncio.Future | None = None

    def offer(self, frames: list[Frame]) -> None:
        if self.dropped:
            return
        if len(self.pending) >= self.max_pending:           # a client that does not read: let it resume
            self.dropped = True
            self.pending.append(None)
        else:
            self.pending.append(frames)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def next(self) -> list[Frame] | None:
        """The next batch queued (waiting for one)."""
        while not self.pending:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self.pending.pop(0)


class Reader(Following):
    """One connection blocked in XREAD over its keys; `deliver(key, entries)` gets what it reads."""

    def __init__(self, url: str, block_ms: int, waker: aioredis.Redis,
                 deliver: Callable[[str, list], None]) -> None:
        super().__init__(deliver, "Redis")
        self.redis = aioredis.Redis.from_url(url, single_connection_client=True, socket_timeout=block_ms / 1000 + 10,
                                             socket_connect_timeout=2, retry=Retry(NoBackoff(), 0))
        self.block_ms, self.waker = block_ms, waker
        self._new_keys = asyncio.Event()
        self._reading = False
        self._client_id: int | None = None
        self._task = asyncio.create_task(self._run(), name="stream-reader")
        self._waking: asyncio.Task | None = None

    def add(self, key: str, after: StreamId) -> None:
        self.cursors[key] = after
        self._new_keys.set()
        if self._waking is None or self._waking.done():
            self._waking = asyncio.create_task(self._wake())

    def remove(self, key: str) -> None:
        self.cursors.pop(key, None)

    async def close(self) -> None:
        tasks = [t for t in (self._task, self._waking) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.redis.aclose()

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
                if self._client_id is None:
                    self._client_id = int(await self.redis.client_id())
                self._reading = True
                reply = await self.redis.xread(streams, count=PAGE, block=self.block_ms)
            except (RedisError, OSError) as exc:
                self._reading, self._client_id = False, None
                self.lost(exc)
                await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF) - 1)])
                failures += 1
                continue
            self._reading, failures = False, 0
            self.back()
            for raw_key, entries in reply.items() if isinstance(reply, dict) else reply or []:
                self.take(raw_key.decode() if isinstance(raw_key, bytes) else raw_key, entries)

    async def _wake(self) -> None:
        """Make a blocked read return, so the next one covers the keys added since."""
        try:
            for _ in range(UNBLOCK_TRIES):
                if not self._new_keys.is_set():
                    return                                      # the read in flight already covers them
                if self._reading and self._client_id is not None and await self.waker.client_unblock(self._client_id):
                    return
                await asyncio.sleep(0.002)
        except (RedisError, OSError):
            return                                              # the reader notices by itself


class StreamHub:
    def __init__(self, url: str, *, max_pending: int = 256, block_ms: int = BLOCK_MS,
                 shard_keys: int = SHARD_KEYS) -> None:
        self.url, self.block_ms, self.shard_keys, self.max_pending = url, block_ms, shard_keys, max_pending
        self.cluster = url == cluster_url()                 # streams on a Cluster: one ClusterReader
        if self.cluster:
            self.redis = connect_async(socket_timeout=5)
        else:
            pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=POOL_SIZE, timeout=10,
                                                            socket_timeout=5, socket_connect_timeout=2)
            self.redis = aioredis.Redis(connection_pool=pool)       # a burst of backlog reads waits its turn
        self.subscribers: dict[str, set[Subscription]] = defaultdict(set)
        self.readers: list[Reader | ClusterReader] = []
        self.reader_of: dict[str, Reader | ClusterReader] = {}

    async def stop(self) -> None:
        await asyncio.gather(*(reader.close() for reader in self.readers))
        await self.redis.aclose()

    def status(self) -> dict:
        lost = [r for r in self.readers if r.connected is False]
        state = f"reconnecting: {lost[0].last_error}" if lost else "connected" if any(
            r.connected for r in self.readers) else "idle"
        return {"ok": not lost, "open_streams": sum(len(s) for s in self.subscribers.values()),
                "keys": len(self.reader_of), "readers": len(self.readers), "reader": state}

    # --- subscribers -------------------------------------------------------------------------------

    def subscribe(self, source: Source, after: StreamId) -> Subscription:
        """Frames of `source.key` after the hub's cursor (at most from `after`) from now on."""
        sub = Subscription(source, self.max_pending)
        self.subscribers[source.key].add(sub)
        if source.key not in self.reader_of:
            reader = self._reader_with_room()
            self.reader_of[source.key] = reader
            reader.add(source.key, after)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self.subscribers.get(sub.source.key)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            del self.subscribers[sub.source.key]
            self.reader_of.pop(sub.source.key).remove(sub.source.key)

    def _reader_with_room(self) -> Reader | ClusterReader:
        if self.cluster:
            if not self.readers:
                self.readers.append(ClusterReader(self.redis, self.block_ms, self._deliver))
            return self.readers[0]
        reader = min(self.readers, key=lambda r: len(r.cursors), default=None)
        if reader is None or len(reader.cursors) >= self.shard_keys:
            reader = Reader(self.url, self.block_ms, self.redis, self._deliver)
            self.readers.append(reader)
        return reader

    async def read_after(self, source: Source, after: StreamId) -> Backlog:
        """The backlog after `after`, read with the hub's own client (the async twin of sse.read_after)."""
        backlog = Backlog(source, after)
        if source.archived is not None and await asyncio.to_thread(backlog.take_archived):
            return backlog                      # the archive (a file, a synchronous client) off the loop
        while not backlog.take(await self.redis.xrange(*backlog.query(), count=PAGE)):
            pass
        return backlog

    def _deliver(self, key: str, entries: list[Any]) -> None:
        rendered: dict[tuple[Render, Hashable], list[Frame]] = {}
        for sub in list(self.subscribers.get(key, ())):
            view = (sub.source.render, sub.source.viewer)
            if view not in rendered:
                rendered[view] = sub.source.render(entries, sub.source.viewer)
            if rendered[view]:
                sub.offer(rendered[view])
