"""All-or-nothing blocks (CARDS.md 3 'linked'; Antimatter Spirit's warp, Polarity Queen): the nested
steps happen only if every one of them can be done.

The block is entered only when some way through it does every step; inside it, each question offers
only the answers after which the rest of the block can still be done completely. Both are found by
trying the answers on throwaway copies of the state (a depth-first search that stops at the first
way through), so the player can never be led into a half-done block (RULES 6.4 does not apply).
"""
from __future__ import annotations

from typing import Any

from ..card_steps import Step
from .frame import Resolution, current_step, finish_step, open_block
from .outcomes import Ask, Done, Outcome, Push
from .select import holds

LINKED = "linked"          # bind key marking the stack entry of a linked block


def linked_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    if prog.get("entered"):
        return Done(True)
    trial = res.trial()
    open_block(trial.frame, ["steps"], {LINKED: True})
    if not _completes(trial, len(trial.frame["stack"]), None):
        return Done(False)
    prog["entered"] = True
    return Push(["steps"], {LINKED: True})


def only_completable(res: Resolution, ask: Ask) -> Ask:
    """The ask of a step inside a linked block, keeping the answers that let the block complete."""
    depth = max(i for i, entry in enumerate(res.frame["stack"]) if entry["bind"].get(LINKED)) + 1
    ask.options = [o for o in ask.options if _completes(res.trial(), depth, o)]
    return ask


def _completes(res: Resolution, depth: int, answer: dict[str, Any] | None) -> bool:
    """Walk the block on the trial copy from its current step (giving it `answer`): True when every
    step gets done before the block closes, trying each answer of every later question."""
    frame = res.frame
    while len(frame["stack"]) >= depth:
        step = current_step(frame)
        if step is None:
            frame["stack"].pop()
            continue
        if res.top["prog"] is None:
            if not holds(res, step.if_):
                return False
            res.top["prog"] = {}
        outcome = res.run(step, res.top["prog"], answer)
        answer = None
        if isinstance(outcome, Ask):
            return any(_completes(res.trial(), depth, option) for option in outcome.options)
        if isinstance(outcome, Done):
            if not outcome.did:
                return False
            finish_step(res, step, True)
        elif isinstance(outcome, Push):
            open_block(frame, outcome.key, outcome.bind)
    return True


OPS = {"linked": linked_op}
