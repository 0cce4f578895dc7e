"""An account's preferences at the table, kept for every device: today `confirm_turn_end`, whether
the account's game pages ask their seats to wait for the player to confirm the end of each turn
(engine/confirm.py). A preference never set is None: the browser then decides (the web client
asks for the confirmation unless that browser turned it off). Stored in keys.table_prefs.

A preference turned on applies by itself to every game the account sits down in, however it
starts (server/launch.py asks `opening_options` for each new game's seats), so the account's API
clients and browsers alike find the seat waiting for their confirmation.
"""
from __future__ import annotations

from typing import Any

from . import keys
from .replies import text

PREFS = ("confirm_turn_end",)


def preferences(redis: Any, player_id: str) -> dict[str, bool | None]:
    raw = {text(k): text(v) for k, v in redis.hgetall(keys.table_prefs(player_id)).items()}
    return {name: raw[name] == "1" if name in raw else None for name in PREFS}


def set_preferences(redis: Any, player_id: str, changes: dict[str, bool]) -> None:
    """Set the preferences given (the others keep their values)."""
    if changes:
        redis.hset(keys.table_prefs(player_id), mapping={name: "1" if on else "0" for name, on in changes.items()})


def opening_options(redis: Any, seats: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Seat -> the `seat_options` command a new game's seat starts with, for each registered
    player (not the computer) whose preference asks for it."""
    people = {i: s["player"] for i, s in enumerate(seats) if s.get("player") and not s.get("bot")}
    if not people:
        return {}
    pipe = redis.pipeline(transaction=False)
    for pid in people.values():
        pipe.hget(keys.table_prefs(pid), "confirm_turn_end")
    return {seat: {"type": "seat_options", "confirm_turn_end": True}
            for seat, on in zip(people, pipe.execute()) if on is not None and text(on) == "1"}
