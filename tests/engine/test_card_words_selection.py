"""The selection and target words (who, rank, count, to_rank, by, deck, modifier...) are checked at
load against the tables that interpret them: a word taken out of its table names every card that
uses it, and a card with a misspelt word fails at import."""
from __future__ import annotations

import importlib
import pkgutil

import pytest

import engine.effects
from engine import CARDS, etherweave, summon
from engine.effects import ops_flow, ops_targets, select
from engine.effects.interpreter import OPS, WORDS
from engine.effects.select import CONDITIONS, WHERE
from engine.effects.words import all_steps, card_parts, selectors, unknown_words
from engine.state import HAND_LIMITS

from .test_card_words import refused_at_import


def _cards_using(field: str, name: str) -> set[str]:
    """The cards with a step or selector whose `field` is the word `name` (or 'name:arg')."""
    return {card for card, steps in card_parts(CARDS) for step in all_steps(steps) for sel in selectors(step)
            if isinstance(getattr(sel, field, None), str) and getattr(sel, field).partition(":")[0] == name}


@pytest.mark.parametrize("field, name", [
    ("who", "gateway"), ("who", "same-color-as"), ("who", "each-enemy-color"),
    ("who", "enemy-with-more-common-pieces-than-you"), ("who", "enemy-with-more-upgraded-pieces-than-you"),
    ("rank", "same-rank-as"), ("rank", "chosen"), ("rank", "non-legendary"), ("rank", "upgraded"),
    ("count", "all"), ("count", "one-per-color"), ("count", "per-destroyed"),
    ("to_rank", "same"), ("to_color", "enemy"), ("by", "rank-of-chosen-own-piece"),
    ("deck", "legends"), ("source", "own-discard"), ("modifier", "use-color-of"),
    ("modifier", "empty-squares-as-own-common"),
])
def test_a_word_taken_out_of_its_table_names_every_card_that_uses_it(field, name):
    users = _cards_using(field, name)
    assert users, f"some card uses {field} {name!r}"
    vocab = {**WORDS, field: WORDS[field] - {name}}
    found = unknown_words(CARDS, OPS, CONDITIONS, WHERE, vocab)
    named = {entry.partition(":")[0] for entry in found}
    assert named == users
    assert all(f": {field} '{name}" in entry for entry in found)


def test_a_tuple_field_is_checked_word_by_word():
    vocab = {**WORDS, "rank_choices": WORDS["rank_choices"] - {"legendary"}}
    found = unknown_words(CARDS, OPS, CONDITIONS, WHERE, vocab)
    assert found and all(entry.endswith("rank_choices 'legendary'") for entry in found)


def test_the_interpreter_checks_the_words_its_tables_interpret():
    assert WORDS["who"] == set(select.WHO)
    assert set(select.RANK) <= WORDS["rank"] and ops_targets.CHOSEN in WORDS["rank"]
    assert WORDS["count"] == set(ops_targets.COUNTS) and WORDS["to_rank"] == set(ops_targets.TO_RANK)
    assert WORDS["by"] == set(ops_flow.CHOOSE_BY) and WORDS["deck"] == set(ops_flow.DRAW_DECKS)


def test_every_effects_module_that_offers_words_is_joined_by_the_interpreter():
    offered = [importlib.import_module(f"engine.effects.{m.name}") for m in pkgutil.iter_modules(engine.effects.__path__)]
    tables = [m.WORDS for m in offered if m.__name__ != "engine.effects.interpreter" and hasattr(m, "WORDS")]
    assert len(tables) >= 7
    for table in tables:
        for field, words in table.items():
            assert set(words) <= WORDS[field], field


def test_the_modifier_words_are_those_the_summoning_reads():
    assert ops_flow.MODIFIERS == {summon.WAR_SUMMONING, summon.POSSESSION, etherweave.VOID_SUMMONING}


def test_an_extra_draw_names_a_deck_the_end_of_turn_draws_from():
    assert set(ops_flow.DRAW_DECKS.values()) <= set(HAND_LIMITS)


@pytest.mark.parametrize("old, new, word", [
    ('"who": "enemy-with-more-common-pieces-than-you"', '"who": "enemy-with-more-commons"', "who 'enemy-with-more-commons'"),
    ('"rank": "same-rank-as:s1"', '"rank": "same-rank:s1"', "rank 'same-rank:s1'"),
    ('"count": "one-per-color"', '"count": "one-per-colour"', "count 'one-per-colour'"),
])
def test_a_card_with_a_misspelt_selection_word_fails_at_import(tmp_path, old, new, word):
    refused_at_import(tmp_path, old, new, "UnknownCardWord", word)
