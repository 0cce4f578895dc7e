"""Indexes over many games or players, sharded so that a Redis Cluster spreads them over its masters.

An index is a sorted set (member -> score) split into `shards` keys, each with a hash tag of its
own (keys.index_shard); a member always lives in the same shard (keys.shard_of). Writes touch
one shard; reads ask every shard in one pipeline (on a Cluster: one round trip per master) and
merge. The same code runs on a single Redis, where the shards simply sit side by side.

    DEADLINES.put(redis, game_id, when)       # the deadline index the sweeper and deadline loop read
    DEADLINES.due(redis, upto=now, count=500) # [(game id, when)], earliest first, from every shard
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from . import keys


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


@dataclass(frozen=True)
class ShardedIndex:
    name: str
    shards: int = keys.INDEX_SHARDS

    def key(self, member: str) -> str:
        return keys.index_shard(self.name, keys.shard_of(member, self.shards))

    def keys(self) -> list[str]:
        return [keys.index_shard(self.name, n) for n in range(self.shards)]

    def put(self, redis: Any, member: str, score: float) -> None:
        redis.zadd(self.key(member), {member: score})

    def remove(self, redis: Any, member: str) -> None:
        redis.zrem(self.key(member), member)

    def score(self, redis: Any, member: str) -> float | None:
        found = redis.zscore(self.key(member), member)
        return None if found is None else float(found)

    def due(self, redis: Any, upto: float | str = "+inf", count: int = 500,
            since: float | str = "-inf") -> list[tuple[str, float]]:
        """Up to `count` members scored in [since, upto], lowest score first, over every shard."""
        pipe = redis.pipeline(transaction=False)
        for key in self.keys():
            pipe.zrangebyscore(key, since, upto, start=0, num=count, withscores=True)
        rows = heapq.merge(*([(float(s), _text(m)) for m, s in shard] for shard in pipe.execute()))
        return [(member, score) for score, member in list(rows)[:count]]

    def size(self, redis: Any) -> int:
        pipe = redis.pipeline(transaction=False)
        for key in self.keys():
            pipe.zcard(key)
        return sum(int(n) for n in pipe.execute())

    def adopt(self, redis: Any, legacy_key: str, batch: int = 500) -> int:
        """Move the entries of an unsharded sorted set (as older versions kept it) into the shards."""
        moved = 0
        while True:
            rows = redis.zrange(legacy_key, 0, batch - 1, withscores=True)
            if not rows:
                return moved
            for member, score in rows:
                member = _text(member)
                if self.score(redis, member) is None:
                    self.put(redis, member, float(score))
                redis.zrem(legacy_key, member)
                moved += 1


DEADLINES = ShardedIndex("deadlines")
