"""Moving what older versions wrote to today's key layout: run at every web and worker start, and
by `arena migrate`.

Older versions kept shared data in single keys (one slot each on a Redis Cluster): the deadline
index and its leases in `{deadlines}`, every lobby table, the open list and the seeks in
`{lobby}`, the live games in `arena:live`, account names and sign-in failures in `{accounts}`.
Each step renames an old key to a twin in its own slot (so what an old process still writes
meanwhile lands in a fresh old key, never deleted unmoved), moves the twin's entries to the sharded
keys (events/keys.py), adding only what is missing (a newer entry written meanwhile wins), then
deletes the twin; a run can stop anywhere and the next one finishes it, and a second run finds
nothing to move. Deadlines keep their due times; a
claim an old loop held is offered again at once (the claiming loop is gone; handling a deadline
twice is harmless). A table without an expiry time gets its creation time plus the table TTL.

`ensure` runs the migration once per Redis (keys.layout() records it), so starts stay one GET
when there is nothing to do. During a rolling upgrade old processes may still write the old keys:
run `arena migrate` (always a full pass) once the last old process has stopped.
"""
from __future__ import annotations

import json
import logging
from collections import Counter
from typing import Any, Callable, Iterable

from redis.exceptions import RedisError

from . import due, keys, lobby
from .replies import text

log = logging.getLogger("arena.layout")
BATCH = 500
DRAIN_ROUNDS = 10                   # an old process writing all the while: the rest waits for the next run


def ensure(redis: Any, now: float, table_ttl: float) -> Counter | None:
    """Migrate unless this Redis is known to be in today's layout; what was moved (None: nothing to do)."""
    if int(text(redis.get(keys.layout())) or 0) >= keys.LAYOUT:
        return None
    return migrate(redis, now, table_ttl)


def ensure_quietly(redis: Any, now: float, table_ttl: float) -> None:
    """`ensure` at a process start: Redis being away then must not stop the process (it runs again
    at the next start, or with `arena migrate`)."""
    try:
        moved = ensure(redis, now, table_ttl)
    except RedisError as exc:
        log.warning("could not check the key layout (%s): run `arena migrate` once Redis is back", exc)
        return
    if moved:
        log.warning("moved data of an older key layout: %s", dict(moved))


def migrate(redis: Any, now: float, table_ttl: float) -> Counter:
    """Every step, whatever the recorded layout; how many entries each moved."""
    moved: Counter = Counter()
    moved["deadlines"] = _deadlines(redis, now)
    moved["tables"] = _tables(redis, table_ttl)
    moved["seeks"] = _seeks(redis)
    moved["live_games"] = _live_games(redis)
    moved["account_names"], moved["name_conflicts"] = _account_names(redis)
    moved["signin_failures"] = _signin_failures(redis)
    redis.set(keys.layout(), keys.LAYOUT)
    return +moved


def _sorted_set(redis: Any, key: str) -> Iterable[list[tuple[str, float]]]:
    """The members of a sorted set with their scores, a batch at a time."""
    cursor = 0
    while True:
        cursor, rows = redis.zscan(key, cursor, count=BATCH)
        if rows:
            yield [(text(member), float(score)) for member, score in rows]
        if not cursor:
            return


def _hash(redis: Any, key: str) -> Iterable[dict[str, str]]:
    cursor = 0
    while True:
        cursor, rows = redis.hscan(key, cursor, count=BATCH)
        if rows:
            yield {text(k): text(v) for k, v in rows.items()}
        if not cursor:
            return


def _drain(redis: Any, key: str, move: Callable[[str], int]) -> int:
    """Move what older key `key` holds with `move(source) -> entries moved`. The key is renamed
    first to its twin in its own slot (keys.legacy_moving), so what an old process still writes
    meanwhile goes to a fresh `key` (moved in the next round, or the next run) and nothing is
    deleted unmoved; a twin a stopped run left behind is finished first."""
    moving, count = keys.legacy_moving(key), 0
    for _ in range(DRAIN_ROUNDS):
        if redis.exists(moving):
            count += move(moving)
            redis.delete(moving)
        if not redis.exists(key):
            break
        redis.rename(key, moving)
    return count


def _deadlines(redis: Any, now: float) -> int:
    def due_at_their_time(source: str) -> int:
        batches = list(_sorted_set(redis, source))
        for batch in batches:
            due.add(redis, dict(batch), only_new=True)
        return sum(map(len, batches))

    def offered_again(source: str) -> int:                  # claims of a loop that is gone: due at once
        batches = list(_sorted_set(redis, source))
        for batch in batches:
            due.add(redis, {member: now for member, _ in batch}, only_new=True)
        return sum(map(len, batches))
    return _drain(redis, keys.legacy_deadlines(), due_at_their_time) + \
        _drain(redis, keys.legacy_deadline_leases(), offered_again)


def _tables(redis: Any, table_ttl: float) -> int:
    def copy(source: str) -> int:
        raw = redis.get(source)
        if raw is None:
            return 0
        table = json.loads(raw)
        if table["status"] == "open" and table.get("expires") is None:
            table["expires"] = table["created"] + table_ttl
        redis.set(keys.table(table["id"]), json.dumps(table), nx=True)      # a copy made before is kept
        lobby.reindex(redis, table["id"])
        return 1

    found = {text(k).removesuffix(keys.MOVING) for k in redis.scan_iter(match=keys.legacy_table("x").removesuffix("x") + "*",
                                                                   count=BATCH)}
    count = sum(_drain(redis, old, copy) for old in sorted(found))
    redis.delete(keys.legacy_open_tables())                # the tables themselves say whether they are open
    return count


def _seeks(redis: Any) -> int:
    def copy(source: str) -> int:
        count = 0
        for batch in _hash(redis, source):
            for player_id, raw in batch.items():
                seek = json.loads(raw)
                pool = lobby.pool_of(seek["form"], seek.get("time_control"))
                redis.set(keys.player_seek(player_id), pool, nx=True)        # a newer seek of the player wins
                if text(redis.get(keys.player_seek(player_id))) == pool:
                    redis.hsetnx(keys.seek_pool(pool), player_id, raw)
                count += 1
        return count
    return _drain(redis, keys.legacy_seeks(), copy)


def _live_games(redis: Any) -> int:
    def copy(source: str) -> int:
        count = 0
        for batch in _sorted_set(redis, source):
            for game_id, at in batch:
                if keys.valid_game_id(game_id):
                    redis.zadd(keys.live_games(keys.live_shard(game_id)), {game_id: at}, gt=True)
            count += len(batch)
        return count
    return _drain(redis, keys.legacy_live_games(), copy)


def _account_names(redis: Any) -> tuple[int, int]:
    """(names moved, names another account holds in today's layout: kept by that one, and logged)."""
    conflicts = []

    def copy(source: str) -> int:
        count = 0
        for batch in _hash(redis, source):
            for name, player_id in batch.items():
                if not redis.set(keys.account_name(name), player_id, nx=True) and \
                        text(redis.get(keys.account_name(name))) != player_id:
                    conflicts.append(name)
                    log.warning("account name %r of player %s is held by another player now; kept by that one",
                                name, player_id)
                count += 1
        return count
    return _drain(redis, keys.legacy_account_names(), copy), len(conflicts)


def _signin_failures(redis: Any) -> int:
    count = 0
    for old in list(redis.scan_iter(match=keys.legacy_signin_failures("*"), count=BATCH)):
        old = text(old)
        name = _name_of(old.rsplit(":", 1)[1])
        ttl, value = redis.pttl(old), redis.get(old)
        if name is not None and value is not None and ttl != -2:
            redis.set(keys.signin_failures(name), value, nx=True, px=ttl if ttl > 0 else None)
            count += 1
        redis.delete(old)
    return count


def _name_of(hexed: str) -> str | None:
    """The name an old failure key was made of (None when it may have been cut short, or is not text)."""
    if len(hexed) >= 128:
        return None
    try:
        return bytes.fromhex(hexed).decode()
    except ValueError:
        return None
