"""Games: create one, see it as your seat, list your legal commands, send a command, resign."""
from __future__ import annotations

from typing import Any

from flask import request
from flask_smorest import Blueprint

import engine
from events import keys

from . import auth, clocks, roster
from .context import Arena
from .errors import ApiError
from .results import stats_and_result
from .schemas import CommandIn, CommandOut, CreatedOut, CreateGameIn, GameOut, LegalOut, ProblemOut

blp = Blueprint("games", __name__, url_prefix="/games", description="Play a game")
IDEMPOTENCY_HEADER = "Idempotency-Key"


def problems(*codes: int):
    """Document the problem+json answers an endpoint may give."""
    def wrap(fn):
        for code in codes:
            fn = blp.alt_response(code, schema=ProblemOut, description="application/problem+json")(fn)
        return fn
    return wrap


def _options(data: dict) -> dict:
    seats = [{"school": p["school"]} for p in data["players"]]
    options: dict[str, Any] = {"form": data["form"], "seats": seats, "teams": data["teams"]}
    if "seed" in data:
        options["seed"] = data["seed"]
    if data.get("time_control", {}).get("kind", "none") != "none":
        options["zombie_after"] = data["time_control"]["zombie_after"]
    return options


def _check_players(redis, players: list[dict]) -> None:
    for p in players:
        if p.get("player") and not redis.exists(keys.player(p["player"])):
            raise ApiError(404, "player_not_found", f"No registered player {p['player']!r}.")


def game_view(game_id: str, seat: int | None, at: int | None = None) -> dict:
    """The game as `seat` sees it, with the roster and the version it is at."""
    arena = Arena.of()
    view = arena.service.view(game_id, seat, at)
    info = roster.info(arena.redis, game_id)
    if view.view["result"] and at is None:         # finished: the result explained (results.py)
        view.view["result"] = stats_and_result(game_id, seat, arena.service.load(game_id).state)[1]
    return {"id": game_id, "version": view.version, "latest": view.latest, "seat": seat, **view.view,
            "players": [{"seat": i, "name": s["name"], "player": s.get("player"), "bot": s.get("bot", False)}
                        for i, s in enumerate(roster.seats(arena.redis, game_id))],
            "time_control": info.get("time_control"),
            "clocks": clocks.clocks_view(game_id, info.get("time_control")) if at is None else None,
            "provenance": arena.service.provenance(game_id).view()}


@blp.route("", methods=["POST"])
@blp.arguments(CreateGameIn)
@blp.response(201, CreatedOut)
@problems(400, 404, 422)
def create_game(data: dict):
    """Create a game; the answer holds one secret token per seat (hand each to its player)."""
    return open_game(data)


def open_game(data: dict) -> dict:
    """Create the game `data` describes (as CreateGameIn loads it): log, tokens, roster, clocks."""
    arena = Arena.of()
    _check_players(arena.redis, data["players"])
    options = _options(data)
    if "setup" in data:
        created = arena.service.create_from_position({**options, **data["setup"]})
    else:
        created = arena.service.create_game(options)
    tokens = auth.seat_tokens(arena.redis, created.game_id, len(data["players"]))
    seats = [{"name": p["name"], "player": p.get("player"), "bot": p.get("bot", False)} for p in data["players"]]
    roster.save(arena.redis, created.game_id, seats, {"form": data["form"], "time_control": data.get("time_control")})
    clocks.changed(created.game_id)
    return {"id": created.game_id, "version": created.version,
            "seats": [{"seat": i, "name": s["name"], "token": t, "player": s["player"]}
                      for i, (s, t) in enumerate(zip(seats, tokens))]}


@blp.route("/<game_id>")
@blp.response(200, GameOut)
@problems(401, 404)
def get_game(game_id: str):
    """The game as the token's seat sees it; without a token, as a spectator."""
    caller = auth.caller_for_game(Arena.of().redis, game_id)
    return game_view(game_id, caller.seat)


@blp.route("/<game_id>/legal")
@blp.response(200, LegalOut)
@problems(401, 404)
def legal(game_id: str):
    """Every command the caller may send now; each is accepted as is."""
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id)
    loaded = arena.service.load(game_id)
    commands = [] if caller.seat is None else engine.annotated_commands(loaded.state, caller.seat)
    return {"version": loaded.version, "seat": caller.seat,
            "commands": [{k: v for k, v in c.items() if k != "seat"} for c in commands]}


def execute(game_id: str, command: dict) -> dict:
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id, required=True)
    if caller.seat is None:
        raise ApiError(403, "not_your_seat", "Your player has no seat in this game.")
    if command.get("seat", caller.seat) != caller.seat:
        raise ApiError(403, "not_your_seat", f"Your token acts for seat {caller.seat}, not {command['seat']}.")
    expected = command.pop("expected_version", None)
    key = request.headers.get(IDEMPOTENCY_HEADER)
    result = arena.service.execute(game_id, caller.seat, command, expected_version=expected, idempotency_key=key)
    clocks.changed(game_id, result)
    return {"version": result.version, "events": result.events, "replayed": result.replayed}


@blp.route("/<game_id>/commands", methods=["POST"])
@blp.arguments(CommandIn)
@blp.response(200, CommandOut)
@problems(400, 401, 403, 404, 409, 422)
def post_command(data: dict, game_id: str):
    """Send a command (as listed by /legal). Optional: expected_version, an Idempotency-Key header."""
    return execute(game_id, data)


@blp.route("/<game_id>/resign", methods=["POST"])
@blp.response(200, CommandOut)
@problems(401, 403, 404, 422)
def resign(game_id: str):
    """Resign (two-sided games only); the other side wins."""
    return execute(game_id, {"type": "resign"})
