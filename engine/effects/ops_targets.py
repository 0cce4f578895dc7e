"""Ops that pick pieces or squares one at a time: destroy, upgrade, downgrade, convert, place,
choose_piece, choose_square; and convert of the being itself into an enemy colour (Frostweave
Illusionist).

They share one loop: list the candidates, ask for one (or take all of them for count 'all'),
apply, count, and stop at the step's count, when nothing is left, or when the player stops.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, cast

from ..card_steps import Selector, Step
from .. import pieces
from ..cards import RANK_NAMES, RANKS
from ..geometry import ADJACENT
from ..state import COMMON, HEROIC, LEGENDARY, enemy_colors, has_supply
from .frame import Resolution, steps_at
from .outcomes import Ask, Done, Outcome, is_skip
from .select import piece_squares, where_squares

PROMPTS = {
    "destroy": "Choose a piece to destroy", "upgrade": "Choose a piece to upgrade",
    "downgrade": "Choose a piece to downgrade", "convert": "Choose an enemy piece to convert",
    "place": "Choose an empty square to place a piece on", "choose_piece": "Choose a piece",
    "choose_square": "Choose a square",
}
# Later steps that change how the destruction by the step they name counts (Deathbringer); they
# take effect with the destruction itself, in its PieceDestroyed event
DESTRUCTION_TERMS = {"count_destroyed_twice": ("weight", 2), "remove_from_game": ("removed", True)}


# The words a `count` may be instead of a number, each with what it allows now ('all' stays 'all');
# 'per-destroyed:s1+s2' counts the pieces the named steps destroyed
COUNTS: dict[str, Callable[[Resolution, str], "int | str"]] = {
    "all": lambda res, _: "all",
    "one-per-color": lambda res, _: len(enemy_colors(res.state, res.color)),
    "per-destroyed": lambda res, refs: sum(len(res.result(r).get("destroyed", [])) for r in refs.split("+")),
}


def step_count(res: Resolution, step: Step) -> int | str:
    """How many pieces or squares the step's `count` allows now."""
    if isinstance(step.count, int):
        return step.count
    name, _, arg = step.count.partition(":")
    return COUNTS[name](res, arg)


def step_number(res: Resolution, step: Step) -> int:
    """The step's count where only a number makes sense (actions, draws, squares, modifier uses)."""
    count = step_count(res, step)
    if not isinstance(count, int):
        raise ValueError(f"count {count!r} is not a number of times")
    return count


# `to_rank` of a conversion: the rank the piece takes ('same': the one it had)
TO_RANK: dict[str, Callable[[int], int]] = {"common": lambda rank: COMMON, "same": lambda rank: rank}


def converted_rank(step: Step, rank: int) -> int:
    return TO_RANK[step.to_rank or "common"](rank)


CHOSEN = "chosen"           # a place step's rank: the player picks one of its rank_choices


def place_rank(step: Step) -> str:
    """The rank a place step puts down when the card names one (common when it names none)."""
    return step.rank or "common"


def _eligible(res: Resolution, step: Step, sq: str) -> bool:
    """Op-specific: can this op act on the piece standing on `sq`?"""
    op = step.op
    _, color, rank = res.state["board"][sq]
    if op == "upgrade":
        return rank == COMMON or (rank == HEROIC and has_supply(res.state, color, LEGENDARY))
    if op == "downgrade":
        return rank == HEROIC or (rank == LEGENDARY and has_supply(res.state, color, HEROIC))
    if op == "convert":
        return has_supply(res.state, res.color, converted_rank(step, rank))
    if op == "destroy":
        return _requirement_met(res, (step.requires or {}).get(RANK_NAMES[rank]), sq)
    return True


def _requirement_met(res: Resolution, need: Mapping[str, int] | None, sq: str) -> bool:
    """Deathbringer: a target of some ranks needs enough of your other pieces beside it."""
    if not need:
        return True
    board, being = res.state["board"], res.frame["being"]
    others = sum(1 for n in ADJACENT[sq] if n in board and board[n][1] == res.color and board[n][0] != being)
    return others >= need["min_other_own_pieces_adjacent_to_target"]


def destruction_terms(res: Resolution, step: Step) -> dict[str, Any]:
    """How the destruction by `step` counts: its weight and whether the piece leaves the game."""
    terms: dict[str, Any] = {"removed": False, "weight": 1}
    for later in steps_at(res.frame, res.top["path"]):
        if step.id is not None and later.ref == step.id and later.op in DESTRUCTION_TERMS:
            key, value = DESTRUCTION_TERMS[later.op]
            terms[key] = value
    return terms


def piece_candidates(res: Resolution, step: Step, prog: dict[str, Any]) -> list[str]:
    rank = None if step.op == "upgrade" and step.ref is not None else step.rank
    sel = Selector(who=step.who, rank=rank, where=step.where, exclude=step.exclude, ref=step.ref)
    done = set(prog.get("pieces", ()))
    out = [sq for sq in piece_squares(res, sel)
           if res.state["board"][sq][0] not in done and _eligible(res, step, sq)]
    if step.where == "connected-group-anywhere" and prog.get("squares"):
        group = set(prog["squares"])
        out = [sq for sq in out if group.intersection(ADJACENT[sq])]
    if step.count == "one-per-color":
        used = set(prog.get("colors", ()))
        out = [sq for sq in out if res.state["board"][sq][1] not in used]
    return out


def place_colors(res: Resolution, step: Step, rank: int) -> list[int]:
    choices = [res.color] if step.who in (None, "own") else enemy_colors(res.state, res.color)
    return [c for c in choices if has_supply(res.state, c, rank)]


def _place_options(res: Resolution, step: Step) -> list[dict[str, Any]]:
    ranks = step.rank_choices if step.rank == CHOSEN else (place_rank(step),)
    out: list[dict[str, Any]] = []
    for rank in ranks:
        cols = place_colors(res, step, RANKS[rank])
        for col in cols:
            with res.binding({"color": col}):           # 'adjacent-to:same-color-piece' reads it
                squares = sorted(sq for sq in where_squares(res, step.where) if sq not in res.state["board"])
            for sq in squares:
                cmd: dict[str, Any] = {"type": "choose", "square": sq}
                if len(ranks) > 1:
                    cmd["rank"] = rank
                if step.who == "enemy" and len(enemy_colors(res.state, res.color)) > 1:
                    cmd["color"] = col
                out.append(cmd)
    return out


def _options(res: Resolution, step: Step, prog: dict[str, Any]) -> list[dict[str, Any]]:
    if step.op == "place":
        return _place_options(res, step)
    if step.op == "choose_square":
        return [{"type": "choose", "square": sq} for sq in sorted(where_squares(res, step.where))]
    return [{"type": "choose", "square": sq} for sq in piece_candidates(res, step, prog)]


def _note(prog: dict[str, Any], **values: Any) -> None:
    for key, value in values.items():
        prog.setdefault(key, []).append(value)


def _apply(res: Resolution, step: Step, prog: dict[str, Any], cmd: dict[str, Any]) -> None:
    op, sq, ctx = step.op, cmd["square"], res.ctx
    if op == "place":
        rank = RANKS[cmd.get("rank", place_rank(step))]
        color = cmd.get("color", place_colors(res, step, rank)[0])
        pid = pieces.place(ctx, sq, color, rank, cause="effect")
        _note(prog, pieces=pid, squares=sq, colors=color, ranks=rank)
        return
    if op == "choose_square":
        _note(prog, squares=sq)
        return
    pid, color, rank = res.state["board"][sq]
    _note(prog, pieces=pid, squares=sq, colors=color, ranks=rank)
    if op == "destroy":
        if pid == res.frame["being"] and step.who == "self":
            res.frame["flags"]["self_destroyed_at"] = sq     # Bomb: 'around it' still means this square
        pieces.destroy(ctx, sq, res.seat, credited=step.credited, **destruction_terms(res, step))
        _note(prog, destroyed=[color, rank])
        res.frame["destroyed"] += 1
    elif op == "upgrade":
        pieces.set_rank(ctx, sq, rank + 1, cause="upgrade")
        _note(prog, ranks_after=rank + 1)
    elif op == "downgrade":
        pieces.set_rank(ctx, sq, rank - 1, cause="downgrade")
    elif op == "convert":
        pieces.convert(ctx, sq, res.seat, converted_rank(step, rank))
        _note(prog, destroyed=[color, rank])
        res.frame["destroyed"] += 1


def target_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    limit = step_count(res, step)
    if limit == "all":
        squares = [o["square"] for o in _options(res, step, prog)]
        for sq in squares:
            _apply(res, step, prog, {"type": "choose", "square": sq})
        return Done(bool(squares))
    n = len(prog.get("squares", ()))
    if answer is None:
        options = _options(res, step, prog) if n < cast(int, limit) else []
        if not options:
            return Done(n > 0)
        can_skip = step.up_to or (step.optional and n == 0)
        return Ask("square", options, can_skip, PROMPTS[step.op], {"op": step.op, "done": n, "of": limit})
    if is_skip(answer):
        return Done(n > 0)
    _apply(res, step, prog, answer)
    return None


def convert_op(res: Resolution, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
    """Enemy pieces into yours (the shared target loop); with `to_color`, the being itself into a
    piece of an enemy colour that has one in supply (Frostweave Illusionist: not a destruction)."""
    if step.to_color is None:
        return target_op(res, step, prog, answer)
    square = res.being_square()
    if square is None:
        return Done(False)
    pid, color, old = res.state["board"][square]
    rank = converted_rank(step, old)
    if answer is None:
        colors = [c for c in enemy_colors(res.state, res.color) if has_supply(res.state, c, rank)]
        if not colors:
            return Done(False)
        return Ask("color", [{"type": "choose", "color": c} for c in colors], step.optional,
                   "Choose the enemy colour the being turns into")
    if is_skip(answer):
        return Done(False)
    res.ctx.emit("PieceConverted", square=square, piece=pid, from_color=color, from_rank=RANK_NAMES[old],
                 to_color=answer["color"], to_rank=RANK_NAMES[rank], by=res.seat, credited=False)
    return Done(True)


# `to_color` of a convert: the being itself turns into a piece of an enemy colour (the only kind)
TO_COLOR = frozenset({"enemy"})
# The step words this module reads besides the selector's (select.WORDS), checked at load
WORDS: dict[str, frozenset[str]] = {
    "count": frozenset(COUNTS), "to_rank": frozenset(TO_RANK), "to_color": TO_COLOR,
    "rank": frozenset({CHOSEN}), "rank_choices": frozenset(RANKS),
}

OPS: dict[str, Callable[[Resolution, Step, dict[str, Any], dict[str, Any] | None], Outcome]] = {
    **{op: target_op for op in PROMPTS}, "convert": convert_op,
}
