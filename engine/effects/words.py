"""Card words checked against the interpreter at load: every op, condition and `where` word a
card's steps use must be one the interpreter knows, so a misspelt or new word fails when the engine is imported,
naming the card, rather than in the middle of someone's game.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, Collection, Iterator, Mapping

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
    """The conditions ('name' or 'name:arg') of an `if`: a condition, 'not:' a condition, a tuple of
    all, any of an AnyOf."""
    if cond is None:
        return
    if isinstance(cond, (tuple, AnyOf)):
        for c in cond.conditions if isinstance(cond, AnyOf) else cond:
            yield from _conditions(c)
    else:
        yield from _conditions(cond[4:]) if cond.startswith("not:") else iter([cond])


@dataclass(frozen=True)
class CardFacts:
    """What an argument of a card's word may name: the ids of the card's steps (for 'did:s1',
    'adjacent-to:s1'...) and the kinds of its pattern's marked squares (for 'marked:purple')."""

    ids: frozenset[str]
    marked: frozenset[str]


ArgCheck = Callable[[str, CardFacts], bool]
"""Whether `arg` is a right argument for a `where` or condition name 'name:arg' on a card."""


def _facts(cards: Catalogue) -> dict[str, CardFacts]:
    """Each card's facts, from one walk of the card parts."""
    ids: dict[str, set[str]] = {}
    for card, steps in card_parts(cards):
        ids.setdefault(card, set()).update(s.id for s in all_steps(steps) if s.id)
    out = {}
    for card, card_ids in ids.items():
        being = cards.beings.get(card)
        marked = frozenset(k for o in being.orientations for _, _, k in o.marked) if being else frozenset()
        out[card] = CardFacts(frozenset(card_ids), marked)
    return out


def _arguments(card: str, kind: str, words: Iterator[str], args: Mapping[str, ArgCheck], facts: CardFacts) -> Iterator[str]:
    """Every 'name:arg' whose name takes no argument, or whose argument its check refuses."""
    for word in words:
        name, colon, arg = word.partition(":")
        check = args.get(name)
        if colon and (check is None or not check(arg, facts)):
            yield f"{card}: {kind} {word!r}"


def _references(card: str, step: Step, facts: CardFacts) -> Iterator[str]:
    """Every `ref` and `exclude` of the step and its selectors that names no step of the card
    ('self', the being, is the one other thing an `exclude` may name)."""
    for sel in selectors(step):
        if sel.ref is not None and sel.ref not in facts.ids:
            yield f"{card}: ref {sel.ref!r}"
        yield from (f"{card}: exclude {ref!r}" for ref in sel.exclude if ref != "self" and ref not in facts.ids)


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
                  wheres: Mapping[str, Any], vocab: Vocabulary | None = None,
                  args: Mapping[str, ArgCheck] | None = None) -> list[str]:
    """Every word of the card data the tables do not define, named with its card: ops, condition
    and `where` names (and, given `args`, their arguments), and the words of `vocab`'s fields."""
    out = []
    card_facts = _facts(cards)
    for card, steps in card_parts(cards):
        facts = card_facts[card]
        for step in all_steps(steps):
            if step.op not in ops:
                out.append(f"{card}: op {step.op!r}")
            conds = [c for cond in (step.if_, step.until) for c in _conditions(cond)]
            out.extend(f"{card}: condition {n!r}" for c in conds if (n := c.partition(":")[0]) not in conditions)
            places = [part for sel in selectors(step) if sel.where for part in sel.where.split("&")]
            out.extend(f"{card}: where {n!r}" for p in places if (n := p.partition(":")[0]) not in wheres)
            if args is not None:
                out.extend(_arguments(card, "condition", iter(conds), args, facts))
                out.extend(_arguments(card, "where", iter(places), args, facts))
                out.extend(_references(card, step, facts))
            out.extend(_field_words(card, step, vocab or {}))
    return out


def where_names(where: str) -> list[str]:
    """The names a `where` value uses: 'name' or 'name:arg', parts joined by '&'."""
    return [part.partition(":")[0] for part in where.split("&")]


def check(cards: Catalogue, ops: Mapping[str, Any], conditions: Mapping[str, Any], wheres: Mapping[str, Any],
          vocab: Vocabulary, args: Mapping[str, ArgCheck]) -> None:
    """Raise UnknownCardWord naming every card word the interpreter does not know."""
    unknown = unknown_words(cards, ops, conditions, wheres, vocab, args)
    if unknown:
        raise UnknownCardWord("card data uses words the interpreter does not know: " + "; ".join(unknown))
