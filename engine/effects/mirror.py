"""Crystal Mirror's geometry (CARDS.md 5.2): its two marked 2x3 blocks face each other across the
line through the Mirror and its two pattern pieces. The player picks the source side; each empty
square of the other block may then receive a copy of the piece its reflection holds.

Sides are named by the compass direction from the Mirror to the block ("w", "e", "n", "s").
"""
from __future__ import annotations

from ..cards import CARDS
from ..geometry import AT, COORD
from ..state import COMMON, HEROIC
from .frame import Resolution

SIDE_FLAG = "mirror_side"


def _vertical_axis(res: Resolution) -> bool:
    """Whether the pattern pieces (and so the reflection line) lie in the Mirror's column."""
    being = CARDS.beings[res.frame["card"]]
    o = next(o for o in being.orientations if o.index == res.frame["orientation"])
    return all(dx == 0 for dx, _, _ in o.cells)


def side_of(res: Resolution, square: str) -> str:
    (ox, oy), (x, y) = COORD[res.frame["origin"]], COORD[square]
    if _vertical_axis(res):
        return "e" if x > ox else "w"
    return "s" if y > oy else "n"


def reflection(res: Resolution, square: str) -> str | None:
    (ox, oy), (x, y) = COORD[res.frame["origin"]], COORD[square]
    return AT.get((2 * ox - x, y)) if _vertical_axis(res) else AT.get((x, 2 * oy - y))


def copy_squares(res: Resolution, source: str | None, rank: int) -> set[str]:
    """Empty squares of the block facing `source` whose reflection holds a piece of exactly `rank`."""
    board = res.state["board"]
    out = set()
    for sq in res.marked():
        if source is None or sq in board or side_of(res, sq) == source:
            continue
        there = board.get(reflection(res, sq) or "")
        if there is not None and there[2] == rank:
            out.add(sq)
    return out


def useful_sides(res: Resolution) -> list[str]:
    """Sides that, chosen as the source, have at least one piece to copy onto an empty square."""
    sides = sorted({side_of(res, sq) for sq in res.marked()})
    return [s for s in sides if copy_squares(res, s, COMMON) or copy_squares(res, s, HEROIC)]


def chosen_copy_squares(res: Resolution, rank: int) -> set[str]:
    """`where: mirror-of-source:<rank>`, from the side the effect chose."""
    return copy_squares(res, res.frame["flags"].get(SIDE_FLAG), rank)
