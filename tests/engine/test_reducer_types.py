"""Each reducer is typed with its own event's TypedDict: the name a reducer is registered under
and the type of the event it takes agree, so mypy checks every reducer against its event's keys."""
from __future__ import annotations

from typing import get_type_hints

from engine.evolve import REDUCERS
from engine.shapes import EVENT_SHAPES, GameState


def test_every_reducer_takes_the_state_and_its_own_event_type():
    wrong = {}
    for name, reducer in REDUCERS.items():
        hints = get_type_hints(reducer)
        state, event = (hints[p] for p in reducer.__code__.co_varnames[:2])
        if state is not GameState or event is not EVENT_SHAPES[name]:
            wrong[name] = (state, event)
    assert wrong == {}
    assert len(REDUCERS) == len(EVENT_SHAPES)
