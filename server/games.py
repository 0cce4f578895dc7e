"""Games: create one, see it as your seat, list your legal commands, send a command, resign."""
from __future__ import annotations

import json

from flask import Flask, request
from flask_smorest import Api, Blueprint
from werkzeug.routing import BaseConverter

import engine
from engine.ai import STRONGEST
from engine.state import active_seat
from engine.vocabulary import OPTION_COMMANDS
from events import GameNotFound, Loaded, accounts, desk, roster, unmoved
from events.bot_choice import choose as bot_choice
from events.email_prefs import server_secret
from events.redaction import state_view

from . import auth, clocks, invitations, limits, starting
from .apidoc import problems
from .context import Arena
from .errors import ApiError
from .results import stats_and_result
from .schemas import CommandIn, CommandOut, CreatedOut, CreateGameIn, GameOut, HintOut, LegalOut

blp = Blueprint("games", __name__, url_prefix="/games", description="Play a game")
IDEMPOTENCY_HEADER = "Idempotency-Key"


class GameIdConverter(BaseConverter):
    """A game id in /games/<game:game_id>: any one path segment except the fixed paths beside it
    ("import"), so that `GET /games/import` is 405 (Allow: POST) rather than a game named import."""
    regex = r"(?!import$)[^/]+"


def add_converters(app: Flask, api: Api) -> None:
    """Before the blueprints are registered: the `game` converter, documented as a string."""
    app.url_map.converters["game"] = GameIdConverter
    api.register_converter(GameIdConverter, lambda converter: {"type": "string"})


@blp.route("", methods=["POST"])
@limits.limited("create", "games created", per_address="30/minute;300/hour", per_player="20/minute;200/hour")
@blp.arguments(CreateGameIn)
@blp.response(201, CreatedOut)
@problems(400, 401, 404, 422, 429)
def create_game(data: dict):
    """Create a game. Seats for guests (a name only), for the computer, and for yourself (your player
    id, with your player token) get their secret tokens here: hand each to its player. A seat naming
    another registered player is an invitation instead: the game starts when every invitee has
    accepted (GET /players/me/invitations) and is cancelled if one declines or time runs out."""
    creator = auth.optional_player(Arena.of().redis)
    started = starting.start(starting.GameSpec.from_request(data, creator))
    return started.answer(for_player=creator, guest_links=True)


def listed_commands(state: dict, seat: int | None) -> list[dict]:
    """The commands `seat` may send, as /legal lists them: with the squares each uses and affects."""
    commands = [] if seat is None else engine.annotated_commands(state, seat)
    return [{k: v for k, v in c.items() if k != "seat"} for c in commands]


def _with_squares(options: list[dict], listed: list[dict]) -> list[dict]:
    """Each pending option as its entry of `listed` (the same command, with its `squares`)."""
    by_command = {json.dumps({k: v for k, v in c.items() if k != "squares"}, sort_keys=True): c for c in listed}
    return [by_command.get(json.dumps(o, sort_keys=True), o) for o in options]


def game_view(game_id: str, seat: int | None, at: int | None = None, loaded: Loaded | None = None) -> dict:
    """The game as `seat` sees it, with the roster and the version it is at."""
    arena = Arena.of()
    loaded = loaded or arena.service.load(game_id, at)     # once: the view, the options and the result read it
    view = state_view(loaded.state, seat)
    info = roster.info(arena.redis, game_id)
    if (view["pending"] or {}).get("options"):     # the seat deciding: its options as /legal lists them
        view["pending"]["options"] = _with_squares(view["pending"]["options"], listed_commands(loaded.state, seat))
    if view["result"] and at is None:         # finished: the result explained (results.py)
        view["result"] = stats_and_result(game_id, seat, loaded.state)[1]
    origin = arena.service.provenance(game_id).view()
    return {"id": game_id, "version": loaded.version, "latest": loaded.latest, "seat": seat, **view,
            "players": [{"seat": i, "name": s["name"], "player": s.get("player"), **roster.seat_fields(s)}
                        for i, s in enumerate(roster.seats(arena.redis, game_id))],
            "time_control": info.get("time_control"),
            "clocks": clocks.clocks_view(game_id, info.get("time_control")) if at is None else None,
            "provenance": origin, **roster.fairness(info, origin["rated"])}


@blp.route("/<game:game_id>")
@blp.response(200, GameOut)
@problems(401, 404)
def get_game(game_id: str):
    """The game as the token's seat sees it; without a token, as a spectator."""
    caller = auth.caller_for_game(Arena.of().redis, game_id)
    try:
        view = game_view(game_id, caller.seat)
        desk.saw(Arena.of().redis, game_id, caller.seat, view["version"])
        return view
    except GameNotFound:
        waiting = invitations.pending_view(game_id, caller.seat)       # not started, or cancelled
        if waiting is None:
            raise
        return waiting


@blp.route("/<game_id>/legal")
@blp.response(200, LegalOut)
@problems(401, 404)
def legal(game_id: str):
    """Every command the caller may send now; each is accepted as is. Commands that differ by
    orientation, direction, branch, square or path carry `squares` (pattern, affects, destroys,
    path, marks, being): what they use and affect, and the squares whose piece a choice removes,
    for display; it may be sent back or left out."""
    return legal_answer(game_id, auth.caller_for_game(Arena.of().redis, game_id).seat)


@blp.route("/<game_id>/hint")
@limits.limited("hint", "hints (a search of the strongest computer level each)", per_address="30/minute", per_player="10/minute")
@blp.response(200, HintOut)
@problems(401, 403, 404, 409)
def hint(game_id: str):
    """What the strongest computer level would play for you now: only in a game against the computer
    (which is never rated), and only when the game waits for you. It thinks from your seat's view."""
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id, required=True)
    if caller.seat is None:
        raise ApiError(403, "not_your_seat", "Only a player of this game may ask for a hint.")
    if not roster.seating_of(arena.redis, game_id).bots:
        raise ApiError(409, "no_hint_here", "Hints are for casual games against the computer; this game has no computer player.")
    loaded = arena.service.load(game_id)
    if active_seat(loaded.state) != caller.seat:
        raise ApiError(409, "not_your_turn", "The game is not waiting for you, so there is nothing to hint at.")
    command, _ = bot_choice(arena.service, game_id, caller.seat, loaded.version, STRONGEST, server_secret(arena.redis))
    listed = _with_squares([{k: v for k, v in command.items() if k != "seat"}], listed_commands(loaded.state, caller.seat))
    return {"version": loaded.version, "level": STRONGEST, "command": listed[0]}


def legal_answer(game_id: str, seat: int | None, loaded: Loaded | None = None) -> dict:
    """What /legal answers `seat` (also a part of /changes) at the latest state (`loaded`, if read)."""
    loaded = loaded or Arena.of().service.load(game_id)
    return {"version": loaded.version, "seat": seat, "commands": listed_commands(loaded.state, seat)}


def execute(game_id: str, command: dict) -> dict:
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id, required=True)
    if caller.seat is None:
        raise ApiError(403, "not_your_seat", "You are not a player of this game; you can watch it, or open your join link to play.")
    if caller.player and auth.bearer() is None and accounts.is_bot(arena.redis, caller.player):
        raise ApiError(403, "bot_plays_by_api", "A bot account plays through the API with its token "
                                                "(Authorization: Bearer), not from a signed-in page.")
    if command.get("seat", caller.seat) != caller.seat:
        raise ApiError(403, "not_your_seat", f"You play seat {caller.seat} of this game, so you cannot act for seat {command['seat']}; "
                       "send the command for your own seat (seats are numbered from 0).")
    expected = command.pop("expected_version", None)
    key = request.headers.get(IDEMPOTENCY_HEADER)
    result = arena.service.execute(game_id, caller.seat, command, expected_version=expected, idempotency_key=key,
                                   drops_replies=command.get("type") not in OPTION_COMMANDS)
    # the seat moved itself (an option command is no move): its replies go, with the append
    if result.events and not result.replayed:
        unmoved.keep(arena.redis, game_id)              # moved in: kept for good, no longer counted
    return {"version": result.version, "events": result.events, "replayed": result.replayed}


COMMAND_LIMITS = {"per_address": "1200/minute", "per_player": "300/minute"}


@blp.route("/<game_id>/commands", methods=["POST"])
@limits.limited("command", "commands and resignations", **COMMAND_LIMITS)
@blp.arguments(CommandIn)
@blp.response(200, CommandOut)
@problems(400, 401, 403, 404, 409, 422)
def post_command(data: dict, game_id: str):
    """Send a command (as listed by /legal). Optional: expected_version, an Idempotency-Key header."""
    return execute(game_id, data)


@blp.route("/<game_id>/resign", methods=["POST"])
@limits.limited("command", "commands and resignations", **COMMAND_LIMITS)
@blp.response(200, CommandOut)
@problems(401, 403, 404, 422)
def resign(game_id: str):
    """Resign (two-sided games only); the other side wins."""
    return execute(game_id, {"type": "resign"})
