"""GET /players/me/desk: every game of yours, those to play first (least time left first), then
those waiting on others, then the finished ones (latest first); which changed since you looked;
the next game waiting for you; filters by form, opponent and rated. Read from your desk index
(events/desk.py). Each row has every field of /players/me/games besides its own.

The answer is built in the shape of DeskOut and sent as is: dumping two hundred rows through the
schema took as long as everything else together (bench/desk.py).
"""
from __future__ import annotations

from functools import lru_cache

from flask import jsonify
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from engine.vocabulary import FORMS
from events import desk, roster
from events.clocks import format_epoch, now

from . import auth
from .context import Arena
from .games import problems
from .players import unbegun_rows, game_row
from .schemas import MyGameOut

blp = Blueprint("desk", __name__, url_prefix="/players", description="Your desk: all your games at a glance")


class DeskQuery(Schema):
    form = fields.String(validate=validate.OneOf(FORMS), metadata={"description": "only games of this form"})
    opponent = fields.String(validate=validate.Length(min=1, max=40),
                             metadata={"description": "only games against a player of this name (any case)"})
    rated = fields.Boolean(metadata={"description": "only rated games (true) or only unrated ones (false)"})


class DeskGameOut(MyGameOut):
    section = fields.String(metadata={"description": "your_turn | waiting (on others, or on invited players) | finished"})
    changed = fields.Boolean(metadata={"description": "the game moved on since you last looked at it"})
    seen_version = fields.Integer(metadata={"description": "the version you last looked at (0: never)"})
    rated = fields.Boolean()
    changed_at = fields.String(allow_none=True, metadata={"description": "when the game last changed (its end, once over)"})
    deadline = fields.String(allow_none=True, metadata={"description": "your turn against a clock: when it runs out"})


class DeskOut(Schema):
    games = fields.List(fields.Nested(DeskGameOut), metadata={"description": "in the desk's order, filters applied"})
    next = fields.String(allow_none=True, metadata={"description": "the game waiting for you with the least time left"})
    counts = fields.Dict(keys=fields.String(), values=fields.Integer(),
                         metadata={"description": "games per section, filters applied"})
    forms = fields.List(fields.String(), metadata={"description": "the forms among all your games (for the filter)"})
    opponents = fields.List(fields.String(), metadata={"description": "your opponents' names among all your games"})


@blp.route("/me/desk")
@blp.arguments(DeskQuery, location="query")
@blp.response(200, DeskOut)
@problems(400, 401)
def my_desk(query: dict):
    """All your games at a glance, the most urgent first (a superset of GET /players/me/games)."""
    arena = Arena.of()
    pid = auth.require_player(arena.redis)
    found, unbegun = desk.rows(arena.redis, arena.service, pid)
    keep = desk.Filters(query.get("form"), query.get("opponent"), query.get("rated"))
    moment = now()
    games = [_desk_row(row, moment) for row in desk.ordered([r for r in found if keep.keep(r)])]
    if keep.opponent is None and keep.rated is None:
        waiting = [r for game_id in unbegun for r in unbegun_rows(game_id, roster.seat_of(arena.redis, game_id, pid))]
        at = next((i for i, g in enumerate(games) if g["section"] == "finished"), len(games))
        games[at:at] = [{**r, "section": "waiting", "changed": False, "seen_version": 0, "rated": r.get("rated", True),
                         "changed_at": None, "deadline": None} for r in waiting if keep.form in (None, r["form"])]
    counts = {s: sum(g["section"] == s for g in games) for s in desk.SECTIONS}
    return jsonify({"games": games, "next": next((g["id"] for g in games if g["section"] == "your_turn"), None),
            "counts": counts, "forms": sorted({r.form for r in found}),
            "opponents": sorted({n for r in found for n in desk.opponents(r)}, key=str.casefold)})


def _desk_row(row: desk.Row, moment: float) -> dict:
    return {**game_row(row, moment), **_desk_fields(row)}


@lru_cache(maxsize=8192)
def _desk_fields(row: desk.Row) -> dict:
    """The desk's own fields of a row (kept per row: rows are shared objects; never change the answer)."""
    return {"section": desk.section(row), "changed": row.changed, "seen_version": row.seen, "rated": row.rated,
            "changed_at": format_epoch(row.changed_at),
            "deadline": format_epoch(row.deadline) if row.deadline is not None else None}
