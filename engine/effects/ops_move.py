"""Moves, leaps and shots (RULES.md 7.3-7.6, CARDS.md move vocabulary).

A move step is a loop of single moves; each answer is one {"type": "move", "from", "to"}. The
step's progress remembers the moves made, the mover (for same-piece steps), the direction once it
is fixed and whether the one combat move of a mixed step was used.
"""
from __future__ import annotations

from typing import Any, cast

from ..card_steps import Selector, Step
from .. import pieces
from ..cards import CARDS, RANK_NAMES
from ..geometry import (ADJACENT, COLOURED, DIRECTION_OF, DIRECTIONS, SQUARES, at_distance, direction_between,
                        distance, ray, turned)
from ..state import HEROIC, LEGENDARY
from .frame import Resolution, root_steps
from .gateway_words import gateway_square, toward
from .outcomes import Ask, Done, Outcome, is_skip
from .select import RANK_FILTERS, owner_ok, piece_squares, where_squares


def _times(step: Step, rank: int | None) -> int | None:
    """How many moves the step allows; None for any number."""
    times = repeats_word(step)
    if times in ("any-number", "until-blocked"):
        return None
    if times == "by-rank":
        assert step.times_by_rank is not None, "a by-rank move says how many moves each rank makes"
        return step.times_by_rank[RANK_NAMES[rank]] if rank else 0
    return amount(step.times)


def repeats_word(step: Step) -> int | str:
    """`times` as the card wrote it, 1 when it wrote none."""
    return 1 if step.times is None else step.times


def amount(value: int | str | None) -> int:
    """A `times` or `count` that the op reads as a number; 1 when the card writes none."""
    if value is None:
        return 1
    assert isinstance(value, int), f"a number here, not {value!r}"
    return value


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
           if (not step.per_piece or _may_move_again(step, prog, res.state["board"][sq][0]))
           and not _colour_full(step, prog, res.state["board"][sq][1])]
    times = _times(step, None) if step.times != "by-rank" else None
    if step.last_move_by_self and times and prog.get("n", 0) == times - 1 and not prog.get("self_moved"):
        out = [m for m in out if m[1]]
    return out


def _may_move_again(step: Step, prog: dict[str, Any], pid: int) -> bool:
    """per_piece: each of up to `count` different pieces makes up to `times` moves."""
    moved = prog.get("pieces", [])
    if pid in moved:
        times = _times(step, None)
        return times is None or moved.count(pid) < times
    return len(set(moved)) < amount(step.count)


def _colour_full(step: Step, prog: dict[str, Any], color: int) -> bool:
    """Dark Sphere: at most `max_per_color` of the pieces moved may share a colour."""
    most = step.max_per_color
    return most is not None and prog.get("colors", []).count(color) >= most


def _kind(step: Step, prog: dict[str, Any], is_being: bool) -> str:
    kind = step.kind if step.kind is not None else "standard"
    if kind == "combat-or-standard":
        return "standard" if prog.get("combat_used") else "combat"
    if kind == "combat-or-two-standard":              # a first move may be combat, a second is standard
        return "standard" if prog.get("n") else "combat"
    if kind == "standard-for-self-combat-for-others":
        return "standard" if is_being else "combat"
    return kind


def enterable(kind: str, mover_rank: int, occupant: list[Any] | None) -> bool:
    if occupant is None:
        return True
    if kind == "empty-only":
        return False
    if kind == "standard":
        return cast("bool", occupant[2] < mover_rank)
    return cast("bool", occupant[2] <= mover_rank)


def _direction_rule(res: Resolution, step: Step, prog: dict[str, Any]) -> str | None:
    rule = step.direction
    if rule == "fixed":
        return prog.get("dir")
    if rule and rule.startswith("same-as:"):
        return res.result(rule.split(":", 1)[1]).get("dir") or "none"
    if rule and rule.startswith("opposite-of:"):
        base = res.result(rule.split(":", 1)[1]).get("dir")
        return turned(base, 4) if base else "none"
    return None


def _steered(res: Resolution, step: Step, prog: dict[str, Any]) -> list[str] | None:
    """Directions of a charge steered by the card's arrows: the first move toward an arrow, then
    straight on ('marked-then-fixed') or straight on or turned 45 degrees ('marked-then-max-45-turn');
    None for other moves."""
    rule = step.direction
    if rule not in ("marked-then-fixed", "marked-then-max-45-turn"):
        return None
    last = prog.get("dir")
    if last is None:
        return _arrows(res)
    return [last] if rule == "marked-then-fixed" else [turned(last, -1), last, turned(last, 1)]


def _ends_ok(res: Resolution, step: Step, src: str, dst: str) -> bool:
    rule = step.ends_on
    if rule is None:
        return True
    board = res.state["board"]
    if rule == "marked":
        return dst in where_squares(res, "marked")
    if rule.startswith("square:"):
        return dst in res.result(rule.split(":", 1)[1]).get("squares", [])
    if rule == "empty-or-heroic":
        return dst not in board or board[dst][2] == HEROIC
    if rule == "red-or-green-square":
        return dst in COLOURED
    if rule == "colorless":
        return dst not in COLOURED
    if rule == "not-gateway":
        return dst != gateway_square(res)
    if rule.startswith("at-distance:"):
        origin = res.being_square()
        return origin is not None and distance(origin, dst) == int(rule.split(":")[1])
    if rule == "adjacent-to:own-piece-other-than-mover":
        return any(n != src and n in board and board[n][1] == res.color for n in ADJACENT[dst])
    raise ValueError(f"unknown ends_on: {rule}")


def _destinations(res: Resolution, step: Step, prog: dict[str, Any], src: str) -> list[str]:
    via = step.via
    if via == "leap":
        return [sq for sq in SQUARES if sq != src]
    if via.startswith("leap:"):
        return list(at_distance(src, int(via.split(":")[1])))
    if step.direction == "toward:gateway":
        return toward(res, src)
    steered = _steered(res, step, prog)
    if steered is not None:
        return [sq for sq in (next(ray(src, d, 1), None) for d in steered) if sq]
    fixed = _direction_rule(res, step, prog)
    if fixed == "none":
        return []
    if fixed:
        nxt = next(ray(src, fixed, 1), None)
        return [nxt] if nxt else []
    return list(ADJACENT[src])


def move_options(res: Resolution, step: Step, prog: dict[str, Any]) -> list[dict[str, Any]]:
    board = res.state["board"]
    out = []
    for src, is_being in _movers(res, step, prog):
        mover_rank = board[src][2]
        kind = _kind(step, prog, is_being)
        for dst in _destinations(res, step, prog, src):
            if enterable(kind, mover_rank, board.get(dst)) and _ends_ok(res, step, src, dst):
                out.append({"type": "move", "from": src, "to": dst})
    return out


def _note(prog: dict[str, Any], **values: Any) -> None:
    for key, value in values.items():
        prog.setdefault(key, []).append(value)


def move_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    n = prog.get("n", 0)
    if answer is None:
        limit = prog.get("times", _times(step, None) if step.times != "by-rank" else 1)
        if step.per_piece and limit is not None:
            limit *= amount(step.count)
        if prog.get("stop") or (limit is not None and n >= limit):
            return Done(n > 0)
        options = move_options(res, step, prog)
        if not options:
            return Done(n > 0)
        can_skip = step.up_to or step.times == "any-number" or (step.optional and n == 0)
        return Ask("move", options, can_skip, "Move a piece", {"done": n, "of": limit})
    if is_skip(answer):
        return Done(n > 0)
    _apply_move(res, step, prog, answer["from"], answer["to"])
    return None


def _apply_move(res: Resolution, step: Step, prog: dict[str, Any], src: str, dst: str) -> None:
    board = res.state["board"]
    pid, color, rank = board[src]
    if prog.get("n", 0) == 0 and step.times == "by-rank":
        prog["times"] = _times(step, rank)
    occupant = board.get(dst)
    if step.kind == "combat-or-standard" and occupant and occupant[2] == rank:
        prog["combat_used"] = True
    if step.kind == "combat-or-two-standard" and occupant and occupant[2] == rank:
        prog["stop"] = True                           # the one combat move was made: no second move
    direction = direction_between(src, dst)
    if direction and step.direction == "fixed":
        prog["dir"] = direction
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
        if step.stop_after == "destroyed-legendary" and victim[1] == LEGENDARY:
            prog["stop"] = True


# --- shots -------------------------------------------------------------------------------------------

def _shot_directions(res: Resolution, step: Step) -> list[str]:
    rule = _aim(step)
    if rule.startswith("both-45-degrees-from:"):
        base = res.result(rule.split(":", 1)[1]).get("dir")
        return [turned(base, -1), turned(base, 1)] if base else []
    origin = res.frame["origin"]
    out = [direction_between(origin, sq) for sq in res.marked("direction")]
    if _fans_out(res, step):
        out += _arrows(res)
    return sorted({d for d in out if d}, key=list(DIRECTIONS).index)


def _fans_out(res: Resolution, step: Step) -> bool:
    """Whether a later step also shoots at 45 degrees from this one (Fire Dragon)."""
    spread = f"both-45-degrees-from:{step.id}"
    return step.id is not None and any(s.direction == spread for s in root_steps(res.frame))


def _aim(step: Step) -> str:
    """A shot's `direction`: the card's arrows ('marked') unless the card says otherwise."""
    return step.direction if step.direction is not None else "marked"


def _arrows(res: Resolution) -> list[str]:
    """Every arrow of the card in the orientation used, off-board ones included: an arrow past the
    edge still fans out at 45 degrees onto the board."""
    being = CARDS.beings.get(res.frame["card"])
    if being is None or res.frame.get("orientation") is None:
        return []
    o = next(o for o in being.orientations if o.index == res.frame["orientation"])
    return [DIRECTION_OF[(dx, dy)] for dx, dy, kind in o.marked
            if kind == "direction" and (dx, dy) in DIRECTION_OF]


def _fire(res: Resolution, step: Step, prog: dict[str, Any], direction: str) -> None:
    being = res.being_square()
    if being is None:
        return
    spec, board = step.destroy or Selector(), res.state["board"]
    reach = step.range
    limit = 9 if reach == "to-edge" else int(reach)
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
    times = amount(step.times)
    directions = _shot_directions(res, step)
    if _aim(step).startswith("both-45-degrees-from:"):
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
