"""Pattern matching (RULES.md 5.2-5.3): which orientations of a being fit at a target square.

A fit records the orientation used, the squares of the pieces it rests on and the one enemy piece
it borrowed, if any (melee improvised summoning, War Summoner). The being-square rules are here too,
since they decide whether a target can be used at all.
"""
from __future__ import annotations

from typing import NamedTuple

from .cards import Being
from .geometry import AT, COORD

Board = dict[str, list]


class Fit(NamedTuple):
    orientation: int
    squares: tuple[str, ...]        # squares of the pattern pieces, the being square included if listed
    borrowed: str | None            # square of an enemy piece standing in for one of yours


def _match(board: Board, cells, tx: int, ty: int, color: int, lend: frozenset[int]) -> Fit | None | bool:
    used = []
    borrowed = None
    for dx, dy, need in cells:
        sq = AT.get((tx + dx, ty + dy))
        if sq is None:
            return None
        piece = board.get(sq)
        if piece is None or piece[2] < need:
            return None
        if piece[1] != color:
            if borrowed is not None or piece[1] not in lend or (dx == 0 and dy == 0):
                return None
            borrowed = sq
        used.append(sq)
    return tuple(used), borrowed


def fits_at(board: Board, being: Being, target: str, color: int, lend: frozenset[int] = frozenset()) -> list[Fit]:
    """Every distinct orientation of `being` that fits with its being square on `target`.

    `lend` lists enemy colours one piece of which may fill one pattern square.
    """
    tx, ty = COORD[target]
    out = []
    for o in being.orientations:
        m = _match(board, o.cells, tx, ty, color, lend)
        if m:
            out.append(Fit(o.index, m[0], m[1]))
    return out


def being_square_ok(board: Board, being: Being, target: str) -> bool:
    """RULES 5.3: a piece of higher rank than the card on the being square forbids the summoning."""
    piece = board.get(target)
    return piece is None or piece[2] <= being.rank


def all_fits(board: Board, being: Being, color: int, lend: frozenset[int] = frozenset()) -> dict[str, list[Fit]]:
    """target square -> fits, for every target where the being can be summoned (5.2 and 5.3).

    Each orientation is anchored on its most demanding cell: only squares whose piece could fill
    that cell are tried, so a crowded board costs pieces x orientations, not 69 x 8.
    """
    owners = {color} | lend
    mine = [(COORD[sq], p[2]) for sq, p in board.items() if p[1] in owners]
    out: dict[str, list[Fit]] = {}
    for o in being.orientations:
        dx, dy, need = max(o.cells, key=lambda c: c[2])
        for (x, y), rank in mine:
            if rank < need:
                continue
            tx, ty = x - dx, y - dy
            target = AT.get((tx, ty))
            if target is None or not being_square_ok(board, being, target):
                continue
            m = _match(board, o.cells, tx, ty, color, lend)
            if m:
                fits = out.setdefault(target, [])
                fit = Fit(o.index, m[0], m[1])
                if fit not in fits:
                    fits.append(fit)
    for fits in out.values():
        fits.sort()
    return out
