"""Where a move starts: the one definition history, clocks, verification and the audit share.

A move is a command someone chose (a player's, or the system's timeout) and every event it
caused, including the commands autoplay then played for a timed-out or abandoned seat: those
carry `auto` and belong to the move that made them necessary.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

MOVE_EVENT = "CommandAccepted"


def starts_move(event_type: str, payload: Mapping[str, Any]) -> bool:
    """Whether an event of this type and payload opens a new move."""
    return event_type == MOVE_EVENT and not payload.get("auto")


def move_starts(events: Iterable[Mapping[str, Any]]) -> list[int]:
    """Indexes (0-based) of the events that open a move, in a list of engine events."""
    return [i for i, e in enumerate(events) if starts_move(e["type"], e)]


def move_spans(events: list[Any]) -> list[tuple[int, int]]:
    """(first, end) indexes of every move: its opening command and all it caused."""
    starts = move_starts(events)
    return list(zip(starts, starts[1:] + [len(events)]))
