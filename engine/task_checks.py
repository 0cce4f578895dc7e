"""High Form task checks as the card reads them: a task's `checks` parsed once, at import, into
frozen dataclasses, one class per kind of check.

Why one class per kind: the kinds share almost no fields (a chain names its ends, an isolation a
distance and a number of moves), so each class holds only what its kind reads. A key that belongs
to another kind is refused at load naming the card, instead of being silently ignored; a field the
rule cannot do without (`squares`, `min_difference`, ...) has no default, so a card without it
fails at import too. A `min_*` count the card does not state defaults to 0: no threshold.

The words inside a check (`who`, `squares`, `between`, ...) are checked against the tables of
engine/tasks.py, which interprets them, when that module is imported.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, Mapping, Sequence, Union

from .card_steps import UnknownCardKey, UnknownCardWord


class MalformedTaskCheck(ValueError):
    """A task check without a field its kind needs, or with a value of the wrong type."""


@dataclass(frozen=True, slots=True)
class DestroyedThisTurn:
    """Pieces the player destroyed this turn (Destruction, Devastation, End of Legends)."""

    who: str
    min_total: int = 0
    min_upgraded: int = 0           # heroic or legendary
    min_heroic: int = 0
    min_legendary: int = 0


@dataclass(frozen=True, slots=True)
class PiecesOn:
    """The player's pieces on a named square set (the Conquests, Central Dominance, Diagonals)."""

    squares: str
    who: str
    min_total: int = 0
    min_upgraded: int = 0
    min_legendary: int = 0


@dataclass(frozen=True, slots=True)
class CompareUpgradedOn:
    """The player's upgraded pieces on a square set against each opponent's (Rainbow Dominance)."""

    squares: str
    relation: str


@dataclass(frozen=True, slots=True)
class SummonedThisTurn:
    """Beings the player summoned this turn (the Summonings)."""

    min_beings: int = 0
    min_on_red: int = 0
    min_on_green: int = 0
    min_on_red_or_green: int = 0
    min_legendary: int = 0


@dataclass(frozen=True, slots=True)
class LineDifference:
    """On one line of a set, the player's pieces outnumber the others' by `min_difference`."""

    lines: str
    min_difference: int


@dataclass(frozen=True, slots=True)
class Chain:
    """A chain of the player's pieces linking two opposite ends of the board (Side/Corner Chain)."""

    who: str
    between: str
    adjacency: str


@dataclass(frozen=True, slots=True)
class AroundEnemyPiece:
    """Some enemy piece with `min_adjacent` of the player's pieces around it (Imprisonment)."""

    who: str
    min_adjacent: int


@dataclass(frozen=True, slots=True)
class Isolation:
    """Some enemy piece with a fellow at `partner_at_distance` that cannot join one in `max_moves`."""

    who: str
    partner_at_distance: int
    max_moves: int
    path: str


@dataclass(frozen=True, slots=True)
class AnyOf:
    """At least one of the sub-checks holds (End of Legends, Center Cross)."""

    of: tuple[TaskCheck, ...]


@dataclass(frozen=True, slots=True)
class EachOf:
    """Every sub-check holds (Diagonals)."""

    of: tuple[TaskCheck, ...]


TaskCheck = Union[DestroyedThisTurn, PiecesOn, CompareUpgradedOn, SummonedThisTurn, LineDifference, Chain,
                  AroundEnemyPiece, Isolation, AnyOf, EachOf]

KINDS: Mapping[str, type[TaskCheck]] = {
    "destroyed-this-turn": DestroyedThisTurn, "pieces-on": PiecesOn, "compare-upgraded-on": CompareUpgradedOn,
    "summoned-this-turn": SummonedThisTurn, "line-difference": LineDifference, "chain": Chain,
    "around-enemy-piece": AroundEnemyPiece, "isolation": Isolation, "any-of": AnyOf, "each-of": EachOf,
}
"""The `check` word of the data file -> the class its check is read into."""

_VALUE_TYPES = {"int": int, "str": str, "tuple[TaskCheck, ...]": list}   # field type -> JSON type


def checks(raw: Sequence[Mapping[str, Any]], card: str) -> tuple[TaskCheck, ...]:
    """A task's `checks` from the data file; `card` names the task in a refusal."""
    return tuple(check(c, card) for c in raw)


def check(raw: Mapping[str, Any], card: str) -> TaskCheck:
    """One check: its `check` word picks the class, its other keys are the class's fields."""
    kind = raw.get("check")
    if not isinstance(kind, str) or kind not in KINDS:
        raise UnknownCardWord(f"{card}: check {kind!r}")
    cls = KINDS[kind]
    values = {k: v for k, v in raw.items() if k != "check"}
    _refuse_malformed(cls, values, card, kind)
    if cls in (AnyOf, EachOf):
        values["of"] = checks(values["of"], card)
    return cls(**values)


def _refuse_malformed(cls: type[TaskCheck], values: Mapping[str, Any], card: str, kind: str) -> None:
    """Refuse a key `cls` does not declare, a field it needs that is missing, a value of another type."""
    declared = {f.name: f for f in fields(cls)}
    unknown = sorted(set(values) - set(declared))
    if unknown:
        raise UnknownCardKey(f"{card}: unknown key(s) {unknown} in a {kind!r} check")
    missing = sorted(name for name, f in declared.items() if f.default is MISSING and name not in values)
    if missing:
        raise MalformedTaskCheck(f"{card}: {missing} missing in a {kind!r} check")
    for name, value in values.items():
        expected = _VALUE_TYPES[str(declared[name].type)]
        if type(value) is not expected:
            raise MalformedTaskCheck(f"{card}: {name} {value!r} in a {kind!r} check is not {expected.__name__}")


def all_checks(checks: Sequence[TaskCheck]) -> list[TaskCheck]:
    """Every check of a list with the sub-checks of its any-of / each-of, depth first."""
    out: list[TaskCheck] = []
    for c in checks:
        out.append(c)
        if isinstance(c, (AnyOf, EachOf)):
            out.extend(all_checks(c.of))
    return out
