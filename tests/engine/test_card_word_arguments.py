"""The argument of a 'name:arg' word is checked at load too: a step id the card has, a number, a
rank, a marked-square kind of the card's own pattern. A card that refers to a step it does not have
(`did:s9`, `ref: s4`) would otherwise read an empty result and quietly do nothing."""
from __future__ import annotations

import pytest

from engine import CARDS
from engine.effects.interpreter import OPS, WORDS
from engine.effects.select import ARGS, CONDITIONS, WHERE
from engine.effects.words import unknown_words
from tests.engine.test_card_words import refused_at_import


def _unknown(args):
    return unknown_words(CARDS, OPS, CONDITIONS, WHERE, WORDS, args)


def test_every_argument_of_the_shipped_cards_is_right():
    assert _unknown(ARGS) == []


def test_a_name_without_an_argument_check_takes_no_argument():
    found = _unknown({k: v for k, v in ARGS.items() if k != "within"})
    assert any(w.endswith("where 'within:3'") for w in found)
    assert any("where 'within:2&adjacent-to:own-piece'" not in w and "within:2" in w for w in found), \
        "each part of an '&' where is checked"


@pytest.mark.parametrize("old, new, named", [
    ('"if": "did:s1"', '"if": "did:s9"', "condition 'did:s9'"),
    ('"where": "adjacent-to:s1"', '"where": "adjacent-to:s7"', "where 'adjacent-to:s7'"),
    ('"where": "within:3"', '"where": "within:three"', "where 'within:three'"),
    ('"where": "marked:purple"', '"where": "marked:purpel"', "where 'marked:purpel'"),
    ('"where": "anywhere"', '"where": "anywhere:now"', "where 'anywhere:now'"),
    ('"ref": "s1"', '"ref": "s4"', "ref 's4'"),
    ('"exclude": ["s1"]', '"exclude": ["s5"]', "exclude 's5'"),
])
def test_a_card_with_a_wrong_argument_fails_at_import(tmp_path, old, new, named):
    refused_at_import(tmp_path, old, new, "UnknownCardWord", named)
