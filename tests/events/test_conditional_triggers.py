"""Which triggers of a conditional reply (events/conditionals.py) what a seat saw of the others fits."""
from __future__ import annotations

import pytest

from events.conditionals import matches

SEEN = [
    {"type": "BeingSummoned", "seat": 1, "card": "legends-titan", "square": "e5", "color": 1, "piece": 9},
    {"type": "PieceDestroyed", "square": "d4", "color": 0, "piece": 3, "by": 1},
    {"type": "PieceMoved", "from": "c3", "to": "c4", "piece": 4, "color": 0},
    {"type": "PieceMoved", "from": "g5", "to": "g6", "piece": 7, "color": 1},
    {"type": "TaskClaimed", "seat": 1, "color": 1, "task": "tasks-destruction"},
]


@pytest.mark.parametrize("when,fits", [
    ({"kind": "summon"}, True), ({"kind": "summon", "card": "legends-titan", "square": "e5"}, True),
    ({"kind": "summon", "square": "e6"}, False), ({"kind": "destroyed", "square": "d4"}, True),
    ({"kind": "destroyed", "square": "e5"}, False), ({"kind": "moved", "square": "c3"}, True),
    ({"kind": "moved", "square": "g5"}, False),            # the others' own piece moved: not mine
    ({"kind": "flare"}, False), ({"kind": "task", "task": "tasks-destruction"}, True), ({"kind": "anything"}, True),
])
def test_a_trigger_fits_what_the_seat_saw(when, fits):
    assert matches(when, SEEN, mine=0) is fits
    assert matches(when, [], mine=0) is (when["kind"] == "anything")
