"""Games nobody has moved in yet: they expire, and each creator may have only so many at once.

A new game (or one waiting for invitations) gets an expiry on every one of its keys
(keys.all_game_keys) and counts against its owners' caps: its creator's address and, when the
creator is a registered player, that player. The first move removes the expiry and the count
(`keep`); so does the end of a game in which nobody moved (bots, timeouts). A game nobody moves in
simply disappears from Redis when its time is up, and stops counting.

A key of the game first written after `arm` (a chat channel, its viewers, its snapshots) had no
expiry to take: its writer calls `expire_with` (or queues it on its pipeline), which gives every
key of the game the game's remaining time at most, unless the game is kept for good (then, once a
process knows it, at no cost). An append does the same for what it writes (events/lua/append.lua).

    if not unmoved.claim(redis, ["a:203.0.113.9", "p:p12ab"], game_id, cap=20, until=now + ttl, now=now):
        refuse
    unmoved.mark(redis, game_id, ["a:203.0.113.9", "p:p12ab"], ttl)     # before the log exists
    ...create the game...
    unmoved.arm(redis, game_id, ttl)        # every key expires, unless a move came first
    unmoved.keep(redis, game_id)            # first move; cheap after the first call in a process
    unmoved.expire_with(redis, game_id)     # after writing a key it may not have had (chat, viewers...)
"""
from __future__ import annotations

import json
import math
from typing import Any, Sequence

from . import keys
from .memo import Memo
from .replies import text
from .scripts import lua, run_script

CLAIM_LUA = lua("claim_unmoved.lua")
KEEP_LUA = lua("keep_game.lua")
ARM_LUA = lua("arm_game.lua")
EXPIRE_WITH_LUA = lua("expire_with_game.lua")
KEPT_FOR_GOOD = 0                   # expire_with_game.lua's answer for a game that never expires again
UNMOVED = "unmoved"
NO_CAP = 2 ** 31


def claim(redis: Any, owners: Sequence[str], game_id: str, *, cap: int, until: float, now: float) -> str | None:
    """Count the game against every owner's cap; the owner whose cap is full (nothing counted), or None."""
    counted = []
    for owner in owners:
        ok, _ = run_script(redis, CLAIM_LUA, [keys.unmoved_games(owner)], [game_id, repr(now), repr(until), cap])
        if not int(ok):
            for done in counted:
                redis.zrem(keys.unmoved_games(done), game_id)
            return owner
        counted.append(owner)
    return None


def frees_in(redis: Any, owner: str, now: float) -> float:
    """Seconds until the owner's oldest counted game stops counting (if nobody moves in it)."""
    first = redis.zrange(keys.unmoved_games(owner), 0, 0, withscores=True)
    return max(0.0, float(first[0][1]) - now) if first else 0.0


def mark(redis: Any, game_id: str, owners: Sequence[str], ttl: int) -> None:
    """Before the game's log exists: the game is unmoved, counted against `owners`. A first move from
    now on (`keep`) removes the mark, and `arm` then leaves the game alone."""
    redis.set(keys.meta(game_id, UNMOVED), json.dumps(list(owners)), ex=ttl)


def arm(redis: Any, game_id: str, ttl: int) -> bool:
    """Expire every key of the marked game after `ttl` seconds; False if a move kept it meanwhile."""
    return bool(run_script(redis, ARM_LUA, [keys.meta(game_id, UNMOVED), *keys.all_game_keys(game_id)], [ttl]))


_kept: Memo[bool] = Memo(size=65536, ttl=3600.0)     # games found kept: no round trip for their writes


def expire_with(redis: Any, game_id: str) -> None:
    """After writing a key of the game that may be new (its chat, viewers, snapshots): while nobody
    has moved in the game, every key of it expires no later than the game."""
    if _kept.get(game_id) or _moved.get(game_id):           # kept for good (by this process's `keep`)
        return
    answer = run_script(redis, EXPIRE_WITH_LUA,
                        [keys.meta(game_id, UNMOVED), keys.log(game_id), *keys.all_game_keys(game_id)], [])
    if int(answer) == KEPT_FOR_GOOD:
        _kept.put(game_id, True)


def queue_expire_with(pipe: Any, game_id: str) -> None:
    """`expire_with` on a pipeline (sync or asyncio, one Redis or a Cluster) after its writes; as a
    plain EVAL command, which every kind carries with no script loaded first (redis-py's Cluster
    pipeline refuses its own `.eval`)."""
    if not _kept.get(game_id):
        named = [keys.meta(game_id, UNMOVED), keys.log(game_id), *keys.all_game_keys(game_id)]
        pipe.execute_command("EVAL", EXPIRE_WITH_LUA, len(named), *named)


def count(redis: Any, owners: Sequence[str], game_id: str, *, until: float, now: float) -> None:
    """Count a game against its owners until `until`, whatever their caps (a game that starts after
    its invitations counts from its start)."""
    claim(redis, owners, game_id, cap=NO_CAP, until=until, now=now)


def release(redis: Any, game_id: str, owners: Sequence[str]) -> None:
    """Stop counting a game against its owners (moved in, ended or cancelled)."""
    for owner in owners:
        redis.zrem(keys.unmoved_games(owner), game_id)


_moved: Memo[bool] = Memo(size=65536, ttl=math.inf)     # games this process kept: `keep` needs no round trip


def keep(redis: Any, game_id: str) -> bool:
    """Keep the game's keys for good; True when it was unmoved until now. Cheap after the first call
    for a game in a process."""
    if _moved.get(game_id):
        return False
    owners = run_script(redis, KEEP_LUA, [keys.meta(game_id, UNMOVED), *keys.all_game_keys(game_id)], [])
    _moved.put(game_id, True)
    if not owners:
        return False
    release(redis, game_id, json.loads(text(owners)))
    return True
