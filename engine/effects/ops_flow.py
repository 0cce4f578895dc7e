"""Ops that branch or grant things: choose, for_each_square, repeat, gain_action, extra_turn,
draw_extra, summon_modifier, card_to_deck_top, nothing.
"""
from __future__ import annotations

from typing import Any, Callable

from ..card_steps import Step
from ..cards import RANK_NAMES, RANKS
from ..state import current_turn
from .frame import Resolution
from .ops_targets import piece_candidates, place_colors, place_rank, step_number
from .outcomes import Ask, Done, Outcome, Push, is_skip
from .select import holds, where_squares


def choose_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    if "chosen" in prog:
        return Done(True)
    if step.by is not None:
        return CHOOSE_BY[step.by](res, step, prog, answer)
    options = step.options
    if answer is None:
        open_ = [o.label for o in options if _feasible(res, o.steps[0])]
        if not open_:
            return Done(False)
        return Ask("option", [{"type": "choose", "option": label} for label in open_],
                   step.optional, "Choose one", {"labels": open_})
    if is_skip(answer):
        return Done(False)
    k = [o.label for o in options].index(answer["option"])
    prog["chosen"] = k
    return Push(["options", k, "steps"], {})


def _feasible(res: Resolution, step: Step) -> bool:
    """Whether a branch's first step can do anything now (tried on a throwaway copy).

    Only branches that can act are offered, so a mandatory "either ... or" cannot be dodged by
    picking a branch with nothing to act on (RULES 6.3-6.4)."""
    outcome = res.trial().run(step, {}, None)
    return (isinstance(outcome, Ask) and bool(outcome.options)) or (isinstance(outcome, Done) and outcome.did) \
        or isinstance(outcome, Push)


def _choose_by_piece(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Tree Shepherd: the rank of the own piece picked decides the branch, which acts on it."""
    labels = [o.label.split()[0] for o in step.options]
    own = sorted(sq for sq, p in res.state["board"].items() if p[1] == res.color)
    if answer is None:
        if not own:
            return Done(False)
        return Ask("square", [{"type": "choose", "square": sq} for sq in own], step.optional,
                   "Choose one of your pieces")
    if is_skip(answer):
        return Done(False)
    pid, _, rank = res.state["board"][answer["square"]]
    k = labels.index(RANK_NAMES[rank])
    prog["chosen"] = k
    return Push(["options", k, "steps"], {"piece": pid})


# `by`: what decides a choice instead of the player picking an option
CHOOSE_BY = {"rank-of-chosen-own-piece": _choose_by_piece}


def _fitting_option(res: Resolution, step: Step, sq: str) -> int | None:
    """Eldest Tree: the option whose (single) step can act on the square's content."""
    for k, option in enumerate(step.options):
        inner = option.steps[0]
        with res.binding({"square": sq}):
            if inner.op == "place":
                fits = sq not in res.state["board"] and bool(place_colors(res, inner, RANKS[place_rank(inner)]))
            else:
                fits = sq in res.state["board"] and bool(piece_candidates(res, inner, {}))
        if fits:
            return k
    return None


def for_each_square_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    done = prog.get("squares", [])
    count = step_number(res, step)
    if answer is None:
        if len(done) >= count:
            return Done(bool(done))
        options = [{"type": "choose", "square": sq} for sq in sorted(where_squares(res, step.where))
                   if sq not in done and _fitting_option(res, step, sq) is not None]
        if not options:
            return Done(bool(done))
        can_skip = step.up_to or (step.optional and not done)
        return Ask("square", options, can_skip, "Choose a square", {"done": len(done), "of": count})
    if is_skip(answer):
        return Done(bool(done))
    sq = answer["square"]
    prog.setdefault("squares", []).append(sq)
    return Push(["options", _fitting_option(res, step, sq), "steps"], {"square": sq})


def repeat_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Run the nested steps again and again: stop when an `until` condition holds after a pass, or
    when the first nested step has nothing left to act on (so every pass makes progress)."""
    passes = prog.get("passes", 0)
    if passes and any(holds(res, cond) for cond in step.until):
        return Done(True)
    if not _feasible(res, step.steps[0]):
        return Done(passes > 0)
    prog["passes"] = passes + 1
    return Push(["steps"], {})


def gain_action_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    n = step_number(res, step)
    if n <= 0:
        return Done(False)
    res.ctx.emit("ActionsGained", seat=res.seat, count=n, actions_left=current_turn(res.state)["actions"] + n)
    return Done(True)


def extra_turn_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    res.ctx.emit("ExtraTurnGranted", seat=res.seat)
    return Done(True)


# `deck` of draw_extra: the card word -> the deck drawn from at the end of the turn (engine/drawing.py)
DRAW_DECKS = {"own": "school", "legends": "legends", "flares": "flares"}


def draw_extra_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    deck = DRAW_DECKS[step.deck or "own"]
    for _ in range(step_number(res, step)):
        res.ctx.emit("ExtraDrawGranted", seat=res.seat, deck=deck)
    return Done(True)


def summon_modifier_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    assert step.modifier is not None, "a summon_modifier step names its modifier"
    kind, _, ref = step.modifier.partition(":")
    modifier = {"modifier": kind, "count": step_number(res, step), "scope": step.scope}
    if kind == "use-color-of":                    # Possessed Summoner: the colour of the piece of `ref`
        modifier["color"] = res.result(ref)["colors"][0]
    res.ctx.emit("SummonModifierGranted", seat=res.seat, modifier=modifier)
    return Done(True)


# `source` of card_to_deck_top: the pile a card may be taken from
SOURCES: dict[str, Callable[[Resolution], list[str]]] = {"own-discard": lambda res: res.state["discards"][res.seat]}


def card_to_deck_top_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Kiskin Spirit: a card of your discard pile goes on top of your deck."""
    pile = SOURCES[step.source or "own-discard"](res)
    if answer is None:
        if not pile:
            res.frame["flags"]["discard_was_empty"] = True
            return Done(False)
        return Ask("card", [{"type": "choose", "card": c} for c in sorted(set(pile))], step.optional,
                   "Choose a card of your discard pile")
    if is_skip(answer):
        return Done(False)
    res.ctx.emit("CardMovedToDeckTop", seat=res.seat, card=answer["card"])
    return Done(True)


def nothing_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    return Done(True)


# `modifier` of summon_modifier: the kinds the next summoning reads (engine/summon.py WAR_SUMMONING
# and POSSESSION, engine/etherweave.py VOID_SUMMONING); 'use-color-of:<step>' names the step
MODIFIERS = frozenset({"borrow-enemy-piece", "use-color-of", "empty-squares-as-own-common"})
# The step words this module reads, checked at load (effects/words.py)
WORDS: dict[str, frozenset[str]] = {
    "by": frozenset(CHOOSE_BY), "deck": frozenset(DRAW_DECKS), "source": frozenset(SOURCES), "modifier": MODIFIERS,
}

OPS = {
    "choose": choose_op, "for_each_square": for_each_square_op, "repeat": repeat_op, "gain_action": gain_action_op,
    "extra_turn": extra_turn_op, "draw_extra": draw_extra_op, "summon_modifier": summon_modifier_op,
    "card_to_deck_top": card_to_deck_top_op, "nothing": nothing_op,
}
