"""The arena's geometry: 69 squares named `e5`, neighbours, distances, rays, coloured squares.

Squares are named by column letter a-i (x = 1..9, left to right) and row digit 1-9 (y, top to
bottom), the frame of RULES.md section 1. Everything is precomputed once so that rule code only
does dictionary look-ups on the hot path.
"""
from __future__ import annotations

from typing import Callable, Iterator

Coord = tuple[int, int]

COLUMNS = "abcdefghi"


def on_board(x: int, y: int) -> bool:
    """A square exists when it lies in the 9x9 grid minus the three cut squares of each corner."""
    return 1 <= x <= 9 and 1 <= y <= 9 and 3 < x + y < 17 and abs(x - y) < 7


def name(x: int, y: int) -> str:
    return f"{COLUMNS[x - 1]}{y}"


SQUARES: tuple[str, ...] = tuple(name(x, y) for y in range(1, 10) for x in range(1, 10) if on_board(x, y))
SQUARE_SET = frozenset(SQUARES)
COORD: dict[str, Coord] = {name(x, y): (x, y) for y in range(1, 10) for x in range(1, 10) if on_board(x, y)}
AT: dict[Coord, str] = {xy: sq for sq, xy in COORD.items()}

# The eight unit steps, named by compass point (north = up = decreasing y).
DIRECTIONS: dict[str, Coord] = {
    "n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1),
    "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1),
}
DIRECTION_OF: dict[Coord, str] = {v: k for k, v in DIRECTIONS.items()}
ORTHOGONAL = ("n", "e", "s", "w")
DIAGONAL = ("ne", "se", "sw", "nw")


def parse_square(text: object) -> str | None:
    """The canonical square name for `text`, or None when it is not a square of the board."""
    if not isinstance(text, str):
        return None
    sq = text.strip().lower()
    return sq if sq in SQUARE_SET else None


def offset(sq: str, dx: int, dy: int) -> str | None:
    x, y = COORD[sq]
    return AT.get((x + dx, y + dy))


def distance(a: str, b: str) -> int:
    (ax, ay), (bx, by) = COORD[a], COORD[b]
    return max(abs(ax - bx), abs(ay - by))


def _neighbours(sq: str, names: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for d in names:
        n = offset(sq, *DIRECTIONS[d])
        if n:
            out.append(n)
    return tuple(out)


ADJACENT: dict[str, tuple[str, ...]] = {sq: _neighbours(sq, tuple(DIRECTIONS)) for sq in SQUARES}
ORTHO_ADJACENT: dict[str, tuple[str, ...]] = {sq: _neighbours(sq, ORTHOGONAL) for sq in SQUARES}
DIAG_ADJACENT: dict[str, tuple[str, ...]] = {sq: _neighbours(sq, DIAGONAL) for sq in SQUARES}


def ray(sq: str, direction: str, limit: int = 9) -> Iterator[str]:
    """Squares reached by repeating one step from `sq` (excluded) until the edge or `limit` steps."""
    dx, dy = DIRECTIONS[direction]
    cur = sq
    for _ in range(limit):
        nxt = offset(cur, dx, dy)
        if nxt is None:
            return
        yield nxt
        cur = nxt


def direction_between(a: str, b: str) -> str | None:
    """The compass direction of the single step from `a` to the adjacent square `b`."""
    (ax, ay), (bx, by) = COORD[a], COORD[b]
    return DIRECTION_OF.get((bx - ax, by - ay))


def within(sq: str, n: int) -> tuple[str, ...]:
    return tuple(o for o in SQUARES if 0 < distance(sq, o) <= n)


def at_distance(sq: str, n: int) -> tuple[str, ...]:
    return tuple(o for o in SQUARES if distance(sq, o) == n)


def turned(direction: str, eighths: int) -> str:
    """`direction` rotated clockwise by `eighths` * 45 degrees."""
    order = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
    return order[(order.index(direction) + eighths) % 8]


RED = frozenset({"d2", "e5", "h6", "c8"})
GREEN = frozenset({"c3", "g3", "i4", "a5", "f8"})
COLOURED = RED | GREEN
CENTRAL = frozenset(name(x, y) for x in (4, 5, 6) for y in (4, 5, 6))
CENTRE = "e5"
DUEL_START = ("c5", "g5")
MELEE_START = (("f2", "g2"), ("b7", "c7"), ("g6", "g7"))

# The eight orientations of a pattern offset (RULES.md 5.2), in the order of cards.json.
ORIENTATIONS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda x, y: (x, y), lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
    lambda x, y: (-x, y), lambda x, y: (y, x), lambda x, y: (x, -y), lambda x, y: (-y, -x),
)
