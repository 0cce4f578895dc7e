"""The card interpreter: walks a frame's steps, runs each op, stops when a player must answer.

The frame lives in the scratch state while `decide` works; `advance` stops at a question, which the
effect's runner raises as a pending decision (engine/summon.py, through engine/pending.py: the
frame and the question are recorded as facts, so replay needs no interpreter at all).
"""
from __future__ import annotations

from typing import Any, cast

from ..card_steps import Step
from ..cards import CARDS
from ..context import Context
from ..state import State
from .frame import Frame, Resolution, current_step, finish_step, open_block
from .linked import LINKED, OPS as LINKED_OPS, only_completable
from .ops_flow import OPS as FLOW_OPS, WORDS as FLOW_WORDS
from .ops_frost import OPS as FROST_OPS, WORDS as FROST_WORDS
from .ops_gateway import OPS as GATEWAY_OPS
from .ops_move import OPS as MOVE_OPS, WORDS as MOVE_WORDS
from .ops_targets import OPS as TARGET_OPS, WORDS as TARGET_WORDS
from .ops_turn import OPS as TURN_OPS, WORDS as TURN_WORDS
from .ops_warp import OPS as WARP_OPS, WORDS as WARP_WORDS
from .outcomes import Ask, Done, Outcome, Push
from .registry import op_table
from . import words
from .select import ARGS, CONDITIONS, WHERE, WORDS as SELECT_WORDS, holds

OPS = op_table(TARGET_OPS, MOVE_OPS, FLOW_OPS, GATEWAY_OPS, TURN_OPS, FROST_OPS, WARP_OPS, LINKED_OPS)
WORDS = words.vocabulary(SELECT_WORDS, TARGET_WORDS, FLOW_WORDS, MOVE_WORDS, TURN_WORDS, FROST_WORDS, WARP_WORDS)
words.check(CARDS, OPS, CONDITIONS, WHERE, WORDS, ARGS)   # a card with a word the interpreter does not define fails here


def _pop_block(res: Resolution) -> bool:
    """Close a finished nested block; False when the frame's outermost list is done."""
    if len(res.frame["stack"]) == 1:
        return False
    res.frame["stack"].pop()
    return True


def _run(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Run a step's op; inside a linked block a question keeps only the answers that complete it."""
    outcome = res.run(step, prog, answer)
    if isinstance(outcome, Ask) and res.bind(LINKED):
        return only_completable(res, outcome)
    return outcome


def pending_ask(state: State) -> Ask:
    """What the current step of the state's effect asks, recomputed (never stored)."""
    res = Resolution(Context.view(state), cast(Frame, state["effect"]), OPS)
    step = current_step(res.frame)
    assert step is not None, "a pending decision stands on a step"
    outcome = _run(res, step, res.top["prog"] or {}, None)
    assert isinstance(outcome, Ask), "a pending step must be asking"
    return outcome


def advance(ctx: Context, answer: dict[str, Any] | None = None) -> Ask | None:
    """Run the frame in ctx.state['effect'] until it asks (the question) or ends (None)."""
    frame = cast(Frame, ctx.state["effect"])
    res = Resolution(ctx, frame, OPS)
    while True:
        step = current_step(frame)
        if step is None:
            if _pop_block(res):
                continue
            if frame["parts"]:
                frame["part"] = frame["parts"].pop(0)
                frame["stack"] = [{"path": [], "i": 0, "prog": None, "bind": {}}]
                continue
            return None
        if res.top["prog"] is None:
            if not holds(res, step.if_):
                res.record(step, did=False)
                res.top["i"] += 1
                continue
            res.top["prog"] = {}
        outcome = _run(res, step, res.top["prog"], answer)
        answer = None
        if outcome is None:
            continue
        if isinstance(outcome, Done):
            finish_step(res, step, outcome.did)
        elif isinstance(outcome, Push):
            open_block(frame, outcome.key, outcome.bind)
        elif len(outcome.options) == 1 and not outcome.can_skip:
            answer = outcome.options[0]
        else:
            return outcome
