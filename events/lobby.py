"""The lobby in Redis: open tables, quick-match seeks, and the feed of changes the live list follows.

Every lobby key shares the `{lobby}` hash tag, so a change to a table, the index of open tables
and the feed entry announcing it are written in one MULTI, watched over the table: two players
racing for the last seat cannot both get it. Pairing is as safe: it watches the list of seeks
and takes the seeks it pairs off it in one MULTI, so no seek is ever paired twice.

    table = change_table(redis, table_id, lambda t: {...t, "players": t["players"] + [me]})
"""
from __future__ import annotations

import json
import secrets
from typing import Any, Callable

from redis.exceptions import WatchError

from . import keys

FEED_SIZE = 1000


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else value


def new_id() -> str:
    return "L" + secrets.token_hex(7)


def _announce(pipe: Any, kind: str, table: dict) -> None:
    pipe.xadd(keys.lobby_feed(), {"data": json.dumps({"kind": kind, "table": table})}, maxlen=FEED_SIZE,
              approximate=True)


def _index(pipe: Any, table: dict) -> None:
    if table["status"] == "open":
        pipe.zadd(keys.open_tables(), {table["id"]: table["created"]})
    else:
        pipe.zrem(keys.open_tables(), table["id"])


def open_table(redis, table: dict) -> dict:
    pipe = redis.pipeline(transaction=True)
    pipe.set(keys.table(table["id"]), json.dumps(table))
    _index(pipe, table)
    _announce(pipe, "opened", table)
    pipe.execute()
    return table


def table(redis, table_id: str) -> dict | None:
    if not keys.valid_game_id(table_id):
        return None
    raw = redis.get(keys.table(table_id))
    return json.loads(raw) if raw else None


def change_table(redis, table_id: str, change: Callable[[dict], dict]) -> dict | None:
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
                _index(pipe, after)
                _announce(pipe, "changed" if after["status"] == "open" else after["status"], after)
                pipe.execute()
                return after
            except WatchError:
                continue


def open_tables(redis, limit: int = 200) -> list[dict]:
    ids = [_text(i) for i in redis.zrange(keys.open_tables(), 0, limit - 1)]
    if not ids:
        return []
    rows = redis.mget([keys.table(i) for i in ids])
    return [t for t in (json.loads(r) for r in rows if r) if t["status"] == "open"]


def feed_after(redis, after: str = "0", count: int = 200) -> list[tuple[str, dict]]:
    """Feed entries after stream id `after`, oldest first."""
    start = "-" if after in ("", "0", "0-0") else f"({after}"
    return [(_text(sid), json.loads(fields[b"data"] if b"data" in fields else fields["data"]))
            for sid, fields in redis.xrange(keys.lobby_feed(), start, "+", count=count)]


def feed_head(redis) -> str:
    last = redis.xrevrange(keys.lobby_feed(), "+", "-", count=1)
    return _text(last[0][0]) if last else "0"


# --- quick-match seeks (one per player: its id is the player's) -----------------------------------

def put_seek(redis, seek: dict) -> None:
    redis.hset(keys.seeks(), seek["player"], json.dumps(seek))


def seek(redis, player_id: str) -> dict | None:
    raw = redis.hget(keys.seeks(), player_id)
    return json.loads(raw) if raw else None


def drop_seek(redis, player_id: str) -> bool:
    return bool(redis.hdel(keys.seeks(), player_id))


def all_seeks(redis) -> list[dict]:
    return [json.loads(v) for v in redis.hvals(keys.seeks())]


def pair_seeks(redis, choose: Callable[[list[dict]], list[list[dict]]]) -> list[list[dict]]:
    """Take the groups of seeks `choose` picks out of all waiting seeks off the list, atomically
    (watched over the list: a seek is never put in two groups); the groups taken."""
    with redis.pipeline(transaction=True) as pipe:          # WATCH needs it said on a Cluster
        while True:
            try:
                pipe.watch(keys.seeks())
                waiting = [json.loads(v) for v in pipe.hvals(keys.seeks())]
                groups = choose(waiting)
                if not groups:
                    return []
                pipe.multi()
                pipe.hdel(keys.seeks(), *[s["player"] for group in groups for s in group])
                pipe.execute()
                return groups
            except WatchError:
                continue


MATCH_SECONDS = 3600


def matched(redis, players: list[str], game_id: str, form: str) -> None:
    """Tell each paired player (and the feed) which game their seek became."""
    body = json.dumps({"game_id": game_id, "form": form})
    for pid in players:
        redis.set(keys.seek_match(pid), body, ex=MATCH_SECONDS)
    redis.xadd(keys.lobby_feed(), {"data": json.dumps({"kind": "matched", "players": players, "game_id": game_id})},
               maxlen=FEED_SIZE, approximate=True)


def match_of(redis, player_id: str) -> dict | None:
    raw = redis.get(keys.seek_match(player_id))
    return json.loads(raw) if raw else None


def forget_match(redis, player_id: str) -> None:
    redis.delete(keys.seek_match(player_id))
