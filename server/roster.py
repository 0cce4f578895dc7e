"""Who sits where in a game: names, registered players, bots, and the time control chosen.

Kept beside the game's log under its meta keys; the engine knows seats only by number.
"""
from __future__ import annotations

import json
from typing import Any

from events import keys


def save(redis, game_id: str, seats: list[dict], info: dict[str, Any]) -> None:
    pipe = redis.pipeline(transaction=False)
    pipe.hset(keys.meta(game_id, "seats"), mapping={i: json.dumps(s) for i, s in enumerate(seats)})
    players = {s["player"]: i for i, s in enumerate(seats) if s.get("player")}
    if players:
        pipe.hset(keys.meta(game_id, "players"), mapping=players)
    pipe.set(keys.meta(game_id, "info"), json.dumps(info))
    pipe.execute()
    for pid in players:
        redis.sadd(keys.player_games(pid), game_id)


def seats(redis, game_id: str) -> list[dict]:
    raw = redis.hgetall(keys.meta(game_id, "seats"))
    return [json.loads(raw[k]) for k in sorted(raw, key=int)]


def info(redis, game_id: str) -> dict:
    raw = redis.get(keys.meta(game_id, "info"))
    return json.loads(raw) if raw else {}


def names(redis, game_id: str) -> dict[int, str]:
    return {i: s["name"] for i, s in enumerate(seats(redis, game_id))}
