"""Ratings: openskill's Plackett-Luce model over the sides of a finished game, each game rated once.

Each player's rating lives in the player's own slot (keys.rating), so a Cluster spreads them and
no command spans two players. A game is rated in two steps that survive a crash between them:
1. the plan (every player's rating before and after) is stored once in the game's slot, first
   writer wins, so a re-run applies the very same change and answers the same summary;
2. each player's new rating is set by a compare-and-set in the player's slot that also records the
   game in the player's `rated` hash (a game counts once per player). When another game changed the
   player's rating since the plan was made, this game's change is applied on top of it instead.
"""
from __future__ import annotations

import json
from typing import Any

from openskill.models import PlackettLuce

from events import keys

from . import runtime

MODEL = PlackettLuce()
MAX_REBASES = 8

_APPLY = """
-- KEYS: the player's rating (string), the player's rated games (hash); both in the player's slot
-- ARGV: game id, the rating JSON expected now ('' = none yet), the new rating JSON
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then
  return {'done', ''}
end
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[2] then
  return {'stale', current}
end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return {'applied', ''}
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else ("" if value is None else str(value))


def _default() -> dict:
    return {"mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0}


def public(r: dict) -> dict:
    return {"mu": round(r["mu"], 4), "sigma": round(r["sigma"], 4), "ordinal": round(r["mu"] - 3 * r["sigma"], 4),
            "games": r["games"]}


def stored(redis: Any, player_id: str) -> tuple[str, dict]:
    """The player's rating as stored (raw JSON, '' if none yet) and as a value (the older one-slot
    hash, else the default, when none is stored)."""
    raw = _text(redis.get(keys.rating(player_id)))
    if raw:
        return raw, json.loads(raw)
    legacy = _text(redis.hget(keys.legacy_ratings(), player_id))
    return "", json.loads(legacy) if legacy else _default()


def rating_of(redis: Any, player_id: str) -> dict:
    return public(stored(redis, player_id)[1])


def rate(redis: Any, game_id: str, rows: list[dict]) -> dict:
    """Update the ratings of the game's registered players, once; the change it made (or had made)."""
    plan = _plan(redis, game_id, rows)
    for pid, step in plan["raw"].items():
        _apply(redis, game_id, pid, step)
    return {"game_id": game_id, "players": plan["players"]}


def _plan(redis: Any, game_id: str, rows: list[dict]) -> dict:
    key = keys.meta(game_id, "rating")
    known = _text(redis.get(key))
    if known:
        return json.loads(known)
    raw, before, after = {}, {}, {}
    players = [r["player"] for r in rows if r["player"]]
    for pid in players:
        raw[pid], before[pid] = stored(redis, pid)
    after = _change(rows, before, players)
    plan = {"players": {pid: {"before": public(before[pid]), "after": public(after[pid])} for pid in after},
            "raw": {pid: {"expect": raw[pid], "before": before[pid], "after": after[pid]} for pid in after}}
    redis.set(key, json.dumps(plan, sort_keys=True), nx=True)
    return json.loads(_text(redis.get(key)))


def _change(rows: list[dict], before: dict[str, dict], players: list[str]) -> dict[str, dict]:
    """New ratings for the players: none when fewer than two sides or a player on two sides."""
    teams: dict[int, list[dict]] = {}
    for row in rows:
        teams.setdefault(row["color"], []).append(row)
    if len(teams) < 2 or not players or len(set(players)) != len(players):
        return {}
    sides = list(teams.values())
    ratings = [[MODEL.rating(before[r["player"]]["mu"], before[r["player"]]["sigma"]) if r["player"]
                else MODEL.rating() for r in side] for side in sides]
    ranks = [min(r["place"] for r in side) for side in sides]
    after = {}
    for side, new in zip(sides, MODEL.rate(ratings, ranks=ranks)):
        for row, rated in zip(side, new):
            if row["player"]:
                after[row["player"]] = {"mu": rated.mu, "sigma": rated.sigma,
                                        "games": before[row["player"]]["games"] + 1}
    return after


def _apply(redis: Any, game_id: str, player_id: str, step: dict) -> None:
    """Set the player's new rating unless this game already counted; rebase it on a newer rating."""
    expect, new = step["expect"], step["after"]
    for _ in range(MAX_REBASES):
        status, current = runtime.run_script(redis, _APPLY, [keys.rating(player_id), keys.rated(player_id)],
                                             [game_id, expect, json.dumps(new, sort_keys=True)])
        if _text(status) != "stale":
            return
        expect = _text(current)
        new = _rebased(json.loads(expect), step["before"], step["after"])
    raise RuntimeError(f"rating of {player_id} keeps changing under game {game_id}")


def _rebased(current: dict, before: dict, after: dict) -> dict:
    """This game's change (planned from `before`) applied to a rating another game has changed since."""
    return {"mu": current["mu"] + after["mu"] - before["mu"],
            "sigma": current["sigma"] * after["sigma"] / before["sigma"], "games": current["games"] + 1}
