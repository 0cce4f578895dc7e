"""Who sits where in a game: names, registered players, bots, and the time control chosen.

Kept beside the game's log under its meta keys; the engine knows seats only by number.
"""
from __future__ import annotations

import json
from typing import Any

from events import keys
from events.replication import durable


def save(redis, game_id: str, seats: list[dict], info: dict[str, Any]) -> None:
    """Store the roster, answered once a replica has it (and the seat tokens written before it)."""
    players = {s["player"]: i for i, s in enumerate(seats) if s.get("player")}
    writes = [lambda c: c.hset(keys.meta(game_id, "seats"), mapping={i: json.dumps(s) for i, s in enumerate(seats)}),
              lambda c: c.set(keys.meta(game_id, "info"), json.dumps(info))]
    if players:
        writes.append(lambda c: c.hset(keys.meta(game_id, "players"), mapping=players))
    durable(redis, keys.meta(game_id, "info"), *writes)
    for pid in players:
        durable(redis, keys.player_games(pid), lambda c, pid=pid: c.sadd(keys.player_games(pid), game_id))


def seats(redis, game_id: str) -> list[dict]:
    raw = redis.hgetall(keys.meta(game_id, "seats"))
    return [json.loads(raw[k]) for k in sorted(raw, key=int)]


def info(redis, game_id: str) -> dict:
    raw = redis.get(keys.meta(game_id, "info"))
    return json.loads(raw) if raw else {}


def names(redis, game_id: str) -> dict[int, str]:
    return {i: s["name"] for i, s in enumerate(seats(redis, game_id))}
