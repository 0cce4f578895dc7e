"""Pattern matching (RULES.md 5.2-5.3): which orientations of a being fit at a target square.

A fit records the orientation used, the squares of the pieces it rests on and the one enemy piece
it borrowed, if any (melee improvised summoning, War Summoner). The being-square rules are here too,
since they decide whether a target can be used at all.

Two Etherweave cases: `empties` empty squares may stand in for common pattern pieces (Void
Summoner), and a free-anchored pattern (Time Traveler, CARDS.md 1) may lie anywhere on the board
while its being goes on any empty uncoloured square.
"""
from __future__ import annotations

from typing import NamedTuple

from .cards import Being
from .geometry import AT, COLOURED, COORD, SQUARES
from .state import COMMON

Board = dict[str, list]
FREE = "free"               # a being's `anchor` when its pattern is not tied to its square


class Fit(NamedTuple):
    orientation: int
    squares: tuple[str, ...]        # squares of the pattern pieces, the being square included if listed
    borrowed: str | None            # square of an enemy piece standing in for one of yours


def _match(board: Board, cells, tx: int, ty: int, color: int, lend: frozenset[int],
           empties: int = 0) -> tuple[tuple[str, ...], str | None] | None:
    used = []
    borrowed = None
    for dx, dy, need in cells:
        sq = AT.get((tx + dx, ty + dy))
        if sq is None:
            return None
        piece = board.get(sq)
        if piece is None:
            if need != COMMON or empties == 0:
                return None
            empties -= 1                     # an empty square counts as one of your commons
        elif piece[2] < need:
            return None
        elif piece[1] != color:
            if borrowed is not None or piece[1] not in lend or (dx == 0 and dy == 0):
                return None
            borrowed = sq
        used.append(sq)
    return tuple(used), borrowed


def fits_at(board: Board, being: Being, target: str, color: int, lend: frozenset[int] = frozenset(),
            empties: int = 0) -> list[Fit]:
    """Every distinct orientation of `being` that fits with its being square on `target`.

    `lend` lists enemy colours one piece of which may fill one pattern square; `empties` is how
    many empty squares may fill common pattern squares.
    """
    if being.anchor == FREE:
        return _free_fits_for(board, target, _free_fits(board, being, color, lend, empties))
    tx, ty = COORD[target]
    out = []
    for o in being.orientations:
        m = _match(board, o.cells, tx, ty, color, lend, empties)
        if m:
            out.append(Fit(o.index, m[0], m[1]))
    return out


def being_square_ok(board: Board, being: Being, target: str) -> bool:
    """RULES 5.3: a piece of higher rank than the card on the being square forbids the summoning."""
    piece = board.get(target)
    return piece is None or piece[2] <= being.rank


def _anchors(board: Board, color: int, lend: frozenset[int], empties: int) -> list[tuple[tuple[int, int], int]]:
    """(coordinates, rank) of every square that can fill a pattern cell: own and lending pieces,
    and every empty square, as a common, when empty squares may stand in."""
    owners = {color} | lend
    out = [(COORD[sq], p[2]) for sq, p in board.items() if p[1] in owners]
    if empties:
        out += [(COORD[sq], COMMON) for sq in SQUARES if sq not in board]
    return out


def _placements(board: Board, being: Being, color: int, lend: frozenset[int], empties: int):
    """(orientation, x, y) of the being square for every way a square's piece can fill the
    orientation's most demanding cell: a crowded board costs pieces x orientations, not 69 x 8."""
    anchors = _anchors(board, color, lend, empties)
    for o in being.orientations:
        dx, dy, need = max(o.cells, key=lambda c: c[2])
        for (x, y), rank in anchors:
            if rank >= need:
                yield o, x - dx, y - dy


def _free_fits(board: Board, being: Being, color: int, lend: frozenset[int], empties: int) -> list[Fit]:
    """Every distinct placement of a free-anchored pattern anywhere on the board."""
    seen: set[frozenset[str]] = set()
    out = []
    for o, x, y in _placements(board, being, color, lend, empties):
        m = _match(board, o.cells, x, y, color, lend, empties)
        if m and frozenset(m[0]) not in seen:
            seen.add(frozenset(m[0]))
            out.append(Fit(o.index, m[0], m[1]))
    return sorted(out)


def _free_fits_for(board: Board, target: str, fits: list[Fit]) -> list[Fit]:
    """The fits usable with the being on `target`: an empty uncoloured square outside the pattern."""
    if target in board or target in COLOURED:
        return []
    return [f for f in fits if target not in f.squares]


def all_fits(board: Board, being: Being, color: int, lend: frozenset[int] = frozenset(),
             empties: int = 0) -> dict[str, list[Fit]]:
    """target square -> fits, for every target where the being can be summoned (5.2 and 5.3)."""
    if being.anchor == FREE:
        fits = _free_fits(board, being, color, lend, empties)
        by_target = {sq: _free_fits_for(board, sq, fits) for sq in SQUARES} if fits else {}
        return {sq: f for sq, f in by_target.items() if f}
    out: dict[str, list[Fit]] = {}
    for o, tx, ty in _placements(board, being, color, lend, empties):
        target = AT.get((tx, ty))
        if target is None or not being_square_ok(board, being, target):
            continue
        m = _match(board, o.cells, tx, ty, color, lend, empties)
        if m:
            fits = out.setdefault(target, [])
            fit = Fit(o.index, m[0], m[1])
            if fit not in fits:
                fits.append(fit)
    for fits in out.values():
        fits.sort()
    return out
