"""The engine's public functions in one place, typed with the shapes of engine/shapes.py.

The engine works on those shapes inside too (`State` is GameState, events are GameEvents, commands
are Commands), so what a caller sees is the functions themselves, with no wrapper between:

    decide(state, command) -> events        legal_commands(state, seat) -> commands
    annotated_commands(state, seat)         replay(events, state=None) -> state
    evolve(state, event) -> state           apply(state, event): in place
    new_game(options, release=None) -> events

tests/engine/test_shapes.py checks that the data fits the types.
"""
from __future__ import annotations

from .decide import decide
from .display import annotated_commands
from .evolve import apply, evolve, replay
from .legal import legal_commands
from .setup import new_game

__all__ = ["annotated_commands", "apply", "decide", "evolve", "legal_commands", "new_game", "replay"]
