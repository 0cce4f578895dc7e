"""Bearer tokens as stored: only SHA-256 hashes, never a token itself.

A seat token maps to one seat of one game (keys.seat_tokens, beside the game's log); a player
token maps to a registered player (keys.player_token, written by events/accounts.py when a token
is made). The HTTP layer (server/auth.py) reads the header; this module knows the keys.

A seat token issued to a registered player's seat (the creator's own, an accepted invitation) is
stored as '<seat>:<player>' and listed with the player's tokens (events/accounts.py), so the
player can delete it and signing out everywhere ends it; a guest seat's token is stored as
'<seat>' and lives as long as the game. A guest token's seat never changes, so each process
remembers the seats it has looked up for a minute (a move then costs no lookup); a player's seat
token is asked every time, so that deleting it takes effect at once, and so is a token not found,
since an invitation accepted later adds its token.
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Any, Iterable

from . import accounts, keys
from .memo import Memo
from .replies import text, text_or_none

SEAT_MEMORY_SECONDS = 60.0
_seats: Memo[int] = Memo(size=65536, ttl=SEAT_MEMORY_SECONDS)


def new_token() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_seat_tokens(redis: Any, game_id: str, seats: int, skip: Iterable[int] = (),
                      players: dict[int, str] | None = None) -> list[str | None]:
    """New tokens for every seat of a new game but those in `skip` (None for them), their hashes
    stored; the tokens of seats in `players` (seat -> registered player) are that player's."""
    skipped, players = set(skip), players or {}
    tokens = [None if i in skipped else new_token() for i in range(seats)]
    hashes = {token_hash(t): seat_value(i, players.get(i)) for i, t in enumerate(tokens) if t}
    if hashes:
        redis.hset(keys.seat_tokens(game_id), mapping=hashes)
    for seat, player in players.items():
        if tokens[seat]:
            accounts.add_seat_token(redis, player, token_hash(tokens[seat]), game_id, seat)
    return tokens


def seat_value(seat: int, player: str | None) -> str:
    """What a seat token's hash maps to: its seat, and the registered player it was issued to."""
    return f"{seat}:{player}" if player else str(seat)


def add_seat_token(redis: Any, game_id: str, token: str, seat: int, player: str | None) -> None:
    """One more token for a seat of a game (a rematch's acceptor), the player's when one is named."""
    redis.hset(keys.seat_tokens(game_id), token_hash(token), seat_value(seat, player))
    if player:
        accounts.add_seat_token(redis, player, token_hash(token), game_id, seat)


def seat_of(redis: Any, game_id: str, token: str) -> int | None:
    """The seat of the game a seat token acts for, None when it is no seat token of the game."""
    key = (game_id, token_hash(token))
    known = _seats.get(key)
    if known is not None:
        return known
    stored = redis.hget(keys.seat_tokens(game_id), key[1])
    if stored is None:
        return None
    seat, _, player = text(stored).partition(":")
    if not player:
        _seats.put(key, int(seat))
    return int(seat)


def remembered_guest_seat(game_id: str, token: str) -> int | None:
    """The seat of a guest's token of the game if this process has looked it up lately (no round
    trip; None when it has not, or the token is no guest's): a guest's token is no player's."""
    return _seats.get((game_id, token_hash(token)))


def issued_to(redis: Any, game_id: str, token: str) -> str | None:
    """The registered player a seat token of the game was issued to, None for a guest's (or no) token."""
    stored = redis.hget(keys.seat_tokens(game_id), token_hash(token))
    return text(stored).partition(":")[2] or None if stored is not None else None


def player_of(redis: Any, token: str) -> str | None:
    """The registered player a player token acts for, None when it is no (or a revoked) player token."""
    return text_or_none(redis.get(keys.player_token(token_hash(token))))
