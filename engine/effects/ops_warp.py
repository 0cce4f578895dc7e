"""Etherweave ops (CARDS.md 3, RULES.md 13.3): swap, copy_warp, perform_warp_of_this_card,
discard_pending, return_pending, discard_from_hand, discard_legend_cards, discard_top_to_deck_top,
stasis_take, stasis_release and count_extra_destroyed.

A copied warp (Doppelganger, Ziggurat Sentinel) or the Eternal Emperor's own warp resolves as part
of the current effect, not as a warp: its text becomes the frame's next part, "warp@<card>", run
once the current steps are done (each of those cards ends with it), and no pending being appears.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from .. import etherweave, pieces
from ..card_steps import Selector, Step
from ..cards import CARDS, RANK_NAMES, card_kind
from ..geometry import SQUARES
from .frame import Resolution
from .move_words import ends_ok, enterable
from .ops_move import repeats
from .outcomes import Ask, Done, Outcome, is_skip
from .select import piece_squares

PILES = {"being": "school", "legend": "legends", "flare": "flares"}
PENDING_BEING, OWN_DISCARD = "pending-being", "own-discard"      # copy_warp's `source`


def _choose(squares: list[str]) -> list[dict[str, Any]]:
    return [{"type": "choose", "square": sq} for sq in squares]


def _once(step: Step, answer: dict[str, Any] | None, label: str, prompt: str, act: Callable[[], None]) -> Outcome:
    """A step with nothing to pick: done at once, or, when optional, asked as yes (`label`) or skip."""
    if answer is None and step.optional:
        return Ask("option", [{"type": "choose", "option": label}], True, prompt)
    if is_skip(answer):
        return Done(False)
    act()
    return Done(True)


# --- swap -------------------------------------------------------------------------------------------

def _partners(res: Resolution, step: Step, first: str) -> list[str]:
    """Squares of the pieces the piece on `first` may swap with ('same-rank-as:first' reads its rank)."""
    sel = step.second
    assert sel is not None, "a swap names its second piece"
    if sel.rank and sel.rank.startswith("same-rank-as:"):
        sel = replace(sel, rank=RANK_NAMES[res.state["board"][first][2]])
    return [sq for sq in piece_squares(res, sel) if sq != first]


def swap_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Exchange two pieces' squares, `times` times: first pick a piece, then its partner. Nothing is
    destroyed and nothing moves in the sense of a move."""
    n, first, times = prog.get("n", 0), prog.get("first"), repeats(step)
    if answer is None:
        if first is not None:
            return Ask("square", _choose(_partners(res, step, first)), False, "Choose the piece to swap it with")
        assert step.first is not None, "a swap names its first piece"
        firsts = [sq for sq in piece_squares(res, step.first) if _partners(res, step, sq)] if n < times else []
        if not firsts:
            return Done(n > 0)
        can_skip = step.up_to or (step.optional and n == 0)
        return Ask("square", _choose(firsts), can_skip, "Choose a piece to swap", {"done": n, "of": times})
    if is_skip(answer):
        return Done(n > 0)
    if first is None:
        prog["first"] = answer["square"]
        return None
    res.ctx.emit("PiecesSwapped", first=first, second=answer["square"])
    prog["n"] = n + 1
    del prog["first"]
    return None


# --- warps resolved inside an effect ------------------------------------------------------------------

def _run_warp_of(res: Resolution, card: str) -> None:
    res.ctx.emit("WarpCopied", seat=res.seat, card=card, by=res.frame["card"])
    res.frame["parts"].insert(0, f"warp@{card}")


def copy_warp_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Doppelganger: the pending being's warp; Ziggurat Sentinel: a warp of the discard pile. The
    Merchant of Time's warp is never copied; the pending being stays pending."""
    if step.source == PENDING_BEING:
        card = etherweave.pending_being(res.state, res.seat)
        if card is None or not etherweave.copyable(card):
            return Done(False)
        _run_warp_of(res, card)
        return Done(True)
    if answer is None:
        cards = sorted(c for c in set(res.state["discards"][res.seat]) if etherweave.copyable(c))
        if not cards:
            return Done(False)
        return Ask("card", [{"type": "choose", "card": c} for c in cards], step.optional,
                   "Choose a discarded card whose warp effect to resolve")
    if is_skip(answer):
        return Done(False)
    _run_warp_of(res, answer["card"])
    return Done(True)


def perform_warp_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Eternal Emperor: its own warp text, resolved as this effect (no pending being)."""
    return _once(step, answer, "warp", "Resolve this card's warp effect now?",
                 lambda: _run_warp_of(res, res.frame["card"]))


# --- the pending being and the hand -------------------------------------------------------------------

def _clear_pending(res: Resolution, card: str, reason: str) -> None:
    res.ctx.emit("PendingBeingCleared", seat=res.seat, card=card, reason=reason)
    if reason == "discarded":
        res.ctx.emit("CardDiscarded", seat=res.seat, card=card, deck="school", from_hand=True)


def discard_pending_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    card = etherweave.releasable(res.state, res.seat)
    if card is None:
        return Done(False)
    return _once(step, answer, "discard", f"Discard your pending being ({CARDS.beings[card].name})?",
                 lambda: _clear_pending(res, card, "discarded"))


def return_pending_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    card = etherweave.releasable(res.state, res.seat)
    if card is None:
        return Done(False)
    return _once(step, answer, "return", f"Take your pending being ({CARDS.beings[card].name}) back into your hand?",
                 lambda: _clear_pending(res, card, "returned"))


def discard_from_hand_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Reality Patch: any one card of the hand (being, legend or flare) but the pending being."""
    if answer is None:
        pending = etherweave.pending_being(res.state, res.seat)
        cards = sorted(c for c in set(res.state["hands"][res.seat]) if c != pending)
        if not cards:
            return Done(False)
        return Ask("card", [{"type": "choose", "card": c} for c in cards], step.optional,
                   "Choose a card of your hand to discard")
    if is_skip(answer):
        return Done(False)
    card = answer["card"]
    res.ctx.emit("CardDiscarded", seat=res.seat, card=card, deck=PILES[str(card_kind(card))], from_hand=True)
    return Done(True)


def discard_legend_cards_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Iris of Eternity: every legend card of the hand goes to the legends' discard pile."""
    legends = [c for c in res.state["hands"][res.seat] if card_kind(c) == "legend"]
    for card in legends:
        res.ctx.emit("CardDiscarded", seat=res.seat, card=card, deck="legends", from_hand=True)
    return Done(bool(legends))


def discard_top_to_deck_top_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Time Traveler: the most recently discarded card of your pile goes back on top of your deck."""
    pile = res.state["discards"][res.seat]
    if not pile:
        return Done(False)
    res.ctx.emit("CardMovedToDeckTop", seat=res.seat, card=pile[-1])
    return Done(True)


# --- the Merchant of Time's stasis ----------------------------------------------------------------------

def stasis_take_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Lift a piece off an uncoloured square onto the card (it leaves the board, not destroyed)."""
    if answer is None:
        squares = piece_squares(res, Selector(who=step.who, rank=step.rank, where=step.where))
        if not squares:
            return Done(False)
        return Ask("square", _choose(squares), step.optional, "Choose a piece to put in stasis")
    if is_skip(answer):
        return Done(False)
    etherweave.store(res.ctx, res.seat, answer["square"])
    return Done(True)


def _landing_squares(res: Resolution, step: Step, rank: int) -> list[str]:
    board = res.state["board"]
    return [sq for sq in SQUARES if ends_ok(res, step, None, sq) and enterable(step.kind, rank, board.get(sq))]


def stasis_release_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Put the stored piece back with a leap of the step's kind; a piece no square can take goes
    back to its owner's supply."""
    stored = etherweave.stored_piece(res.state, res.seat)
    if stored is None:
        return Done(False)
    if answer is None:
        squares = _landing_squares(res, step, stored[2])
        if not squares:
            etherweave.release(res.ctx, res.seat, None)
            return Done(False)
        return Ask("square", _choose(squares), False, "Choose where the stored piece leaps to")
    square = answer["square"]
    if square in res.state["board"]:
        victim = pieces.destroy(res.ctx, square, res.seat, cause="leap")
        prog.setdefault("destroyed", []).append(list(victim))
        res.frame["destroyed"] += 1
    etherweave.release(res.ctx, res.seat, square)
    return Done(True)


def count_extra_destroyed_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Gate of Oblivion's warp: for the rest of the turn each piece you destroy counts once more
    (scoring and tasks); a second such warp adds one more."""
    res.ctx.emit("DestructionBonusGranted", seat=res.seat)
    return Done(True)


OPS = {
    "swap": swap_op, "copy_warp": copy_warp_op, "perform_warp_of_this_card": perform_warp_op,
    "discard_pending": discard_pending_op, "return_pending": return_pending_op,
    "discard_from_hand": discard_from_hand_op, "discard_legend_cards": discard_legend_cards_op,
    "discard_top_to_deck_top": discard_top_to_deck_top_op, "stasis_take": stasis_take_op,
    "stasis_release": stasis_release_op, "count_extra_destroyed": count_extra_destroyed_op,
}

WORDS = {"source": frozenset({PENDING_BEING, OWN_DISCARD})}
"""The words of the fields these ops read (a swap's 'same-rank-as:first' is a `rank`, select.py's)."""
