"""Pattern matching (RULES.md 5.2-5.3): which orientations of a being fit at a target square.

A fit records the orientation used, the squares of the pieces it rests on and the one enemy piece
it borrowed, if any (melee improvised summoning, War Summoner). The being-square rules are here too,
since they decide whether a target can be used at all.

Two Etherweave cases: `empties` empty squares may stand in for common pattern pieces (Void
Summoner), and a free-anchored pattern (Time Traveler, CARDS.md 1) may lie anywhere on the board
while its being goes on any empty uncoloured square.
"""
from __future__ import annotations

from typing import Iterator, NamedTuple

from .cards import Being, Orientation
from .geometry import AT, COLOURED, COORD, SQUARES
from .shapes import Board
from .state import COMMON

FREE = "free"               # a being's `anchor` when its pattern is not tied to its square


class Fit(NamedTuple):
    orientation: int
    squares: tuple[str, ...]        # squares of the pattern pieces, the being square included if listed
    borrowed: str | None            # square of an enemy piece standing in for one of yours


Cells = tuple[tuple[str, int, bool], ...]       # (square, minimum rank, is the being square)


class Laid(NamedTuple):
    """An orientation laid with its being square on one square of the board."""
    cells: Cells
    squares: tuple[str, ...]                        # the cells' squares, in the cells' order
    needs: tuple[tuple[int, frozenset[str]], ...]   # (rank, the squares needing at least that rank)


class Layout(NamedTuple):
    """One orientation laid on every square it fits on the board, worked out once per being: the
    search for fits then reads squares instead of adding offsets, and a pattern of your own pieces
    only is tested with set inclusions (legal_commands runs it for every being in hand)."""
    orientation: int                # the orientation's index
    key_need: int                   # the rank its most demanding cell needs
    target_of: dict[str, str]       # a square filling that cell -> the being square it implies
    keys: frozenset[str]            # the squares of target_of, to intersect with the pieces at hand
    cells_at: dict[str, Laid]       # being square -> the pattern laid there, for squares it fits on


_LAYOUTS: dict[str, tuple[Layout, ...]] = {}


def layouts(being: Being) -> tuple[Layout, ...]:
    """The being's orientations laid on the board (memoised: card data never changes)."""
    found = _LAYOUTS.get(being.id)
    if found is None:
        found = _LAYOUTS[being.id] = tuple(_layout(o.index, o.cells) for o in being.orientations)
    return found


def _layout(index: int, cells: tuple[tuple[int, int, int], ...]) -> Layout:
    kx, ky, need = max(cells, key=lambda c: c[2])
    target_of: dict[str, str] = {}
    cells_at: dict[str, Laid] = {}
    for target in SQUARES:
        tx, ty = COORD[target]
        laid = _lay(cells, tx, ty)
        if laid is not None:
            cells_at[target] = _laid(laid)
            target_of[AT[(tx + kx, ty + ky)]] = target
    return Layout(index, need, target_of, frozenset(target_of), cells_at)


def _lay(cells: tuple[tuple[int, int, int], ...], tx: int, ty: int) -> Cells | None:
    """The pattern's cells with its origin on (tx, ty), or None when one falls off the board."""
    laid = []
    for dx, dy, rank in cells:
        sq = AT.get((tx + dx, ty + dy))
        if sq is None:
            return None
        laid.append((sq, rank, dx == 0 and dy == 0))
    return tuple(laid)


def _laid(cells: Cells) -> Laid:
    needs = tuple((rank, frozenset(sq for sq, need, _ in cells if need >= rank))
                  for rank in sorted({need for _, need, _ in cells}))
    return Laid(cells, tuple(sq for sq, _, _ in cells), needs)


def _ranked(board: Board, color: int) -> tuple[set[str], ...]:
    """Squares of `color`'s pieces of at least each rank: index r holds those of rank >= r."""
    out: tuple[set[str], ...] = (set(), set(), set(), set())
    for sq, piece in board.items():
        if piece[1] == color:
            for rank in range(1, piece[2] + 1):
                out[rank].add(sq)
    return out


def _match_laid(board: Board, laid: Laid, color: int, lend: frozenset[int], empties: int,
                ranked: tuple[set[str], ...]) -> tuple[tuple[str, ...], str | None] | None:
    """`_match_cells`, with set inclusions when only the colour's own pieces may fill the pattern."""
    if lend or empties:
        return _match_cells(board, laid.cells, color, lend, empties)
    for rank, squares in laid.needs:
        if not squares <= ranked[rank]:
            return None
    return laid.squares, None


def _match_cells(board: Board, cells: Cells, color: int, lend: frozenset[int],
                 empties: int) -> tuple[tuple[str, ...], str | None] | None:
    """The squares a laid pattern uses and the one it borrows, or None when it does not fit."""
    used = []
    borrowed = None
    for sq, need, origin in cells:
        piece = board.get(sq)
        if piece is None:
            if need != COMMON or empties == 0:
                return None
            empties -= 1                     # an empty square counts as one of your commons
        elif piece[2] < need:
            return None
        elif piece[1] != color:
            if borrowed is not None or piece[1] not in lend or origin:
                return None
            borrowed = sq
        used.append(sq)
    return tuple(used), borrowed


def _match(board: Board, cells: tuple[tuple[int, int, int], ...], tx: int, ty: int, color: int,
           lend: frozenset[int], empties: int = 0) -> tuple[tuple[str, ...], str | None] | None:
    """`_match_cells` for a pattern whose origin is at (tx, ty), maybe off the board (free patterns)."""
    laid = _lay(cells, tx, ty)
    return _match_cells(board, laid, color, lend, empties) if laid is not None else None


def fits_at(board: Board, being: Being, target: str, color: int, lend: frozenset[int] = frozenset(),
            empties: int = 0) -> list[Fit]:
    """Every distinct orientation of `being` that fits with its being square on `target`.

    `lend` lists enemy colours one piece of which may fill one pattern square; `empties` is how
    many empty squares may fill common pattern squares.
    """
    if being.anchor == FREE:
        return _free_fits_for(board, target, _free_fits(board, being, color, lend, empties))
    out = []
    ranked = _ranked(board, color)
    for lay in layouts(being):
        laid = lay.cells_at.get(target)
        m = _match_laid(board, laid, color, lend, empties, ranked) if laid is not None else None
        if m:
            out.append(Fit(lay.orientation, m[0], m[1]))
    return out


def being_square_ok(board: Board, being: Being, target: str) -> bool:
    """RULES 5.3: a piece of higher rank than the card on the being square forbids the summoning."""
    piece = board.get(target)
    return piece is None or piece[2] <= being.rank


def _anchor_squares(board: Board, color: int, lend: frozenset[int], empties: int) -> list[tuple[str, int]]:
    """(square, rank) of every square that can fill a pattern cell: own and lending pieces, and
    every empty square, as a common, when empty squares may stand in."""
    owners = {color} | lend
    out = [(sq, p[2]) for sq, p in board.items() if p[1] in owners]
    if empties:
        out += [(sq, COMMON) for sq in SQUARES if sq not in board]
    return out


def _anchors(board: Board, color: int, lend: frozenset[int], empties: int) -> list[tuple[tuple[int, int], int]]:
    return [(COORD[sq], rank) for sq, rank in _anchor_squares(board, color, lend, empties)]


def _placements(board: Board, being: Being, color: int, lend: frozenset[int],
                empties: int) -> Iterator[tuple[Orientation, int, int]]:
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


FITS_REMEMBERED = 4096                          # boards x beings kept by `all_fits`, at most
_fits_memo: dict[tuple[object, ...], dict[str, list[Fit]]] = {}


def all_fits(board: Board, being: Being, color: int, lend: frozenset[int] = frozenset(),
             empties: int = 0) -> dict[str, list[Fit]]:
    """target square -> fits, for every target where the being can be summoned (5.2 and 5.3).

    Remembered by what it depends on (each piece's square, colour and rank, the being, the colours):
    a bot's search asks again and again about the boards it keeps coming back to. A pure function's
    memo changes no answer; the answer is shared, so callers only read it."""
    key = (frozenset((sq, piece[1], piece[2]) for sq, piece in board.items()), being.id, color, lend, empties)
    found = _fits_memo.get(key)
    if found is None:
        if len(_fits_memo) >= FITS_REMEMBERED:
            _fits_memo.clear()
        found = _fits_memo[key] = _all_fits(board, being, color, lend, empties)
    return found


def _all_fits(board: Board, being: Being, color: int, lend: frozenset[int], empties: int) -> dict[str, list[Fit]]:
    if being.anchor == FREE:
        fits = _free_fits(board, being, color, lend, empties)
        by_target = {sq: _free_fits_for(board, sq, fits) for sq in SQUARES} if fits else {}
        return {sq: f for sq, f in by_target.items() if f}
    out: dict[str, list[Fit]] = {}
    anchors = _anchor_squares(board, color, lend, empties)
    filling = [set(), *({sq for sq, rank in anchors if rank >= need} for need in (1, 2, 3))]
    ranked = _ranked(board, color)
    for lay in layouts(being):
        target_of = lay.target_of
        for sq in lay.keys & filling[lay.key_need]:
            target = target_of[sq]
            there = board.get(target)
            if there is not None and there[2] > being.rank:          # being_square_ok, inlined
                continue
            m = _match_laid(board, lay.cells_at[target], color, lend, empties, ranked)
            if m:
                fits = out.setdefault(target, [])
                fit = Fit(lay.orientation, m[0], m[1])
                if fit not in fits:
                    fits.append(fit)
    return {target: sorted(out[target]) for target in sorted(out)}
