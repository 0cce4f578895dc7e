"""Helpers for the Nethervoid tests: seat 0 plays Nethervoid (colour 0), seat 1 Northern.

Pieces are written 'e4h d2c f3l' (square then rank letter); the Gateway of colour 0 is given by
square. Pattern offsets of cards.json are (dx, dy) from the being square, dy growing downward.
"""
from __future__ import annotations

import engine
from engine.gateway import square
from tests.engine.helpers import legal, position

A, B = 0, 1
SCHOOLS = ["nethervoid", "northern"]
RANK = {"c": "common", "h": "heroic", "l": "legendary"}


def pcs(seat: int, spec: str) -> list[dict]:
    return [{"square": tok[:-1], "seat": seat, "rank": RANK[tok[-1]]} for tok in spec.split()]


def summon(card: str, sq: str) -> dict:
    return {"type": "summon", "card": card, "square": sq}


def start(cards: str | list[str], mine: str, theirs: str = "", gate: str | None = None, actions: int = 2,
          schools: list[str] | None = None, their_hand: list[str] | None = None, **extra) -> dict:
    """Seat 0 (Nethervoid) to act holding `cards`, with its pieces `mine` and seat 1's `theirs`
    (pass seat=B and `their_hand` to let seat 1 act)."""
    hand = [cards] if isinstance(cards, str) else list(cards)
    board = pcs(A, mine) + (pcs(B, theirs) if theirs else [])
    if gate:
        extra["gateways"] = {"0": gate}
    hands = {"0": hand, "1": their_hand or []}
    return position(board=board, hands=hands, actions=actions, schools=schools or SCHOOLS, **extra)


def gate(state: dict, color: int = A) -> str | None:
    """The square of colour `color`'s Gateway, or None."""
    return square(state, color)


def of_type(events: list[dict], *types: str) -> list[dict]:
    return [e for e in events if e["type"] in types]


def squares_offered(state: dict) -> set[str]:
    return {c["square"] for c in legal(state) if "square" in c and c["type"] == "choose"}


def moves_offered(state: dict) -> set[tuple[str, str]]:
    return {(c["from"], c["to"]) for c in legal(state) if c["type"] == "move"}


def all_legal_accepted(state: dict) -> None:
    """Every command legal_commands lists is accepted by decide as it is."""
    seat = engine.state.active_seat(state)
    for command in legal(state):
        engine.decide(state, {"seat": seat, **command})
