"""The decisions a game can wait for, answered through one registry (engine/pending.py).

Each kind is declared beside the rule that raises it; this module imports every module that
declares one, so the registry is complete wherever decisions are listed or answered, and checks
an answer against the listed options before the kind's rule applies it.
"""
from __future__ import annotations

from typing import Any

from . import actions, frost, setup, summon, turns
from .context import Context
from .errors import RuleError
from .pending import DECISIONS, Decision, Options
from .state import State

DECLARING_MODULES = (actions, frost, setup, summon, turns)      # every module that declares a kind


def _kind(state: State) -> Decision:
    kind = state["pending"]["kind"]
    if kind not in DECISIONS:
        raise ValueError(f"unknown decision {kind}")
    return DECISIONS[kind]


def options(state: State) -> Options:
    """(complete answer commands, whether 'skip' is allowed) for the pending decision."""
    return _kind(state).options(state)


def answer(ctx: Context, command: dict[str, Any]) -> None:
    """Apply an answer to the pending decision, after checking it is one of the options."""
    state = ctx.state
    decision = _kind(state)
    listed, can_skip = decision.options(state)
    cmd = {k: v for k, v in command.items() if k != "seat"}
    if cmd.get("type") == "skip":
        if not can_skip:
            raise RuleError("step_not_optional", "This step is mandatory and cannot be skipped; choose one of the options.",
                            "RULES 6.3 mandatory parts")
    elif cmd not in listed:
        raise RuleError("not_an_option", f"That is not one of the options of this question ({state['pending']['prompt']}); pick one of those offered.",
                        "RULES 6 resolving effects")
    decision.answer(ctx, cmd)
