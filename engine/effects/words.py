"""Card words checked against the interpreter at load: every op, condition and `where` word a
card's steps use must be one the interpreter knows, so a misspelt or new word fails when the engine is imported,
naming the card, rather than in the middle of someone's game.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any, Collection, Iterator, Mapping

from ..card_steps import AnyOf, Condition, Selector, Step, UnknownCardWord
from ..cards import Catalogue


def all_steps(steps: tuple[Step, ...]) -> Iterator[Step]:
    """Every step of a list, with the steps nested in it (a block's, an option's), depth first."""
    for step in steps:
        yield step
        yield from all_steps(step.steps)
        for option in step.options:
            yield from all_steps(option.steps)


def _conditions(cond: Condition | None) -> Iterator[str]:
    """The condition names of an `if` (a name, 'not:' a condition, a tuple of all, any of an AnyOf)."""
    if cond is None:
        return
    if isinstance(cond, (tuple, AnyOf)):
        for c in cond.conditions if isinstance(cond, AnyOf) else cond:
            yield from _conditions(c)
    else:
        yield from _conditions(cond[4:]) if cond.startswith("not:") else iter([cond.partition(":")[0]])


def selectors(step: Step) -> Iterator[Selector]:
    """The step itself and the selectors it holds (mover, destroy, first, second, any_of), not the
    steps nested in it (those are steps of their own)."""
    pending: list[Selector] = [step]
    while pending:
        sel = pending.pop()
        yield sel
        pending.extend(sel.any_of)
        if isinstance(sel, Step):
            pending.extend(s for s in (sel.mover, sel.destroy, sel.first, sel.second) if s is not None)


def card_parts(cards: Catalogue) -> Iterator[tuple[str, tuple[Step, ...]]]:
    """(card id, steps) of every part of every card that the interpreter runs."""
    for being in cards.beings.values():
        yield being.id, being.steps
        for part in (being.frozen, being.warp):
            if part:
                yield being.id, part.steps
    for flare in cards.flares.values():
        yield flare.id, flare.upper.steps
        yield flare.id, flare.lower.steps


Vocabulary = Mapping[str, Collection[str]]
"""The names a step or selector field may take ({"who": {"own", "enemy", ...}}): each ops module
offers one for the fields it reads (its WORDS), and a value 'name:arg' is checked by its name."""


def vocabulary(*tables: Vocabulary) -> dict[str, frozenset[str]]:
    """The words of every ops module joined per field (a field two modules read takes both's words);
    a field no Step or Selector declares is refused, so a table cannot name a field by a typo."""
    known = {f.name for f in fields(Step)}
    joined: dict[str, frozenset[str]] = {}
    for table in tables:
        for name, words in table.items():
            if name not in known:
                raise ValueError(f"no step field is called {name!r}")
            joined[name] = joined.get(name, frozenset()) | frozenset(words)
    return joined


def _field_words(card: str, step: Step, vocab: Vocabulary) -> Iterator[str]:
    for sel in selectors(step):
        for name, words in vocab.items():
            value = getattr(sel, name, None)
            for word in (value if isinstance(value, tuple) else (value,)):
                if isinstance(word, str) and word.partition(":")[0] not in words:
                    yield f"{card}: {name} {word!r}"


def unknown_words(cards: Catalogue, ops: Mapping[str, Any], conditions: Mapping[str, Any],
                  wheres: Mapping[str, Any], vocab: Vocabulary | None = None) -> list[str]:
    out = []
    for card, steps in card_parts(cards):
        for step in all_steps(steps):
            if step.op not in ops:
                out.append(f"{card}: op {step.op!r}")
            for cond in (step.if_, step.until):
                out.extend(f"{card}: condition {name!r}" for name in _conditions(cond) if name not in conditions)
            out.extend(f"{card}: where {name!r}" for sel in selectors(step) if sel.where
                       for name in where_names(sel.where) if name not in wheres)
            out.extend(_field_words(card, step, vocab or {}))
    return out


def where_names(where: str) -> list[str]:
    """The names a `where` value uses: 'name' or 'name:arg', parts joined by '&'."""
    return [part.partition(":")[0] for part in where.split("&")]


def check(cards: Catalogue, ops: Mapping[str, Any], conditions: Mapping[str, Any], wheres: Mapping[str, Any],
          vocab: Vocabulary) -> None:
    """Raise UnknownCardWord naming every card word the interpreter does not know."""
    unknown = unknown_words(cards, ops, conditions, wheres, vocab)
    if unknown:
        raise UnknownCardWord("card data uses words the interpreter does not know: " + "; ".join(unknown))
