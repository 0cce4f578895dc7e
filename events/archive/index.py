"""The archive index (keys.archive_due): finished games waiting to leave Redis, by when they became
ready. The end-of-game job adds a game once its work is done; a chat message written to an archived
game adds it again, so the sweeps archive the message with it."""
from __future__ import annotations

from typing import Any

from .. import keys


def mark(redis: Any, game_id: str, when: float) -> None:
    """List the game for the sweeps from `when` on (an earlier listing stands)."""
    redis.zadd(keys.archive_due(keys.deadline_shard(game_id)), {game_id: when}, nx=True)


def unmark(redis: Any, game_id: str) -> None:
    redis.zrem(keys.archive_due(keys.deadline_shard(game_id)), game_id)
