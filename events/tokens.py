"""Bearer tokens as stored: only SHA-256 hashes, never a token itself.

A seat token maps to one seat of one game (keys.seat_tokens, beside the game's log); a player
token maps to a registered player (keys.player_token, written by events/accounts.py when a token
is made). The HTTP layer (server/auth.py) reads the header; this module knows the keys.

A seat token's seat is written once and never changes, so each process remembers the seats it
has looked up for a minute (a move then costs no lookup); a token not found is asked every time,
since an invitation accepted later adds its token.
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Any, Iterable

from . import keys
from .memo import Memo
from .replies import text_or_none

SEAT_MEMORY_SECONDS = 60.0
_seats: Memo[int] = Memo(size=65536, ttl=SEAT_MEMORY_SECONDS)


def new_token() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_seat_tokens(redis: Any, game_id: str, seats: int, skip: Iterable[int] = ()) -> list[str | None]:
    """New tokens for every seat of a new game but those in `skip` (None for them), their hashes stored."""
    skipped = set(skip)
    tokens = [None if i in skipped else new_token() for i in range(seats)]
    hashes = {token_hash(t): i for i, t in enumerate(tokens) if t}
    if hashes:
        redis.hset(keys.seat_tokens(game_id), mapping=hashes)
    return tokens


def seat_of(redis: Any, game_id: str, token: str) -> int | None:
    """The seat of the game a seat token acts for, None when it is no seat token of the game."""
    key = (game_id, token_hash(token))
    known = _seats.get(key)
    if known is not None:
        return known
    seat = redis.hget(keys.seat_tokens(game_id), key[1])
    if seat is None:
        return None
    _seats.put(key, int(seat))
    return int(seat)


def player_of(redis: Any, token: str) -> str | None:
    """The registered player a player token acts for, None when it is no (or a revoked) player token."""
    return text_or_none(redis.get(keys.player_token(token_hash(token))))
