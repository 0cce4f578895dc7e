"""Moves, leaps and shots (RULES.md 7.3-7.6, CARDS.md move vocabulary).

A move step is a loop of single moves; each answer is one {"type": "move", "from", "to"}. The
step's progress remembers the moves made, the mover (for same-piece steps), the direction once it
is fixed and whether the one combat move of a mixed step was used.
"""
from __future__ import annotations

from typing import Any, Callable

from ..card_steps import Selector, Step
from .. import pieces
from ..cards import RANK_NAMES
from ..geometry import DIRECTIONS, direction_between, ray, turned
from ..state import LEGENDARY
from .frame import Resolution, root_steps
from .move_words import (COMBAT_SPENT, WORDS as MOVE_WORDS, arrows, destinations, ends_ok, enterable,
                         plain_kind)
from .ops_targets import step_number
from .outcomes import Ask, Done, Outcome, is_skip
from .select import RANK_FILTERS, owner_ok, piece_squares
from .words import vocabulary

ANY_NUMBER = "any-number"                            # times: as many moves as the player likes, none included
UNBOUNDED = frozenset({ANY_NUMBER, "until-blocked"})  # times: no limit but the board's
BY_RANK = "by-rank"                                   # times: as many as `times_by_rank` gives the mover's rank

STOP_AFTER: dict[str, Callable[[tuple[int, int]], bool]] = {
    "destroyed-legendary": lambda victim: victim[1] == LEGENDARY,
}
"""stop_after: the destructions by a move that end the step."""


def _times(step: Step, rank: int | None) -> int | None:
    """How many moves the step allows; None for any number."""
    if step.times in UNBOUNDED:
        return None
    if step.times == BY_RANK:
        assert step.times_by_rank is not None, "a by-rank move says how many moves each rank makes"
        return step.times_by_rank[RANK_NAMES[rank]] if rank else 0
    return repeats(step)


def repeats(step: Step) -> int:
    """The step's `times` where only a number makes sense (a shot, a swap, a move of fixed length)."""
    if not isinstance(step.times, int):
        raise ValueError(f"times {step.times!r} is not a number of times")
    return step.times


def _movers(res: Resolution, step: Step, prog: dict[str, Any]) -> list[tuple[str, bool]]:
    """(square, is the being) of every piece that may make the next move."""
    if step.same_piece and prog.get("mover") is not None:
        sq = next((s for s, p in res.state["board"].items() if p[0] == prog["mover"]), None)
        return [(sq, prog["mover"] == res.frame["being"])] if sq else []
    sel = step.mover
    assert sel is not None, "a move names its mover"
    squares: list[str] = []
    for sub in sel.any_of or (sel,):
        for sq in piece_squares(res, sub):
            if sq not in squares:
                squares.append(sq)
    being = res.frame["being"]
    out = [(sq, res.state["board"][sq][0] == being) for sq in squares
           if (not step.per_piece or _may_move_again(res, step, prog, res.state["board"][sq][0]))
           and not _colour_full(step, prog, res.state["board"][sq][1])]
    times = _times(step, None) if step.times != BY_RANK else None
    if step.last_move_by_self and times and prog.get("n", 0) == times - 1 and not prog.get("self_moved"):
        out = [m for m in out if m[1]]
    return out


def _may_move_again(res: Resolution, step: Step, prog: dict[str, Any], pid: int) -> bool:
    """per_piece: each of up to `count` different pieces makes up to `times` moves."""
    moved = prog.get("pieces", [])
    if pid in moved:
        times = _times(step, None)
        return times is None or moved.count(pid) < times
    return len(set(moved)) < step_number(res, step)


def _colour_full(step: Step, prog: dict[str, Any], color: int) -> bool:
    """Dark Sphere: at most `max_per_color` of the pieces moved may share a colour."""
    most = step.max_per_color
    return most is not None and prog.get("colors", []).count(color) >= most


def move_options(res: Resolution, step: Step, prog: dict[str, Any]) -> list[dict[str, Any]]:
    board = res.state["board"]
    out = []
    for src, is_being in _movers(res, step, prog):
        mover_rank = board[src][2]
        kind = plain_kind(step, prog, is_being)
        for dst in destinations(res, step, prog, src):
            if enterable(kind, mover_rank, board.get(dst)) and ends_ok(res, step, src, dst):
                out.append({"type": "move", "from": src, "to": dst})
    return out


def _note(prog: dict[str, Any], **values: Any) -> None:
    for key, value in values.items():
        prog.setdefault(key, []).append(value)


def move_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    n = prog.get("n", 0)
    if answer is None:
        limit = prog.get("times", _times(step, None) if step.times != BY_RANK else 1)
        if step.per_piece and limit is not None:
            limit *= step_number(res, step)
        if prog.get("stop") or (limit is not None and n >= limit):
            return Done(n > 0)
        options = move_options(res, step, prog)
        if not options:
            return Done(n > 0)
        can_skip = step.up_to or step.times == ANY_NUMBER or (step.optional and n == 0)
        return Ask("move", options, can_skip, "Move a piece", {"done": n, "of": limit})
    if is_skip(answer):
        return Done(n > 0)
    _apply_move(res, step, prog, answer["from"], answer["to"])
    return None


def _apply_move(res: Resolution, step: Step, prog: dict[str, Any], src: str, dst: str) -> None:
    board = res.state["board"]
    pid, color, rank = board[src]
    if prog.get("n", 0) == 0 and step.times == BY_RANK:
        prog["times"] = _times(step, rank)
    occupant, spent = board.get(dst), COMBAT_SPENT.get(step.kind)
    if spent and occupant and occupant[2] == rank:
        prog[spent] = True
    direction = direction_between(src, dst)
    victim = pieces.move(res.ctx, src, dst, res.seat, leap=step.via != "move")
    prog["n"] = prog.get("n", 0) + 1
    prog["mover"] = pid
    if pid == res.frame["being"]:
        prog["self_moved"] = True
    prog["dir"] = direction or prog.get("dir")
    _note(prog, pieces=pid, squares=dst, vacated=src, ranks=rank, colors=color)
    if victim:
        _note(prog, destroyed=list(victim))
        res.frame["destroyed"] += 1
        if step.stop_after is not None and STOP_AFTER[step.stop_after](victim):
            prog["stop"] = True


# --- shots -------------------------------------------------------------------------------------------

MARKED, FANNED = "marked", "both-45-degrees-from"
"""A shot's `direction`: one of the card's arrows, picked by the player, or at 45 degrees either
side of an earlier shot ('both-45-degrees-from:<id>', both fired at once)."""
REACH = {"to-edge": 9}                   # range: a number of squares, or a ray as long as the board


def _aim(step: Step) -> tuple[str, str]:
    """A shot's `direction` (name, argument); the card's arrows when the card writes none."""
    name, _, arg = (step.direction if step.direction is not None else MARKED).partition(":")
    if name not in (MARKED, FANNED):
        raise ValueError(f"unknown shot direction: {step.direction}")
    return name, arg


def _shot_directions(res: Resolution, step: Step) -> list[str]:
    name, arg = _aim(step)
    if name == FANNED:
        base = res.result(arg).get("dir")
        return [turned(base, -1), turned(base, 1)] if base else []
    origin = res.frame["origin"]
    out = [direction_between(origin, sq) for sq in res.marked("direction")]
    if _fans_out(res, step):
        out += arrows(res)
    return sorted({d for d in out if d}, key=list(DIRECTIONS).index)


def _fans_out(res: Resolution, step: Step) -> bool:
    """Whether a later step also shoots at 45 degrees from this one (Fire Dragon)."""
    spread = f"{FANNED}:{step.id}"
    return step.id is not None and any(s.direction == spread for s in root_steps(res.frame))


def _fire(res: Resolution, step: Step, prog: dict[str, Any], direction: str) -> None:
    being = res.being_square()
    if being is None:
        return
    spec, board = step.destroy or Selector(), res.state["board"]
    reach = step.range
    limit = reach if isinstance(reach, int) else REACH[reach]
    most = step.max_destroyed
    blocker = step.blocked_by
    hits = 0
    for sq in list(ray(being, direction, limit)):
        piece = board.get(sq)
        if piece is None:
            continue
        if blocker and piece[2] in RANK_FILTERS[blocker]:
            break
        if piece[2] in RANK_FILTERS[spec.rank or "any"] and owner_ok(res, spec.who or "any", piece[1], piece[0]):
            victim = pieces.destroy(res.ctx, sq, res.seat, cause="shot")
            _note(prog, destroyed=list(victim), squares=sq)
            res.frame["destroyed"] += 1
            hits += 1
            if most and hits >= most:
                break


def shoot_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    n = prog.get("n", 0)
    times = repeats(step)
    directions = _shot_directions(res, step)
    if _aim(step)[0] == FANNED:
        for d in directions:
            _fire(res, step, prog, d)
        return Done(bool(directions))
    if answer is None:
        if n >= times or not directions or res.being_square() is None:
            return Done(n > 0)
        can_skip = step.up_to or (step.optional and n == 0)
        return Ask("direction", [{"type": "choose", "direction": d} for d in directions], can_skip,
                   "Choose a direction to shoot", {"done": n, "of": times})
    if is_skip(answer):
        return Done(n > 0)
    prog["n"] = n + 1
    prog["dir"] = answer["direction"]
    _fire(res, step, prog, answer["direction"])
    return None


OPS = {"move": move_op, "shoot": shoot_op}

WORDS = vocabulary(MOVE_WORDS, {
    "times": UNBOUNDED | {BY_RANK}, "stop_after": STOP_AFTER, "direction": {MARKED, FANNED}, "range": REACH,
    "blocked_by": RANK_FILTERS,
})
"""The words of the fields a move or a shot reads (a number of `times` or squares of `range` is no word)."""
