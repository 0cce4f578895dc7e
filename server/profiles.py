"""Profiles and the games to watch.

A profile shows a player's name, rating per form with its history, finished games (result,
opponents, a link to the replay), games and wins by form and by school, and current games. Finished
games come from what the end-of-game job recorded (events/results.py); current games from the
games the player holds a seat in. The list of live games is sorted by latest activity, with how
many are watching each (stream presence, events/presence.py) besides its players.
"""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from engine.state import active_seat
from events import GameNotFound, accounts, keys, presence, ratings, results, roster

from . import vacations
from .context import Arena
from .errors import ApiError
from .games import problems

blp = Blueprint("profiles", __name__, description="Profiles and games to watch")
FINISHED_SHOWN = 100


class ProfileOut(Schema):
    id = fields.String()
    name = fields.String()
    title = fields.String(allow_none=True, metadata={"description": "'BOT' for a bot account"})
    created = fields.Float(allow_none=True)
    ratings = fields.Dict(metadata={"description": "form -> {mu, sigma, ordinal, games}"})
    history = fields.Dict(metadata={"description": "form -> [{game_id, ended, ordinal}] oldest first"})
    finished = fields.List(fields.Dict())
    stats = fields.Dict(metadata={"description": "by_form and by_school: {games, wins}"})
    current = fields.List(fields.Dict())
    vacation = fields.Dict(allow_none=True)


class LiveQuery(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class LiveOut(Schema):
    games = fields.List(fields.Dict())


def _find(who: str) -> accounts.Account:
    redis = Arena.of().redis
    found = accounts.load(redis, who) or accounts.find(redis, who)       # an id first: no name can take it
    if found is None:
        raise ApiError(404, "player_not_found", f"There is no player {who!r}; check the name.")
    return found


def _stats(rows: list[dict]) -> dict:
    out: dict[str, dict] = {"by_form": {}, "by_school": {}}
    for row in rows:
        for kind, value in (("by_form", row["form"]), ("by_school", row.get("school") or "unknown")):
            entry = out[kind].setdefault(value, {"games": 0, "wins": 0})
            entry["games"] += 1
            entry["wins"] += int(row["won"])
    return out


def _history(rows: list[dict]) -> dict:
    out: dict[str, list] = {}
    for row in reversed(rows):
        if row.get("rating"):
            ordinal = row["rating"]["after"]["ordinal"]
            out.setdefault(row["form"], []).append({"game_id": row["game_id"], "ended": row["ended"],
                                                    "ordinal": ordinal, "display_value": ratings.display_value(ordinal)})
    return out


def _finished(row: dict) -> dict:
    return {**row, "replay": f"/play/{row['game_id']}", "result": "won" if row["won"] else f"place {row['place']}"}


def _current(player_id: str) -> list[dict]:
    arena = Arena.of()
    out = []
    for game_id in roster.player_games(arena.redis, player_id):
        try:
            state = arena.service.load(game_id).state
        except GameNotFound:
            continue
        if state.get("phase") == "over":
            continue
        seats = roster.seats(arena.redis, game_id)
        mine = next((i for i, s in enumerate(seats) if s.get("player") == player_id), None)
        out.append({"game_id": game_id, "form": state["form"], "link": f"/play/{game_id}",
                    "opponents": [roster.labelled(s) for i, s in enumerate(seats) if i != mine],
                    "to_play": active_seat(state) == mine})
    return sorted(out, key=lambda g: (not g["to_play"], g["game_id"]))


@blp.route("/profiles/<who>")
@blp.response(200, ProfileOut)
@problems(404)
def profile(who: str):
    """A player's public profile, by account name or player id."""
    account = _find(who)
    redis = Arena.of().redis
    rows = results.results(redis, account.id)
    return {"id": account.id, "name": account.name, "title": accounts.BOT_TITLE if account.bot else None,
            "created": account.created or None,
            "ratings": results.form_ratings(redis, account.id), "history": _history(rows),
            "finished": [_finished(r) for r in rows[:FINISHED_SHOWN]], "stats": _stats(rows),
            "current": _current(account.id), "vacation": vacations.public(redis, account.id)}


@blp.route("/games/live")
@blp.arguments(LiveQuery, location="query")
@blp.response(200, LiveOut)
def live(query: dict):
    """Games being played now, latest activity first, with how many spectators watch each."""
    arena = Arena.of()
    out = []
    for game_id in presence.live(arena.redis, query["limit"] * 2):
        try:
            state = arena.service.load(game_id).state
        except GameNotFound:
            presence.not_live(arena.redis, game_id)
            continue
        if state.get("phase") == "over":
            presence.not_live(arena.redis, game_id)
            continue
        seats = roster.seats(arena.redis, game_id)
        seated = {s.get("player") for s in seats if s.get("player")}
        watching = [v for v in presence.viewers(arena.redis, game_id) if v not in seated]
        out.append({"id": game_id, "form": state["form"], "players": [roster.labelled(s) for s in seats],
                    "to_play": active_seat(state), "spectators": len(watching), "link": f"/play/{game_id}"})
        if len(out) >= query["limit"]:
            break
    return {"games": out}
