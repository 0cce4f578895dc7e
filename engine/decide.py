"""`decide`: a command against a state gives the events it causes, or a RuleError.

Checks run in a fixed order (game over, seat, pending decision, whose turn, then the command's own
rules, engine/commands.py) so the same wrong command always gets the same code. After the command
the automatic flow of the turn runs (engine/flow.py).
"""
from __future__ import annotations

from typing import Callable

from . import confirm, flow, timeouts, undo
from .commands import ANY_TIME, dispatch, known
from .context import Context
from .errors import RuleError, malformed
from .evolve import Event, replay
from .shapes import Command, without
from .state import State
from .vocabulary import OPTION_COMMANDS
from .watchers import WATCHERS

DISPLAY_ONLY = ("squares",)            # what /legal adds for clients to show; never a rule's input
# Commands decided beside the flow of the turn (no settling after them): undo and redo, a seat's options.
ASIDE: dict[str, Callable[[State, int, Command], list[Event]]] = {
    **dict.fromkeys(undo.UNDO_COMMANDS, undo.decide), **dict.fromkeys(OPTION_COMMANDS, confirm.decide)}


def _seat(state: State, command: Command) -> int:
    seat = command.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state["seats"]):
        raise malformed("The command names no seat of this game; send it for your own seat (numbered from 0).")
    return seat


def decide(state: State, command: Command) -> list[Event]:
    """The events `command` causes in `state`; raises RuleError and changes nothing if refused."""
    return _run(state, command).events


def advance(state: State, command: Command) -> State:
    """The position after `command`, for search, which applies thousands of commands a decision:
    `decide`'s own scratch state is handed back instead of its events being folded again, and it
    keeps no undo checkpoints (search never steps back). Raises RuleError as `decide` does; equal
    to `replay(decide(state, command), state)` but for the undo record."""
    return _run(state, command, undoable=False).state


def _run(state: State, command: Command, undoable: bool = True) -> Context:
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise malformed("A command needs a 'type' saying what to do, such as place, summon or end the turn.")
    command = without(command, DISPLAY_ONLY)
    if state.get("phase") == "over":
        raise RuleError("game_over", "The game has ended, so nothing more can be played; see the result.", "RULES 10")
    seat = _seat(state, command)
    kind = command["type"]
    aside = ASIDE.get(kind)
    if aside is not None:
        ctx = Context.view(state)
        ctx.events = aside(state, seat, command)
        ctx.state = replay(ctx.events, state)
        return ctx
    if not known(kind):
        raise malformed(f"There is no command {kind!r}; choose one of the moves the game offers you.")
    ctx = Context(state, WATCHERS, undoable)
    ctx.emit("CommandAccepted", seat=seat, command={k: v for k, v in command.items() if k != "seat"})
    if kind == "timeout":
        flow.time_out(ctx, seat)
    else:
        if kind not in ANY_TIME:
            timeouts.note_own_command(ctx, seat)
        dispatch(ctx, seat, command)
    flow.settle(ctx)
    return ctx
