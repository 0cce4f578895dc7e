"""Games: create one, see it as your seat, list your legal commands, send a command, resign."""
from __future__ import annotations

import json
import math
import secrets
from typing import Any

from flask import Flask, request
from flask_smorest import Api, Blueprint
from werkzeug.routing import BaseConverter

import engine
from events import GameNotFound, Loaded, keys, roster, tokens, unmoved
from events.clocks import format_epoch, now
from events.invitations import invitation_id
from events.redaction import state_view

from . import auth, clocks, invitations, limits
from .context import Arena
from .errors import ApiError
from .launch import launch, unmoved_ttl
from .results import stats_and_result
from .schemas import CommandIn, CommandOut, CreatedOut, CreateGameIn, GameOut, LegalOut, ProblemOut

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
    named = [p["player"] for p in players if p.get("player")]
    if len(named) != len(set(named)):
        raise ApiError(400, "malformed_request", "A registered player may take one seat of a game, not several; name each player once.")
    for p in players:
        if p.get("player") and not redis.exists(keys.player(p["player"])):
            raise ApiError(404, "player_not_found", f"There is no registered player {p['player']!r}; check the name.")
        if p.get("player") and (p.get("bot") or p.get("bot_level")):
            raise ApiError(400, "malformed_request", "A seat is played by a registered player or by the computer, "
                                                     "not both; choose one.")


def _owners(creator: str | None) -> list[str]:
    return [limits.address_owner(), *([f"p:{creator}"] if creator else [])]


def _claim_unmoved_slot(redis, game_id: str, owners: list[str], ttl: int) -> None:
    moment = now()
    full = unmoved.claim(redis, owners, game_id, cap=limits.setting("ARENA_MAX_UNMOVED_GAMES"), until=moment + ttl,
                         now=moment)
    if full is not None:
        who = "your player" if full.startswith("p:") else "your address"
        wait = max(1, math.ceil(unmoved.frees_in(redis, full, moment)))
        raise ApiError(429, "too_many_unmoved_games",
                       f"{who.capitalize()} has {limits.setting('ARENA_MAX_UNMOVED_GAMES')} games nobody has moved in "
                       "yet: make a move in one (or wait until one expires) before creating more.",
                       headers={"Retry-After": str(wait)}, retry_after=wait)


def _validate(options: dict, setup: dict | None) -> None:
    """Refuse now what the engine would refuse when the game starts (for a game that waits)."""
    if setup is not None:
        engine.from_position({**options, **setup, "seed": options.get("seed", "check")})
    else:
        engine.new_game({**options, "seed": options.get("seed", "check")})


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
    arena = Arena.of()
    creator = auth.optional_player(arena.redis)
    _check_players(arena.redis, data["players"])
    spec = game_spec(data, creator)
    seats = spec["seats"]
    invited = {i: s["player"] for i, s in enumerate(seats) if s["player"] and s["player"] != creator}
    if not invited:
        return create_claimed(spec)
    _validate(spec["options"], spec["setup"])
    owners = spec["owners"]
    ttl = spec["ttl"]
    game_id = secrets.token_hex(8)
    timeout = limits.setting("ARENA_INVITATION_TIMEOUT")
    _claim_unmoved_slot(arena.redis, game_id, owners, timeout)     # until it starts (then counted anew) or is over
    issued = tokens.issue_seat_tokens(arena.redis, game_id, len(seats), skip=invited, players=_own_seat(spec))
    deadline = invitations.invite(game_id, spec, invited, creator, timeout)
    unmoved.mark(arena.redis, game_id, owners, ttl + timeout)
    unmoved.arm(arena.redis, game_id, ttl + timeout)
    return {"id": game_id, "version": 0, "status": "waiting_for_players", "invitations_expire": format_epoch(deadline),
            "seats": [{"seat": i, "name": s["name"], "player": s["player"],
                       **({"status": "invited", "invitation": invitation_id(game_id, i)} if i in invited else
                          {"status": "claimed", "token": issued[i]})} for i, s in enumerate(seats)]}


def _played_by(seat: dict) -> dict:
    """A seat's "bot" and, for the computer's, "bot_level" ("bot": true alone keeps meaning the cheapest level)."""
    if seat.get("bot_level") is not None:
        return {"bot": True, "bot_level": seat["bot_level"]}
    return roster.seat_fields({"bot": seat.get("bot", False)})


def game_spec(data: dict, creator: str | None) -> dict:
    """What creating the game `data` (as CreateGameIn loads it) needs, as server/launch.py takes it."""
    seats = [{"name": p["name"], "player": p.get("player"), **_played_by(p)} for p in data["players"]]
    return {"options": _options(data), "setup": data.get("setup"), "seats": seats,
            "info": {"form": data["form"], "time_control": data.get("time_control")}, "owners": _owners(creator),
            "ttl": unmoved_ttl(limits.setting("ARENA_UNMOVED_GAME_TTL"), data.get("time_control")), "creator": creator,
            "creator_seat": next((i for i, s in enumerate(seats) if creator and s["player"] == creator), None)}


def create_claimed(spec: dict) -> dict:
    """Create at once a game whose every seat is claimed (no invitation waits); the 201 answer."""
    game_id, version, tokens = _create_now(Arena.of().redis, spec)
    return {"id": game_id, "version": version, "status": "playing",
            "seats": [{"seat": i, "name": s["name"], "token": t, "player": s["player"], "status": "claimed"}
                      for i, (s, t) in enumerate(zip(spec["seats"], tokens))]}


def _create_now(redis, spec: dict) -> tuple[str, int, list[str]]:
    """Create a game whose seats are all claimed; (its id, its version, the seat tokens)."""
    game_id = secrets.token_hex(8)
    _claim_unmoved_slot(redis, game_id, spec["owners"], spec["ttl"])
    try:
        issued = tokens.issue_seat_tokens(redis, game_id, len(spec["seats"]), players=_own_seat(spec))
        return (*launch(game_id, spec), issued)
    except Exception:
        unmoved.release(redis, game_id, spec["owners"])
        raise


def _own_seat(spec: dict) -> dict[int, str]:
    """The creator's own seat, whose token is the creator's (listed with its tokens)."""
    return {} if spec["creator_seat"] is None else {spec["creator_seat"]: spec["creator"]}


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
    return {"id": game_id, "version": loaded.version, "latest": loaded.latest, "seat": seat, **view,
            "players": [{"seat": i, "name": s["name"], "player": s.get("player"), **roster.seat_fields(s)}
                        for i, s in enumerate(roster.seats(arena.redis, game_id))],
            "time_control": info.get("time_control"),
            "clocks": clocks.clocks_view(game_id, info.get("time_control")) if at is None else None,
            "provenance": arena.service.provenance(game_id).view()}


@blp.route("/<game:game_id>")
@blp.response(200, GameOut)
@problems(401, 404)
def get_game(game_id: str):
    """The game as the token's seat sees it; without a token, as a spectator."""
    caller = auth.caller_for_game(Arena.of().redis, game_id)
    try:
        return game_view(game_id, caller.seat)
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
    orientation, direction, branch or path carry `squares` (pattern, affects, path, marks, being):
    what they use and affect, for display; it may be sent back or left out."""
    return legal_answer(game_id, auth.caller_for_game(Arena.of().redis, game_id).seat)


def legal_answer(game_id: str, seat: int | None, loaded: Loaded | None = None) -> dict:
    """What /legal answers `seat` (also a part of /changes) at the latest state (`loaded`, if read)."""
    loaded = loaded or Arena.of().service.load(game_id)
    return {"version": loaded.version, "seat": seat, "commands": listed_commands(loaded.state, seat)}


def execute(game_id: str, command: dict) -> dict:
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id, required=True)
    if caller.seat is None:
        raise ApiError(403, "not_your_seat", "You are not a player of this game; you can watch it, or open your join link to play.")
    if command.get("seat", caller.seat) != caller.seat:
        raise ApiError(403, "not_your_seat", f"You play seat {caller.seat} of this game, so you cannot act for seat {command['seat']}; "
                       "send the command for your own seat (seats are numbered from 0).")
    expected = command.pop("expected_version", None)
    key = request.headers.get(IDEMPOTENCY_HEADER)
    result = arena.service.execute(game_id, caller.seat, command, expected_version=expected, idempotency_key=key)
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
