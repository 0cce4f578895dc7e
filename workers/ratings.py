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

from events import ratings as kept

MODEL = PlackettLuce(mu=kept.DEFAULT_MU, sigma=kept.DEFAULT_SIGMA)
MAX_REBASES = 8


def rate(redis: Any, game_id: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Update the ratings of the game's registered players, once; the change it made (or had made)."""
    plan = _plan(redis, game_id, rows)
    for pid, step in plan["raw"].items():
        _apply(redis, game_id, pid, step)
    return {"game_id": game_id, "players": plan["players"]}


def _plan(redis: Any, game_id: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    known = kept.planned(redis, game_id)
    if known is not None:
        return known
    raw, before, after = {}, {}, {}
    players = [r["player"] for r in rows if r["player"]]
    for pid in players:
        raw[pid], before[pid] = kept.stored(redis, pid)
    after = _change(rows, before, players)
    plan = {"players": {pid: {"before": kept.public(before[pid]), "after": kept.public(after[pid])} for pid in after},
            "raw": {pid: {"expect": raw[pid], "before": before[pid], "after": after[pid]} for pid in after}}
    return kept.keep_plan(redis, game_id, plan)


def _change(rows: list[dict[str, Any]], before: dict[str, dict[str, Any]], players: list[str]) -> dict[str, dict[str, Any]]:
    """New ratings for the players: none when fewer than two sides or a player on two sides."""
    teams: dict[int, list[dict[str, Any]]] = {}
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


def _apply(redis: Any, game_id: str, player_id: str, step: dict[str, Any]) -> None:
    """Set the player's new rating unless this game already counted; rebase it on a newer rating."""
    expect, new = step["expect"], step["after"]
    for _ in range(MAX_REBASES):
        status, current = kept.apply(redis, game_id, player_id, expect, new)
        if status != "stale":
            return
        expect = current
        new = _rebased(json.loads(expect), step["before"], step["after"])
    raise RuntimeError(f"rating of {player_id} keeps changing under game {game_id}")


def _rebased(current: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """This game's change (planned from `before`) applied to a rating another game has changed since."""
    return {"mu": current["mu"] + after["mu"] - before["mu"],
            "sigma": current["sigma"] * after["sigma"] / before["sigma"], "games": current["games"] + 1}
