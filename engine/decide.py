"""`decide`: a command against a state gives the events it causes, or a RuleError.

Checks run in a fixed order (game over, seat, pending decision, whose turn, then the command's own
rules) so the same wrong command always gets the same code. After the command, `settle` runs the
automatic consequences: a turn with no action and no free option left ends by itself.
"""
from __future__ import annotations

from . import actions, decisions, flares, frost, tasks, teams, timeouts, turns, undo, warp
from .context import Context
from .errors import RuleError, malformed
from .evolve import Event
from .state import State, color_of, turn_actor

ANSWERS = ("choose", "move", "skip")
SYSTEM_COMMANDS = ("timeout", "claim_win")
DISPLAY_ONLY = ("squares",)            # what /legal adds for clients to show; never a rule's input
ANY_TIME = {"resign": actions.resign, "claim_win": lambda ctx, seat, command: timeouts.claim_win(ctx, seat)}


def _seat(state: State, command: dict) -> int:
    seat = command.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state["seats"]):
        raise malformed("'seat' must be the number of a seat of this game")
    return seat


def decide(state: State, command: dict) -> list[Event]:
    """The events `command` causes in `state`; raises RuleError and changes nothing if refused."""
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise malformed("a command is an object with a 'type'")
    command = {k: v for k, v in command.items() if k not in DISPLAY_ONLY}
    if state.get("phase") == "over":
        raise RuleError("game_over", "The game has ended.", "RULES 10")
    seat = _seat(state, command)
    kind = command["type"]
    if kind in undo.UNDO_COMMANDS:
        return undo.decide(state, seat, command)
    if kind not in ANSWERS and kind not in actions.HANDLERS and kind not in SYSTEM_COMMANDS:
        raise malformed(f"unknown command type {kind!r}")
    ctx = Context(state)
    ctx.emit("CommandAccepted", seat=seat, command={k: v for k, v in command.items() if k != "seat"})
    if kind == "timeout":
        timeouts.timeout(ctx, seat)
    else:
        if kind not in ANY_TIME:
            timeouts.note_own_command(ctx, seat)
        dispatch(ctx, seat, command)
    settle(ctx)
    return ctx.events


def dispatch(ctx: Context, seat: int, command: dict) -> None:
    """Apply one command's rules to the scratch state (also used by autoplay)."""
    state = ctx.state
    kind = command["type"]
    if kind in ANY_TIME:
        ANY_TIME[kind](ctx, seat, command)
        return
    pending = state["pending"]
    if pending and kind != "pass_control":           # control may be passed midway through an effect
        if pending["seat"] != seat:
            raise RuleError("not_your_decision", "Another player must answer the pending decision first.",
                            "RULES 6.1 effects resolve completely")
        if kind not in ANSWERS:
            raise RuleError("decision_pending", f"Answer the pending decision first: {pending['prompt']}.",
                            "RULES 6.1 effects resolve completely")
        decisions.answer(ctx, command)
    else:
        if state["turn"] is None or turn_actor(state) != seat:
            raise RuleError("not_your_turn", "It is not your turn.", "RULES 8 turn structure")
        if kind in ANSWERS:
            raise RuleError("no_decision_pending", "There is no decision to answer.", "RULES 6")
        teams.check_turn_command(state, seat, kind)
        actions.HANDLERS[kind](ctx, seat, command)


def free_options(state: State, seat: int) -> bool:
    """Whether the seat, out of actions, may still do something before its turn ends."""
    if flares.invocations(state, seat) or frost.thaw_commands(state, seat) or warp.warp_commands(state, seat):
        return True
    return state["form"] == "high_form" and bool(tasks.claimable(state, color_of(state, seat)))


def settle(ctx: Context) -> None:
    """Automatic consequences: an exhausted turn ends; abandoned seats are played at once."""
    s = ctx.state
    while s["phase"] == "play" and not s["pending"] and s["turn"]["actions"] <= 0 \
            and not free_options(s, s["turn"]["seat"]):
        turns.end_turn(ctx)
    timeouts.play_abandoned(ctx)
