"""Accounts: sign up, sign in and out (everywhere), change the password, manage API tokens.

An account is a registered player with a name and a password (argon2id, argon2-cffi): everything
a player token opens (games, notifications, webhooks) the account's session cookie opens too, and
the tokens an account makes here are ordinary player tokens for scripts and bots. A player
registered with POST /players signs up by sending its token: it then keeps its id and its games.

Refusals never say whether a name has an account: a wrong name and a wrong password get the same
answer, and wrong passwords are braked the same for a known name or not (server/password_guard.py);
sign-ins and sign-ups are also rate-limited per address (server/limits.py).
"""
from __future__ import annotations

import time

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from flask import after_this_request
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from events import accounts, lobby, roster, tokens

from . import auth, limits, password_guard, sessions
from .context import Arena
from .errors import ApiError
from .games import problems
from .plain_text import Name
from .schemas import Strict

blp = Blueprint("accounts", __name__, url_prefix="/accounts", description="Accounts, sessions and API tokens")
HASHER = PasswordHasher()
NAME = validate.And(validate.Regexp(r"^[A-Za-z0-9_-]{2,24}$", error="2 to 24 letters, digits, '_' or '-'"),
                    validate.Regexp(r"^(?!p[0-9a-f]{16}$)", error="a name may not look like a player id"))
PASSWORD = validate.Length(min=8, max=256, error="a password needs at least 8 characters (and at most 256)")
WRONG = "Wrong name or password; check both and try again."
# Verified against when the name has no account, so both answers take the same time.
_DUMMY = HASHER.hash("not a password of anyone")


class SignUpIn(Strict):
    name = fields.String(required=True, validate=NAME)
    password = fields.String(required=True, validate=PASSWORD, load_only=True)


class SignInIn(Strict):
    name = Name(required=True, max_length=64)       # names as made (ASCII) come out unchanged
    password = fields.String(required=True, validate=validate.Length(min=1, max=256), load_only=True)


class PasswordIn(Strict):
    current = fields.String(required=True, validate=validate.Length(min=1, max=256))
    new = fields.String(required=True, validate=PASSWORD)


class BotUpgradeIn(Strict):
    irreversible = fields.Boolean(required=True, validate=validate.Equal(True, error="send true: a bot account stays one"),
                                  metadata={"description": "true: you know a bot account never turns back"})


class TokenIn(Strict):
    label = fields.String(load_default="token", validate=validate.Length(min=1, max=60))


class AccountOut(Schema):
    id = fields.String()
    name = fields.String()
    created = fields.Float()
    via = fields.String(metadata={"description": "'session' (cookie) or 'token' (Authorization header)"})
    bot = fields.Boolean(metadata={"description": "a bot account: plays casual games through the API with its token"})
    title = fields.String(allow_none=True, metadata={"description": "'BOT' for a bot account, shown before its name"})
    csrf = fields.String(allow_none=True, metadata={"description": "send as X-CSRF-Token with cookie-made writes"})


class TokenOut(Schema):
    id = fields.String()
    label = fields.String()
    created = fields.Float()
    kind = fields.String(metadata={"description": "'api' (made here) or 'seat' (the token of one of your seats: "
                                                  "your join link of a game; delete it to end that link)"})
    game_id = fields.String(metadata={"description": "a seat token's game"})
    seat = fields.Integer(metadata={"description": "a seat token's seat"})
    token = fields.String(metadata={"description": "shown once, when made"})


class TokensOut(Schema):
    tokens = fields.List(fields.Nested(TokenOut))


class SignedOutOut(Schema):
    sessions_closed = fields.Integer()
    seat_tokens_revoked = fields.Integer(metadata={"description": "seat tokens of your seats ended with them "
                                                                  "(your sessions and API tokens play those seats)"})


def _me() -> accounts.Account:
    return auth.require_account(Arena.of().redis)


def _account_out(account: accounts.Account, csrf: str | None, via: str) -> dict:
    return {"id": account.id, "name": account.name, "created": account.created, "via": via, "csrf": csrf,
            "bot": account.bot, "title": accounts.BOT_TITLE if account.bot else None}


def _start_session(account: accounts.Account) -> dict:
    cookie, opened = accounts.open_session(Arena.of().redis, account.id)
    after_this_request(lambda response: sessions.set_cookies(response, cookie, opened.csrf))
    return _account_out(account, opened.csrf, "session")


# one per-address limit for every password check: sign-ins and password changes
password_checks = limits.limited("signin", "sign-in and password-change attempts", per_address="30/minute;300/hour")


@blp.route("", methods=["POST"])
@limits.limited("signup", "accounts made", per_address="10/minute;60/hour")
@blp.arguments(SignUpIn)
@blp.response(201, AccountOut)
@problems(400, 401, 409)
def sign_up(data: dict):
    """Make an account and sign in. Sent with a player token, that player becomes the account."""
    redis = Arena.of().redis
    token = auth.bearer()
    pid = auth.require_player(redis) if token else accounts.new_player_id()
    existing = accounts.load(redis, pid)
    if existing is not None and existing.password:
        raise ApiError(409, "already_an_account", "This player has an account already; sign in instead.")
    if not accounts.claim_name(redis, data["name"], pid):
        raise ApiError(409, "name_taken", "That name is taken; choose another.")
    accounts.create(redis, pid, data["name"], HASHER.hash(data["password"]))
    account = accounts.load(redis, pid)
    after_this_request(password_guard.remember_device(redis, account, known=False))
    return _start_session(account)


@blp.route("/session", methods=["POST"])
@password_checks
@blp.arguments(SignInIn)
@blp.response(200, AccountOut)
@problems(400, 401, 429)
def sign_in(data: dict):
    """Sign in with name and password: sets the session cookie (and the arena_csrf cookie, and a
    device cookie that spares this browser the per-name brake on wrong passwords next time)."""
    redis = Arena.of().redis
    name = data["name"]
    account = accounts.find(redis, name)
    bounds, known = password_guard.signin_bounds(redis, name, account)
    if not password_guard.checked(redis, bounds, lambda: _password_ok(account, data["password"])):
        raise ApiError(401, "wrong_credentials", WRONG)
    if HASHER.check_needs_rehash(account.password):
        accounts.set_password(redis, account.id, HASHER.hash(data["password"]))
    after_this_request(password_guard.remember_device(redis, account, known))
    return _start_session(account)


def _password_ok(account: accounts.Account | None, password: str) -> bool:
    stored = account.password if account is not None else None
    try:
        matched = HASHER.verify(stored or _DUMMY, password)
    except (VerificationError, InvalidHashError):
        matched = False
    return matched and stored is not None


@blp.route("/session", methods=["DELETE"])
@blp.response(204)
@problems(403)
def sign_out():
    """Sign this browser out (its session ends; other devices stay signed in)."""
    found = sessions.current(Arena.of().redis)
    if found is not None:
        accounts.close_session(Arena.of().redis, found)
    after_this_request(sessions.clear_cookies)
    return ""


@blp.route("/me")
@blp.response(200, AccountOut)
@problems(401)
def me():
    """Who you are signed in as (with the CSRF token a page needs for its writes)."""
    return _as_called(_me())


def _as_called(account: accounts.Account) -> dict:
    """The account as its caller sees it: with the session's CSRF token when called from a page."""
    found = None if auth.bearer() else sessions.current(Arena.of().redis)
    return _account_out(account, found.csrf if found else None, "session" if found else "token")


@blp.route("/me/bot", methods=["POST"])
@blp.arguments(BotUpgradeIn)
@blp.response(200, AccountOut)
@problems(400, 401, 403, 409)
def become_bot(data: dict):
    """Turn this account, which has played no game, into a bot account, for good. A bot account is
    shown as BOT everywhere, plays only casual games (never quick match, never rated) and plays
    only through the API with its token (GET /players/me/stream, /players/me/invitations, the
    game's /events, /legal and /commands, its chat), never from a signed-in page."""
    account = _me()
    redis = Arena.of().redis
    if not account.bot:
        if roster.player_games(redis, account.id):
            raise ApiError(409, "has_played", "Only an account that has played no game may become a bot account; "
                                              "make a new account for your bot.")
        accounts.become_bot(redis, account.id)
        lobby.drop_seek(redis, account.id)          # a bot never waits in quick match
    return _as_called(accounts.load(redis, account.id))


@blp.route("/me/sign-out-everywhere", methods=["POST"])
@blp.response(200, SignedOutOut)
@problems(401, 403)
def sign_out_everywhere():
    """End every session of the account, this one too, and every seat token issued to its seats
    (API tokens stay: revoke them one by one)."""
    account = _me()
    redis = Arena.of().redis
    closed = accounts.close_all_sessions(redis, account.id)
    after_this_request(sessions.clear_cookies)
    return {"sessions_closed": closed, "seat_tokens_revoked": accounts.revoke_seat_tokens(redis, account.id)}


@blp.route("/me/password", methods=["POST"])
@password_checks
@blp.arguments(PasswordIn)
@blp.response(200, SignedOutOut)
@problems(400, 401, 403, 429)
def change_password(data: dict):
    """Change the password; every other session is signed out, and the seat tokens of your seats end."""
    account = _me()
    redis = Arena.of().redis
    if not password_guard.checked(redis, password_guard.change_bounds(account),
                                  lambda: _password_ok(account, data["current"])):
        raise ApiError(403, "wrong_password", "The current password is wrong; type it again.")
    accounts.set_password(redis, account.id, HASHER.hash(data["new"]))
    keep = None if auth.bearer() else sessions.current(redis)
    return {"sessions_closed": accounts.close_all_sessions(redis, account.id, keep=keep),
            "seat_tokens_revoked": accounts.revoke_seat_tokens(redis, account.id)}


@blp.route("/me/tokens")
@blp.response(200, TokensOut)
@problems(401)
def list_tokens():
    """Your API tokens and the seat tokens of your seats (by id, label and kind; a token itself is
    shown only when made)."""
    return {"tokens": accounts.tokens(Arena.of().redis, _me().id)}


@blp.route("/me/tokens", methods=["POST"])
@limits.limited("token", "API tokens made", per_address="30/minute", per_player="10/minute;50/day")
@blp.arguments(TokenIn)
@blp.response(201, TokenOut)
@problems(400, 401, 403, 429)
def make_token(data: dict):
    """A new API token for a script or a bot: send it as 'Authorization: Bearer <token>'."""
    token = tokens.new_token()
    entry = accounts.add_token(Arena.of().redis, _me().id, token, data["label"], now=time.time())
    return {**entry, "token": token}


@blp.route("/me/tokens/<token_id>", methods=["DELETE"])
@blp.response(204)
@problems(401, 403, 404)
def revoke_token(token_id: str):
    """Revoke one of your tokens (an API token, or a seat token: your seat stays yours, played with
    your session or API tokens); it stops working at once."""
    if not accounts.revoke_token(Arena.of().redis, _me().id, token_id):
        raise ApiError(404, "token_not_found", f"You have no token {token_id!r}; it may have been revoked already.")
    return ""
