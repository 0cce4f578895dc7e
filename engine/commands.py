"""Routing one command to its rules: an answer to the pending decision, a turn command, or one
allowed at any time. Shared by `decide` (a player's command) and autoplay (engine/flow.py).

Checks run in a fixed order (seat's pending decision, whose turn, then the command's own rules)
so the same wrong command always gets the same code.
"""
from __future__ import annotations

from typing import Callable

from . import actions, decisions, teams, timeouts
from .context import Context
from .errors import RuleError
from .shapes import Command
from .state import turn_actor
from .vocabulary import ANSWERS, COMMAND_TYPES, SYSTEM_COMMANDS

ANY_TIME: dict[str, Callable[[Context, int, Command], None]] = {
    "resign": actions.resign, "claim_win": lambda ctx, seat, command: timeouts.claim_win(ctx, seat),
}


def known(kind: str) -> bool:
    return kind in COMMAND_TYPES or kind in SYSTEM_COMMANDS


def dispatch(ctx: Context, seat: int, command: Command) -> None:
    """Apply one command's rules to the scratch state."""
    state = ctx.state
    kind = command["type"]
    if kind in ANY_TIME:
        ANY_TIME[kind](ctx, seat, command)
        return
    pending = state["pending"]
    if pending and kind != "pass_control":           # control may be passed midway through an effect
        if pending["seat"] != seat:
            raise RuleError("not_your_decision", "Another player must answer the question in play first; wait for their answer.",
                            "RULES 6.1 effects resolve completely")
        if kind not in ANSWERS:
            raise RuleError("decision_pending", f"Answer the question in play first: {pending['prompt']}.",
                            "RULES 6.1 effects resolve completely")
        decisions.answer(ctx, command)
    else:
        if state["turn"] is None or turn_actor(state) != seat:
            raise RuleError("not_your_turn", "It is not your turn yet; wait for the other players to move.", "RULES 8 turn structure")
        if kind in ANSWERS:
            raise RuleError("no_decision_pending", "There is no question to answer right now; look at the board again.", "RULES 6")
        teams.check_turn_command(state, seat, kind)
        actions.HANDLERS[kind](ctx, seat, command)
