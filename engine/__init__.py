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
from .display import annotated_commands
from .errors import RuleError
from .evolve import EVENT_VERSIONS, apply, evolve, replay
from .legal import legal_commands
from .notation import from_text, to_text
from .position import from_position
from .setup import new_game
from .state import State
from .views import player_view, redact


__all__ = [
    "CARDS", "EVENT_VERSIONS", "RuleError", "State", "annotated_commands", "apply", "decide", "evolve", "from_position", "from_text",
    "legal_commands", "new_game", "player_view", "redact", "replay", "to_text",
]
