"""`decide`: a command against a state gives the events it causes, or a RuleError.

Checks run in a fixed order (game over, seat, pending decision, whose turn, then the command's own
rules, engine/commands.py) so the same wrong command always gets the same code. After the command
the automatic flow of the turn runs (engine/flow.py).
"""
from __future__ import annotations

from . import flow, timeouts, undo
from .commands import ANY_TIME, dispatch, known
from .context import Context
from .errors import RuleError, malformed
from .evolve import Event
from .shapes import Command, without
from .state import State
from .watchers import WATCHERS

DISPLAY_ONLY = ("squares",)            # what /legal adds for clients to show; never a rule's input


def _seat(state: State, command: Command) -> int:
    seat = command.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state["seats"]):
        raise malformed("The command names no seat of this game; send it for your own seat (numbered from 0).")
    return seat


def decide(state: State, command: Command) -> list[Event]:
    """The events `command` causes in `state`; raises RuleError and changes nothing if refused."""
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise malformed("A command needs a 'type' saying what to do, such as place, summon or end the turn.")
    command = without(command, DISPLAY_ONLY)
    if state.get("phase") == "over":
        raise RuleError("game_over", "The game has ended, so nothing more can be played; see the result.", "RULES 10")
    seat = _seat(state, command)
    kind = command["type"]
    if kind in undo.UNDO_COMMANDS:
        return undo.decide(state, seat, command)
    if not known(kind):
        raise malformed(f"There is no command {kind!r}; choose one of the moves the game offers you.")
    ctx = Context(state, WATCHERS)
    ctx.emit("CommandAccepted", seat=seat, command={k: v for k, v in command.items() if k != "seat"})
    if kind == "timeout":
        flow.time_out(ctx, seat)
    else:
        if kind not in ANY_TIME:
            timeouts.note_own_command(ctx, seat)
        dispatch(ctx, seat, command)
    flow.settle(ctx)
    return ctx.events
