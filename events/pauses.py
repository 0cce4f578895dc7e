"""Vacation: a player's per-move and bank clocks stand still while they are away.

The one place the rest of the workers ask about it. A seat's wait does not run during the
intervals its player is on vacation (events/vacations.py): its deadline is pushed back by every
paused second that falls before it, and a bank is not charged for them (clock.fold is given
`paused`). A vacation is planned with its end, so every deadline is known in advance; starting
or ending one re-indexes the player's timeouts and "deadline soon" reminders at their new times.
A reminder is due when the seat has used the same share of its running time as without a
vacation, so it never comes while the player is away.

    vacation.deadline(redis, clock, seating)       # instead of clock.deadline(clock, tc)
    vacation.reminder(redis, clock, seating, f)    # instead of clock.reminder(clock, tc, f)
    vacation.paused_for(redis, seating)            # the `paused` argument of clock.fold / view
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from . import clocks, vacations

Paused = Callable[[int, float, float], float]


def overlap(rows: list[list[float]], start: float, end: float) -> float:
    """Seconds of the intervals that fall between `start` and `end`."""
    return sum(max(0.0, min(b, end) - max(a, start)) for a, b in rows)


def _player_rows(redis: Any, seating: Any) -> dict[int, list[list[float]]]:
    """Seat -> its player's vacation intervals, for every seat a registered player holds (one read each)."""
    players = seating.players
    rows = vacations.of_players(redis, list(players.values())) if players else {}
    return {seat: rows.get(pid, []) for seat, pid in players.items()}


def _seat_rows(redis: Any, seating: Any) -> dict[int, list[list[float]]]:
    """Seat -> its player's vacation intervals (empty: an untimed game, or nobody in it ever paused)."""
    if not seating.tc.timed:
        return {}
    rows = _player_rows(redis, seating)
    return rows if any(rows.values()) else {}


def paused_for(redis: Any, seating: Any) -> Paused | None:
    """paused(seat, start, end): seconds the seat's clock stood still then (None: nobody ever paused)."""
    by_seat = _seat_rows(redis, seating)
    if not by_seat:
        return None
    return lambda seat, start, end: overlap(by_seat.get(seat, []), start, end)


def running_until(rows: list[list[float]], since: float, seconds: float) -> float:
    """When a clock started at `since` has run `seconds`, standing still during the intervals."""
    at, need = since, seconds
    for start, end in sorted(rows):
        if end <= at:
            continue
        if start > at:
            if at + need <= start:
                return at + need
            need -= start - at
        at = end
    return at + need


def _pushed(by_seat: dict[int, list[list[float]]], clock: clocks.Clock, base: float | None) -> float | None:
    """`base` (a time on the wait's clock as if it never stood still) once its pauses are added."""
    rows = by_seat.get(clock.seat, []) if clock.seat is not None else []
    if base is None or clock.since is None or not rows:
        return base
    return running_until(rows, clock.since, base - clock.since)


def deadline(redis: Any, clock: clocks.Clock, seating: Any) -> float | None:
    """When the current wait times out, every paused second before it added."""
    return _pushed(_seat_rows(redis, seating), clock, clocks.deadline(clock, seating.tc))


def reminder(redis: Any, clock: clocks.Clock, seating: Any, fraction: float) -> float | None:
    """When to send "deadline soon": at `fraction` of the wait's running time, pauses added."""
    return _pushed(_seat_rows(redis, seating), clock, clocks.reminder(clock, seating.tc, fraction))


def away(redis: Any, seating: Any, now: float) -> dict[int, float]:
    """Seat -> when its player's current vacation ends, for the seats on vacation now."""
    return _away(_player_rows(redis, seating), now)


def _away(by_seat: dict[int, list[list[float]]], now: float) -> dict[int, float]:
    out = {}
    for seat, rows in by_seat.items():
        for start, end in rows:
            if start <= now < end:
                out[seat] = end
    return out


def view(redis: Any, clock: clocks.Clock, seating: Any, now: float) -> dict[str, Any] | None:
    """The `clocks` of a game view: remaining times stand still while the seat's player is away;
    `vacation` lists the seats on vacation now and until when (opponents see it)."""
    if not seating.tc.timed:
        return None                                     # clocks.view shows no clocks then
    rows = _player_rows(redis, seating)                 # read once: the pauses and who is away now
    by_seat = rows if any(rows.values()) else {}
    shown = clock
    if by_seat and clock.seat is not None and clock.since is not None:
        shown = replace(clock, since=clock.since + overlap(by_seat.get(clock.seat, []), clock.since, now))
    out = clocks.view(shown, seating.tc, now)
    if out is None:
        return None
    end = _pushed(by_seat, clock, clocks.deadline(clock, seating.tc))
    out.update(since=out["since"] and clocks.format_epoch(clock.since),
               deadline=clocks.format_epoch(end) if end is not None and not clock.over else out["deadline"],
               vacation=[{"seat": s, "until": clocks.format_epoch(u)} for s, u in sorted(_away(rows, now).items())])
    return out
