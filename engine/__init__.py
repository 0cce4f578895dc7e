"""Tash-Kalar rules engine: pure functions over plain data, standard library only.

    events = new_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": "x"})
    state = replay(events)
    for command in legal_commands(state, seat):          # complete commands, e.g.
        ...                                              # {"seat": 1, "type": "choose", "square": "c5"}
    state = replay(events + decide(state, command))

`decide` raises RuleError (with a stable `code`) and changes nothing when a command is refused.
"""
from __future__ import annotations

from .api import annotated_commands, apply, decide, evolve, legal_commands, new_game, replay
from .cards import CARDS
from .errors import RuleError
from .evolve import EVENT_VERSIONS
from .notation import from_text, to_text
from .position import from_position
from .shapes import Command, GameEvent, GameState
from .state import State
from .views import player_view, redact


__all__ = [
    "CARDS", "Command", "EVENT_VERSIONS", "GameEvent", "GameState", "RuleError", "State", "annotated_commands", "apply", "decide", "evolve", "from_position", "from_text",
    "legal_commands", "new_game", "player_view", "redact", "replay", "to_text",
]
