"""Caps on open streams per client address and per token that hold across every front process.

Each open stream holds a slot of its address (and of its token, if it has one): a member of the
owner's sorted set in Redis (keys.stream_slots), scored by when its lease lapses. Taking a slot
(events/lua/claim_stream_slot.lua) drops the lapsed ones, then refuses when the owner already
holds the cap. A process renews the leases of all its slots every lease/3 seconds, one script
per owner; a closed stream gives its slot back at once, and a process that was killed stops
renewing, so its slots lapse within one lease and no slot leaks. The claims of one turn of the
event loop go to Redis in one pipeline (on a Cluster, side by side; a burst of reconnecting clients costs a few round trips
and a connection, not one each from a pool they would wait on).

    slots = StreamSlots(redis, per_address=64, per_token=16, lease=30)
    claim = await slots.claim("203.0.113.9", token)     # None: at a cap (the caller answers 429)
    ...
    await claim.release()
"""
from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import os
import secrets
import socket
import time
from collections import defaultdict

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

from events import keys, scripts

log = logging.getLogger("arena.streams")
RENEW_BATCH = 1000                  # slots renewed per script call
CLAIM_BATCH = 500                   # claims sent in one pipeline at most
_CLAIM = scripts.lua("claim_stream_slot.lua")
_RENEW = scripts.lua("renew_stream_slots.lua")


def owner(kind: str, name: str) -> str:
    """The owner part of a slot key: 'a:' or 't:' and a hash, so neither an address nor a token
    is stored as such (and any address fits in a key)."""
    return f"{kind}:{hashlib.sha256(name.encode()).hexdigest()[:32]}"


class Claim:
    """The slots one open stream holds; `release` gives them back (once)."""

    def __init__(self, slots: "StreamSlots", owners: list[str], member: str) -> None:
        self.slots, self.owners, self.member = slots, owners, member

    async def release(self) -> None:
        owners, self.owners = self.owners, []
        if owners:
            await self.slots.give_back(owners, self.member)


class StreamSlots:
    def __init__(self, redis, per_address: int, per_token: int, lease: float) -> None:
        self.redis = redis                                      # an asyncio client (or Cluster client)
        self.per_address, self.per_token, self.lease = per_address, per_token, lease
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.held: dict[str, set[str]] = defaultdict(set)      # owner -> this process's slots of it
        self._serial = itertools.count()
        self._claim = redis.register_script(_CLAIM)
        self._renew = redis.register_script(_RENEW)
        self._task: asyncio.Task | None = None
        self._queued: list[tuple[list, asyncio.Future]] = []
        self._sending: asyncio.Task | None = None

    async def claim(self, address: str, token: str | None) -> Claim | None:
        """A slot of the address and of the token, or None when either is at its cap. Raises
        RedisError when Redis cannot be asked (the caller answers 503)."""
        wanted = [(owner("a", address), self.per_address)]
        if token:
            wanted.append((owner("t", token), self.per_token))
        member = f"{self.holder}:{next(self._serial)}"
        now = time.time()
        answers = await asyncio.gather(*(self._take([name, member, f"{now:.3f}", f"{now + self.lease:.3f}", cap])
                                         for name, cap in wanted), return_exceptions=True)
        taken = [name for (name, _), answer in zip(wanted, answers) if answer == 1]
        failed = next((a for a in answers if isinstance(a, BaseException)), None)
        if failed is not None or len(taken) < len(wanted):
            if taken:
                await self.give_back(taken, member, held=False)
            if failed is not None:
                raise failed
            return None
        for name in taken:
            self.held[name].add(member)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._renewing(), name="stream-slots")
        return Claim(self, taken, member)

    async def _take(self, call: list) -> int:
        """Run one claim script (owner and arguments) with the others of this turn of the loop."""
        answer = asyncio.get_running_loop().create_future()
        self._queued.append((call, answer))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.create_task(self._send(), name="stream-slot-claims")
        return await answer

    async def _send(self) -> None:
        await asyncio.sleep(0)                                  # let this turn's claims gather
        while self._queued:
            batch, self._queued = self._queued[:CLAIM_BATCH], self._queued[CLAIM_BATCH:]
            try:
                results = await self._pipelined([call for call, _ in batch])
            except (RedisError, OSError) as exc:
                results = [exc] * len(batch)
            for (_, answer), result in zip(batch, results):
                if answer.done():
                    continue                                    # its request went away meanwhile
                if isinstance(result, BaseException):
                    answer.set_exception(result)
                else:
                    answer.set_result(result)

    async def _pipelined(self, calls: list[list]) -> list:
        if isinstance(self.redis, RedisCluster):                  # a Cluster pipeline refuses scripts
            return await asyncio.gather(*(self._claim(keys=[keys.stream_slots(name)], args=args)
                                          for name, *args in calls), return_exceptions=True)
        pipe = self.redis.pipeline(transaction=False)          # loads the script first if Redis lost it
        for name, *args in calls:
            await self._claim(keys=[keys.stream_slots(name)], args=args, client=pipe)
        return await pipe.execute(raise_on_error=False)

    async def give_back(self, owners: list[str], member: str, held: bool = True) -> None:
        for name in owners if held else ():
            self.held[name].discard(member)
            if not self.held[name]:
                del self.held[name]
        try:
            await asyncio.gather(*(self.redis.zrem(keys.stream_slots(name), member) for name in owners))
        except (RedisError, OSError) as exc:
            log.info("stream slot %s not given back (%r): it lapses with its lease", member, exc)

    async def renew(self) -> None:
        """Renew the lease of every slot this process holds."""
        now = time.time()
        calls = []
        for name, members in list(self.held.items()):
            ordered = sorted(members)
            for start in range(0, len(ordered), RENEW_BATCH):
                calls.append(self._renew(keys=[keys.stream_slots(name)],
                                         args=[f"{now:.3f}", f"{now + self.lease:.3f}",
                                               *ordered[start:start + RENEW_BATCH]]))
        await asyncio.gather(*calls)

    async def _renewing(self) -> None:
        while self.held:
            await asyncio.sleep(self.lease / 3)
            try:
                await self.renew()
            except (RedisError, OSError) as exc:
                log.warning("stream slots not renewed (%r); retrying in %.1f s", exc, self.lease / 3)

    async def stop(self) -> None:
        """Give every slot back (a process shutting down cleanly) and stop renewing."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        held, self.held = self.held, defaultdict(set)
        try:
            await asyncio.gather(*(self.redis.zrem(keys.stream_slots(name), *members) for name, members in held.items()))
        except (RedisError, OSError) as exc:
            log.info("stream slots not given back at shutdown (%r): they lapse with their leases", exc)
