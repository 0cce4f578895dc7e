"""Ops of the Everfrost school: choose_direction (Crystal Mirror's source side), freeze_from_discard
(Frozen Chest), opponents_lose_action (Everfrost Sentinel), count_destroyed_twice and
remove_from_game (Deathbringer), and convert of the being itself into an enemy colour (Frostweave
Illusionist). Winter Whisperer's discard_flare is shared with Nethervoid (ops_turn.py).
"""
from __future__ import annotations

from .. import frost
from ..cards import RANK_NAMES, RANKS
from ..state import enemy_colors, has_supply
from . import mirror
from .frame import Resolution
from .ops_targets import target_op
from .outcomes import Ask, Done, Outcome, is_skip


def choose_direction_op(res: Resolution, step: dict, prog: dict, answer: dict | None) -> Outcome:
    """Crystal Mirror ('among': 'mirror-sides'): pick the block copied from; only sides with
    something to copy are offered."""
    if answer is None:
        sides = mirror.useful_sides(res)
        if not sides:
            return Done(False)
        return Ask("direction", [{"type": "choose", "direction": d} for d in sides], bool(step.get("optional")),
                   "Choose the side of the Mirror to copy from")
    if is_skip(answer):
        return Done(False)
    res.frame["flags"][mirror.SIDE_FLAG] = prog["dir"] = answer["direction"]
    return Done(True)


def freeze_from_discard_op(res: Resolution, step: dict, prog: dict, answer: dict | None) -> Outcome:
    """Frozen Chest: a frozen card of your discard pile becomes your frozen effect."""
    if answer is None:
        cards = frost.revivable(res.state, res.seat)
        if not cards:
            return Done(False)
        return Ask("card", [{"type": "choose", "card": c} for c in cards], bool(step.get("optional")),
                   "Choose a frozen card of your discard pile to put into play")
    if is_skip(answer):
        return Done(False)
    frost.enter(res.ctx, res.seat, answer["card"], "discard")
    return Done(True)


def opponents_lose_action_op(res: Resolution, step: dict, prog: dict, answer: dict | None) -> Outcome:
    """Every other colour starts its next turn with fewer actions (charged by frost.charge_lost_actions)."""
    res.ctx.emit("ActionLossImposed", seat=res.seat, colors=enemy_colors(res.state, res.color),
                 count=step.get("count", 1))
    return Done(True)


def applied_with_destruction_op(res: Resolution, step: dict, prog: dict, answer: dict | None) -> Outcome:
    """count_destroyed_twice, remove_from_game: already applied by the destroy step they name,
    whose PieceDestroyed event carries the weight and the removal (ops_targets.destruction_terms)."""
    return Done(True)


def convert_op(res: Resolution, step: dict, prog: dict, answer: dict | None) -> Outcome:
    """Enemy pieces into yours (the shared target loop); with `to_color`, the being itself into a
    piece of an enemy colour that has one in supply (Frostweave Illusionist: not a destruction)."""
    if "to_color" not in step:
        return target_op(res, step, prog, answer)
    rank = RANKS[step.get("to_rank", "common")]
    square = res.being_square()
    if answer is None:
        colors = [c for c in enemy_colors(res.state, res.color) if has_supply(res.state, c, rank)]
        if square is None or not colors:
            return Done(False)
        return Ask("color", [{"type": "choose", "color": c} for c in colors], bool(step.get("optional")),
                   "Choose the enemy colour the being turns into")
    if is_skip(answer):
        return Done(False)
    pid, color, old = res.state["board"][square]
    res.ctx.emit("PieceConverted", square=square, piece=pid, from_color=color, from_rank=RANK_NAMES[old],
                 to_color=answer["color"], to_rank=RANK_NAMES[rank], by=res.seat, credited=False)
    return Done(True)


OPS = {
    "choose_direction": choose_direction_op, "freeze_from_discard": freeze_from_discard_op,
    "opponents_lose_action": opponents_lose_action_op,
    "count_destroyed_twice": applied_with_destruction_op, "remove_from_game": applied_with_destruction_op,
    "convert": convert_op,
}
