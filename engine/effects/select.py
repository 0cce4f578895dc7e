"""Reading the step vocabulary: which squares a `where` names, which pieces `who`/`rank` allow,
and whether an `if` condition holds. Values are those of CARDS.md section 3.
"""
from __future__ import annotations

from typing import Callable, Iterable, cast

from ..geometry import (ADJACENT, CENTRE, COLOURED, DIAG_ADJACENT, GREEN, ORTHO_ADJACENT, RED, SQUARES,
                        at_distance, direction_between, ray, within)
from ..card_steps import AnyOf, Condition, Selector
from ..cards import CARDS, RANKS
from ..state import COMMON, HEROIC, LEGENDARY, counts, enemy_colors, has_supply, square_of
from .frame import Resolution
from .words import ArgCheck, CardFacts
from .mirror import chosen_copy_squares
from .gateway_words import CONDITIONS as GATEWAY_CONDITIONS, around_gateway, gateway_square, is_gateway
from .warp_words import CONDITIONS as WARP_CONDITIONS, beside_shared_own_piece

RANK_FILTERS = {
    "common": {COMMON}, "heroic": {HEROIC}, "legendary": {LEGENDARY}, "upgraded": {HEROIC, LEGENDARY},
    "non-legendary": {COMMON, HEROIC}, "any": {COMMON, HEROIC, LEGENDARY},
}


def _around(squares: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for sq in squares:
        out.update(ADJACENT[sq])
    return out


def _ref_squares(res: Resolution, ref: str) -> list[str]:
    """Squares a step result points at: where its pieces stand now, else the squares it used."""
    r = res.result(ref)
    now = [sq for sq in (square_of(res.state, p) for p in r.get("pieces", [])) if sq]
    return now or list(r.get("squares", []))


def where_squares(res: Resolution, where: str | None) -> set[str]:
    """The set of squares a `where` value names: 'name' or 'name:arg' of WHERE, or parts joined by
    '&' (every part holds)."""
    if where is None:
        return set(SQUARES)
    if "&" in where:
        parts = [where_squares(res, w) for w in where.split("&")]
        return set.intersection(*parts)
    name, _, arg = where.partition(":")
    if name not in WHERE:
        raise ValueError(f"unknown where: {where}")
    return WHERE[name](res, arg)


Where = Callable[[Resolution, str], "set[str]"]


def _from_being(squares: Callable[[str, str], Iterable[str]]) -> Where:
    """A `where` measured from the being's current square; a being its own effect destroyed (Bomb)
    is measured from the square it was destroyed on, and none names no square."""
    def named(res: Resolution, arg: str) -> set[str]:
        being = res.being_square() or res.frame["flags"].get("self_destroyed_at")
        return set(squares(being, arg)) if being is not None else set()
    return named


def _that_square(res: Resolution, arg: str) -> set[str]:
    sq = res.bind("square")
    return {sq} if sq else set()


def _on_or_adjacent_to(res: Resolution, arg: str) -> set[str]:
    colour = RED if arg.startswith("red") else GREEN
    return set(colour) | _around(colour)


def _adjacent_to_at_least_2(res: Resolution, arg: str) -> set[str]:
    own = {sq for sq, p in res.state["board"].items() if p[1] == res.color}
    return {sq for sq in SQUARES if len(own.intersection(ADJACENT[sq])) >= 2}


_adjacent_to_being = _from_being(lambda being, _: ADJACENT[being])


def _adjacent(res: Resolution, arg: str) -> set[str]:
    if res.marked("area"):
        return set(res.marked("area"))   # Naiad: the neighbours of its summoning square, even once it is gone
    return _adjacent_to_being(res, arg)


WHERE: dict[str, Where] = {
    "anywhere": lambda res, _: set(SQUARES),
    "that-square": _that_square,
    "marked": lambda res, arg: set(res.marked(arg)) if arg else set(res.marked("target") or res.marked()),
    "pattern-piece": lambda res, _: set(res.pattern_squares()),
    "on-or-adjacent-to": _on_or_adjacent_to,
    "colorless": lambda res, _: set(SQUARES) - COLOURED,
    "not-gateway": lambda res, _: set(SQUARES) - {gateway_square(res)},
    "mirror-of-source": lambda res, arg: chosen_copy_squares(res, RANKS[arg]),
    "empty-colorless": lambda res, _: {sq for sq in SQUARES if sq not in COLOURED and sq not in res.state["board"]},
    "adjacent-to": lambda res, arg: _adjacent_to(res, arg),
    "adjacent-to-at-least-2": _adjacent_to_at_least_2,
    "first-piece-beyond": lambda res, arg: _beyond(res, arg, first_piece=True),
    "next-square-beyond": lambda res, arg: _beyond(res, arg, first_piece=False),
    "vacated-by": lambda res, arg: set(res.result(arg).get("vacated", [])),
    "on-marked-ray": lambda res, _: _marked_rays(res),
    "connected-group-anywhere": lambda res, _: set(SQUARES),   # connectivity is checked piece by piece (ops_targets)
    "adjacent": _adjacent,
    "orthogonally-adjacent": _from_being(lambda being, _: ORTHO_ADJACENT[being]),
    "diagonally-adjacent": _from_being(lambda being, _: DIAG_ADJACENT[being]),
    "within": _from_being(lambda being, arg: within(being, int(arg))),
    "at-distance": _from_being(lambda being, arg: at_distance(being, int(arg))),
}


ADJACENT_TO_NAMED = frozenset({"green-square", "red-square", "own-piece", "own-heroic", "enemy-piece", "gateway",
                               "same-color-piece"})
"""The named arguments of 'adjacent-to:<arg>'; any other argument is the id of an earlier step (or
'same-own-piece-as:<id>')."""


def _adjacent_to(res: Resolution, arg: str) -> set[str]:
    board = res.state["board"]
    if arg == "green-square":
        return _around(GREEN) - GREEN
    if arg == "red-square":
        return _around(RED) - RED
    if arg == "own-piece":
        return _around(sq for sq, p in board.items() if p[1] == res.color)
    if arg == "own-heroic":
        return _around(sq for sq, p in board.items() if p[1] == res.color and p[2] == HEROIC)
    if arg == "enemy-piece":
        return _around(sq for sq, p in board.items() if p[1] != res.color)
    if arg == "gateway":
        return around_gateway(res)
    if arg.startswith("same-own-piece-as:"):
        return beside_shared_own_piece(res, arg.split(":", 1)[1])
    if arg == "same-color-piece":                  # a piece of the colour a place step is putting down
        return _around(sq for sq, p in board.items() if p[1] == res.bind("color"))
    return _around(_ref_squares(res, arg))


def _beyond(res: Resolution, ref: str, first_piece: bool) -> set[str]:
    r = res.result(ref)
    direction, being = r.get("dir"), res.being_square()
    if not direction or not being:
        return set()
    for sq in ray(being, direction):
        if not first_piece or sq in res.state["board"]:
            return {sq}
    return set()


def _marked_rays(res: Resolution) -> set[str]:
    being = res.being_square()
    out: set[str] = set()
    if not being:
        return out
    origin = res.frame["origin"]
    for sq in res.marked("direction"):
        d = direction_between(origin, sq)
        if d:
            out.update(ray(being, d))
    return out


Who = Callable[[Resolution, str, int, int], bool]
"""A `who` word: whether a piece of colour `color` (id `pid`) is one it names; `arg` is what
follows its ':' (the step of 'same-color-as:s1')."""


def _enemy(res: Resolution, arg: str, color: int, pid: int) -> bool:
    return color != res.color


def _richer(measure: Callable[[int, int], int]) -> Who:
    """'enemy-with-more-...-than-you': an enemy colour with more pieces of the measured kind
    (measure(total, upgraded)) than the resolving player has."""
    def named(res: Resolution, arg: str, color: int, pid: int) -> bool:
        if color == res.color or color not in enemy_colors(res.state, res.color):
            return False
        return measure(*counts(res.state, color)) > measure(*counts(res.state, res.color))
    return named


WHO: dict[str, Who] = {
    "any": lambda res, arg, color, pid: True,
    "own": lambda res, arg, color, pid: color == res.color,
    "enemy": _enemy,
    "each-enemy-color": _enemy,           # one piece per colour is the count's word ('one-per-color')
    "self": lambda res, arg, color, pid: bool(pid == res.frame["being"]),
    "gateway": lambda res, arg, color, pid: is_gateway(res, pid),
    "same-color-as": lambda res, ref, color, pid: color in res.result(ref).get("colors", []),
    "enemy-with-more-common-pieces-than-you": _richer(lambda total, upgraded: total - upgraded),
    "enemy-with-more-upgraded-pieces-than-you": _richer(lambda total, upgraded: upgraded),
}


def owner_ok(res: Resolution, who: str | None, color: int, pid: int) -> bool:
    """Whether a piece of `color` (id `pid`) satisfies the `who` filter (none: every piece)."""
    if who is None:
        return True
    name, _, arg = who.partition(":")
    return WHO[name](res, arg, color, pid)


Rank = Callable[[Resolution, str, int], bool]
"""A `rank` word: whether a piece of rank `value` is one it names ('same-rank-as:<step>': a rank
the pieces of that step had)."""


def _of_ranks(ranks: set[int]) -> Rank:
    return lambda res, arg, value: value in ranks


RANK: dict[str, Rank] = {
    **{name: _of_ranks(ranks) for name, ranks in RANK_FILTERS.items()},
    "same-rank-as": lambda res, ref, value: value in res.result(ref).get("ranks", []),
}


def rank_ok(res: Resolution, rank: str | None, value: int) -> bool:
    if rank is None:
        return True
    name, _, arg = rank.partition(":")
    return RANK[name](res, arg, value)


# The selector words this module reads, checked against the cards at load (effects/words.py)
WORDS: dict[str, frozenset[str]] = {"who": frozenset(WHO), "rank": frozenset(RANK)}


def excluded(res: Resolution, exclude: tuple[str, ...]) -> set[int]:
    """Piece ids a step may not choose: 'self' and the pieces of the named steps."""
    out: set[int] = set()
    for ref in exclude:
        if ref == "self":
            if res.frame["being"] is not None:
                out.add(res.frame["being"])
        else:
            out.update(res.result(ref).get("pieces", []))
    return out


def piece_squares(res: Resolution, sel: Selector) -> list[str]:
    """Squares of the pieces matching a selector {who, rank, where, exclude, ref}."""
    board = res.state["board"]
    if sel.ref is not None:
        return [sq for sq in _ref_squares(res, sel.ref) if sq in board]
    if sel.who == "self":
        sq = res.being_square()
        return [sq] if sq and rank_ok(res, sel.rank, board[sq][2]) else []
    area = where_squares(res, sel.where)
    banned = excluded(res, sel.exclude)
    only = res.bind("piece")
    out = []
    for sq in sorted(area):
        p = board.get(sq)
        if p is None or p[0] in banned or (only is not None and p[0] != only):
            continue
        if owner_ok(res, sel.who, p[1], p[0]) and rank_ok(res, sel.rank, p[2]):
            out.append(sq)
    return out


# --- conditions -------------------------------------------------------------------------------------

def holds(res: Resolution, cond: Condition | None) -> bool:
    """Whether a step's `if` holds: a name, 'not:' a condition, all of a tuple, any of an AnyOf."""
    if cond is None:
        return True
    if isinstance(cond, tuple):
        return all(holds(res, c) for c in cond)
    if isinstance(cond, AnyOf):
        return any(holds(res, c) for c in cond.conditions)
    if cond.startswith("not:"):
        return not holds(res, cond[4:])
    name, _, arg = cond.partition(":")
    return cast("bool", CONDITIONS[name](res, arg))


def _being_on(colour: frozenset[str]) -> Callable[[Resolution, str | None], bool]:
    return lambda res, _: res.frame["origin"] in colour


CONDITIONS = {
    "always": lambda res, _: True,
    "did": lambda res, a: bool(res.result(a).get("did")),
    "failed": lambda res, a: not res.result(a).get("did"),
    "destroyed": lambda res, a: bool(res.result(a).get("destroyed")),
    "nothing-destroyed": lambda res, a: not res.result(a).get("destroyed"),
    "destroyed-legendary": lambda res, a: any(r == LEGENDARY for _, r in res.result(a).get("destroyed", [])),
    "destroyed-at-least": lambda res, a: res.frame["destroyed"] >= int(a),
    "rank-of": lambda res, a: _rank_of(res, a),
    "target-on-red": lambda res, a: bool(set(res.result(a).get("squares", [])) & RED),
    "upgrade-made-legendary": lambda res, a: LEGENDARY in res.result(a).get("ranks_after", []),
    "marked-square-was-empty": lambda res, _: bool(res.frame["flags"].get("marked_empty")),
    "being-on-green": _being_on(GREEN),
    "being-on-red": _being_on(RED),
    "being-on-noncentral-colored": lambda res, _: res.frame["origin"] in COLOURED - {CENTRE},
    "summon-not-last-action": lambda res, _: res.state["turn"]["actions"] > 0,
    "summoning-destroyed-enemy": lambda res, _: bool(res.frame["flags"].get("summon_killed_enemy")),
    "nothing-destroyed-by-summoning-or-effect":
        lambda res, _: not res.frame["flags"].get("summon_killed") and res.frame["destroyed"] == 0,
    "deck-not-empty": lambda res, _: bool(res.state["decks"][res.seat]),
    "discard-was-empty": lambda res, _: bool(res.frame["flags"].get("discard_was_empty")),
    "some-enemy-has-common-supply":
        lambda res, _: any(has_supply(res.state, c, COMMON) for c in enemy_colors(res.state, res.color)),
    **GATEWAY_CONDITIONS,
    **WARP_CONDITIONS,
}


def _rank_of(res: Resolution, arg: str) -> bool:
    ref, _, rank = arg.partition("=")
    return bool(set(res.result(ref).get("ranks", [])) & RANK_FILTERS[rank])


# --- the arguments of 'name:arg' words, checked at load (engine/effects/words.py) ---------------------

def _ref(arg: str, card: CardFacts) -> bool:
    return arg in card.ids


def _number(arg: str, card: CardFacts) -> bool:
    return arg.isdigit()


def _adjacent_to_arg(arg: str, card: CardFacts) -> bool:
    name, colon, ref = arg.partition(":")
    return (_ref(ref, card) if name == "same-own-piece-as" else not colon and
            (arg in ADJACENT_TO_NAMED or _ref(arg, card)))


def _rank_of_arg(arg: str, card: CardFacts) -> bool:
    ref, _, rank = arg.partition("=")
    return _ref(ref, card) and rank in RANK_FILTERS


_BEING_NAMES = frozenset(b.name for b in CARDS.beings.values())
"""What 'card-in-own-discard:<arg>' may name."""

ARGS: dict[str, ArgCheck] = {
    # where
    "marked": lambda arg, card: arg in card.marked,
    "on-or-adjacent-to": lambda arg, card: arg in ("red-square", "green-square"),
    "mirror-of-source": lambda arg, card: arg in RANKS,
    "adjacent-to": _adjacent_to_arg,
    "adjacent-to-at-least-2": lambda arg, card: arg == "own-piece",
    "first-piece-beyond": _ref, "next-square-beyond": _ref, "vacated-by": _ref,
    "within": _number, "at-distance": _number,
    # conditions
    "did": _ref, "failed": _ref, "destroyed": _ref, "nothing-destroyed": _ref, "destroyed-legendary": _ref,
    "target-on-red": _ref, "upgrade-made-legendary": _ref, "no-common-piece-adjacent-to": _ref,
    "destroyed-at-least": _number, "rank-of": _rank_of_arg,
    "card-in-own-discard": lambda arg, card: arg in _BEING_NAMES,
}
"""For each `where` or condition name that takes an argument, whether an argument is right on a
card: a step id of that card, a number, a rank, a marked-square kind of its pattern... A name not
here takes no argument."""
