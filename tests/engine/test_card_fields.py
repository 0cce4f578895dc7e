"""The loader reads every card field it keeps, and refuses naming the card a kind, deck, rank, anchor
or task type it has no reading of, and a key no card of that kind holds."""
import copy

import pytest

from engine.card_steps import UnknownCardKey
from engine.card_steps import UnknownCardWord
from engine.cards import RAW_CARD_DATA, load
from tests.engine.test_card_words import refused_at_import


def _load_with(card_id, change):
    """load() on a copy of the card data where `change(card)` has edited card `card_id`."""
    raw = copy.deepcopy(RAW_CARD_DATA)
    change(next(c for deck in raw["decks"] for c in deck["cards"] if c["id"] == card_id))
    return load(raw)


@pytest.mark.parametrize("card, change, message", [
    ("highland-warlord", lambda c: c.update(kind="beeing"), "kind 'beeing'"),
    ("highland-warlord", lambda c: c.update(rank="heroik"), "rank 'heroik'"),
    ("highland-warlord", lambda c: c["pattern"][0].__setitem__(2, "legend"), "rank 'legend'"),
    ("highland-warlord", lambda c: c.update(anchor="fre"), "anchor 'fre'"),
    ("legends-fire-dragon", lambda c: c.update(deck="legend"), "deck 'legend'"),
    ("tasks-destruction", lambda c: c.update(type="destructon"), "type 'destructon'"),
    ("flares-00", lambda c: c.pop("kind"), "kind None"),
])
def test_a_card_value_the_engine_does_not_read_is_refused_naming_the_card(card, change, message):
    with pytest.raises(UnknownCardWord, match=f"^{card}: {message}$"):
        _load_with(card, change)


@pytest.mark.parametrize("card", ["highland-warlord", "flares-00", "tasks-destruction"])
def test_a_key_no_card_of_its_kind_holds_is_refused_naming_the_card(card):
    with pytest.raises(UnknownCardKey, match=f"^{card}: unknown key.*'symetry'"):
        _load_with(card, lambda c: c.update(symetry=8))


def test_the_shipped_data_loads_every_being_with_a_known_anchor():
    cards = load()
    assert {b.anchor for b in cards.beings.values()} == {"being", "free"}
    assert cards.beings["etherweave-time-traveler"].anchor == "free"


def test_a_being_with_an_unknown_anchor_fails_at_import(tmp_path):
    refused_at_import(tmp_path, '"anchor": "free"', '"anchor": "freely"', "UnknownCardWord", "etherweave-time-traveler: anchor 'freely'")
