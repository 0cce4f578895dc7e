"""Helpers for engine tests: build a position, play commands, read the board back."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import engine
from engine.state import active_seat

# The card reference the engine's card data is built from (tools/build_card_data.py): in the
# repository, so the card checks always run.
REFERENCE = Path(__file__).resolve().parents[2] / "tools" / "reference" / "cards.json"

SCHOOLS = {"duel": ["northern", "sylvan"], "high_form": ["northern", "sylvan"],
           "melee": ["northern", "sylvan", "highland"]}


def position(board: str | list = "", form: str = "duel", hands: dict | None = None, seat: int = 0,
             actions: int = 2, schools: list[str] | None = None, **extra: Any) -> dict:
    """A state from a board (notation or piece list) with seat `seat` to act."""
    schools = schools or SCHOOLS[form]
    hands = hands or {}
    held = {c for h in hands.values() for c in h} | set((extra.get("frozen") or {}).values())
    decks = {str(i): [c for c in engine.CARDS.decks[s] if c not in held] for i, s in enumerate(schools)}
    shared = {d: {"deck": [c for c in engine.CARDS.decks[d] if c not in held]} for d in ("legends", "flares")}
    desc = {"form": form, "seats": [{"school": s} for s in schools], "seed": "test",
            "board": board or "5/7/9/9/9/9/9/7/5", "hands": hands, "turn": {"seat": seat, "actions_left": actions},
            "decks": decks, **shared, **extra}
    return engine.replay(engine.from_position(desc))


def play(state: dict, *commands: dict, seat: int | None = None) -> dict:
    """Apply commands in order (each must be accepted); the acting seat defaults to whoever is asked."""
    for command in commands:
        acting = seat if seat is not None else active_seat(state)
        state = engine.replay(engine.decide(state, {"seat": acting, **command}), state)
    return state


def events_of(state: dict, command: dict, seat: int | None = None) -> list[dict]:
    acting = seat if seat is not None else active_seat(state)
    return engine.decide(state, {"seat": acting, **command})


def legal(state: dict, seat: int | None = None) -> list[dict]:
    """Legal commands without the seat field and the display-only squares, and without resign,
    undo and redo (tested in test_undo.py), for easy comparison."""
    acting = seat if seat is not None else active_seat(state)
    return [{k: v for k, v in c.items() if k not in ("seat", "squares")} for c in engine.legal_commands(state, acting)
            if c["type"] not in ("resign", "undo", "redo")]


def board(state: dict) -> str:
    return engine.to_text(state["board"])


def at(state: dict, square: str) -> tuple[int, str] | None:
    """(colour, rank name) of the piece on `square`, or None."""
    piece = state["board"].get(square)
    return (piece[1], {1: "common", 2: "heroic", 3: "legendary"}[piece[2]]) if piece else None


def pending(state: dict) -> dict | None:
    return state["pending"]


def choose(square: str) -> dict:
    return {"type": "choose", "square": square}


def move(src: str, dst: str) -> dict:
    return {"type": "move", "from": src, "to": dst}


SKIP = {"type": "skip"}
