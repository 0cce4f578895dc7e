"""The `clocks` of a game view: deadlines and banks now.

Thin: the clock is events/clocks.py's fold (cached by events/game_clock.py), with vacations
(events/pauses.py). What happens once per wait is the service's follow-up hook (workers/followup.py).
"""
from __future__ import annotations

from events import game_clock, pauses, roster
from events.clocks import TimeControl, now

from .context import Arena


def clocks_view(game_id: str, time_control: dict | None) -> dict | None:
    """Deadlines and banks now (None for a game without a time control)."""
    tc = TimeControl.from_info(time_control)
    if not tc.timed:
        return None
    arena = Arena.of()
    seating = roster.seating_of(arena.redis, game_id)
    return pauses.view(arena.redis, game_clock.current(arena.redis, arena.service, game_id, tc), seating, now())
