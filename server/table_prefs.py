"""An account's preferences at the table (GET/PUT /accounts/me/table): what events/table_prefs.py
stores. The game itself keeps each seat's option (the seat_options command): a preference turned
on is applied to the account's seat in every game that starts from then on (server/launch.py), by
whatever path, and the web client reads it on every device. Never set (or off), a seat keeps
today's behaviour unless its own client turns the option on.
"""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields

from events import table_prefs

from . import auth, limits
from .context import Arena
from .games import problems
from .schemas import Strict

blp = Blueprint("table_prefs", __name__, description="Preferences at the table")


class TablePrefsIn(Strict):
    confirm_turn_end = fields.Boolean(metadata={"description": "ask each game's seat to wait for you to confirm the "
                                                                "end of your turn (Undo stays open until then)"})


class TablePrefsOut(Schema):
    confirm_turn_end = fields.Boolean(allow_none=True, metadata={"description": "null: never set (each browser decides)"})


@blp.route("/accounts/me/table")
@blp.response(200, TablePrefsOut)
@problems(401)
def get_table_prefs():
    """Your preferences at the table."""
    redis = Arena.of().redis
    return table_prefs.preferences(redis, auth.require_player(redis))


@blp.route("/accounts/me/table", methods=["PUT"])
@limits.limited("table_prefs", "table preferences changed", per_address="30/minute", per_player="20/minute")
@blp.arguments(TablePrefsIn)
@blp.response(200, TablePrefsOut)
@problems(400, 401, 403, 429)
def put_table_prefs(data: dict):
    """Set your preferences at the table; one left out keeps its value."""
    redis = Arena.of().redis
    pid = auth.require_player(redis)
    table_prefs.set_preferences(redis, pid, data)
    return table_prefs.preferences(redis, pid)
