"""Ops of the Everfrost school: choose_direction (Crystal Mirror's source side), freeze_from_discard
(Frozen Chest), opponents_lose_action (Everfrost Sentinel), count_destroyed_twice and
and remove_from_game (Deathbringer). Winter Whisperer's discard_flare is shared with Nethervoid
(ops_turn.py); the Frostweave Illusionist's convert of the being itself is in ops_targets.py.
"""
from __future__ import annotations

from typing import Any, Callable

from ..card_steps import Step
from .. import frost
from ..state import enemy_colors
from . import mirror
from .frame import Resolution
from .ops_targets import step_number
from .outcomes import Ask, Done, Outcome, is_skip


MIRROR_SIDES = "mirror-sides"
AMONG: dict[str, Callable[[Resolution], list[str]]] = {MIRROR_SIDES: mirror.useful_sides}
"""choose_direction's `among`: the directions offered (the Mirror's sides with something to copy)."""


def choose_direction_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Crystal Mirror ('among': 'mirror-sides'): pick the block copied from; only sides with
    something to copy are offered."""
    if answer is None:
        sides = AMONG[step.among if step.among is not None else MIRROR_SIDES](res)
        if not sides:
            return Done(False)
        return Ask("direction", [{"type": "choose", "direction": d} for d in sides], step.optional,
                   "Choose the side of the Mirror to copy from")
    if is_skip(answer):
        return Done(False)
    res.frame["flags"][mirror.SIDE_FLAG] = prog["dir"] = answer["direction"]
    return Done(True)


def freeze_from_discard_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Frozen Chest: a frozen card of your discard pile becomes your frozen effect."""
    if answer is None:
        cards = frost.revivable(res.state, res.seat)
        if not cards:
            return Done(False)
        return Ask("card", [{"type": "choose", "card": c} for c in cards], step.optional,
                   "Choose a frozen card of your discard pile to put into play")
    if is_skip(answer):
        return Done(False)
    frost.enter(res.ctx, res.seat, answer["card"], "discard")
    return Done(True)


def opponents_lose_action_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Every other colour starts its next turn with fewer actions (charged by frost.charge_lost_actions)."""
    res.ctx.emit("ActionLossImposed", seat=res.seat, colors=enemy_colors(res.state, res.color),
                 count=step_number(res, step))
    return Done(True)


def applied_with_destruction_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """count_destroyed_twice, remove_from_game: already applied by the destroy step they name,
    whose PieceDestroyed event carries the weight and the removal (ops_targets.destruction_terms)."""
    return Done(True)



OPS = {
    "choose_direction": choose_direction_op, "freeze_from_discard": freeze_from_discard_op,
    "opponents_lose_action": opponents_lose_action_op,
    "count_destroyed_twice": applied_with_destruction_op, "remove_from_game": applied_with_destruction_op,
}

WORDS = {"among": frozenset(AMONG)}
"""The words of the fields these ops read."""
