"""The Etherweave words of the step vocabulary that select.py reads (CARDS.md 3): the conditions
has-pending-being, no-emperor-warp-this-turn, piece-on-card, card-in-own-discard:<name> and
no-common-piece-adjacent-to:<id>, and the squares 'adjacent-to:same-own-piece-as:<id>'.
"""
from __future__ import annotations

from ..cards import CARDS
from ..etherweave import EMPEROR, pending_being, stored_piece
from ..geometry import ADJACENT
from ..state import COMMON, current_turn
from .frame import Resolution


def _card_in_discard(res: Resolution, name: str) -> bool:
    return any(CARDS.beings[c].name == name for c in res.state["discards"][res.seat] if c in CARDS.beings)


def _no_common_adjacent(res: Resolution, ref: str) -> bool:
    """Singularity: no common piece of any colour stands next to the square of step `ref`."""
    board = res.state["board"]
    return not any(n in board and board[n][2] == COMMON
                   for sq in res.result(ref).get("squares", []) for n in ADJACENT[sq])


CONDITIONS = {
    "has-pending-being": lambda res, _: pending_being(res.state, res.seat) is not None,
    "no-emperor-warp-this-turn": lambda res, _: EMPEROR not in current_turn(res.state).get("warps", []),
    "piece-on-card": lambda res, _: stored_piece(res.state, res.seat) is not None,
    "card-in-own-discard": _card_in_discard,
    "no-common-piece-adjacent-to": _no_common_adjacent,
}


def beside_shared_own_piece(res: Resolution, ref: str) -> set[str]:
    """Lesser Shadow Twin: the squares next to one of your pieces that touches the square of step
    `ref`, so that both destroyed commons touch the same piece of yours."""
    board, done = res.state["board"], set(res.result(ref).get("squares", []))
    out: set[str] = set()
    for sq in done:
        for own in ADJACENT[sq]:
            if own in board and board[own][1] == res.color:
                out.update(ADJACENT[own])
    return out - done
