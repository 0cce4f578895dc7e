"""At a game's end: each registered player's result and rating in the game's form, for profiles.

Called by the end-of-game job (workers/endgame.py) with its summary; idempotent. The form rating
(openskill Plackett-Luce, as the overall rating) changes only in rated games; the change is
computed once and kept beside the game, so a second run writes the very same values.
"""
from __future__ import annotations

import json
from typing import Any

from openskill.models import PlackettLuce

from events import keys, presence, provenance, results, roster

MODEL = PlackettLuce()             # the overall rating's model (workers/endgame.py), per form


def is_rated(redis: Any, game_id: str) -> bool:
    """Games are rated unless their table said casual (roster info `rated: false`), and never when
    imported without a trusted signature (events/provenance.py) or played against the computer."""
    if not provenance.counts_for_ratings(redis, game_id) or roster.seating_of(redis, game_id).bots:
        return False
    return roster.info(redis, game_id).get("rated", True) is not False


def record(redis: Any, game_id: str, summary: dict[str, Any], state: dict[str, Any]) -> None:
    rows = summary["standings"]
    change = _form_change(redis, game_id, summary["form"], rows) if is_rated(redis, game_id) else {}
    for row in rows:
        pid = row["player"]
        if not pid:
            continue
        entry = {"game_id": game_id, "form": summary["form"], "ended": summary["ended"], "place": row["place"],
                 "won": row["seat"] in summary["winners"], "reason": summary["reason"], "score": row["score"],
                 "seat": row["seat"], "school": state["seats"][row["seat"]].get("school"),
                 "opponents": [{"name": r["name"], "player": r["player"], "seat": r["seat"]}
                               for r in rows if r["seat"] != row["seat"]],
                 "rated": pid in change}
        if pid in change:
            entry["rating"] = {"before": results.public(change[pid]["before"]),
                               "after": results.public(change[pid]["after"])}
        results.keep(redis, pid, game_id, entry, change[pid]["after"] if pid in change else None)
    presence.not_live(redis, game_id)


def _form_change(redis: Any, game_id: str, form: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """{player: {before, after}} in the form, computed on the first run and kept with the game."""
    key = keys.game_form_rating(game_id)
    kept = redis.get(key)
    if kept:
        stored: dict[str, Any] = json.loads(kept)
        return stored
    players = [r["player"] for r in rows if r["player"]]
    sides: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        sides.setdefault(row["color"], []).append(row)
    if len(sides) < 2 or not players or len(set(players)) != len(players):
        return {}
    before = {pid: results.form_rating(redis, pid, form) for pid in players}
    teams = list(sides.values())
    rated = MODEL.rate([[MODEL.rating(before[r["player"]]["mu"], before[r["player"]]["sigma"]) if r["player"]
                         else MODEL.rating() for r in team] for team in teams],
                       ranks=[min(r["place"] for r in team) for team in teams])
    change = {}
    for team, new in zip(teams, rated):
        for row, rating in zip(team, new):
            if row["player"]:
                change[row["player"]] = {"before": before[row["player"]],
                                         "after": {"mu": rating.mu, "sigma": rating.sigma,
                                                   "games": before[row["player"]]["games"] + 1}}
    redis.set(key, json.dumps(change), nx=True)
    first: dict[str, Any] = json.loads(redis.get(key))          # this run's, or a concurrent one's
    return first
