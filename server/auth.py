"""Bearer tokens: who is calling, and for which seat of a game they may act.

Tokens carry 256 random bits and are stored only as SHA-256 hashes: a seat token maps to one seat
of one game; a player token maps to a registered player, who acts for every seat they hold.
Without an Authorization header, a signed-in browser's session cookie names the player
(server/sessions.py, which also checks CSRF on writes).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from flask import g, request

from events import GameNotFound, accounts, keys, roster, tokens

from . import sessions
from .context import Arena
from .errors import ApiError


def bearer() -> str | None:
    """The token of the Authorization header, None when there is none; a malformed header is a 401."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_token", "The token is not sent the way the server reads it; send it as "
                                         "'Authorization: Bearer <token>'.")
    return token.strip()


@dataclass(frozen=True)
class Caller:
    seat: int | None            # None: a spectator
    player: str | None


def caller_for_game(redis, game_id: str, required: bool = False) -> Caller:
    """The seat the request's token acts for in `game_id`; a spectator without a token."""
    token = bearer()
    if token is None:
        signed_in = sessions.current(redis)
        if signed_in is not None:
            return Caller(roster.seat_of(redis, game_id, signed_in.player), signed_in.player)
        if required:
            raise ApiError(401, "token_required", "Sign in, or open your join link, to do this.")
        return Caller(None, None)
    seat = tokens.seat_of(redis, game_id, token)
    if seat is not None:
        return Caller(seat, None)
    pid = _player_of(redis, token)
    if pid is not None:
        return Caller(roster.seat_of(redis, game_id, pid), pid)
    if not Arena.of().service.store.exists(game_id):
        raise GameNotFound(game_id)             # an unknown game is a 404, whatever the token
    raise ApiError(401, "bad_token", "This link or token is not valid for this game; open your join link again, or sign in.")


def _player_of(redis, token: str) -> str | None:
    """tokens.player_of, asked of Redis once per request (a stream's opening asks it for the
    route, the credentials check and StandingNews; the request has one bearer token)."""
    if "arena_token_player" not in g:
        g.arena_token_player = tokens.player_of(redis, token)
    return g.arena_token_player


def calling_player(redis) -> str | None:
    """The registered player whose token or session the request carries, None when it carries
    neither or its token is no player's (a seat token)."""
    token = bearer()
    if token is not None:
        return _player_of(redis, token)
    signed_in = sessions.current(redis)
    return signed_in.player if signed_in else None


def require_player(redis) -> str:
    pid = calling_player(redis)
    if pid is not None:
        return pid
    if bearer() is None:
        raise ApiError(401, "token_required", "Sign in to do this.")
    raise ApiError(401, "bad_token", "This token belongs to no registered player; sign in again.")


def still_standing(redis) -> Callable[[], bool] | None:
    """For an answer that outlives its request (a stream): a check, to run again later, that the
    player token or session it was opened with is still valid, so that revoking a token or signing
    out ends what is already open. None when there is nothing to revoke (no caller, a seat token)."""
    token = bearer()
    if token is not None:
        if _player_of(redis, token):
            return lambda: tokens.player_of(redis, token) is not None
        game_id = _game_in_path()
        if game_id and tokens.issued_to(redis, game_id, token):            # a seat token its player may delete
            return lambda: tokens.seat_of(redis, game_id, token) is not None
        return None
    cookie = request.cookies.get(sessions.COOKIE)
    if sessions.current(redis) is None:
        return None
    return lambda: accounts.session(redis, cookie) is not None


def optional_player(redis) -> str | None:
    """The registered player calling (by token or signed-in session), None for an anonymous caller;
    a token that is no player's is still a 401."""
    if bearer() is None and sessions.current(redis) is None:
        return None
    return require_player(redis)


def require_account(redis) -> accounts.Account:
    """The calling player's record (name and all); 401 when there is none."""
    account = accounts.load(redis, require_player(redis))
    if account is None:
        raise ApiError(401, "bad_token", "This player no longer exists; sign in with another account.")
    return account


def person_calling() -> str | None:
    """Who the request's credential stands for, as rate limits count people: 'p:<player>' for a
    player token, a session, or a seat token of a registered player's seat; 's:<game>.<seat>' for
    a guest seat's token; None when the credential names nobody (never raises: a limit is counted
    before the view checks anything)."""
    redis = Arena.of().redis
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if not token:
        if "arena_session" not in g:
            g.arena_session = accounts.session(redis, request.cookies.get(sessions.COOKIE))
        return f"p:{g.arena_session.player}" if g.arena_session is not None else None
    game_id = _game_in_path()
    guest_seat = tokens.remembered_guest_seat(game_id, token) if game_id else None
    if guest_seat is not None:                  # a guest's: counted as its seat, with no round trip
        return f"s:{game_id}.{guest_seat}"
    pid = _player_of(redis, token)
    if pid is not None:
        return f"p:{pid}"
    seat = tokens.seat_of(redis, game_id, token) if game_id else None
    if seat is None:
        return None
    held = tokens.issued_to(redis, game_id, token)
    return f"p:{held}" if held else f"s:{game_id}.{seat}"


def _game_in_path() -> str | None:
    game_id = (request.view_args or {}).get("game_id")
    return game_id if isinstance(game_id, str) and keys.valid_game_id(game_id) else None
