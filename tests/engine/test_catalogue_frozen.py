"""The card catalogue cannot be changed at run time: neither a card nor the tables that hold them."""
from __future__ import annotations

import dataclasses

import pytest

from engine import CARDS


def test_no_card_can_be_added_replaced_or_changed():
    being = next(iter(CARDS.beings.values()))
    for table in (CARDS.beings, CARDS.flares, CARDS.tasks, CARDS.decks):
        with pytest.raises(TypeError):
            table["new-card"] = being          # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        being.name = "Renamed"                 # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        being.steps[0].op = "nothing"          # type: ignore[misc]
