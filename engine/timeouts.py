"""Timeouts and abandoned seats: the turn of a seat whose time ran out is finished by autoplay.

The server's clock decides *when* a seat has timed out and sends {"type": "timeout", "seat": s}
(no player may send it: the HTTP layer never lists or accepts it). The rules here decide *what*
then happens: the timeout is recorded, the seat's streak grows, and after `zombie_after`
consecutive timeouts the seat is abandoned: it is played by autoplay whenever it is to act
(engine/flow.py plays both out), and in a two-sided game the other side may instead claim the win.
"""
from __future__ import annotations

from . import turns
from .context import Context
from .errors import RuleError
from .state import State, active_seat, color_of, two_sided

DEFAULT_ZOMBIE_AFTER = 3


def streak(state: State, seat: int) -> int:
    return state.get("timeouts", [0] * len(state["seats"]))[seat]


def abandoned(state: State) -> list[int]:
    return state.get("zombies", [])


def note_own_command(ctx: Context, seat: int) -> None:
    """A seat that plays for itself ends its streak of timeouts."""
    if streak(ctx.state, seat):
        ctx.emit("TimeoutStreakEnded", seat=seat)


def timeout(ctx: Context, seat: int) -> None:
    s = ctx.state
    if active_seat(s) != seat:
        raise RuleError("not_timed_out", "Only the player the game is waiting for can run out of time.", "time control")
    count = streak(s, seat) + 1
    ctx.emit("TurnTimedOut", seat=seat, streak=count)
    if count >= s["options"].get("zombie_after", DEFAULT_ZOMBIE_AFTER) and seat not in abandoned(s):
        ctx.emit("SeatAbandoned", seat=seat, timeouts=count)


def claim_win(ctx: Context, seat: int) -> None:
    s = ctx.state
    mine = color_of(s, seat)
    gone = [z for z in abandoned(s) if color_of(s, z) != mine]
    if not two_sided(s) or not gone:
        raise RuleError("no_abandoned_opponent", "You may claim the win only when the other side has abandoned the game; until then, play on.",
                        "time control: abandoned seats")
    turns.end_game(ctx, "abandonment", loser_color=color_of(s, gone[0]))


def can_claim_win(state: State, seat: int) -> bool:
    mine = color_of(state, seat)
    return two_sided(state) and any(color_of(state, z) != mine for z in abandoned(state))
