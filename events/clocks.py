"""Game clocks, derived only from the times the store recorded: pure functions, no Redis (`now()` is
for callers; the fold never reads it).

A game waits for one seat at a time: engine.state.active_seat after a batch of events (a batch
is what one command appended: it opens with the player's or the system's CommandAccepted, the
automatic ones inside it carry `auto`; every envelope of a batch has the same recorded `time`).
A *wait* begins with the batch after which another seat is waited for, or a new turn has begun
(an extra turn of the same seat is a new wait), at that batch's recorded time. The store's
envelopes are reduced to one `Mark` per batch (events/clock_store.py replays them with the engine);
the clock is a fold over marks, so it is cached and brought up to date with the newer ones.

Time controls (chosen at creation, kept in `events.roster.info(...)["time_control"]`):

    none                      no deadline
    move  seconds             each wait ends at its start + seconds (correspondence: up to 30 days)
    bank  seconds, increment  each seat starts with a bank of `seconds`; a wait ends when the bank
                              runs out; when a wait ends the seat's bank loses the time it took
                              and gains the increment, never rising above the initial bank
    weekend_rest              either kind: no seat's clock runs from Saturday 00:00 to Monday 00:00
                              in its player's time zone (events/pauses.py)

A seat whose deadline passes is sent {"type": "timeout"} by the workers; the engine records it and
finishes the turn (engine/timeouts.py). A per-move clock restarts whenever the seat is waited for
again, e.g. when an opponent has answered a pending decision in the middle of the seat's turn.

    clock = fold(Clock(), marks, tc)              # one Mark per batch, in version order
    deadline(clock, tc)                           # epoch seconds, or None
    view(clock, tc, now)                          # the `clocks` field of GET /games/{id}
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from engine.moves import starts_move

REMINDER_FRACTION = 0.8


@dataclass(frozen=True)
class TimeControl:
    kind: str = "none"
    seconds: int = 0
    increment: int = 0
    zombie_after: int = 3
    weekend_rest: bool = False          # no clock runs on Saturday and Sunday (events/pauses.py)

    @classmethod
    def from_info(cls, data: dict | None) -> "TimeControl":
        """The time control stored with the roster (None, or kind 'none': no deadlines)."""
        if not data or data.get("kind") not in ("move", "bank") or not data.get("seconds"):
            return cls()
        return cls(data["kind"], int(data["seconds"]), int(data.get("increment") or 0),
                   int(data.get("zombie_after") or 3), bool(data.get("weekend_rest")))

    @property
    def timed(self) -> bool:
        return self.kind in ("move", "bank")


@dataclass(frozen=True)
class Mark:
    """What a batch of events left: whom the game waits for after it, in which turn, and when."""
    first: int                          # the batch's first version: names a wait that begins here
    version: int                        # its last version
    time: str                           # its recorded time (UTC ISO, as in the envelopes)
    seat: int | None                    # the seat waited for after it (None once over)
    turn: int                           # the turn number after it (0 before the first turn)
    seats: int
    over: bool = False


@dataclass(frozen=True)
class Clock:
    """Whom the game waits for since when, and every seat's bank at that moment.

    `wait` names the current wait by the first version of the batch that began it: job ids and
    notification ids are built from it. `since` is that batch's recorded time (epoch seconds).
    """
    version: int = 0                    # the last version folded in
    seat: int | None = None             # the seat waited for; None once the game is over
    since: float | None = None
    wait: int = 0
    wait_turn: int = 0
    over: bool = False
    banks: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in _CLOCK_FIELDS} | {"banks": list(self.banks)}

    @classmethod
    def from_json(cls, data: dict) -> "Clock":
        return cls(**data)


_CLOCK_FIELDS = tuple(f.name for f in fields(Clock))


def now() -> float:
    """Epoch seconds (UTC) now, through `datetime.now` (which tests freeze with freezegun): judged
    against deadlines computed from recorded times. The fold itself never reads it."""
    return datetime.now(timezone.utc).timestamp()


def parse_time(text: str) -> float:
    """An envelope time ('2024-05-01T12:00:00.000000Z') as epoch seconds."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


def format_epoch(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def batch_starts(kind: str, version: int, payload: dict[str, Any]) -> bool:
    """Whether an envelope opens a batch: the first one, and every command not played by autoplay."""
    return version == 1 or starts_move(kind, payload)


def fold(clock: Clock, marks: Iterable[Mark], tc: TimeControl,
         paused: Callable[[int, float, float], float] | None = None) -> Clock:
    """The clock after `marks` (in version order; those already folded in are skipped).
    `paused(seat, start, end)`: seconds the seat's clock stood still (vacation, events/pauses.py)."""
    c = clock.to_json()
    for m in marks:
        if m.version <= c["version"]:
            continue
        if not c["banks"]:
            c["banks"] = [float(tc.seconds) if tc.kind == "bank" else 0.0] * m.seats
        if c["since"] is None:
            changed = m.seat is not None or m.over
        else:
            changed = (m.seat, m.turn) != (c["seat"], c["wait_turn"])
        if changed:
            _begin_wait(c, m, tc, paused)
        c.update(over=m.over, version=m.version)
    return Clock(**c)


def _begin_wait(c: dict[str, Any], m: Mark, tc: TimeControl, paused: Callable[[int, float, float], float] | None) -> None:
    """The wait that ends is charged to its seat's bank (plus the increment, capped), less any pause."""
    now = parse_time(m.time)
    if c["seat"] is not None and c["since"] is not None and tc.kind == "bank":
        used = now - c["since"] - (paused(c["seat"], c["since"], now) if paused else 0.0)
        left = max(0.0, c["banks"][c["seat"]] - max(0.0, used))
        c["banks"][c["seat"]] = min(float(tc.seconds), left + tc.increment)
    c.update(seat=m.seat, wait_turn=m.turn, since=now, wait=m.first)


def deadline(clock: Clock, tc: TimeControl) -> float | None:
    """When the current wait times out (epoch seconds), from recorded times only."""
    if clock.seat is None or clock.since is None or not tc.timed:
        return None
    if tc.kind == "move":
        return clock.since + tc.seconds
    return clock.since + clock.banks[clock.seat]


def reminder(clock: Clock, tc: TimeControl, fraction: float = REMINDER_FRACTION) -> float | None:
    """When to remind the seat waited for: at `fraction` of the time it had at the wait's start."""
    end = deadline(clock, tc)
    if end is None:
        return None
    return clock.since + fraction * (end - clock.since)


def remaining(clock: Clock, tc: TimeControl, seat: int, now: float) -> float | None:
    """Seconds `seat` has left at `now`: its bank (running down while waited for), or the move's time."""
    if not tc.timed or clock.over:
        return None
    if tc.kind == "bank":
        used = now - clock.since if seat == clock.seat and clock.since is not None else 0.0
        return max(0.0, clock.banks[seat] - used)
    if seat != clock.seat:
        return None
    return max(0.0, clock.since + tc.seconds - now)


def view(clock: Clock, tc: TimeControl, now: float) -> dict[str, Any] | None:
    """The clocks as clients see them (times in UTC ISO, durations in seconds)."""
    if not tc.timed:
        return None
    end = deadline(clock, tc)
    return {
        "kind": tc.kind, "now": format_epoch(now), "waiting_for": clock.seat,
        "since": format_epoch(clock.since) if clock.since is not None and not clock.over else None,
        "deadline": format_epoch(end) if end is not None else None,
        "seats": [{"seat": s, "remaining": _round(remaining(clock, tc, s, now))} for s in range(len(clock.banks))],
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
