"""One vocabulary: the engine's words are defined once, implemented, and published as they are."""
from __future__ import annotations

import ast

import engine
from engine import actions, commands
from engine.errors import ERROR_CODES, RuleError
from engine.vocabulary import (ANSWERS, ANY_TIME_COMMANDS, COMMAND_TYPES, FORMS, OPTION_COMMANDS, SEATS, STEP_COMMANDS,
                               SYSTEM_COMMANDS, TEAM_FORMS, TEAM_SEATS, TURN_COMMANDS, vocabulary)
from events.snapshots import ENGINE_DIR


def _raised_codes() -> set[str]:
    """Every literal code of a RuleError(...) in the engine; a code held in a variable is named
    in the same function as a literal (schools.py picks one of two)."""
    found = set()
    for path in ENGINE_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError" and node.args:
                if isinstance(node.args[0], ast.Constant):
                    found.add(node.args[0].value)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp) \
                    and all(isinstance(v, ast.Constant) for v in (node.value.body, node.value.orelse)) \
                    and getattr(node.targets[0], "id", "") == "code":
                found.update({node.value.body.value, node.value.orelse.value})
    return found


def test_every_rule_error_code_is_in_the_catalogue_and_every_entry_is_raised():
    assert _raised_codes() == set(ERROR_CODES)


def test_every_command_type_has_its_handler():
    assert set(actions.HANDLERS) | set(commands.ANY_TIME) == set(TURN_COMMANDS) | set(ANY_TIME_COMMANDS)
    assert set(COMMAND_TYPES) == set(TURN_COMMANDS) | set(ANY_TIME_COMMANDS) | set(ANSWERS) | set(STEP_COMMANDS) | set(OPTION_COMMANDS)
    assert not set(SYSTEM_COMMANDS) & set(COMMAND_TYPES)


def test_the_vocabulary_document_holds_every_word():
    doc = vocabulary()
    assert doc["forms"] == ["high_form", "duel", "melee"] and doc["ranks"] == ["common", "heroic", "legendary"]
    assert set(doc["command_types"]) == set(COMMAND_TYPES)
    assert {e["code"] for e in doc["error_codes"]} == set(ERROR_CODES)



def test_every_form_starts_with_exactly_the_seats_the_vocabulary_names():
    for form in FORMS:
        for players in range(1, 6):
            options = {"form": form, "seats": [{"school": "random"}] * players, "seed": "s"}
            try:
                engine.new_game(options)
            except RuleError as error:
                assert error.code == "wrong_player_count" and players not in SEATS[form], (form, players)
            else:
                assert players in SEATS[form], (form, players)
        if form in TEAM_FORMS:
            engine.new_game({"form": form, "teams": True, "seats": [{"school": "random"}] * TEAM_SEATS, "seed": "s"})
