"""The decisions a game can wait for, answered through one registry (engine/pending.py).

Each kind is declared beside the rule that raises it; this module imports every module that
declares one, so the registry is complete wherever decisions are listed or answered, and checks
an answer against the listed options before the kind's rule applies it.
"""
from __future__ import annotations

from . import actions, frost, setup, summon, turns
from .context import Context
from .errors import RuleError
from .pending import DECISIONS, Decision, Options
from .shapes import Command, without
from .state import State, current_pending

DECLARING_MODULES = (actions, frost, setup, summon, turns)      # every module that declares a kind


def _kind(state: State) -> Decision:
    kind = current_pending(state)["kind"]
    if kind not in DECISIONS:
        raise ValueError(f"unknown decision {kind}")
    return DECISIONS[kind]


def options(state: State) -> Options:
    """(complete answer commands, whether 'skip' is allowed) for the pending decision."""
    return _kind(state).options(state)


def answer(ctx: Context, command: Command) -> None:
    """Apply an answer to the pending decision, after checking it is one of the options."""
    state = ctx.state
    decision = _kind(state)
    listed, can_skip = decision.options(state)
    cmd = without(command, ("seat",))
    if cmd.get("type") == "skip":
        if not can_skip:
            raise RuleError("step_not_optional", "This step is mandatory and cannot be skipped; choose one of the options.",
                            "RULES 6.3 mandatory parts")
    elif cmd not in listed:
        raise RuleError("not_an_option", f"That is not one of the options of this question ({current_pending(state)['prompt']}); pick one of those offered.",
                        "RULES 6 resolving effects")
    decision.answer(ctx, cmd)
