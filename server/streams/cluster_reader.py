"""The stream hub's reader on a Redis Cluster, where one XREAD cannot name keys of several slots.

Every master says which streams were appended to: with keyspace notifications on (events `Et`),
each XADD publishes its key on `__keyevent@0__:xadd` of the master that ran it. The reader keeps
one subscription per master and reads only the keys it was told about, after their cursors, in
one pipeline (one round trip per master). Whatever a notification could have missed is read
again in full: when a listener (re)connects (a failover brings a new master), after any error,
and after a quiet `block_ms` (the same period the single-Redis reader's blocking XREAD has).

It turns notifications on itself (CONFIG SET on each master it listens to, keeping the flags
already set); where CONFIG is refused, set `notify-keyspace-events Et` in every node's config
(`arena cluster-check` says which lack it) or entries arrive only every `block_ms`.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError, ResponseError

from ..sse import PAGE, StreamId, format_id
from .following import Following

log = logging.getLogger("arena.streams")
CHANNEL = "__keyevent@0__:xadd"
NEEDED_FLAGS = "Et"                 # key-event notifications of stream commands
BATCH = 256                         # keys per pipeline
RELISTEN_SECONDS = 0.5              # a master whose listener failed is tried again this often
BACKOFF = (0.05, 0.1, 0.2, 0.5, 1.0)


def missing_flags(current: str) -> str:
    """The notification flags `current` lacks for XADD events ('A' covers 't')."""
    return "".join(f for f in NEEDED_FLAGS if f not in current and not (f == "t" and "A" in current))


class ClusterReader(Following):
    """Follows any number of stream keys across a Cluster; `deliver(key, entries)` gets what it reads."""

    def __init__(self, cluster: Any, block_ms: int, deliver: Callable[[str, list], None]) -> None:
        super().__init__(deliver, "the Cluster")
        self.cluster, self.block_ms = cluster, block_ms
        self._dirty: set[str] = set()
        self._everything = True
        self._changed = asyncio.Event()
        self._listeners: dict[str, asyncio.Task] = {}
        self._failed_at: dict[str, float] = {}
        self._task = asyncio.create_task(self._run(), name="stream-cluster-reader")

    def add(self, key: str, after: StreamId) -> None:
        self.cursors[key] = after
        self._dirty.add(key)
        self._changed.set()

    def remove(self, key: str) -> None:
        self.cursors.pop(key, None)

    async def close(self) -> None:
        tasks = [self._task, *self._listeners.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- reading -----------------------------------------------------------------------------------

    async def _run(self) -> None:
        failures = 0
        await self._refresh()                                   # learn the masters before listening
        while True:
            if not self.cursors:
                self._changed.clear()
                await self._changed.wait()
                continue
            try:
                self._listen_to_masters()
                await self._await_change()
                await self._read_changed()
            except (RedisError, OSError) as exc:
                self._everything = True
                self.lost(exc)
                await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF) - 1)])
                failures += 1
                await self._refresh()
                continue
            self.back()
            failures = 0

    async def _await_change(self) -> None:
        if self._dirty or self._everything:
            return
        try:
            await asyncio.wait_for(self._changed.wait(), self.block_ms / 1000)
        except asyncio.TimeoutError:
            self._everything = True                             # a quiet period: read everything once

    async def _read_changed(self) -> None:
        self._changed.clear()
        keys = list(self.cursors) if self._everything else [k for k in self._dirty if k in self.cursors]
        self._dirty.clear()
        self._everything = False
        for start in range(0, len(keys), BATCH):
            batch = keys[start:start + BATCH]
            pipe = self.cluster.pipeline(transaction=False)
            for key in batch:
                pipe.xrange(key, f"({format_id(self.cursors[key])}", "+", count=PAGE)
            for key, entries in zip(batch, await pipe.execute()):
                if self.take(key, entries) and len(entries) == PAGE:
                    self._dirty.add(key)                        # more after this page

    async def _refresh(self) -> None:
        """Ask the Cluster who its masters are now (after a failover the old one is gone)."""
        try:
            await self.cluster.nodes_manager.initialize()
        except (RedisError, OSError):
            pass                        # still in flux: the next round asks again

    # --- listening ---------------------------------------------------------------------------------

    def _listen_to_masters(self) -> None:
        now = asyncio.get_running_loop().time()
        masters = {node.name: node for node in self.cluster.get_primaries()}
        for name, task in list(self._listeners.items()):
            if name not in masters or task.done():
                task.cancel()
                del self._listeners[name]
        for name, node in masters.items():
            if name not in self._listeners and now - self._failed_at.get(name, -1e9) >= RELISTEN_SECONDS:
                self._listeners[name] = asyncio.create_task(self._listen(node.host, node.port, name),
                                                            name=f"stream-listener-{name}")

    async def _listen(self, host: str, port: int, name: str) -> None:
        client = aioredis.Redis(host=host, port=port, socket_connect_timeout=2)
        try:
            await self._notifications_on(client, name)
            pubsub = client.pubsub()
            await pubsub.subscribe(CHANNEL)
            self._wake_all()                                    # appends before we listened: read them
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    data = message["data"]
                    key = data.decode() if isinstance(data, bytes) else data
                    if key in self.cursors:
                        self._dirty.add(key)
                        self._changed.set()
        except (RedisError, OSError) as exc:
            log.info("stream listener on %s stopped (%s)", name, exc)
        finally:
            self._failed_at[name] = asyncio.get_running_loop().time()
            self._wake_all()
            await client.aclose()

    def _wake_all(self) -> None:
        self._everything = True
        self._changed.set()

    async def _notifications_on(self, client: aioredis.Redis, name: str) -> None:
        found = next(iter((await client.config_get("notify-keyspace-events")).values()), b"")
        current = found.decode() if isinstance(found, bytes) else found
        missing = missing_flags(current)
        if not missing:
            return
        try:
            await client.config_set("notify-keyspace-events", current + missing)
        except ResponseError as exc:
            log.warning("cannot turn keyspace notifications on at %s (%s): set notify-keyspace-events %s there; "
                        "until then streams arrive every %s s", name, exc, NEEDED_FLAGS, self.block_ms / 1000)
