"""Players: register, then list your games (those waiting for you first, or only those)."""
from __future__ import annotations

import secrets

from flask_smorest import Blueprint

from engine.state import active_seat
from events import GameNotFound, accounts, keys, roster, tokens, urlguard
from events.replication import durable

from . import auth, invitations, limits
from .context import Arena
from .errors import ApiError
from .games import problems
from .schemas import MyGamesOut, MyGamesQuery, PlayerIn, PlayerOut

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
    out = []
    for game_id in roster.player_games(arena.redis, pid):
        seat = roster.seat_of(arena.redis, game_id, pid)
        try:
            loaded = arena.service.load(game_id)
        except GameNotFound:
            out.extend(_waiting(game_id, seat, query["waiting"]))
            continue
        state = loaded.state
        mine = active_seat(state) == seat
        if query["waiting"] and not mine:
            continue
        out.append({"id": game_id, "seat": seat, "form": state["form"], "version": loaded.version,
                    "status": "finished" if state["phase"] == "over" else "playing", "your_turn": mine})
    out.sort(key=lambda g: (not g["your_turn"], g["status"] == "finished", g["id"]))
    return {"games": out}


def _waiting(game_id: str, seat, only_my_turn: bool) -> list[dict]:
    """A game of yours still waiting for invited players (or cancelled), as a row of your games."""
    view = invitations.pending_view(game_id, None) if seat is not None and not only_my_turn else None
    if view is None:
        return []
    return [{"id": game_id, "seat": seat, "form": view["form"], "version": 0, "status": view["status"],
             "your_turn": False}]
