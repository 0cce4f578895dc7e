"""Game review: ask for the review of a finished game, and read it.

    POST /games/{id}/review     ask for it (202 while the job judges the moves; 200 once done)
    GET  /games/{id}/review     read it: each judged move's winning chances, its mark, and for
                                your own moves what was better

Only a finished game is reviewed (a live game, rated or not, never: a review would tell a player
what to play). The review job (workers/review.py) runs on the computer players' queue. What was
better is told only for the caller's own moves; every other field comes from the game's whole
record, which is public once it is over.
"""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields

from engine.ai.review import DROPS, MARKS
from engine.narrate import describe_command
from events import reviews, roster
from events.clocks import now
from workers import review as review_jobs

from . import auth, limits
from .context import Arena
from .errors import ApiError
from .games import problems

blp = Blueprint("reviews", __name__, url_prefix="/games", description="Review a finished game")


class ReviewedMoveOut(Schema):
    version = fields.Integer(metadata={"description": "the version of the move's first event (the log's lines "
                                                      "from `version` to `upto` are the move)"})
    upto = fields.Integer(metadata={"description": "the version of the move's last event"})
    seat = fields.Integer()
    chance = fields.Float(metadata={"description": "the seat's winning chance (0 to 1) after the move as played"})
    best = fields.Float(metadata={"description": "its winning chance after the best move found"})
    drop = fields.Float(metadata={"description": "best - chance: what the move cost"})
    mark = fields.String(allow_none=True, metadata={"description": "inaccuracy, mistake or blunder; null: a good move"})
    better = fields.Dict(allow_none=True, metadata={"description": "your own marked moves only: the first command of "
                                                                   "the better move, as /legal lists commands"})
    better_text = fields.String(allow_none=True, metadata={"description": "that command in words"})


class ReviewOut(Schema):
    game_id = fields.String()
    status = fields.String(metadata={"description": "pending (being judged), done, or failed (ask again)"})
    simulations = fields.Integer(metadata={"description": "the review's budget: simulations per move"})
    seat = fields.Integer(allow_none=True, metadata={"description": "your seat: `better` is told for its moves"})
    marks = fields.List(fields.String(), metadata={"description": "the marks, mildest first, and the drop in winning "
                                                                  "chance each needs: see `thresholds`"})
    thresholds = fields.Dict(metadata={"description": "mark -> the least drop in winning chance that earns it"})
    moves = fields.List(fields.Nested(ReviewedMoveOut))


def _over(game_id: str) -> None:
    state = Arena.of().service.load(game_id).state
    if state["phase"] != "over":
        raise ApiError(409, "game_not_over", "A game is reviewed once it is over; ask again when it has ended.")


def _out(game_id: str, found: dict, seat: int | None) -> dict:
    names = roster.names(Arena.of().redis, game_id)
    moves = []
    for move in found["moves"]:
        mine = seat is not None and move["seat"] == seat and move["better"]
        better = {**move["better"], "seat": seat} if mine else None
        moves.append({**move, "drop": round(move["best"] - move["chance"], 4), "better": move["better"] if mine else None,
                      "better_text": f"Better was: {describe_command(better, names)}." if better else None})
    return {"game_id": game_id, "status": found["status"], "simulations": found["simulations"], "seat": seat,
            "marks": list(MARKS), "thresholds": {mark: least for least, mark in DROPS}, "moves": moves}


@blp.route("/<game_id>/review", methods=["POST"])
@limits.limited("review", "game reviews asked for", per_address="30/hour", per_player="20/hour")
@blp.response(202, ReviewOut)
@blp.alt_response(200, schema=ReviewOut, description="the review, already made")
@problems(401, 404, 409, 429)
def ask(game_id: str):
    """Ask for the review of a finished game: every move judged by the computer at the review budget
    (ARENA_REVIEW_SIMULATIONS), marked as an inaccuracy, a mistake or a blunder by the drop in its
    player's winning chances. 202 while it is made (read it with GET), 200 when it exists."""
    arena = Arena.of()
    seat = auth.caller_for_game(arena.redis, game_id).seat
    _over(game_id)
    found = review_jobs.ask(arena.redis, game_id, arena.settings, now())
    return _out(game_id, found, seat), 200 if found["status"] == reviews.DONE else 202


@blp.route("/<game_id>/review")
@blp.response(200, ReviewOut)
@problems(401, 404)
def read(game_id: str):
    """The game's review as far as it is made; `better` only for your own moves."""
    arena = Arena.of()
    seat = auth.caller_for_game(arena.redis, game_id).seat
    found = reviews.load(arena.redis, game_id)
    if found is None:
        raise ApiError(404, "review_not_asked", "Nobody has asked for this game's review yet; ask with POST.")
    return _out(game_id, found, seat)
