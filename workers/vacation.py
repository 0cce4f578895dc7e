"""Vacation: a player's per-move and bank clocks stand still while they are away.

The one place the rest of the workers ask about it. A seat's wait does not run during the
intervals its player is on vacation (events/vacations.py): its deadline is pushed back by every
paused second that falls before it, and a bank is not charged for them (clock.fold is given
`paused`). A vacation is planned with its end, so every deadline is known in advance; ending
it early re-indexes the player's timeouts at their new, earlier deadlines.

    vacation.deadline(redis, clock, seating)       # instead of clock.deadline(clock, tc)
    vacation.paused_for(redis, seating)            # the `paused` argument of clock.fold / view
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from events import vacations

from . import clock as clocks

Paused = Callable[[int, float, float], float]


def overlap(rows: list[list[float]], start: float, end: float) -> float:
    """Seconds of the intervals that fall between `start` and `end`."""
    return sum(max(0.0, min(b, end) - max(a, start)) for a, b in rows)


def paused_for(redis: Any, seating: Any) -> Paused | None:
    """paused(seat, start, end): seconds the seat's clock stood still then (None: nobody ever paused)."""
    players = seating.players
    rows = vacations.of_players(redis, list(players.values())) if seating.tc.timed and players else {}
    if not any(rows.values()):
        return None
    by_seat = {seat: rows.get(pid, []) for seat, pid in players.items()}
    return lambda seat, start, end: overlap(by_seat.get(seat, []), start, end)


def deadline(redis: Any, clock: clocks.Clock, seating: Any, paused: Paused | None = None) -> float | None:
    """When the current wait times out, every paused second before it added."""
    base = clocks.deadline(clock, seating.tc)
    paused = paused or paused_for(redis, seating)
    if base is None or paused is None or clock.since is None:
        return base
    end = base
    for _ in range(64):                 # each round adds the pauses the previous end reached
        later = base + paused(clock.seat, clock.since, end)
        if later <= end:
            break
        end = later
    return end


def away(redis: Any, seating: Any, now: float) -> dict[int, float]:
    """Seat -> when its player's current vacation ends, for the seats on vacation now."""
    out = {}
    for seat, pid in seating.players.items():
        for start, end in vacations.intervals(redis, pid):
            if start <= now < end:
                out[seat] = end
    return out


def view(redis: Any, clock: clocks.Clock, seating: Any, now: float) -> dict | None:
    """The `clocks` of a game view: remaining times stand still while the seat's player is away;
    `vacation` lists the seats on vacation now and until when (opponents see it)."""
    paused = paused_for(redis, seating)
    shown = clock
    if paused is not None and clock.seat is not None and clock.since is not None:
        shown = replace(clock, since=clock.since + paused(clock.seat, clock.since, now))
    out = clocks.view(shown, seating.tc, now)
    if out is None:
        return None
    end = deadline(redis, clock, seating, paused)
    out.update(since=out["since"] and clocks.format_epoch(clock.since),
               deadline=clocks.format_epoch(end) if end is not None and not clock.over else out["deadline"],
               vacation=[{"seat": s, "until": clocks.format_epoch(u)} for s, u in sorted(away(redis, seating, now).items())])
    return out
