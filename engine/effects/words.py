"""Card words checked against the interpreter at load: every op, condition and `where` word a
card's steps use must be one the interpreter knows, so a misspelt or new word fails when the engine is imported,
naming the card, rather than in the middle of someone's game.
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from ..cards import Catalogue


class UnknownCardWord(ValueError):
    """Card data that uses a word of the step vocabulary the interpreter does not define."""


def _steps(steps: Any) -> Iterator[dict[str, Any]]:
    for step in steps:
        yield step
        yield from _steps(step.get("steps", ()))
        for option in step.get("options", ()):
            yield from _steps(option.get("steps", ()))


def _conditions(cond: Any) -> Iterator[str]:
    """The condition names of an `if` (a name, 'not:' a condition, a list of all, {'any': [...]})."""
    if cond is None:
        return
    if isinstance(cond, list):
        for c in cond:
            yield from _conditions(c)
    elif isinstance(cond, dict):
        for c in cond.get("any", ()):
            yield from _conditions(c)
    else:
        text = str(cond)
        yield from _conditions(text[4:]) if text.startswith("not:") else iter([text.partition(":")[0]])


def _wheres(value: Any) -> Iterator[str]:
    """The `where` values of a step and of its selectors (mover, first, second...), not of the
    steps nested in it (those are steps of their own)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "where" and isinstance(inner, str):
                yield inner
            elif key not in ("steps", "options", "if"):
                yield from _wheres(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _wheres(inner)


def card_parts(cards: Catalogue) -> Iterator[tuple[str, Any]]:
    """(card id, steps) of every part of every card that the interpreter runs."""
    for being in cards.beings.values():
        yield being.id, being.steps
        for part in (being.frozen, being.warp):
            if part:
                yield being.id, part.get("steps", ())
    for flare in cards.flares.values():
        yield flare.id, flare.upper.get("steps", ())
        yield flare.id, flare.lower.get("steps", ())


def unknown_words(cards: Catalogue, ops: Mapping[str, Any], conditions: Mapping[str, Any],
                  wheres: Mapping[str, Any]) -> list[str]:
    out = []
    for card, steps in card_parts(cards):
        for step in _steps(steps):
            if step.get("op") not in ops:
                out.append(f"{card}: op {step.get('op')!r}")
            out.extend(f"{card}: condition {name!r}" for name in _conditions(step.get("if")) if name not in conditions)
            out.extend(f"{card}: where {name!r}" for where in _wheres(step) for name in where_names(where)
                       if name not in wheres)
    return out


def where_names(where: str) -> list[str]:
    """The names a `where` value uses: 'name' or 'name:arg', parts joined by '&'."""
    return [part.partition(":")[0] for part in where.split("&")]


def check(cards: Catalogue, ops: Mapping[str, Any], conditions: Mapping[str, Any], wheres: Mapping[str, Any]) -> None:
    """Raise UnknownCardWord naming every card word the interpreter does not know."""
    unknown = unknown_words(cards, ops, conditions, wheres)
    if unknown:
        raise UnknownCardWord("card data uses words the interpreter does not know: " + "; ".join(unknown))
