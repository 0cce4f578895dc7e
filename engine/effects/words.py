"""Card words checked against the interpreter at load: every op and condition a card's steps use
must be one the interpreter knows, so a misspelt or new word fails when the engine is imported,
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


def unknown_words(cards: Catalogue, ops: Mapping[str, Any], conditions: Mapping[str, Any]) -> list[str]:
    out = []
    for card, steps in card_parts(cards):
        for step in _steps(steps):
            if step.get("op") not in ops:
                out.append(f"{card}: op {step.get('op')!r}")
            out.extend(f"{card}: condition {name!r}" for name in _conditions(step.get("if")) if name not in conditions)
    return out


def check(cards: Catalogue, ops: Mapping[str, Any], conditions: Mapping[str, Any]) -> None:
    """Raise UnknownCardWord naming every card word the interpreter does not know."""
    unknown = unknown_words(cards, ops, conditions)
    if unknown:
        raise UnknownCardWord("card data uses words the interpreter does not know: " + "; ".join(unknown))
