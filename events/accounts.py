"""Accounts, browser sessions and API tokens in Redis. An account IS a registered player.

A player made by POST /players has no password; signing up makes a player with one (or gives
one to the player whose token signs up). Names of accounts are unique regardless of case.
Secrets (session secrets, API tokens) are stored only as SHA-256 hashes: a session cookie is
`<player id>.<secret>`, so its record lives in the player's slot and signing out everywhere is
one DEL. Passwords are stored as the argon2 hashes the caller made.
"""
from __future__ import annotations

from typing import Any

import hashlib
import json
import secrets
import time
from dataclasses import dataclass

from . import keys, stream_terms
from .replication import durable
from .replies import text

BOT_TITLE = "BOT"                   # a bot account's title, shown before its name everywhere
SESSION_SECONDS = 30 * 24 * 3600
DEVICE_SECONDS = 365 * 24 * 3600


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_id(token_hash: str) -> str:
    """A token's public name: enough of its hash to tell tokens apart, nothing to act with."""
    return token_hash[:16]


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    password: str | None                # argon2 hash; None for a player registered without one
    created: float
    bot: bool = False                   # a bot account: plays through the API only, casual games only


def new_player_id() -> str:
    return "p" + secrets.token_hex(8)


def load(redis, player_id: str) -> Account | None:
    if not keys.valid_game_id(player_id):
        return None
    raw = {text(k): text(v) for k, v in redis.hgetall(keys.player(player_id)).items()}
    if not raw:
        return None
    return Account(player_id, raw.get("name", ""), raw.get("password") or None, float(raw.get("created") or 0),
                   raw.get("title") == BOT_TITLE)


def is_bot(redis, player_id: str | None) -> bool:
    """Whether the player is a bot account (False for no player)."""
    return bool(player_id) and text(redis.hget(keys.player(player_id), "title")) == BOT_TITLE


def become_bot(redis, player_id: str) -> None:
    """Make the player a bot account, for good (nothing turns it back)."""
    durable(redis, keys.player(player_id), lambda c: c.hset(keys.player(player_id), "title", BOT_TITLE))


def find(redis, name: str) -> Account | None:
    pid = text(redis.get(keys.account_name(name)))
    return load(redis, pid) if pid else None


def claim_name(redis, name: str, player_id: str) -> bool:
    """Reserve a name for a player (one key per name, SET NX: of players racing for it, one wins);
    False when another account has it."""
    if redis.set(keys.account_name(name), player_id, nx=True):
        return True
    return text(redis.get(keys.account_name(name))) == player_id


def create(redis, player_id: str, name: str, password_hash: str, now: float | None = None) -> None:
    """The account's player record (a new one, or an existing player who signs up)."""
    fields = {"name": name, "password": password_hash, "created": f"{now or time.time():.3f}"}
    pipe = redis.pipeline(transaction=False)
    pipe.hset(keys.player(player_id), mapping=fields)
    pipe.hsetnx(keys.player(player_id), "webhook_url", "")
    pipe.hsetnx(keys.player(player_id), "webhook_secret", secrets.token_hex(32))
    pipe.execute()


def set_password(redis, player_id: str, password_hash: str) -> None:
    redis.hset(keys.player(player_id), "password", password_hash)


# --- sign-in failures and known devices: a brake on guessing that spares the owner ----------------

def failures(redis, name: str) -> int:
    """Wrong passwords for a name, from everywhere, in the current window."""
    return int(text(redis.get(keys.signin_failures(name))) or 0)


def remember_device(redis, player_id: str, now: float | None = None) -> str:
    """A browser that just signed in: the device cookie value to hand it (`<player id>.<secret>`)."""
    now = time.time() if now is None else now
    secret = secrets.token_urlsafe(24)
    pipe = redis.pipeline(transaction=False)
    pipe.hset(keys.devices(player_id), digest(secret), f"{now + DEVICE_SECONDS:.0f}")
    pipe.expire(keys.devices(player_id), DEVICE_SECONDS)
    pipe.execute()
    return f"{player_id}.{secret}"


def known_device(redis, player_id: str, cookie: str | None, now: float | None = None) -> str | None:
    """The digest of the device a cookie names when it is a live device of `player_id`, else None."""
    owner, _, secret = (cookie or "").partition(".")
    if owner != player_id or not secret or not keys.valid_game_id(owner):
        return None
    lapses = text(redis.hget(keys.devices(player_id), digest(secret)))
    if not lapses or float(lapses) < (time.time() if now is None else now):
        return None
    return digest(secret)


# --- sessions ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Session:
    player: str
    secret_hash: str
    csrf: str


def open_session(redis, player_id: str, now: float | None = None) -> tuple[str, Session]:
    """A new session: the cookie value to hand out, and the session it names."""
    now = time.time() if now is None else now
    secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    record = {"csrf": csrf, "created": now, "expires": now + SESSION_SECONDS}
    redis.hset(keys.sessions(player_id), digest(secret), json.dumps(record))
    redis.expire(keys.sessions(player_id), SESSION_SECONDS)
    return f"{player_id}.{secret}", Session(player_id, digest(secret), csrf)


def session(redis, cookie: str | None, now: float | None = None) -> Session | None:
    """The live session a cookie names, None when it names none (forged, expired, signed out)."""
    if not cookie or "." not in cookie:
        return None
    player_id, _, secret = cookie.partition(".")
    if not keys.valid_game_id(player_id) or not secret:
        return None
    raw = redis.hget(keys.sessions(player_id), digest(secret))
    if raw is None:
        return None
    record = json.loads(raw)
    if record["expires"] < (time.time() if now is None else now):
        redis.hdel(keys.sessions(player_id), digest(secret))
        return None
    return Session(player_id, digest(secret), record["csrf"])


def close_session(redis, s: Session) -> None:
    redis.hdel(keys.sessions(s.player), s.secret_hash)
    stream_terms.changed(redis, s.player)


def close_all_sessions(redis, player_id: str, keep: Session | None = None) -> int:
    """Sign out everywhere (but `keep`); how many sessions were closed."""
    names = [text(k) for k in redis.hkeys(keys.sessions(player_id))]
    gone = [n for n in names if keep is None or n != keep.secret_hash]
    if gone:
        redis.hdel(keys.sessions(player_id), *gone)
        stream_terms.changed(redis, player_id)
    return len(gone)


# --- API tokens, and the seat tokens issued to the account's seats ---------------------------------

def add_token(redis, player_id: str, token: str, label: str, now: float | None = None) -> dict[str, Any]:
    """Make `token` act for the player, listed under `label`."""
    hashed = digest(token)
    entry = {"id": token_id(hashed), "label": label, "created": round(time.time() if now is None else now, 3),
             "kind": "api"}
    listed, owner = keys.player_token_list(player_id), keys.player_token(hashed)
    durable(redis, listed, lambda c: c.hset(listed, hashed, json.dumps(entry)))      # each kept by a replica
    durable(redis, owner, lambda c: c.set(owner, player_id))
    return entry


def add_seat_token(redis, player_id: str, token_hash: str, game_id: str, seat: int, now: float | None = None) -> None:
    """List a seat token issued to the player's seat (events/tokens.py stores it with the game)."""
    entry = {"id": token_id(token_hash), "label": f"seat {seat} of game {game_id}", "kind": "seat",
             "created": round(time.time() if now is None else now, 3), "game_id": game_id, "seat": seat}
    redis.hset(keys.player_token_list(player_id), token_hash, json.dumps(entry))


def tokens(redis, player_id: str) -> list[dict[str, Any]]:
    """Every token of the player: API tokens (kind 'api') and seat tokens of its seats (kind 'seat')."""
    rows = [{"kind": "api", **json.loads(v)} for v in redis.hvals(keys.player_token_list(player_id))]
    return sorted(rows, key=lambda t: t["created"])


def revoke_token(redis, player_id: str, tid: str) -> bool:
    """Revoke the player's token whose id is `tid`; False when the player has none such."""
    for hashed, raw in redis.hgetall(keys.player_token_list(player_id)).items():
        if token_id(text(hashed)) == tid:
            _revoke(redis, player_id, {text(hashed): json.loads(raw)})
            return True
    return False


def revoke_seat_tokens(redis, player_id: str) -> int:
    """Revoke every seat token issued to the player's seats (signing out everywhere, a new
    password): the account's sessions and API tokens act for its seats without them."""
    listed = {text(h): json.loads(v) for h, v in redis.hgetall(keys.player_token_list(player_id)).items()}
    seats = {h: e for h, e in listed.items() if e.get("kind") == "seat"}
    _revoke(redis, player_id, seats)
    return len(seats)


def revoke_all_tokens(redis, player_id: str) -> int:
    """Revoke every token of the player, API and seat tokens alike (a password reset); how many."""
    listed = {text(h): json.loads(v) for h, v in redis.hgetall(keys.player_token_list(player_id)).items()}
    _revoke(redis, player_id, listed)
    return len(listed)


def _revoke(redis, player_id: str, entries: dict[str, dict[str, Any]]) -> None:
    if not entries:
        return
    for hashed, entry in entries.items():
        if entry.get("kind") == "seat":
            redis.hdel(keys.seat_tokens(entry["game_id"]), hashed)
        else:
            redis.delete(keys.player_token(hashed))
    redis.hdel(keys.player_token_list(player_id), *entries)
    stream_terms.changed(redis, player_id)
