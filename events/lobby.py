"""The lobby in Redis: open tables, quick-match seeks, and the feed of changes the live list follows.

Tables live in keys.LOBBY_BUCKETS buckets (by their id), so a Redis Cluster spreads them over its
masters. A table, its bucket's indexes (open tables, expiry times) and the bucket's entry of
changes share the bucket's tag, so they are written in one MULTI watched over the table: two
players racing for the last seat cannot both get it. The bucket's changes are then relayed, in
order and once, into the one feed the live lobby list follows (events/lua/lobby_relay.lua: by the
process that made the change at once, and by every worker's deadline loop for what a crashed
process left).

Seeks wait in one hash per pairing pool (a form and a time control, `pool_of`): pairing watches
that hash and takes the seeks it pairs off it in one MULTI, so no seek is ever paired twice.

    table = change_table(redis, table_id, lambda t: {...t, "players": t["players"] + [me]})
"""
from __future__ import annotations

import json
import secrets
from typing import Any, Callable

from redis.exceptions import WatchError

from . import game_ids, keys, scripts
from .connection import is_cluster
from .errors import GameExists
from .replies import text, text_or_none
from .settings import current

FEED_SIZE = 1000
SCHOOL_MODES = {"random": "Random schools", "draft": "Drafted schools", "fixed": "Each picks a school",
                "bans": "Random after bans", "mutual": "Mutual selection"}
"""How a table's seats get their schools, with the words the page shows (served in /vocabulary).
Each but "fixed" is what every seat asks the engine for (engine/schools.py CHOICES): "bans", each
player in seat order bans a school, then all are drawn from the rest; "mutual", each player in seat
order chooses the school of the next."""
RELAY_BATCH = 100


def table_ttl() -> float:
    """Seconds an open table waits for its next player before it expires (ARENA_LOBBY_TABLE_TTL)."""
    return float(current().lobby_table_ttl)


def new_id() -> str:
    return "L" + secrets.token_hex(7)


def _record(pipe: Any, table_id: str, kind: str, table: dict[str, Any]) -> str:
    """Queue the change's entry in its bucket, after a read of the bucket's last entry before it (so
    the relay knows what must have been copied first); the entry's data. Last in the transaction."""
    bucket = keys.lobby_bucket(table_id)
    data = json.dumps({"kind": kind, "table": table})
    pipe.xrevrange(keys.lobby_changes(bucket), "+", "-", count=1)
    pipe.xadd(keys.lobby_changes(bucket), {"data": data}, maxlen=FEED_SIZE, approximate=True)
    return data


def _index(pipe: Any, table_id: str, table: dict[str, Any]) -> None:
    """The table's bucket's indexes after a change. An expired table stays in the expiry index
    until its creator is told (expire_due)."""
    bucket = keys.lobby_bucket(table_id)
    if table["status"] == "open":
        pipe.zadd(keys.open_tables(bucket), {table["id"]: table["created"]})
        if table.get("expires") is not None:
            pipe.zadd(keys.table_expiry(bucket), {table["id"]: table["expires"]})
    else:
        pipe.zrem(keys.open_tables(bucket), table["id"])
        if table["status"] != "expired":
            pipe.zrem(keys.table_expiry(bucket), table["id"])


def open_table(redis, table: dict[str, Any]) -> dict[str, Any]:
    """Open a table; its id, its game's id to be, is reserved first (events/game_ids.py)."""
    table_id = table["id"]
    if not game_ids.reserve(redis, table_id, "lobby"):
        raise GameExists(table_id)
    pipe = redis.pipeline(transaction=True)
    pipe.set(keys.table(table_id), json.dumps(table))
    _index(pipe, table_id, table)
    data = _record(pipe, table_id, "opened", table)
    _relay_new(redis, table_id, pipe.execute(), data)
    return table


def reindex(redis, table_id: str) -> None:
    """Put a stored table in its bucket's indexes as its status says (a table moved from an older layout)."""
    found = table(redis, table_id)
    if found is not None:
        pipe = redis.pipeline(transaction=True)
        _index(pipe, table_id, found)
        pipe.execute()


def table(redis, table_id: str) -> dict[str, Any] | None:
    if not keys.valid_game_id(table_id):
        return None
    raw = redis.get(keys.table(table_id))
    return json.loads(raw) if raw else None


def change_table(redis, table_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any] | None:
    """Apply `change` (which may raise to refuse) to the table atomically; the table after it.
    None when there is no such table."""
    key = keys.table(table_id)
    with redis.pipeline(transaction=True) as pipe:          # WATCH needs it said on a Cluster
        while True:
            try:
                pipe.watch(key)
                raw = pipe.get(key)
                if raw is None:
                    return None
                before = json.loads(raw)
                after = change(before)
                if after == before:
                    return before
                pipe.multi()
                pipe.set(key, json.dumps(after))
                _index(pipe, table_id, after)
                data = _record(pipe, table_id, "changed" if after["status"] == "open" else after["status"], after)
                done = pipe.execute()
                break
            except WatchError:
                continue
    _relay_new(redis, table_id, done, data)
    return after


def open_tables(redis, limit: int = 200, now: float | None = None, before: float | None = None) -> list[dict[str, Any]]:
    """The open tables, newest first (the newest of every bucket, merged), opened before `before`
    when given (the next page); with `now`, not those expired by then (a sweep may not have closed
    them yet)."""
    pipe = redis.pipeline(transaction=False)
    for bucket in range(keys.LOBBY_BUCKETS):
        pipe.zrevrangebyscore(keys.open_tables(bucket), "+inf" if before is None else f"({before!r}", "-inf",
                              start=0, num=limit, withscores=True)
    newest = sorted(((score, text(i)) for rows in pipe.execute() for i, score in rows), reverse=True)[:limit]
    tables = _tables(redis, [table_id for _, table_id in newest])
    return [t for t in tables if t["status"] == "open" and (now is None or not expired(t, now))]


def _tables(redis, table_ids: list[str]) -> list[dict[str, Any]]:
    if not table_ids:
        return []
    wanted = [keys.table(table_id) for table_id in table_ids]
    # a Cluster client sends one MGET per slot (per bucket), side by side
    rows = redis.mget_nonatomic(wanted) if is_cluster(redis) else redis.mget(wanted)
    return [json.loads(r) for r in rows if r]


# --- how many open tables one account, or one address, may have -----------------------------------

_CLAIM = scripts.lua("claim_unmoved.lua")


def claim_place(redis, owners: list[str], table: dict[str, Any], cap: int, now: float) -> str | None:
    """Count a new table against every owner's cap of open tables (tables started, closed or expired
    no longer count); the owner whose cap is full (nothing counted), or None."""
    counted = []
    for owner in owners:
        _recount(redis, owner, now)
        ok, _ = scripts.run_script(redis, _CLAIM, [keys.tables_of(owner)], [table["id"], repr(now),
                                                                          repr(table["expires"]), cap])
        if not int(ok):
            for done in counted:
                redis.zrem(keys.tables_of(done), table["id"])
            return owner
        counted.append(owner)
    return None


def _recount(redis, owner: str, now: float) -> None:
    """Forget the owner's tables that are no longer open; renew the time of those a join renewed. A
    table counted but not stored yet (its opening is under way) still counts, until its time."""
    listed = [text(t) for t in redis.zrange(keys.tables_of(owner), 0, -1)]
    found = _tables(redis, listed)
    still = {t["id"]: t["expires"] for t in found if t["status"] == "open" and not expired(t, now)}
    gone = [t["id"] for t in found if t["id"] not in still]
    if gone:
        redis.zrem(keys.tables_of(owner), *gone)
    if still:
        redis.zadd(keys.tables_of(owner), still, xx=True)


def place_frees_in(redis, owner: str, now: float) -> float:
    """Seconds until the owner's first open table expires if nobody joins it."""
    first = redis.zrange(keys.tables_of(owner), 0, 0, withscores=True)
    return max(0.0, float(first[0][1]) - now) if first else 0.0


def expired(table: dict[str, Any], now: float) -> bool:
    return table["status"] == "open" and table.get("expires") is not None and table["expires"] <= now


def expire_due(redis, now: float, tell: Callable[[dict[str, Any]], None], limit: int = 100) -> list[dict[str, Any]]:
    """Expire the open tables of every bucket whose time ran out by `now` (status 'expired', off
    the open list, announced in the feed), then `tell(table)` (its creator; idempotent) and take
    it off the expiry index: a crash in between tells again at the next sweep. The tables told."""
    told = []
    pipe = redis.pipeline(transaction=False)
    for bucket in range(keys.LOBBY_BUCKETS):
        pipe.zrangebyscore(keys.table_expiry(bucket), "-inf", now, start=0, num=limit)
    for bucket, due in enumerate(pipe.execute()):
        for table_id in map(text, due):
            after = change_table(redis, table_id, lambda t: {**t, "status": "expired"} if expired(t, now) else t)
            if after is not None and after["status"] == "expired":
                tell(after)
                told.append(after)
            if after is None or after["status"] != "open":
                redis.zrem(keys.table_expiry(bucket), table_id)
    return told


_RELAY = scripts.lua("lobby_relay.lua")
_FORGET_POOL = scripts.lua("forget_pool.lua")


def _relay_new(redis, table_id: str, done: list[Any], data: str) -> None:
    """Copy the change a transaction just recorded into the feed (one script in the feed's slot),
    or everything not copied yet of its bucket when changes before it are still waiting."""
    before, new_id = done[-2], text(done[-1])
    previous = text(before[0][0]) if before else "0-0"
    bucket = keys.lobby_bucket(table_id)
    if _copy(redis, bucket, [(new_id, data)], previous) < 0:
        relay(redis, bucket)


def _copy(redis, bucket: int, rows: list[tuple[str, str]], previous: str = "") -> int:
    args = [FEED_SIZE, previous, *[part for row in rows for part in row]]
    return int(scripts.run_script(redis, _RELAY, keys=[keys.lobby_relayed(bucket), keys.lobby_feed()], args=args))


def relay(redis, bucket: int) -> int:
    """Copy the bucket's changes not yet relayed into the feed, in order, each once (the script
    skips what another relay copied meanwhile); how many this call copied."""
    copied = 0
    while True:
        after = text(redis.get(keys.lobby_relayed(bucket))) or "0-0"
        rows = redis.xrange(keys.lobby_changes(bucket), f"({after}", "+", count=RELAY_BATCH)
        if rows:
            copied += _copy(redis, bucket, [(text(sid), text(_field(fields))) for sid, fields in rows])
        if len(rows) < RELAY_BATCH:
            return copied


def relay_all(redis) -> int:
    """Relay every bucket whose changes are ahead of its cursor (one pipeline finds which)."""
    pipe = redis.pipeline(transaction=False)
    for bucket in range(keys.LOBBY_BUCKETS):
        pipe.get(keys.lobby_relayed(bucket))
        pipe.xrevrange(keys.lobby_changes(bucket), "+", "-", count=1)
    found = pipe.execute()
    behind = [bucket for bucket, (cursor, last) in enumerate(zip(found[::2], found[1::2]))
              if last and _id(text(last[0][0])) > _id(text(cursor) or "0-0")]
    return sum(relay(redis, bucket) for bucket in behind)


def _id(text: str) -> tuple[int, int]:
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


def _field(fields: Any) -> Any:
    return fields[b"data"] if b"data" in fields else fields["data"]


def feed_after(redis, after: str = "0", count: int = 200) -> list[tuple[str, dict]]:
    """Feed entries after stream id `after`, oldest first."""
    start = "-" if after in ("", "0", "0-0") else f"({after}"
    return [(text(sid), json.loads(_field(fields))) for sid, fields in redis.xrange(keys.lobby_feed(), start, "+",
                                                                                    count=count)]


def feed_head(redis) -> str:
    last = redis.xrevrange(keys.lobby_feed(), "+", "-", count=1)
    return text(last[0][0]) if last else "0"


# --- quick-match seeks (one per player) -------------------------------------------------------------

def pool_of(form: str, time_control: dict[str, Any] | None) -> str:
    """The pairing pool of a seek: seeks of one form and time control are paired together."""
    if not time_control or time_control.get("kind", "none") == "none":
        return f"{form}-none"
    return f"{form}-{time_control['kind']}-{int(time_control.get('seconds') or 0)}-{int(time_control.get('increment') or 0)}"


SEEKING_SECONDS = 10


def start_seeking(redis, player_id: str) -> bool:
    """One seek at a time per player: False while another request of the player is making one."""
    return bool(redis.set(keys.seeking(player_id), "1", nx=True, ex=SEEKING_SECONDS))


def done_seeking(redis, player_id: str) -> None:
    redis.delete(keys.seeking(player_id))


def put_seek(redis, seek: dict[str, Any]) -> str:
    """Make the player's seek (replacing one in another pool); its pool."""
    pool = pool_of(seek["form"], seek["time_control"])
    before = seek_pool(redis, seek["player"])
    if before and before != pool:
        redis.hdel(keys.seek_pool(before), seek["player"])
    redis.hset(keys.seek_pool(pool), seek["player"], json.dumps(seek))
    redis.set(keys.player_seek(seek["player"]), pool)
    return pool


def seek_pool(redis, player_id: str) -> str | None:
    """The pool the player's seek waits in (None: no seek)."""
    return text_or_none(redis.get(keys.player_seek(player_id)))


def seek(redis, player_id: str) -> dict[str, Any] | None:
    pool = seek_pool(redis, player_id)
    raw = redis.hget(keys.seek_pool(pool), player_id) if pool else None
    return json.loads(raw) if raw else None


def drop_seek(redis, player_id: str) -> bool:
    pool = seek_pool(redis, player_id)
    if pool is None:
        return False
    redis.delete(keys.player_seek(player_id))
    return bool(redis.hdel(keys.seek_pool(pool), player_id))


def pair_seeks(redis, pool: str, choose: Callable[[list[dict[str, Any]]], list[list[dict[str, Any]]]]) -> list[list[dict[str, Any]]]:
    """Take the groups of seeks `choose` picks out of the pool's waiting seeks off it, atomically
    (watched over the pool: a seek is never put in two groups); the groups taken."""
    key = keys.seek_pool(pool)
    with redis.pipeline(transaction=True) as pipe:          # WATCH needs it said on a Cluster
        while True:
            try:
                pipe.watch(key)
                waiting = [json.loads(v) for v in pipe.hvals(key)]
                groups = choose(waiting)
                if not groups:
                    return []
                pipe.multi()
                pipe.hdel(key, *[s["player"] for group in groups for s in group])
                pipe.execute()
                break
            except WatchError:
                continue
    for group in groups:
        for s in group:
            _forget_pool(redis, s["player"], pool)
    return groups


def _forget_pool(redis, player_id: str, pool: str) -> None:
    """The player's seek in `pool` was paired: forget its pool, unless the player seeks anew elsewhere."""
    scripts.run_script(redis, _FORGET_POOL, keys=[keys.player_seek(player_id)], args=[pool])


MATCH_SECONDS = 3600


def matched(redis, players: list[str], game_id: str, form: str) -> None:
    """Tell each paired player (and the feed) which game their seek became."""
    body = json.dumps({"game_id": game_id, "form": form})
    for pid in players:
        redis.set(keys.seek_match(pid), body, ex=MATCH_SECONDS)
    redis.xadd(keys.lobby_feed(), {"data": json.dumps({"kind": "matched", "players": players, "game_id": game_id})},
               maxlen=FEED_SIZE, approximate=True)


def match_of(redis, player_id: str) -> dict[str, Any] | None:
    raw = redis.get(keys.seek_match(player_id))
    return json.loads(raw) if raw else None


def forget_match(redis, player_id: str) -> None:
    redis.delete(keys.seek_match(player_id))
