"""Who is watching a game now: viewers refresh their entry while their stream is open.

A stream connection calls `touch` when it opens and at each heartbeat; an entry lapses TTL
seconds after its last touch, so a viewer whose connection died stops counting by itself.
Viewers are player ids, or `anon:<a digest of the client address>` for streams without a player
(an address is one viewer). Spectator counts and the e-mail rule "never while the player is
watching that game" read it.
"""
from __future__ import annotations

import time
from typing import Any

from . import keys, unmoved
from .memo import Memo
from .replies import text

TTL = 45.0
LIVE_REFRESH_SECONDS = 2.0          # a game moved in again within this is not written again
_marked: Memo[bool] = Memo(size=65536, ttl=LIVE_REFRESH_SECONDS)


def touch(redis: Any, game_id: str, viewer: str, now: float | None = None, ttl: float = TTL) -> None:
    pipe = redis.pipeline(transaction=False)
    queue_touch(pipe, game_id, [viewer], time.time() if now is None else now, ttl)
    pipe.execute()


def queue_touch(pipe: Any, game_id: str, viewers: list[str], now: float, ttl: float = TTL) -> None:
    """Add the touch of several viewers of one game to a pipeline (sync or asyncio): the async
    stream tier refreshes every viewer of a process in one round trip."""
    pipe.zadd(keys.presence(game_id), {viewer: now + ttl for viewer in viewers})
    pipe.zremrangebyscore(keys.presence(game_id), "-inf", now)
    pipe.expire(keys.presence(game_id), int(ttl) + 60)
    unmoved.queue_expire_with(pipe, game_id)     # never outlive a game nobody moved in


def leave(redis: Any, game_id: str, viewer: str) -> None:
    redis.zrem(keys.presence(game_id), viewer)


def viewers(redis: Any, game_id: str, now: float | None = None) -> list[str]:
    now = time.time() if now is None else now
    return [text(v) for v in redis.zrangebyscore(keys.presence(game_id), now, "+inf")]


def watching(redis: Any, game_id: str, player_id: str, now: float | None = None) -> bool:
    until = redis.zscore(keys.presence(game_id), player_id)
    return until is not None and until >= (time.time() if now is None else now)


def mark_live(redis: Any, game_id: str, now: float | None = None) -> None:
    """Put the game at the top of the list of games to watch (workers/results.py takes it off).
    Every move does it, so the list is sharded (keys.live_games): each move writes one shard, and a
    process writes a game at most once per LIVE_REFRESH_SECONDS (a move then costs no write)."""
    if now is None and _marked.get(game_id):
        return
    redis.zadd(keys.live_games(keys.live_shard(game_id)), {game_id: time.time() if now is None else now})
    _marked.put(game_id, True)


def not_live(redis: Any, game_id: str) -> None:
    """Take the game off the list of games to watch (it ended, or is gone)."""
    redis.zrem(keys.live_games(keys.live_shard(game_id)), game_id)


def live(redis: Any, limit: int = 50) -> list[str]:
    """The `limit` games that changed last: the latest of every shard, merged (one pipeline, one
    round trip per Cluster node)."""
    pipe = redis.pipeline(transaction=False)
    for shard in range(keys.LIVE_SHARDS):
        pipe.zrevrange(keys.live_games(shard), 0, limit - 1, withscores=True)
    rows = [row for shard in pipe.execute() for row in shard]
    rows.sort(key=lambda row: row[1], reverse=True)
    return [text(g) for g, _ in rows[:limit]]
