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

from .cards import CARDS, Being, Orientation
from .geometry import AT, COLOURED, COORD, SQUARES
from .shapes import Board
from .state import COMMON

FREE = "free"               # a being's `anchor` when its pattern is not tied to its square


class Fit(NamedTuple):
    orientation: int
    squares: tuple[str, ...]        # squares of the pattern pieces, the being square included if listed
    borrowed: str | None            # square of an enemy piece standing in for one of yours


Cells = tuple[tuple[str, int, bool], ...]       # (square, minimum rank, is the being square)

# Squares as bits: square (x, y) is bit 9y + x, so the square (dx, dy) away from a bit is that bit
# moved by 9dy + dx. A pattern laid with its being square on every square at once is then one shift
# and one `and` per cell: the board is asked 69 questions in a handful of integer operations. Masks
# of pieces are kept PAD bits up, so that every such shift is a right shift.
BIT_INDEX: dict[str, int] = {sq: 9 * y + x for sq, (x, y) in COORD.items()}
PAD = max(abs(9 * dy + dx) for b in CARDS.beings.values() for o in b.orientations for dx, dy, _ in o.cells)
SQUARE_BIT: dict[str, int] = {sq: 1 << (i + PAD) for sq, i in BIT_INDEX.items()}      # PAD bits up
EVERY_SQUARE = sum(SQUARE_BIT.values())
BIT_NAME: dict[int, str] = {i: sq for sq, i in BIT_INDEX.items()}
SQUARES_BY_NAME = tuple(sorted(SQUARES))


class Laid(NamedTuple):
    """An orientation laid with its being square on one square of the board."""
    target: str
    cells: Cells
    fit: Fit                        # the fit of the colour's own pieces there


class Layout(NamedTuple):
    """One orientation laid on every square it fits on the board, worked out once per being."""
    orientation: int                # the orientation's index
    shifts: tuple[tuple[int, int, bool], ...]       # per cell: (rank needed, PAD + bit offset, is the being square)
    targets: int                    # bits of the being squares the whole pattern lies on the board from
    laid: dict[int, Laid]           # being square's bit index -> the pattern laid there


_LAYOUTS: dict[str, tuple[Layout, ...]] = {}


def layouts(being: Being) -> tuple[Layout, ...]:
    """The being's orientations laid on the board (memoised: card data never changes)."""
    found = _LAYOUTS.get(being.id)
    if found is None:
        found = _LAYOUTS[being.id] = tuple(_layout(o.index, o.cells) for o in being.orientations)
    return found


def _layout(index: int, cells: tuple[tuple[int, int, int], ...]) -> Layout:
    laid: dict[int, Laid] = {}
    for target in SQUARES:
        tx, ty = COORD[target]
        found = _lay(cells, tx, ty)
        if found is not None:
            laid[BIT_INDEX[target]] = Laid(target, found, Fit(index, tuple(sq for sq, _, _ in found), None))
    shifts = tuple((need, PAD + 9 * dy + dx, dx == 0 and dy == 0) for dx, dy, need in cells)
    return Layout(index, shifts, sum(1 << i for i in laid), laid)


def _lay(cells: tuple[tuple[int, int, int], ...], tx: int, ty: int) -> Cells | None:
    """The pattern's cells with its origin on (tx, ty), or None when one falls off the board."""
    laid = []
    for dx, dy, rank in cells:
        sq = AT.get((tx + dx, ty + dy))
        if sq is None:
            return None
        laid.append((sq, rank, dx == 0 and dy == 0))
    return tuple(laid)


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
    at = BIT_INDEX[target]
    for lay in layouts(being):
        laid = lay.laid.get(at)
        m = _match_cells(board, laid.cells, color, lend, empties) if laid is not None else None
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


class Pieces:
    """A board read once: the squares of each colour's pieces, and of everyone's, as bit masks
    PAD bits up, by rank (index r: rank r or more; 4 is empty)."""

    def __init__(self, board: Board):
        self.board = board
        self.by_color: dict[int, list[int]] = {}
        for sq, (_, color, rank) in board.items():
            masks = self.by_color.get(color)
            if masks is None:
                masks = self.by_color[color] = [0, 0, 0, 0, 0]
            masks[rank] |= SQUARE_BIT[sq]
        self.anyone = [0, 0, 0, 0, 0]
        for masks in self.by_color.values():
            masks[2] |= masks[3]
            masks[1] |= masks[2]
            for rank in (1, 2, 3):
                self.anyone[rank] |= masks[rank]

    def of(self, colors: set[int] | frozenset[int]) -> list[int]:
        """The masks of the pieces of `colors` together."""
        out = [0, 0, 0, 0, 0]
        for color in colors:
            for rank, mask in enumerate(self.by_color.get(color, ())):
                out[rank] |= mask
        return out


class Scan:
    """Where each being of a hand can be summoned, for one summoner on one board.

    An orientation laid on every target at once fits the summoner's own pieces where the mask of
    each cell's pieces, shifted by the cell's offset, has a bit (`Layout.shifts`). Where lent pieces
    or empty squares may stand in, the same masks narrow the targets down to those where every
    cell has something that might fill it (and, with lent pieces only, all but one cell holds an
    own piece); those few are matched cell by cell. Free-anchored patterns go by placements."""

    def __init__(self, pieces: Pieces, color: int, lend: frozenset[int] = frozenset(), empties: int = 0):
        self.board, self.color, self.lend, self.empties = pieces.board, color, lend, empties
        self.blocked = [mask >> PAD for mask in pieces.anyone]     # being squares it would summon onto
        self.own = pieces.of({color})
        self.lent = pieces.of(lend - {color})
        empty = EVERY_SQUARE & ~pieces.anyone[1] if empties else 0
        # [is the being square][rank]: what might fill a cell (a lent piece never fills the being square)
        self.loose = ([o | m for o, m in zip(self.own, self.lent)], list(self.own))
        self.loose[0][COMMON] |= empty
        self.loose[1][COMMON] |= empty
        self.own_only = not (lend or empties)           # only the summoner's own pieces fill patterns

    def fits(self, being: Being) -> dict[str, list[Fit]]:
        """target square -> fits, for every target where the being can be summoned (5.2 and 5.3),
        the targets in the order of their names."""
        board = self.board
        if being.anchor == FREE:
            fits = _free_fits(board, being, self.color, self.lend, self.empties)
            by_target = {sq: _free_fits_for(board, sq, fits) for sq in SQUARES_BY_NAME} if fits else {}
            return {sq: f for sq, f in by_target.items() if f}
        found: list[tuple[str, Fit]] = []
        own = self.own
        open_targets = ~self.blocked[being.rank + 1]    # no piece above the being's rank there (5.3)
        for lay in layouts(being):
            mine = lay.targets & open_targets
            for need, by, _ in lay.shifts:
                mine &= own[need] >> by
            if mine:
                found += [(laid.target, laid.fit) for laid in _laid_on(lay, mine)]
            if not self.own_only:
                found += self._standing_in(lay, lay.targets & open_targets & ~mine)
        out: dict[str, list[Fit]] = {}
        for target, fit in sorted(found):
            out.setdefault(target, []).append(fit)
        return out

    def targets(self, being: Being) -> list[str]:
        """The targets of `fits`, when only the summoner's own pieces may fill a pattern tied to
        its being square: every orientation's bits together, named."""
        assert self.own_only and being.anchor != FREE
        own = self.own
        open_targets = ~self.blocked[being.rank + 1]
        found = 0
        for lay in layouts(being):
            mine = lay.targets & open_targets
            for need, by, _ in lay.shifts:
                mine &= own[need] >> by
            found |= mine
        return sorted(BIT_NAME[i] for i in _bits(found))

    def _standing_in(self, lay: Layout, targets: int) -> list[tuple[str, Fit]]:
        """The fits of one orientation on `targets` (where the own pieces alone do not fit) with a
        lent piece or empty squares standing in."""
        near, once, twice = targets, 0, 0               # twice: two cells or more lack an own piece
        for need, by, origin in lay.shifts:
            near &= self.loose[origin][need] >> by
            lacking = ~(self.own[need] >> by)
            twice |= once & lacking
            once |= lacking
        if self.empties:
            matched = ((laid.target, _match_cells(self.board, laid.cells, self.color, self.lend, self.empties))
                       for laid in _laid_on(lay, near))
            return [(target, Fit(lay.orientation, *m)) for target, m in matched if m]
        near &= ~twice                                  # the one cell lacking an own piece borrows
        return [(laid.target, Fit(lay.orientation, laid.fit.squares, laid.fit.squares[k]))
                for k, (need, by, origin) in enumerate(lay.shifts) if not origin
                for laid in _laid_on(lay, near & self.lent[need] >> by)]


def _laid_on(lay: Layout, targets: int) -> Iterator[Laid]:
    """The orientation laid on each being square of the bit mask `targets`."""
    return map(lay.laid.__getitem__, _bits(targets))


def _bits(mask: int) -> Iterator[int]:
    """The indices of the bits set in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
