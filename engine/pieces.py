"""Changing pieces on the board: each function checks nothing and emits the one fact it names.

Callers (actions, setup, card effects) decide what is legal; these keep the bookkeeping in one
place: who is credited with a destruction, what an upgrade to legendary means for the pieces.
"""
from __future__ import annotations

from .cards import RANK_NAMES
from .context import Context
from .etherweave import destruction_bonus
from .state import LEGENDARY, color_of


def place(ctx: Context, square: str, color: int, rank: int, cause: str) -> int:
    pid = ctx.new_piece_id()
    ctx.emit("PiecePlaced", square=square, color=color, rank=RANK_NAMES[rank], piece=pid, cause=cause)
    return pid


def destroy(ctx: Context, square: str, by_seat: int | None, credited: bool = True, cause: str = "effect",
            removed: bool = False, weight: int = 1) -> tuple[int, int]:
    """Remove the piece on `square`; it counts for `by_seat` when it is an enemy piece and credited."""
    pid, color, rank = ctx.state["board"][square]
    counts = credited and by_seat is not None and color != color_of(ctx.state, by_seat)
    weight += destruction_bonus(ctx.state, by_seat)                # Gate of Oblivion's warp
    payload = dict(square=square, piece=pid, color=color, rank=RANK_NAMES[rank], by=by_seat,
                   credited=counts, cause=cause)
    if removed:
        payload["removed"] = True
    if counts and weight != 1:
        payload["weight"] = weight
    ctx.emit("PieceDestroyed", **payload)
    return color, rank


def move(ctx: Context, src: str, dst: str, by_seat: int, leap: bool = False) -> tuple[int, int] | None:
    """Move the piece on `src` to `dst`, destroying whatever stood there; returns the victim."""
    victim = None
    if dst in ctx.state["board"]:
        victim = destroy(ctx, dst, by_seat, cause="leap" if leap else "move")
    ctx.emit("PieceMoved", **{"from": src, "to": dst, "piece": ctx.state["board"][src][0], "leap": leap})
    return victim


def set_rank(ctx: Context, square: str, rank: int, cause: str) -> None:
    pid, color, old = ctx.state["board"][square]
    ctx.emit("PieceRankChanged", square=square, piece=pid, color=color, from_rank=RANK_NAMES[old],
             to_rank=RANK_NAMES[rank], cause=cause)


def convert(ctx: Context, square: str, by_seat: int, to_rank: int) -> None:
    pid, color, rank = ctx.state["board"][square]
    bonus = destruction_bonus(ctx.state, by_seat)                  # a conversion counts as a destruction
    ctx.emit("PieceConverted", square=square, piece=pid, from_color=color, from_rank=RANK_NAMES[rank],
             to_color=color_of(ctx.state, by_seat), to_rank=RANK_NAMES[to_rank], by=by_seat, credited=True,
             **({"weight": 1 + bonus} if bonus else {}))


def needs_legendary(rank: int) -> bool:
    return rank == LEGENDARY
