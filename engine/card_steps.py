"""Card steps as the card reads them: the data file's step lists parsed once, at import, into frozen
dataclasses.

Why: an op handler reads `step.count`, not `step.get("count", 1)`, so a misspelt key is a type
error, an unknown key in the data fails at load naming the card, and no run can change a card.
The words inside a step (its op, `if`, `where`, `who`...) are checked against the interpreter's
tables by engine/effects/words.py, at the interpreter's import.

The JSON keys are the field names, except `if` (a Python keyword), read into `Step.if_`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Mapping, Union


class UnknownCardKey(ValueError):
    """A key in the card data that no step, selector or part declares."""


class UnknownCardWord(ValueError):
    """Card data with a value no table of the engine reads: an op, condition or step word the
    interpreter does not define, a task word no task rule interprets, a card kind, deck, rank,
    anchor or task type the loader does not know."""


@dataclass(frozen=True, slots=True)
class AnyOf:
    """An `if` of the form {"any": [...]}: holds when one of its conditions does."""

    conditions: tuple["Condition", ...]


# A condition name ('did:s1', 'not:...'), all of a tuple of conditions, or any of an AnyOf.
Condition = Union[str, tuple["Condition", ...], AnyOf]


@dataclass(frozen=True, slots=True)
class Selector:
    """Which pieces a step may pick: owner (`who`), rank, area (`where`), pieces it may not pick
    (`exclude`: 'self' or step ids), the pieces of an earlier step (`ref`), or one of several
    selectors (`any_of`)."""

    who: str | None = None
    rank: str | None = None
    where: str | None = None
    exclude: tuple[str, ...] = ()
    ref: str | None = None
    any_of: tuple["Selector", ...] = ()


@dataclass(frozen=True, slots=True)
class Option:
    """One branch of a `choose` step: its label and the steps it runs."""

    label: str
    steps: tuple["Step", ...]


@dataclass(frozen=True, slots=True)
class Step(Selector):
    """One instruction of a card's effect (CARDS.md section 3). A step is also the selector of the
    pieces it acts on; its nested selectors (`mover`, `destroy`, `first`, `second`) are Selectors."""

    op: str = ""
    id: str | None = None
    if_: Condition | None = None
    optional: bool = False
    up_to: bool = False
    count: int | str = 1
    times: int | str = 1
    kind: str = "standard"
    via: str = "move"
    mover: Selector | None = None
    direction: str | None = None
    range: int | str = "to-edge"
    ends_on: str | None = None
    blocked_by: str | None = None
    same_piece: bool = False
    per_piece: bool = False
    max_destroyed: int | None = None
    max_per_color: int | None = None
    combat_allowance: int | None = None
    last_move_by_self: bool = False
    stop_after: str | None = None
    to_rank: str | None = None
    to_color: str | None = None
    rank_choices: tuple[str, ...] = ()
    times_by_rank: Mapping[str, int] | None = None
    destroy: Selector | None = None
    first: Selector | None = None
    second: Selector | None = None
    requires: Mapping[str, Mapping[str, int]] | None = None
    options: tuple[Option, ...] = ()
    steps: tuple["Step", ...] = ()
    until: tuple[str, ...] = ()
    modifier: str | None = None
    scope: str | None = None
    source: str | None = None
    deck: str | None = None
    card: str | None = None
    by: str | None = None
    among: str | None = None
    credited: bool = True


@dataclass(frozen=True, slots=True)
class Part:
    """A run of steps a card holds besides its main effect: a being's `frozen` or `warp` effect,
    a flare's `upper` or `lower` half (with the `threshold` that makes it playable)."""

    steps: tuple[Step, ...]
    summary: str = ""
    threshold: int = 0                  # a flare half: how far behind its player must be


_ATTRS = {"if": "if_"}
"""JSON keys that are Python keywords, and the field each is read into."""


def _attr(key: str) -> str:
    return _ATTRS.get(key, key)


def _condition(raw: Any) -> Condition:
    if isinstance(raw, list):
        return tuple(_condition(c) for c in raw)
    if isinstance(raw, dict):
        return AnyOf(tuple(_condition(c) for c in raw["any"]))
    return str(raw)


def _keys(cls: type, raw: Mapping[str, Any], where: str) -> None:
    known = {f.name for f in fields(cls)}
    raw = {_attr(key): value for key, value in raw.items()}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise UnknownCardKey(f"{where}: unknown key(s) {unknown} in {cls.__name__}")


def selector(raw: Mapping[str, Any], where: str) -> Selector:
    _keys(Selector, raw, where)
    return Selector(who=raw.get("who"), rank=raw.get("rank"), where=raw.get("where"),
                    exclude=tuple(raw.get("exclude", ())), ref=raw.get("ref"),
                    any_of=tuple(selector(s, where) for s in raw.get("any_of", ())))


_SELECTORS = ("mover", "destroy", "first", "second")
_TUPLES = ("exclude", "rank_choices", "until")


def step(raw: Mapping[str, Any], where: str) -> Step:
    """One step from the data file; `where` names the card (and part) for a refusal."""
    _keys(Step, raw, where)
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "if":
            value = _condition(value)
        elif key in _SELECTORS:
            value = selector(value, where)
        elif key in _TUPLES:
            value = tuple(value)
        elif key == "any_of":
            value = tuple(selector(s, where) for s in value)
        elif key == "steps":
            value = steps(value, where)
        elif key == "options":
            value = tuple(option(o, where) for o in value)
        elif key == "times_by_rank":
            value = MappingProxyType(dict(value))
        elif key == "requires":
            value = MappingProxyType({k: MappingProxyType(dict(v)) for k, v in value.items()})
        values[_attr(key)] = value
    return Step(**values)


def option(raw: Mapping[str, Any], where: str) -> Option:
    """One branch of a choice: its label and its steps, both required."""
    _keys(Option, raw, where)
    if "label" not in raw or not raw.get("steps"):
        raise UnknownCardKey(f"{where}: an option needs a label and steps, got {sorted(raw)}")
    return Option(raw["label"], steps(raw["steps"], where))


def steps(raw: Any, where: str) -> tuple[Step, ...]:
    return tuple(step(s, where) for s in raw)


def part(raw: Mapping[str, Any], where: str, threshold: bool = False) -> Part:
    """A card's frozen or warp effect, or (`threshold`: it must say how far behind) a flare's half."""
    _keys(Part, raw, where)
    if threshold and not isinstance(raw.get("threshold"), int):
        raise UnknownCardKey(f"{where}: a flare half needs its threshold")
    return Part(steps(raw.get("steps", ()), where), raw.get("summary", ""), raw.get("threshold", 0))
