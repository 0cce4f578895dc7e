"""The engine's words, defined once: forms and their seats, ranks, command types and error codes.

The server's schemas validate with these, the OpenAPI document lists them and GET /vocabulary
serves them to the web client, so no list is copied by hand anywhere. Command types are checked
against the handlers that implement them by tests/engine/test_vocabulary.py.
"""
from __future__ import annotations

from .errors import ERROR_CODES

FORMS = ("high_form", "duel", "melee")
TEAM_FORMS = ("high_form", "duel")              # the forms that may be played 2 vs 2
SEATS: dict[str, tuple[int, ...]] = {"high_form": (2,), "duel": (2,), "melee": (3, 4)}   # players a form is played by
TEAM_SEATS = 4                                   # a team game: two sides of two
RANKS = ("common", "heroic", "legendary")        # in rising order; a piece's rank in the state is 1, 2, 3
ANSWERS = ("choose", "move", "skip")             # answers to a pending decision
TURN_COMMANDS = ("place", "summon", "discard", "flare", "claim_task", "end_turn", "pass_control", "thaw", "warp")
ANY_TIME_COMMANDS = ("resign", "claim_win")
STEP_COMMANDS = ("undo", "redo")                 # step back and forth within a turn (engine/undo.py)
OPTION_COMMANDS = ("seat_options",)              # a seat's settings, no move of the game (engine/confirm.py)
COMMAND_TYPES = TURN_COMMANDS + ANY_TIME_COMMANDS + ANSWERS + STEP_COMMANDS + OPTION_COMMANDS   # every command a player may send
SYSTEM_COMMANDS = ("timeout",)                   # sent by the server's clock only, never by a player
DIRECTIONS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")


def vocabulary() -> dict[str, object]:
    """Everything above as one JSON-able document (GET /vocabulary adds the computer's levels, which
    live in engine/ai: importing them here would put the whole search inside the fold's fingerprint)."""
    return {"forms": list(FORMS), "team_forms": list(TEAM_FORMS), "ranks": list(RANKS),
            "seats": {form: list(counts) for form, counts in SEATS.items()}, "team_seats": TEAM_SEATS,
            "command_types": list(COMMAND_TYPES), "answers": list(ANSWERS), "directions": list(DIRECTIONS),
            "error_codes": [{"code": code, "when": when} for code, when in ERROR_CODES.items()]}
