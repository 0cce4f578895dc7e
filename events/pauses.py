"""When clocks stand still: a player's vacation, and the weekend in a game with weekend rest.

The one place the rest of the workers ask about it. A seat's wait does not run during the
intervals its player is on vacation (events/vacations.py), nor, in a game whose time control has
`weekend_rest`, from Saturday 00:00 to Monday 00:00 in its player's time zone
(events/time_zones.py; UTC for a guest): its deadline is pushed back by every paused second that
falls before it, and a bank is not charged for them (clock.fold is given `paused`). A vacation is
planned with its end and weekends are known for good, so every deadline is known in advance;
starting or ending a vacation, or choosing another zone, re-indexes the player's timeouts and
"deadline soon" reminders at their new times. A reminder is due when the seat has used the same
share of its running time as without a pause, so it never comes while the clock stands still.

    pauses.deadline(redis, clock, seating)       # instead of clock.deadline(clock, tc)
    pauses.reminder(redis, clock, seating, f)    # instead of clock.reminder(clock, tc, f)
    pauses.paused_for(redis, seating)            # the `paused` argument of clock.fold / view
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from . import clocks, time_zones, vacations

Paused = Callable[[int, float, float], float]
WEEK = 7 * 86400.0


def overlap(rows: list[list[float]], start: float, end: float) -> float:
    """Seconds of the intervals that fall between `start` and `end`."""
    return sum(max(0.0, min(b, end) - max(a, start)) for a, b in rows)


@dataclass(frozen=True)
class Rest:
    """When one seat's clock stands still: its player's vacations, and with weekend rest the
    weekends of its player's time zone (a guest's: UTC's), which never end, so asked for by window."""
    vacations: list[list[float]]
    zones: time_zones.History | None = None      # None: the game has no weekend rest

    def between(self, start: float, end: float) -> list[list[float]]:
        """The intervals (merged, in order) that meet [start, end]."""
        rows = [r for r in self.vacations if r[1] > start and r[0] < end]
        if self.zones is not None:
            rows += time_zones.weekends(self.zones, start, end)
        merged: list[list[float]] = []
        for a, b in sorted(rows):
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        return merged

    def __bool__(self) -> bool:
        return bool(self.vacations) or self.zones is not None


def _player_rows(redis: Any, seating: Any) -> dict[int, list[list[float]]]:
    """Seat -> its player's vacation intervals, for every seat a registered player holds (one read each)."""
    players = seating.players
    rows = vacations.of_players(redis, list(players.values())) if players else {}
    return {seat: rows.get(pid, []) for seat, pid in players.items()}


def _rests(redis: Any, seating: Any, vacation_rows: dict[int, list[list[float]]] | None = None) -> dict[int, Rest]:
    """Seat -> when its clock stands still (empty: an untimed game, or nothing ever stops a clock)."""
    if not seating.tc.timed:
        return {}
    rows = _player_rows(redis, seating) if vacation_rows is None else vacation_rows
    if seating.tc.weekend_rest:
        players = seating.players
        return {seat: Rest(rows.get(seat, []), time_zones.history(redis, players[seat]) if seat in players else [])
                for seat in range(len(seating.seats))}
    return {seat: Rest(r) for seat, r in rows.items() if r}


def paused_for(redis: Any, seating: Any) -> Paused | None:
    """paused(seat, start, end): seconds the seat's clock stood still then (None: nothing ever stops one)."""
    by_seat = _rests(redis, seating)
    if not by_seat:
        return None

    def paused(seat: int, start: float, end: float) -> float:
        rest = by_seat.get(seat)
        return overlap(rest.between(start, end), start, end) if rest else 0.0
    return paused


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


def _running_until(rest: Rest, since: float, seconds: float) -> float:
    """running_until over a seat's rest, read a window at a time (weekends never end): an answer
    inside the window read saw every pause before it."""
    horizon = seconds + WEEK
    while True:
        end = since + horizon
        answer = running_until(rest.between(since, end), since, seconds)
        if answer <= end:
            return answer
        horizon *= 2


def _pushed(by_seat: dict[int, Rest], clock: clocks.Clock, base: float | None) -> float | None:
    """`base` (a time on the wait's clock as if it never stood still) once its pauses are added."""
    rest = by_seat.get(clock.seat) if clock.seat is not None else None
    if base is None or clock.since is None or not rest:
        return base
    return _running_until(rest, clock.since, base - clock.since)


def deadline(redis: Any, clock: clocks.Clock, seating: Any) -> float | None:
    """When the current wait times out, every paused second before it added."""
    return _pushed(_rests(redis, seating), clock, clocks.deadline(clock, seating.tc))


def reminder(redis: Any, clock: clocks.Clock, seating: Any, fraction: float) -> float | None:
    """When to send "deadline soon": at `fraction` of the wait's running time, pauses added."""
    return _pushed(_rests(redis, seating), clock, clocks.reminder(clock, seating.tc, fraction))


def away(redis: Any, seating: Any, now: float) -> dict[int, float]:
    """Seat -> when its clock runs again, for the seats whose clock stands still now (their player
    on vacation, or the weekend in a game with weekend rest)."""
    return _resting(_rests(redis, seating), now)


def _away(by_seat: dict[int, list[list[float]]], now: float) -> dict[int, float]:
    out = {}
    for seat, rows in by_seat.items():
        for start, end in rows:
            if start <= now < end:
                out[seat] = end
    return out


def _resting(by_seat: dict[int, Rest], now: float) -> dict[int, float]:
    """Seat -> when the pause under way at `now` ends (vacation and weekend run together)."""
    return _away({seat: rest.between(now, now + 1.0) for seat, rest in by_seat.items() if rest}, now)


def view(redis: Any, clock: clocks.Clock, seating: Any, now: float) -> dict[str, Any] | None:
    """The `clocks` of a game view: remaining times stand still while the seat's clock does;
    `vacation` lists the seats on vacation now and until when (opponents see it); with weekend rest,
    `weekend_rest` says so and `resting` lists the seats whose weekend it is now, until when."""
    if not seating.tc.timed:
        return None                                     # clocks.view shows no clocks then
    rows = _player_rows(redis, seating)                 # read once: the pauses and who is away now
    by_seat = _rests(redis, seating, rows)
    shown = clock
    rest = by_seat.get(clock.seat) if clock.seat is not None else None
    if rest and clock.since is not None:
        shown = replace(clock, since=clock.since + overlap(rest.between(clock.since, now), clock.since, now))
    out = clocks.view(shown, seating.tc, now)
    if out is None:
        return None
    end = _pushed(by_seat, clock, clocks.deadline(clock, seating.tc))
    out.update(since=out["since"] and clocks.format_epoch(clock.since),
               deadline=clocks.format_epoch(end) if end is not None and not clock.over else out["deadline"],
               vacation=[{"seat": s, "until": clocks.format_epoch(u)} for s, u in sorted(_away(rows, now).items())])
    if seating.tc.weekend_rest:
        weekend = {s: r.zones or [] for s, r in by_seat.items()}
        out.update(weekend_rest=True, resting=[
            {"seat": s, "until": clocks.format_epoch(u), "time_zone": time_zones.current(weekend[s])}
            for s, u in sorted(_away({s: time_zones.weekends(z, now, now + 1.0) for s, z in weekend.items()}, now).items())])
    return out
