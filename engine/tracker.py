"""The deck tracker: for every deck in play, the cards a seat has not seen, from its view alone.

Why: a correspondence player comes back to twenty games and wants to know what may still come
(RULES: deck lists are public; discards, frozen and warped cards lie face up; cards drawn by others
are only counted). It is computed from the seat's redacted view (engine/views.player_view) and the
public deck lists, never from the state itself, so it cannot tell more than the seat may know: two
games that differ only in hidden cards give the same tracker.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterator

from .cards import CARDS
from .view_shapes import DeckTrack, PileView, PlayerView


def deck_tracker(view: PlayerView) -> list[DeckTrack]:
    """Each school deck in play (in seat order) and the shared decks: the cards of its public list
    this view shows somewhere (`seen`), how many it does not (`unseen`: the rest of the list, which
    a client names from GET /cards), and of those how many lie in the deck and how many in hands.
    The unseen cards are counted, never listed: a view names no card it does not show."""
    seen = Counter(_face_up(view))
    decks = [(s["school"], s["deck_size"]) for s in view["seats"] if s["school"] in CARDS.decks]   # drawn or drafted yet
    decks += [(name, pile["deck_size"]) for name, pile in _shared(view).items()]
    tracks: list[DeckTrack] = []
    for deck, in_deck in decks:
        listed = Counter(CARDS.decks[deck])
        unseen = sum((listed - seen).values())
        tracks.append({"deck": deck, "size": sum(listed.values()), "seen": sorted((listed & seen).elements()),
                       "unseen": unseen, "in_deck": in_deck, "in_hands": unseen - in_deck})
    return tracks


def _face_up(view: PlayerView) -> Iterator[str]:
    """Every card the view shows: discards, the viewer's own hand, frozen and warped cards, and the
    card whose effect is being resolved (out of its hand, not yet discarded)."""
    effect = view["effect"]
    if effect and "card" in effect and effect["card"] not in (s["pending_being"] for s in view["seats"]):
        yield effect["card"]                    # a played warp's being is the one waiting (pending_being)
    for seat in view["seats"]:
        yield from seat["discard"]
        yield from seat.get("hand", [])
        yield from (card for card in (seat["frozen"], seat["pending_being"]) if card)
    for pile in _shared(view).values():
        yield from pile["discard"]


def _shared(view: PlayerView) -> dict[str, PileView]:
    return {"legends": view["legends"], "flares": view["flares"]}
