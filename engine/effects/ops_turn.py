"""Ops that act on the turn and the cards rather than the board: spend_action (give up an action),
discard_flare, card_to_deck_bottom (the card being resolved goes under the deck instead of the
discard pile) and count_as_legend_summoned (Gate Master, Iris of Eternity).
"""
from __future__ import annotations

from typing import Any

from ..card_steps import Step
from .. import turns
from ..cards import CARDS
from ..state import current_turn, enemy_colors
from .frame import Resolution
from .outcomes import Ask, Done, Outcome, is_skip

UNDER_DECK = "under_deck"        # frame flag read by summon.finish_card
THIS_CARD = "this"               # card_to_deck_bottom's `card`: the one card it can send, the one resolving


def spend_action_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Give up one of the turn's remaining actions; not done when none remains."""
    left = current_turn(res.state)["actions"]
    if left <= 0:
        return Done(False)
    res.ctx.emit("ActionForfeited", seat=res.seat, actions_left=left - 1)
    return Done(True)


def discard_flare_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Discard a flare card from the hand (the player picks one when extra draws gave several)."""
    if answer is None:
        held = sorted({c for c in res.state["hands"][res.seat] if c in CARDS.flares})
        if not held:
            return Done(False)
        return Ask("card", [{"type": "choose", "card": c} for c in held], step.optional,
                   "Choose the flare to discard")
    if is_skip(answer):
        return Done(False)
    res.ctx.emit("CardDiscarded", seat=res.seat, card=answer["card"], deck="flares", from_hand=True)
    return Done(True)


def card_to_deck_bottom_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Hell Hound: when the effect ends, the card goes under the school deck, not to the discard."""
    res.frame["flags"][UNDER_DECK] = True
    return Done(True)


def count_as_legend_summoned_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """This summoning counts as a legend's: the task check sees a legendary summoning on the being
    square, and Deathmatch scores its point (in a melee, in the colour the player chooses)."""
    melee = res.state["form"] == "melee"
    if answer is None and melee:
        return Ask("color", [{"type": "choose", "color": c} for c in enemy_colors(res.state, res.color)], False,
                   "Choose the colour in which this legend summoning scores")
    if is_skip(answer):
        return Done(False)
    res.ctx.emit("SummoningCountedAsLegend", seat=res.seat, square=res.frame["origin"])
    if res.state["form"] != "high_form":
        turns.score_points(res.ctx, res.seat, 1, "legend summoned", answer["color"] if melee and answer else None)
    return Done(True)


OPS = {
    "spend_action": spend_action_op, "discard_flare": discard_flare_op,
    "card_to_deck_bottom": card_to_deck_bottom_op, "count_as_legend_summoned": count_as_legend_summoned_op,
}

WORDS = {"card": frozenset({THIS_CARD})}
"""The words of the fields these ops read."""
