"""When a player's clocks are paused: a list of [start, end] intervals (epoch seconds) per player.

Kept whole in one small JSON string in the player's slot. An interval is set when the vacation
starts (ending when it was planned to) and shortened to the moment it is ended early; past
intervals never change, so clocks folded over them give the same banks on every fold.
"""
from __future__ import annotations

import json
from typing import Any

from . import keys


def intervals(redis: Any, player_id: str) -> list[list[float]]:
    raw = redis.get(keys.vacation(player_id))
    return json.loads(raw) if raw else []


def of_players(redis: Any, player_ids: list[str]) -> dict[str, list[list[float]]]:
    """The intervals of several players (one read each; they live in different slots)."""
    return {pid: intervals(redis, pid) for pid in player_ids}


def save(redis: Any, player_id: str, rows: list[list[float]]) -> None:
    redis.set(keys.vacation(player_id), json.dumps(rows))


def away_until(redis: Any, player_id: str, now: float) -> float | None:
    """When the player's vacation under way at `now` ends (None: not away then)."""
    return next((end for start, end in intervals(redis, player_id) if start <= now < end), None)
