"""The bot that finishes a timed-out or abandoned seat's turn: quick, legal and predictable.

It takes the first listed command of the most conservative kind available: claim a task or end
the turn when it may, decline optional steps, answer a mandatory choice with its first option,
else summon, place or discard. It never resigns, invokes a flare or passes control.
"""
from __future__ import annotations

from .legal import legal_commands
from .shapes import Command, without
from .state import State

PREFERENCE = ("claim_task", "end_turn", "skip", "choose", "move", "summon", "place", "discard")


def choose(state: State, seat: int) -> Command:
    listed = [without(c, ("seat",)) for c in legal_commands(state, seat)]
    for kind in PREFERENCE:
        for command in listed:
            if command["type"] == kind:
                return command
    raise ValueError("autoplay found no command to play")
