"""The words of a move step (CARDS.md 3, move vocabulary), each read through a table from the word to
what it means, so that the words the load check accepts (ops_move.WORDS) are the words a move acts on:
`kind` (which squares a mover may enter), `via` (a move or a leap), `direction` (which way each
single move may go) and `ends_on` (where a move may end). A word 'name:arg' is looked up by its name.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from ..card_steps import Step
from ..cards import CARDS
from ..geometry import ADJACENT, COLOURED, DIRECTION_OF, SQUARES, at_distance, distance, ray, turned
from ..state import HEROIC
from .frame import Resolution
from .gateway_words import gateway_square, toward
from .select import where_squares

Progress = dict[str, Any]

# --- kind: which occupied squares a mover may enter ---------------------------------------------------

ENTRY: dict[str, Callable[[int, int], bool]] = {
    "empty-only": lambda mover, occupant: False,
    "standard": lambda mover, occupant: occupant < mover,
    "combat": lambda mover, occupant: occupant <= mover,
}
"""A plain kind: whether a mover of one rank may enter a square held by a piece of another."""

MIXED_KINDS: dict[str, Callable[[Progress, bool], str]] = {
    "combat-or-standard": lambda prog, is_being: "standard" if prog.get("combat_used") else "combat",
    # a first move may be combat, a second is standard
    "combat-or-two-standard": lambda prog, is_being: "standard" if prog.get("n") else "combat",
    "standard-for-self-combat-for-others": lambda prog, is_being: "standard" if is_being else "combat",
}
"""A mixed kind: the plain kind of the next move, from the step's progress and whether the mover is
the being."""

COMBAT_SPENT = {"combat-or-standard": "combat_used", "combat-or-two-standard": "stop"}
"""A mixed kind's one combat move: the progress flag set once it is made (no other combat move; no
second move at all)."""


def plain_kind(step: Step, prog: Progress, is_being: bool) -> str:
    kind = step.kind
    mixed = MIXED_KINDS.get(kind)
    return mixed(prog, is_being) if mixed else kind


def enterable(kind: str, mover_rank: int, occupant: list[Any] | None) -> bool:
    """Whether a mover of a plain `kind` may enter a square holding `occupant` (None: empty)."""
    return occupant is None or ENTRY[kind](mover_rank, occupant[2])


# --- direction: which way the next single move may go -------------------------------------------------

Heading = Callable[[Resolution, Progress, str, str], list[str]]
"""The squares the next move may reach from a square under a `direction` word: (res, progress, from, arg)."""


def arrows(res: Resolution) -> list[str]:
    """Every arrow of the card in the orientation used, off-board ones included: an arrow past the
    edge still fans out at 45 degrees onto the board."""
    being = CARDS.beings.get(res.frame["card"])
    if being is None or res.frame.get("orientation") is None:
        return []
    o = next(o for o in being.orientations if o.index == res.frame["orientation"])
    return [DIRECTION_OF[(dx, dy)] for dx, dy, kind in o.marked
            if kind == "direction" and (dx, dy) in DIRECTION_OF]


def _ahead(src: str, directions: Iterable[str]) -> list[str]:
    """The square one step from `src` in each direction, where the board goes on."""
    return [sq for sq in (next(ray(src, d, 1), None) for d in directions) if sq]


def _fixed(res: Resolution, prog: Progress, src: str, arg: str) -> list[str]:
    """'fixed': the first move picks the direction, the later ones keep it."""
    return _ahead(src, [prog["dir"]]) if prog.get("dir") else list(ADJACENT[src])


def _same_as(res: Resolution, prog: Progress, src: str, arg: str) -> list[str]:
    """'same-as:<id>': the direction step <id> moved in; nowhere when it did not move."""
    base = res.result(arg).get("dir")
    return _ahead(src, [base]) if base else []


def _opposite_of(res: Resolution, prog: Progress, src: str, arg: str) -> list[str]:
    """'opposite-of:<id>': back along the direction step <id> moved in; nowhere when it did not move."""
    base = res.result(arg).get("dir")
    return _ahead(src, [turned(base, 4)]) if base else []


def _marked_then(turns: tuple[int, ...]) -> Heading:
    """A charge steered by the card's arrows: the first move toward an arrow, each later one the
    last direction turned by one of `turns` (in 45-degree steps)."""
    def heading(res: Resolution, prog: Progress, src: str, arg: str) -> list[str]:
        last = prog.get("dir")
        return _ahead(src, arrows(res) if last is None else [turned(last, t) for t in turns])
    return heading


def _toward(res: Resolution, prog: Progress, src: str, arg: str) -> list[str]:
    """'toward:gateway': a step nearer the player's Gateway."""
    if arg != "gateway":
        raise ValueError(f"unknown direction: toward:{arg}")
    return toward(res, src)


HEADINGS: dict[str, Heading] = {
    "fixed": _fixed, "same-as": _same_as, "opposite-of": _opposite_of, "toward": _toward,
    "marked-then-fixed": _marked_then((0,)), "marked-then-max-45-turn": _marked_then((-1, 0, 1)),
}


def _headed(res: Resolution, step: Step, prog: Progress, src: str) -> list[str]:
    if step.direction is None:
        return list(ADJACENT[src])
    name, _, arg = step.direction.partition(":")
    return HEADINGS[name](res, prog, src, arg)


# --- via: a move one square on, or a leap -------------------------------------------------------------

VIA: dict[str, Callable[[Resolution, Step, Progress, str, str], list[str]]] = {
    "move": lambda res, step, prog, src, arg: _headed(res, step, prog, src),
    # 'leap': anywhere on the board; 'leap:<n>': exactly n squares away
    "leap": lambda res, step, prog, src, arg: (list(at_distance(src, int(arg))) if arg
                                                else [sq for sq in SQUARES if sq != src]),
}


def destinations(res: Resolution, step: Step, prog: Progress, src: str) -> list[str]:
    """The squares the next move of `step` may reach from `src`, before `kind` and `ends_on`."""
    name, _, arg = step.via.partition(":")
    return VIA[name](res, step, prog, src, arg)


# --- ends_on: where a move may end ---------------------------------------------------------------------

EndsOn = Callable[[Resolution, "str | None", str, str], bool]
"""Whether a move from a square (None: a piece put back from stasis) may end on another: (res, from,
to, arg)."""


def _at_distance(res: Resolution, src: str | None, dst: str, arg: str) -> bool:
    """'at-distance:<n>': exactly n squares from the being."""
    origin = res.being_square()
    return origin is not None and distance(origin, dst) == int(arg)


def _beside_own_piece(res: Resolution, src: str | None, dst: str, arg: str) -> bool:
    """'adjacent-to:own-piece-other-than-mover': next to a piece of yours other than the one moving."""
    if arg != "own-piece-other-than-mover":
        raise ValueError(f"unknown ends_on: adjacent-to:{arg}")
    board = res.state["board"]
    return any(n != src and n in board and board[n][1] == res.color for n in ADJACENT[dst])


def _empty_or_heroic(res: Resolution, src: str | None, dst: str, arg: str) -> bool:
    board = res.state["board"]
    return dst not in board or board[dst][2] == HEROIC


ENDS_ON: dict[str, EndsOn] = {
    "marked": lambda res, src, dst, arg: dst in where_squares(res, "marked"),
    "square": lambda res, src, dst, arg: dst in res.result(arg).get("squares", []),
    "empty-or-heroic": _empty_or_heroic,
    "red-or-green-square": lambda res, src, dst, arg: dst in COLOURED,
    "colorless": lambda res, src, dst, arg: dst not in COLOURED,
    "not-gateway": lambda res, src, dst, arg: dst != gateway_square(res),
    "at-distance": _at_distance,
    "adjacent-to": _beside_own_piece,
}


def ends_ok(res: Resolution, step: Step, src: str | None, dst: str) -> bool:
    if step.ends_on is None:
        return True
    name, _, arg = step.ends_on.partition(":")
    return ENDS_ON[name](res, src, dst, arg)


WORDS = {"kind": frozenset(ENTRY) | frozenset(MIXED_KINDS), "via": frozenset(VIA),
         "direction": frozenset(HEADINGS), "ends_on": frozenset(ENDS_ON)}
