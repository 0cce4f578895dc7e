"""Private notes: what a player writes down about one of their games, for their own eyes only.

Kept with the game (keys.game_notes: one entry per seat, in the game's slot, so they live and
expire with it), never in its event log: no other seat's view, no stream, no log, no record of the
game carries them. A seat reads and writes its own; the one way out is the seat's own export of
the game (GET /games/{id}/record, outside the signed chain, server/history.py).

    notes.write(redis, game_id, seat, "they keep the centre; go for the corners", now)
    notes.read(redis, game_id, seat)         # Note(text, updated), or None
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from . import keys

MAX_CHARS = 10_000


@dataclass(frozen=True)
class Note:
    text: str
    updated: float                      # epoch seconds


def read(redis: Any, game_id: str, seat: int) -> Note | None:
    raw = redis.hget(keys.game_notes(game_id), seat)
    return Note(**json.loads(raw)) if raw else None


def write(redis: Any, game_id: str, seat: int, text: str, now: float) -> Note | None:
    """Keep `text` as the seat's note (an empty text deletes it)."""
    if not text.strip():
        redis.hdel(keys.game_notes(game_id), seat)
        return None
    note = Note(text[:MAX_CHARS], now)
    redis.hset(keys.game_notes(game_id), seat, json.dumps(note.__dict__))
    return note
