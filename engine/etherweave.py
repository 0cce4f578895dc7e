"""Etherweave (RULES.md 13.3, the deck's `rules`): the pending being, the Merchant of Time's stasis,
Gate of Oblivion's destruction bonus and the causality penalty: the state questions and the facts
(their reducers are in engine/evolve.py). The warp command itself is engine/warp.py; the card
words are engine/effects/.

State (each key is created by its first event, so a game without Etherweave never has it):
    pending_beings   [card id or None] by seat: the card whose warp its owner played. It stays in
                     the hand (still one of the 3 beings) until summoned, discarded or returned.
    stasis           [[piece id, colour, rank, was a Gateway] or None] by seat: the piece lifted
                     onto the Merchant of Time, off the board and out of its owner's supply (15.4).
    turn["warps"]    the cards warped this turn (the Eternal Emperor's condition).
    turn["destruction_bonus"]  how many Gate of Oblivion warps resolved this turn: each enemy piece
                     destroyed counts that many times more (scoring and tasks only).
"""
from __future__ import annotations

from typing import Any

from . import gateway
from .cards import CARDS, RANK_NAMES
from .context import Context
from .errors import RuleError
from .state import State, color_of, current_turn, enemy_colors, seats_of, two_sided
from .view_shapes import Stasis

MERCHANT = "etherweave-merchant-of-time"
EMPEROR = "etherweave-eternal-emperor"
CAUSALITY_PENALTY = 2
PENALTY_COUNTS_FOR_TRIGGERS = True
RULE = "RULES 13.3 Etherweave"
VOID_SUMMONING = "empty-squares-as-own-common"
WARP_FRAME = "warp"      # the frame kind of a played warp: summon.finish_card keeps the card in hand


# --- questions ------------------------------------------------------------------------------------

def has_warp(card: str) -> bool:
    being = CARDS.beings.get(card)
    return being is not None and being.warp is not None


def copyable(card: str) -> bool:
    """Whether Doppelganger or Ziggurat Sentinel may resolve this card's warp (never the Merchant's)."""
    return has_warp(card) and card != MERCHANT


def pending_being(state: State, seat: int) -> str | None:
    slots = state.get("pending_beings")
    return slots[seat] if slots else None


def releasable(state: State, seat: int) -> str | None:
    """The pending being, when an effect may discard it or take it back into the hand: never the
    Merchant of Time (its card text)."""
    card = pending_being(state, seat)
    return card if card != MERCHANT else None


def stored_piece(state: State, seat: int) -> list[Any] | None:
    """[piece id, colour, rank, was a Gateway] of the piece on the seat's Merchant of Time."""
    slots = state.get("stasis")
    return slots[seat] if slots else None


def first_round(state: State) -> bool:
    """Whether this turn belongs to the game's first round, in which no warp may be played.

    RULES 13.3 says 'except on your first turn of the game'; BGA (15.6) refuses warps during the
    first round. Turns are numbered from 1, so the first round is turns 1..seats; an extra turn is
    never a first turn. (An extra turn taken inside the first round would shift the numbering of
    the later first turns; that case is not handled.)"""
    turn = current_turn(state)
    return turn["number"] <= len(state["seats"]) and not turn["extra"]


def empty_allowance(state: State) -> int:
    """Void Summoner: how many empty squares may fill common squares of the next summoning's pattern."""
    return next((m["count"] for m in current_turn(state)["modifiers"] if m["modifier"] == VOID_SUMMONING), 0)


def penalty(state: State, color: int) -> int:
    """Causality penalty of a side: 2 points for each of its seats holding a pending being."""
    return CAUSALITY_PENALTY * sum(1 for seat in seats_of(state, color) if pending_being(state, seat))


def trigger_penalty(state: State, color: int) -> int:
    """The penalty as counted when testing the point-threshold end triggers (RULES 10.1).

    UNCERTAIN (RULES 15.5, 16.4): the printed rules only take the 2 points at the end of the game;
    BGA also subtracts them when it tests the thresholds, and so do we while
    PENALTY_COUNTS_FOR_TRIGGERS is True (set it to False to test the plain score)."""
    return penalty(state, color) if PENALTY_COUNTS_FOR_TRIGGERS else 0


def penalties(state: State) -> list[tuple[int, int | None]]:
    """(seat, melee track) of every -2 the end of the game takes: once per seat with a pending being
    in a two-sided game, in every opponent colour in a melee."""
    out: list[tuple[int, int | None]] = []
    for seat in range(len(state["seats"])):
        if pending_being(state, seat):
            tracks = [None] if two_sided(state) else enemy_colors(state, color_of(state, seat))
            out.extend((seat, track) for track in tracks)
    return out


def destruction_bonus(state: State, by_seat: int | None) -> int:
    """How many times more an enemy piece destroyed by `by_seat` now counts (Gate of Oblivion)."""
    turn = state["turn"]
    return turn.get("destruction_bonus", 0) if turn and turn["seat"] == by_seat else 0


def check_discard(state: State, seat: int, card: str, returns: list[str]) -> None:
    """RULES 13.3: the discard action neither discards the pending being nor puts it under the deck."""
    pending = pending_being(state, seat)
    if pending is not None and (card == pending or pending in returns):
        raise RuleError("pending_being", "Your pending being can be neither discarded nor put under your deck; summon it or choose another card.", RULE)


def stasis_view(state: State, seat: int) -> Stasis | None:
    """The piece on the seat's Merchant of Time, as all see it (None but for Etherweave)."""
    stored = stored_piece(state, seat)
    return {"color": stored[1], "rank": RANK_NAMES[stored[2]]} if stored else None


# --- facts ------------------------------------------------------------------------------------------

def summoned(ctx: Context, seat: int, card: str) -> None:
    """Summoning the pending being ends its pending status; only its normal effect resolves."""
    if pending_being(ctx.state, seat) == card:
        ctx.emit("PendingBeingCleared", seat=seat, card=card, reason="summoned")


def store(ctx: Context, seat: int, square: str) -> None:
    """Lift the piece on `square` onto the seat's Merchant of Time (not a destruction)."""
    pid, color, rank = ctx.state["board"][square]
    was_gateway = gateway.piece(ctx.state, color) == pid
    ctx.emit("PieceStored", seat=seat, square=square, piece=pid, color=color, rank=RANK_NAMES[rank],
             gateway=was_gateway)


def release(ctx: Context, seat: int, square: str | None) -> None:
    """Put the stored piece on `square` (None: no square can take it, so it goes back to its
    owner's supply). A Gateway put in stasis is the Gateway again once back on the board."""
    stored = stored_piece(ctx.state, seat)
    assert stored is not None, "release needs a stored piece"
    pid, color, rank, was_gateway = stored
    ctx.emit("PieceReleased", seat=seat, square=square, piece=pid, color=color, rank=RANK_NAMES[rank])
    if square is not None and was_gateway:
        gateway.mark(ctx, color, pid, "released")
