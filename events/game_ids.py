"""Game ids that cannot be taken: an id belongs to whatever showed it first.

A lobby table shows the id of its game-to-be while it waits (the game is named after the table),
and a game waiting for invitations shows its id before its log exists; an imported record names
its own id. So a table reserves its id when it opens, and an import takes an id only when no game,
archived game, waiting game, table or reservation holds it, reserving it itself first (SET NX: of
imports racing for one id, one wins), so that a refused import stores nothing.
"""
from __future__ import annotations

from typing import Any

from . import keys

RESERVATION_SECONDS = 30 * 24 * 3600        # longer than a table or an invitation waits; the game's log then holds it


def reserve(redis: Any, game_id: str, holder: str) -> bool:
    """Hold `game_id` for `holder`; False when something held it already."""
    return bool(redis.set(keys.game_reservation(game_id), holder, nx=True, ex=RESERVATION_SECONDS))


def release(redis: Any, game_id: str) -> None:
    """Give back an id reserved for something that did not happen (an import that failed)."""
    redis.delete(keys.game_reservation(game_id))


def in_use(redis: Any, game_id: str) -> bool:
    """Whether anything holds `game_id`: a game (its log, or the stub of its archived record), a game
    waiting for invitations, a reservation, or a lobby table."""
    held = redis.exists(keys.log(game_id), keys.archived(game_id), keys.pending_game(game_id),
                        keys.game_reservation(game_id))
    return bool(held) or bool(redis.exists(keys.table(game_id)))          # a table: in its lobby bucket's slot
