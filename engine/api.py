"""The engine's public functions, typed with the shapes of engine/shapes.py.

Inside, the engine passes plain dicts (`State`, `Event`: dict[str, Any]) between small functions;
at the boundary a caller sees what they hold: a GameState, Commands, GameEvents. The casts cost
nothing at run time (the values are the same dicts), and tests/engine/test_shapes.py checks that
the data fits the types.
"""
from __future__ import annotations

from typing import Any, Sequence, cast

from .decide import decide as _decide
from .display import annotated_commands as _annotated_commands
from .evolve import apply as _apply, evolve as _evolve, replay as _replay
from .legal import legal_commands as _legal_commands
from .setup import new_game as _new_game
from .shapes import Command, GameEvent, GameState
from .state import State


def decide(state: GameState, command: Command) -> list[GameEvent]:
    """The events `command` causes in `state`; raises RuleError and changes nothing if refused."""
    return cast("list[GameEvent]", _decide(cast("State", state), cast("dict[str, Any]", command)))


def legal_commands(state: GameState, seat: int) -> list[Command]:
    """Every command `seat` may send now, each complete (with its "seat") and accepted as is."""
    return cast("list[Command]", _legal_commands(cast("State", state), seat))


def annotated_commands(state: GameState, seat: int) -> list[Command]:
    """`legal_commands` with the display-only "squares" a client shows each choice with."""
    return cast("list[Command]", _annotated_commands(cast("State", state), seat))


def replay(events: Sequence[GameEvent], state: GameState | None = None) -> GameState:
    """Fold events through the reducers, from nothing or from a given state (left unchanged)."""
    return cast("GameState", _replay(cast("list[dict[str, Any]]", events), cast("State | None", state)))


def evolve(state: GameState, event: GameEvent) -> GameState:
    """The state after `event`; `state` itself is left unchanged."""
    return cast("GameState", _evolve(cast("State", state), cast("dict[str, Any]", event)))


def apply(state: GameState, event: GameEvent) -> None:
    """Fold one event into `state` in place."""
    _apply(cast("State", state), cast("dict[str, Any]", event))


def new_game(options: dict[str, Any]) -> list[GameEvent]:
    """The events that create a game: shuffles, hands, tasks, and the first decision or turn."""
    return cast("list[GameEvent]", _new_game(options))


