"""A player's finished games and rating per form, kept for profiles, the lobby and quick match.

Written once per game at its end (workers/results.py): `results(pid)` maps a game id to the
player's result in it, with the form rating before and after when the game was rated; the form
rating itself sits beside it. Ratings are openskill (mu, sigma); the ordinal mu - 3 sigma ranks.
"""
from __future__ import annotations

import json
from typing import Any

from redis.exceptions import WatchError

from . import keys, ratings
from .replies import text

DEFAULT_MU, DEFAULT_SIGMA = 25.0, 25.0 / 3


public = ratings.public          # one way a rating is shown


def form_rating(redis: Any, player_id: str, form: str) -> dict[str, Any]:
    """The player's rating in `form` (a new player's default when never rated in it)."""
    raw = redis.hget(keys.form_ratings(player_id), form)
    return json.loads(raw) if raw else {"mu": DEFAULT_MU, "sigma": DEFAULT_SIGMA, "games": 0}


def ordinal(redis: Any, player_id: str, form: str) -> float:
    return public(form_rating(redis, player_id, form))["ordinal"]


def form_ratings(redis: Any, player_id: str) -> dict[str, dict[str, Any]]:
    raw = redis.hgetall(keys.form_ratings(player_id))
    return {text(k): public(json.loads(v)) for k, v in raw.items()}


def results(redis: Any, player_id: str) -> list[dict[str, Any]]:
    """The player's finished games, latest first."""
    rows = [json.loads(v) for v in redis.hvals(keys.results(player_id))]
    return sorted(rows, key=lambda r: r["ended"], reverse=True)


def has_result(redis: Any, player_id: str, game_id: str) -> bool:
    return bool(redis.hexists(keys.results(player_id), game_id))


def keep(redis: Any, player_id: str, game_id: str, entry: dict[str, Any], rating: dict[str, Any] | None) -> bool:
    """Store the player's result (and new form rating) once; False when it was stored already."""
    with redis.pipeline(transaction=True) as pipe:          # WATCH needs it said on a Cluster
        while True:
            try:
                pipe.watch(keys.results(player_id))
                if pipe.hexists(keys.results(player_id), game_id):
                    return False
                pipe.multi()
                pipe.hset(keys.results(player_id), game_id, json.dumps(entry, sort_keys=True))
                if rating is not None:
                    pipe.hset(keys.form_ratings(player_id), entry["form"], json.dumps(rating))
                pipe.execute()
                return True
            except WatchError:
                continue
