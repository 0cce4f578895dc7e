"""Tash-Kalar rules engine: pure functions over plain data, standard library only.

    events = new_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": "x"})
    state = replay(events)
    for command in legal_commands(state, seat):          # complete commands, e.g.
        ...                                              # {"seat": 1, "type": "choose", "square": "c5"}
    state = replay(events + decide(state, command))

`decide` raises RuleError (with a stable `code`) and changes nothing when a command is refused.
"""
from __future__ import annotations

from .cards import CARDS
from .decide import decide
from .errors import RuleError
from .evolve import EVENT_VERSIONS, apply, evolve
from .legal import legal_commands
from .notation import from_text, to_text
from .position import from_position
from .setup import new_game
from .state import State, clone
from .views import player_view, redact


def replay(events: list[dict], state: State | None = None) -> State:
    """Fold events through the reducers, from nothing or from a given state (left unchanged)."""
    out: State = clone(state) if state is not None else {}
    for event in events:
        apply(out, event)
    return out


__all__ = [
    "CARDS", "EVENT_VERSIONS", "RuleError", "State", "decide", "evolve", "from_position", "from_text",
    "legal_commands", "new_game", "player_view", "redact", "replay", "to_text",
]
