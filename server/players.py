"""Players: register, then list your games (those waiting for you first, or only those)."""
from __future__ import annotations

import secrets

from flask import jsonify
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from events import accounts, desk, keys, roster, tokens, urlguard
from events.clocks import now
from events.replication import durable

from . import auth, game_words, invitations, limits
from .context import Arena
from .errors import ApiError
from .games import problems
from .schemas import MyGamesOut, MyGamesQuery, PlayerIn, PlayerOut, Strict

blp = Blueprint("players", __name__, url_prefix="/players", description="Registered players")


@blp.route("", methods=["POST"])
@limits.limited("register", "players registered", per_address="10/minute;50/hour")
@blp.arguments(PlayerIn)
@blp.response(201, PlayerOut)
@problems(400, 422)
def register(data: dict):
    """Register a player; keep the token (it is shown once) and the webhook secret.

    A `webhook_url` must be http(s) and reach a public address (or one the operator allows)."""
    redis = Arena.of().redis
    if data.get("webhook_url"):
        checked_webhook_url(data["webhook_url"])
    pid = "p" + secrets.token_hex(8)
    token = tokens.new_token()
    secret = secrets.token_hex(32)
    profile = {"name": data["name"], "webhook_url": data.get("webhook_url", ""), "webhook_secret": secret}
    durable(redis, keys.player(pid), lambda c: c.hset(keys.player(pid), mapping=profile))
    accounts.add_token(redis, pid, token, "registration")           # after the player: no token points nowhere
    return {"id": pid, "name": data["name"], "token": token, "webhook_secret": secret}


def checked_webhook_url(url: str) -> str:
    """The URL if webhooks may be sent to it; else 400 (not such a URL) or 422 (not reachable), saying why.

    Every place that sets a player's webhook_url calls this; deliveries check again (events/urlguard.py)."""
    try:
        urlguard.vet(urlguard.check_url(url))
    except urlguard.Malformed as exc:
        raise ApiError(400, "malformed_request", f"The webhook address cannot be used: {exc}; give another address.") from None
    except urlguard.Refused as exc:
        raise ApiError(422, "webhook_url_not_allowed", f"The webhook address cannot be used: {exc}; give another address.") from None
    return url


@blp.route("/me/games")
@blp.arguments(MyGamesQuery, location="query")
@blp.response(200, MyGamesOut)
@problems(401)
def my_games(query: dict):
    """Your games, those where it is your turn first; `waiting=1` lists only those."""
    arena = Arena.of()
    pid = auth.require_player(arena.redis)
    found, unbegun = desk.rows(arena.redis, arena.service, pid)
    moment = now()
    out = [game_row(row, moment) for row in found if row.your_turn or not query["waiting"]]
    if not query["waiting"]:
        out += [r for game_id in unbegun for r in unbegun_rows(game_id, roster.seat_of(arena.redis, game_id, pid))]
    out.sort(key=lambda g: (not g["your_turn"], g["status"] == "finished",
                            g.get("seconds_left") if g.get("seconds_left") is not None else float("inf"), g["id"]))
    return jsonify({"games": out})              # in MyGamesOut's shape already: no dump (bench/desk.py)


def game_row(row: desk.Row, moment: float) -> dict:
    """A game of yours as "your games" lists it."""
    return {"id": row.game_id, "seat": row.seat, "form": row.form, "version": row.version,
            "status": "finished" if row.over else "playing", "your_turn": row.your_turn,
            **game_words.described(row, moment)}       # a new dict: the words kept per row stay as they are


class ClaimIn(Strict):
    games = fields.List(fields.Nested(Strict.from_dict({
        "id": fields.String(required=True, validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,64}$")),
        "token": fields.String(required=True, validate=validate.Length(min=1, max=128))}, name="ClaimedSeatIn")),
        required=True, validate=validate.Length(max=200))


class ClaimedOut(Schema):
    claimed = fields.List(fields.String(), metadata={"description": "games now yours (listed on every device)"})
    refused = fields.List(fields.String(), metadata={"description": "games whose token is no guest seat's, or "
                                                                    "in which you hold a seat already"})


@blp.route("/me/games/claim", methods=["POST"])
@limits.limited("claim", "guest games claimed", per_address="30/minute", per_player="10/minute")
@blp.arguments(ClaimIn)
@blp.response(200, ClaimedOut)
@problems(400, 401, 429)
def claim_games(data: dict):
    """Keep the games this browser played as a guest, after signing up or in: send each game's id
    with the token of the seat the browser played (never a friend's join link). Only a guest's
    seat is taken (no seat of another account), one per game; such games are never rated."""
    redis = Arena.of().redis
    pid = auth.require_player(redis)
    claimed, refused = [], []
    for entry in data["games"]:
        seat = tokens.seat_of(redis, entry["id"], entry["token"])
        owner = roster.seats(redis, entry["id"])[seat].get("player") if seat is not None else None
        guest = owner is None or not getattr(accounts.load(redis, owner), "password", None)   # the browser's own
        ok = seat is not None and guest and (owner == pid or roster.claim_seat(redis, entry["id"], seat, pid, owner))
        (claimed if ok else refused).append(entry["id"])
    return {"claimed": claimed, "refused": refused}


def unbegun_rows(game_id: str, seat) -> list[dict]:
    """A game of yours still waiting for invited players (or cancelled), as a row of your games."""
    view = invitations.pending_view(game_id, None) if seat is not None else None
    if view is None:
        return []
    return [{"id": game_id, "seat": seat, "form": view["form"], "version": 0, "status": view["status"],
             "your_turn": False, **game_words.waiting(view, seat)}]
