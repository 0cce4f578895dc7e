"""The squares a listed command uses and affects, so that a client can show a choice on the board
without any geometry of its own (issue 13, point 2).

    annotated_commands(state, seat)   legal commands, those that differ by orientation, direction,
                                      branch or path carrying "squares": {"pattern", "affects", "path", ...}

Display only: `decide` ignores the field, so a command is accepted with or without it. Kept out of
`legal_commands` itself, which bots and self-play call thousands of times without needing it.

- summon: "being" (the being square), "pattern" (the squares of every fitting pattern) and
  "affects" (the marked squares of every fitting orientation), with "marks" [[square, kind]].
- choose an orientation: the same for that orientation alone.
- choose a direction: "path" (the ray from the being square to the edge) and "affects".
- choose a branch: "affects".
- choose a square: "affects".
- move: "path" (from, the squares between when in line, to) and "affects" (to).
For orientations, directions, branches and squares, "affects" also holds every square whose piece
the choice changes before the next decision, and "destroys" the squares whose piece it removes
from the board (found by deciding it on a copy): a client asks before a choice that destroys the
player's own piece.
"""
from __future__ import annotations

from .cards import CARDS, Being
from .decide import decide
from .errors import RuleError
from .evolve import replay
from .geometry import AT, COORD, ray
from .legal import legal_commands
from .shapes import Command, Squares
from .state import State, square_of
from .summon import _marked, orientation_groups, usable_fits

TRIED = ("orientation", "direction", "option", "square")


def annotated_commands(state: State, seat: int) -> list[Command]:
    out = []
    for command in legal_commands(state, seat):
        squares = squares_of(state, command)
        out.append({**command, "squares": squares} if squares else command)
    return out


def squares_of(state: State, command: Command) -> Squares | None:
    kind = command["type"]
    if kind == "summon":
        return _summon(state, command)
    if kind == "move":
        return {"path": _line(command["from"], command["to"]), "affects": [command["to"]]}
    if kind == "choose":
        key = next((k for k in TRIED if k in command), None)
        if key is not None:
            return _choice(state, command, key)
    return None


def _summon(state: State, command: Command) -> Squares:
    being = CARDS.beings[command["card"]]
    target = command["square"]
    fits = usable_fits(state, command["seat"], being, target, command.get("improvise"))
    marks = _marks(being, target, [f.orientation for f in fits])
    return {"being": target, "pattern": sorted({sq for f in fits for sq in f.squares} - {target}),
            "affects": sorted({sq for sq, _ in marks}), "marks": marks}


def _marks(being: Being, target: str, indexes: list[int]) -> list[list[str]]:
    found = {(sq, kind) for o in being.orientations if o.index in indexes for sq, kind in _marked(target, o)}
    return [list(m) for m in sorted(found)]


def _choice(state: State, command: Command, key: str) -> Squares:
    out: Squares = {}
    frame = state["effect"] or {}
    if key == "orientation" and frame.get("fits"):
        group = orientation_groups(frame).get(command["orientation"], [command["orientation"]])
        being = CARDS.beings[frame["card"]]
        marks = _marks(being, frame["target"], group)
        out = {"being": frame["target"], "marks": marks, "affects": sorted({sq for sq, _ in marks}),
               "pattern": sorted({sq for i, sqs in frame["fits"] if i in group for sq in sqs} - {frame["target"]})}
    elif key == "direction" and frame.get("being") is not None:
        origin = square_of(state, frame["being"])
        if origin:
            out["path"] = list(ray(origin, command["direction"]))
    changed, destroyed = _changed(state, command)
    out["affects"] = sorted(set(out.get("affects", [])) | changed)
    if destroyed:
        out["destroys"] = sorted(destroyed)
    return out


def _changed(state: State, command: Command) -> tuple[set[str], set[str]]:
    """Squares whose piece differs once the choice is made, and those whose piece is gone from the
    board, up to the next decision or the end of the turn (what follows it, an abandoned seat
    played at once, is nobody's preview)."""
    try:
        events = decide(state, command)
    except RuleError:
        return set(), set()
    ends = [i for i, e in enumerate(events) if e["type"] in ("TurnEnded", "CardsDrawn")]
    after = replay(events[:ends[0]] if ends else events, state)
    before, now = state["board"], after["board"]
    still = {piece[0] for piece in now.values()}
    return ({sq for sq in set(before) | set(now) if before.get(sq) != now.get(sq)},
            {sq for sq, piece in before.items() if piece[0] not in still})


def _line(a: str, b: str) -> list[str]:
    """`a`, the squares strictly between when a and b share a row, column or diagonal, and `b`."""
    (ax, ay), (bx, by) = COORD[a], COORD[b]
    dx, dy = bx - ax, by - ay
    if (dx and dy and abs(dx) != abs(dy)) or (dx == 0 and dy == 0):
        return [a, b]
    steps = max(abs(dx), abs(dy))
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    return [a] + [AT[(ax + sx * i, ay + sy * i)] for i in range(1, steps)] + [b]
