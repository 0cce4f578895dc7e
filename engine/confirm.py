"""The per-seat option `confirm_turn_end`: a seat that turns it on ends its turn itself.

Board Game Arena lets a player look at the position after their last action, undo, and only then
confirm the end of the turn. Off (today's behaviour, which API clients rely on) the turn ends by
itself once nothing is left to do (engine/flow.py). On, it waits for the seat's `end_turn`, with
undo still open; the clock's deadline ends it if it is never confirmed, without counting a
timeout against the seat (every action was played).

    {"type": "seat_options", "confirm_turn_end": true}      any time, by the seat itself

The option is a fact of the game (the fold must know whether a turn ended), so it is an event,
SeatOptionsSet; but it is no move: no CommandAccepted opens it, so move lists, replays, clocks and
the audit (engine/audit.py) pass over it, and it takes effect from the next end of a turn (a turn
already waiting keeps waiting for its end_turn). Undo never takes it back. The fold reads this
module, so it imports nothing beyond the state's own modules (the snapshot fingerprint covers
exactly what the fold needs).
"""
from __future__ import annotations

from .errors import malformed
from .shapes import Command, GameEvent, SeatOptionsSet
from .state import State

OPTIONS = ("confirm_turn_end",)


def confirms(state: State, seat: int) -> bool:
    """Whether `seat` ends its own turns (the option is on)."""
    return seat in state.get("confirm_turn_end", [])


def decide(state: State, seat: int, command: Command) -> list[GameEvent]:
    """The seat's option as the command sets it; no event when it already has that value."""
    unknown = [k for k in command if k not in ("type", "seat", *OPTIONS)]
    if unknown:
        raise malformed("A seat has one option: whether you confirm the end of each of your turns yourself; set only that.")
    wanted = command.get("confirm_turn_end")
    if not isinstance(wanted, bool):
        raise malformed("Say true or false: whether you confirm the end of each of your turns yourself.")
    if wanted == confirms(state, seat):
        return []
    return [SeatOptionsSet(type="SeatOptionsSet", seat=seat, confirm_turn_end=wanted)]


def set_in(state: State, seat: int, on: bool) -> None:
    """Write the option into `state` (the reducer; also into the undo anchor, so no undo reverts it)."""
    targets = [state]
    record = state.get("undo")
    if record is not None:
        targets.append(record["anchor"])
    for target in targets:
        seats = set(target.get("confirm_turn_end", []))
        seats = seats | {seat} if on else seats - {seat}
        target["confirm_turn_end"] = sorted(seats)
