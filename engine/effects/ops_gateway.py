"""The Nethervoid op `set_gateway` (RULES.md 13.1): one of your non-legendary pieces named by the
step becomes your Gateway. The Gateway words of selections are in gateway_words.py; the rules of
the mark itself are in engine/gateway.py.
"""
from __future__ import annotations

from typing import Any

from ..card_steps import Selector, Step
from .. import gateway
from ..state import LEGENDARY
from .frame import Resolution
from .outcomes import Ask, Done, Outcome, is_skip
from .select import piece_squares


def _candidates(res: Resolution, step: Step) -> list[str]:
    sel = Selector(who=step.who, rank=step.rank, where=step.where, ref=step.ref)
    board = res.state["board"]
    return [sq for sq in piece_squares(res, sel) if board[sq][1] == res.color and board[sq][2] != LEGENDARY]


def set_gateway_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """'... becomes your Gateway': one of your non-legendary pieces named by the step."""
    if answer is None:
        options = [{"type": "choose", "square": sq} for sq in _candidates(res, step)]
        if not options:
            return Done(False)
        return Ask("square", options, step.optional, "Choose the piece that becomes your Gateway")
    if is_skip(answer):
        return Done(False)
    gateway.mark(res.ctx, res.color, res.state["board"][answer["square"]][0], "effect")
    return Done(True)


OPS = {"set_gateway": set_gateway_op}
