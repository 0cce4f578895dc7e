"""The words of the move, shot, Etherweave, Everfrost and turn ops (ops_move.WORDS, ops_warp.WORDS,
ops_frost.WORDS, ops_turn.WORDS) are the tables those ops read: every shipped card's word is in them,
each of their words is one a shipped card uses, and a card with a word they do not hold fails at import.
"""
from __future__ import annotations

import pytest

from engine import CARDS
from engine.effects import interpreter, ops_frost, ops_move, ops_turn, ops_warp
from engine.effects.select import CONDITIONS, RANK_FILTERS, WHERE
from engine.effects.words import unknown_words, vocabulary
from tests.engine.test_card_words import refused_at_import

TABLES = vocabulary(ops_move.WORDS, ops_warp.WORDS, ops_frost.WORDS, ops_turn.WORDS)


def _unknown(vocab: dict[str, frozenset[str]]) -> list[str]:
    return unknown_words(CARDS, interpreter.OPS, CONDITIONS, WHERE, vocab)


def _without(field: str, word: str) -> dict[str, frozenset[str]]:
    return {**TABLES, field: TABLES[field] - {word}}


def test_the_shipped_cards_use_only_words_of_these_tables():
    assert _unknown(TABLES) == []


# blocked_by takes select.py's rank names, most of which no shot is blocked by
OWN_WORDS = sorted((field, word) for field, words in TABLES.items() if field != "blocked_by" for word in words)


@pytest.mark.parametrize("field, word", OWN_WORDS, ids=[f"{f}={w}" for f, w in OWN_WORDS])
def test_each_word_of_a_table_is_one_a_shipped_card_uses(field, word):
    found = _unknown(_without(field, word))
    assert found and all(f" {field} '{word}" in line for line in found)


@pytest.mark.parametrize("field, word, card, written", [
    ("times", "until-blocked", "everfrost-frost-imp", "until-blocked"),
    ("kind", "combat-or-two-standard", "etherweave-ziggurat-sentinel", "combat-or-two-standard"),
    ("ends_on", "adjacent-to", "sylvan-kiskin-boughrunner", "adjacent-to:own-piece-other-than-mover"),
    ("direction", "toward", "nethervoid-power-seeker", "toward:gateway"),
    ("direction", "both-45-degrees-from", "legends-fire-dragon", "both-45-degrees-from:s1"),
    ("via", "leap", "sylvan-charging-buck", "leap:2"),
    ("stop_after", "destroyed-legendary", "legends-hell-bull", "destroyed-legendary"),
    ("blocked_by", "legendary", "northern-gun-tower", "legendary"),
    ("source", "pending-being", "etherweave-doppelganger", "pending-being"),
    ("among", "mirror-sides", "everfrost-crystal-mirror", "mirror-sides"),
    ("card", "this", "nethervoid-hell-hound", "this"),
])
def test_a_word_taken_from_its_table_is_named_with_the_card_that_writes_it(field, word, card, written):
    assert f"{card}: {field} {written!r}" in _unknown(_without(field, word))


def test_a_shot_is_blocked_only_by_a_rank_name():
    assert TABLES["blocked_by"] == frozenset(RANK_FILTERS)


def test_the_interpreter_checks_every_word_of_these_tables():
    assert all(words <= interpreter.WORDS[field] for field, words in TABLES.items())


def test_a_card_with_a_misspelt_move_word_fails_at_import(tmp_path):
    refused_at_import(tmp_path, '"kind": "combat-or-two-standard"', '"kind": "combat-or-too-standard"', "UnknownCardWord", "kind 'combat-or-too-standard'")


def test_a_card_with_a_misspelt_ends_on_word_fails_at_import(tmp_path):
    refused_at_import(tmp_path, '"ends_on": "not-gateway"', '"ends_on": "not-gateaway"', "UnknownCardWord", "ends_on 'not-gateaway'")
