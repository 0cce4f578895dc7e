"""The automatic flow of a turn: what happens after a command without anyone choosing it.

After every command `settle` runs: a turn with no action and no free option left ends by itself
(scoring, drawing and the next turn, engine/turns.py), and a seat that has abandoned the game is
played at once. A seat whose time ran out has its turn played out by autoplay
(engine/autoplay.py); each command autoplay plays is logged as automatic and settled in turn.
"""
from __future__ import annotations

from . import autoplay, confirm, flares, frost, tasks, timeouts, turns, warp
from .commands import dispatch
from .context import Context
from .state import State, active_seat, color_of, current_turn


def free_options(state: State, seat: int) -> bool:
    """Whether the seat, out of actions, may still do something before its turn ends."""
    if flares.invocations(state, seat) or frost.thaw_commands(state, seat) or warp.warp_commands(state, seat):
        return True
    return state["form"] == "high_form" and bool(tasks.claimable(state, color_of(state, seat)))


def spent(s: State) -> bool:
    """Whether the turn has nothing left to do: no decision, no action, no free option."""
    return s["phase"] == "play" and not s["pending"] and current_turn(s)["actions"] <= 0 \
        and not free_options(s, current_turn(s)["seat"])


def settle(ctx: Context) -> None:
    """Automatic consequences: an exhausted turn ends (unless its seat confirms the end itself,
    engine/confirm.py); abandoned seats are played at once."""
    s = ctx.state
    while spent(s) and not confirm.confirms(s, current_turn(s)["seat"]):
        turns.end_turn(ctx)
    seat = active_seat(s)
    if s["phase"] != "over" and seat in timeouts.abandoned(s):
        play_out(ctx, seat)


def time_out(ctx: Context, seat: int) -> None:
    """The clock's timeout command: recorded (engine/timeouts.py), then the turn is played out. A
    turn that only waited for its seat to confirm its end just ends: no timeout is counted."""
    if spent(ctx.state) and current_turn(ctx.state)["seat"] == seat and confirm.confirms(ctx.state, seat):
        turns.end_turn(ctx)
        settle(ctx)
        return
    timeouts.timeout(ctx, seat)
    play_out(ctx, seat)


def play_out(ctx: Context, seat: int) -> None:
    """Autoplay for `seat` while the game waits for it; each command is logged as automatic."""
    while ctx.state["phase"] != "over" and active_seat(ctx.state) == seat:
        command = autoplay.choose(ctx.state, seat)
        ctx.emit("CommandAccepted", seat=seat, command=command, auto=True)
        dispatch(ctx, seat, command)
        settle(ctx)
