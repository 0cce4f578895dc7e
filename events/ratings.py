"""Where ratings are kept: each player's in the player's own slot, each game's change in the game's.

A rating is JSON {mu, sigma, games}. Each player's rating lives under keys.rating (so a Cluster
spreads them and no command spans two players) with keys.rated, the games that changed it; the
change a finished game makes is planned once and kept under keys.game_rating (first writer wins).
The model that computes changes is the workers' (workers/ratings.py); this module only stores.
"""
from __future__ import annotations

import json
from typing import Any

from . import keys
from .replies import text
from .scripts import lua, run_script

DEFAULT_MU, DEFAULT_SIGMA = 25.0, 25.0 / 3      # openskill's defaults, which workers/ratings.py's model uses
_APPLY = lua("apply_rating.lua")


def default() -> dict[str, Any]:
    return {"mu": DEFAULT_MU, "sigma": DEFAULT_SIGMA, "games": 0}


DISPLAY_CENTRE, DISPLAY_SCALE = 1500, 40        # ordinal 0 (a new player) reads 1500; 1 point reads 40
PROVISIONAL_GAMES = 10


def display_points(gap: float) -> int:
    """A gap in openskill points as it reads on the familiar scale (the lobby's rating window)."""
    return round(gap * DISPLAY_SCALE)


def public(r: dict[str, Any]) -> dict[str, Any]:
    """A rating as every answer shows it: the numbers as stored, plus `display_rating` on a scale
    centred on 1500, marked "?" while provisional (fewer than PROVISIONAL_GAMES rated games)."""
    provisional = r["games"] < PROVISIONAL_GAMES
    ordinal = r["mu"] - 3 * r["sigma"]
    value = display_value(ordinal)
    return {"mu": round(r["mu"], 4), "sigma": round(r["sigma"], 4), "ordinal": round(ordinal, 4),
            "games": r["games"], "display_rating": f"{value}{'?' if provisional else ''}", "display_value": value,
            "provisional": provisional}


def display_value(ordinal: float) -> int:
    """The ordinal (mu - 3 sigma: 0 for a new player) on the familiar scale: a new player reads 1500."""
    return DISPLAY_CENTRE + display_points(ordinal)


def stored(redis: Any, player_id: str) -> tuple[str, dict[str, Any]]:
    """The player's rating as stored (raw JSON, '' if none yet) and as a value (the older one-slot
    hash, else the default, when none is stored)."""
    raw = text(redis.get(keys.rating(player_id)))
    if raw:
        return raw, json.loads(raw)
    legacy = text(redis.hget(keys.legacy_ratings(), player_id))
    return "", json.loads(legacy) if legacy else default()


def rating_of(redis: Any, player_id: str) -> dict[str, Any]:
    """The player's rating as clients see it."""
    return public(stored(redis, player_id)[1])


def planned(redis: Any, game_id: str) -> dict[str, Any] | None:
    """The change the game makes, if it was planned already."""
    known = text(redis.get(keys.game_rating(game_id)))
    return json.loads(known) if known else None


def keep_plan(redis: Any, game_id: str, plan: dict[str, Any]) -> dict[str, Any]:
    """Keep the game's planned change unless one was kept first; the one kept."""
    redis.set(keys.game_rating(game_id), json.dumps(plan, sort_keys=True), nx=True)
    return json.loads(text(redis.get(keys.game_rating(game_id))))


def apply(redis: Any, game_id: str, player_id: str, expect: str, new: dict[str, Any]) -> tuple[str, str]:
    """Set the player's rating to `new` if the game has not counted yet and the rating is still
    `expect` (raw JSON, '' for none); ('done' | 'applied' | 'stale', the current raw rating if stale)."""
    status, current = run_script(redis, _APPLY, [keys.rating(player_id), keys.rated(player_id)],
                                 [game_id, expect, json.dumps(new, sort_keys=True)])
    return text(status), text(current)
