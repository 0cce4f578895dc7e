"""GET and PUT /games/{id}/notes: your private notes on a game (events/notes.py). Only your seat
reads or writes them; they reach nobody else, and leave the server only in your own export of the
game (GET /games/{id}/record)."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from events import GameNotFound, notes
from events.clocks import format_epoch, now

from . import auth, limits, plain_text
from .context import Arena
from .errors import ApiError
from .games import problems
from .schemas import Strict

blp = Blueprint("notes", __name__, url_prefix="/games", description="Private notes on a game")


class NoteIn(Strict):
    text = fields.String(required=True, validate=validate.Length(max=notes.MAX_CHARS),
                         metadata={"description": "the whole note (an empty one deletes it)"})


class NoteOut(Schema):
    seat = fields.Integer()
    text = fields.String(metadata={"description": "your note; empty when you have none"})
    updated = fields.String(allow_none=True, metadata={"description": "when you last wrote it"})


def _seat(game_id: str) -> int:
    """The caller's seat in the game: 404 for no such game, 401 without credentials, 403 for a spectator."""
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id, required=True)
    if not arena.service.store.exists(game_id):
        raise GameNotFound(game_id)
    if caller.seat is None:
        raise ApiError(403, "not_your_seat", "Only a player of this game keeps notes on it; you are watching it.")
    return int(caller.seat)


def answer(seat: int, note: notes.Note | None) -> dict:
    return {"seat": seat, "text": note.text if note else "", "updated": format_epoch(note.updated) if note else None}


@blp.route("/<game_id>/notes")
@blp.response(200, NoteOut)
@problems(401, 403, 404)
def get_notes(game_id: str):
    """Your notes on this game."""
    seat = _seat(game_id)
    return answer(seat, notes.read(Arena.of().redis, game_id, seat))


@blp.route("/<game_id>/notes", methods=["PUT"])
@limits.limited("notes", "private notes saved", per_address="60/minute", per_player="30/minute")
@blp.arguments(NoteIn)
@blp.response(200, NoteOut)
@problems(400, 401, 403, 404, 429)
def put_notes(data: dict, game_id: str):
    """Write your notes on this game (they replace what was there)."""
    seat = _seat(game_id)
    text = plain_text.clean(data["text"], keep_newlines=True)
    return answer(seat, notes.write(Arena.of().redis, game_id, seat, text, now()))
