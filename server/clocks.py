"""The `clocks` of a game view, and the scheduling hook the game endpoints call after a change.

Thin: the clock is events/clocks.py's fold (cached by events/game_clock.py); what happens once per
wait (timeouts, reminders, bots, notifications, end of game) is workers/turns.py's `after_change`.
"""
from __future__ import annotations

from typing import Any

from events import game_clock, pauses, presence, roster
from events.clocks import TimeControl, now
from workers import turns

from .context import Arena


def clocks_view(game_id: str, time_control: dict | None) -> dict | None:
    """Deadlines and banks now (None for a game without a time control)."""
    tc = TimeControl.from_info(time_control)
    if not tc.timed:
        return None
    arena = Arena.of()
    seating = roster.seating_of(arena.redis, game_id)
    return pauses.view(arena.redis, game_clock.current(arena.redis, arena.service, game_id, tc), seating, now())


def changed(game_id: str, result: Any = None) -> None:
    """After a command (its events.CommandResult) or a creation: schedule and announce a new wait."""
    if result is not None and result.replayed:
        return                                          # an idempotent retry changed nothing
    arena = Arena.of()
    presence.mark_live(arena.redis, game_id)
    turns.after_change(arena.redis, arena.service, game_id, result)
