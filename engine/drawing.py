"""Shuffling and drawing (RULES.md 8.4): random outcomes are written into events.

School decks are never reshuffled; the legends and flare decks reshuffle their discard piles when
a draw finds them empty.
"""
from __future__ import annotations

from typing import Any

from .cards import CARDS
from .context import Context
from .state import HAND_LIMITS, State, current_turn, piles


def shuffle(ctx: Context, deck: str, cards: list[str], seat: int | None = None, from_discard: bool = False) -> None:
    order = list(cards)
    ctx.rng().shuffle(order)
    payload: dict[str, Any] = {"deck": deck, "cards": order}
    if seat is not None:
        payload["seat"] = seat
    if from_discard:
        payload["from_discard"] = True
    ctx.emit("DeckShuffled", **payload)


def draw(ctx: Context, seat: int, deck: str, n: int) -> list[str]:
    """Draw up to `n` cards; shared decks reshuffle their discards when they run out."""
    drawn: list[str] = []
    while len(drawn) < n:
        pile, discard = piles(ctx.state, deck, seat)
        if not pile:
            if deck == "school" or not discard:
                break
            shuffle(ctx, deck, discard, from_discard=True)
            continue
        take = pile[: n - len(drawn)]
        ctx.emit("CardsDrawn", seat=seat, deck=deck, cards=list(take))
        drawn.extend(take)
    return drawn


def held(state: State, seat: int, deck: str) -> int:
    """How many cards of a kind the seat holds: school beings, legends or flares."""
    hand = state["hands"][seat]
    if deck == "flares":
        return sum(1 for c in hand if c in CARDS.flares)
    if deck == "legends":
        return sum(1 for c in hand if c in CARDS.beings and CARDS.beings[c].is_legend)
    return sum(1 for c in hand if c in CARDS.beings and not CARDS.beings[c].is_legend)


def refill(ctx: Context, seat: int, legend_seat: int | None = None) -> None:
    """End-of-turn drawing: back up to 3 beings, 2 legends, 1 flare, then the extra draws. The
    legends, extra ones included, are drawn by `legend_seat` (team play: the teammate)."""
    def drawer(deck: str) -> int:
        return legend_seat if deck == "legends" and legend_seat is not None else seat
    for deck in ("school", "legends", "flares"):
        missing = HAND_LIMITS[deck] - held(ctx.state, drawer(deck), deck)
        if missing > 0:
            draw(ctx, drawer(deck), deck, missing)
    for deck in list(current_turn(ctx.state)["draws"]):
        draw(ctx, drawer(deck), deck, 1)
