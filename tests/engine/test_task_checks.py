"""Task checks are read like the card: parsed once at import into frozen dataclasses, their keys and
words checked at load, so a task the rules cannot read fails at import naming the card."""
from __future__ import annotations

import dataclasses
import json

import pytest

from engine import CARDS
from engine.card_steps import UnknownCardKey
from engine.card_steps import UnknownCardWord
from engine.task_checks import KINDS, AnyOf, Chain, EachOf, MalformedTaskCheck, PiecesOn, check
from engine import tasks
from engine.tasks import RULES, unknown_words
from tests.engine.test_card_words import refused_at_import

from tests.engine.helpers import REFERENCE


def _reference_tasks():
    return [c for deck in json.loads(REFERENCE.read_text())["decks"] if deck["kind"] == "tasks" for c in deck["cards"]]


def _same(parsed, ref):
    """The parsed check says what the reference check says, field by field (an unstated count is 0)."""
    assert type(parsed) is KINDS[ref["check"]]
    for f in dataclasses.fields(parsed):
        value = getattr(parsed, f.name)
        if isinstance(parsed, (AnyOf, EachOf)):
            assert len(value) == len(ref["of"])
            for sub, ref_sub in zip(value, ref["of"]):
                _same(sub, ref_sub)
        else:
            assert value == ref.get(f.name, f.default), f"{f.name} of a {ref['check']!r} check"


@pytest.mark.parametrize("card", _reference_tasks(), ids=lambda c: c["id"])
def test_every_task_parses_to_the_checks_of_the_reference(card):
    parsed = CARDS.tasks[card["id"]].checks
    assert len(parsed) == len(card["condition_steps"])
    for c, ref in zip(parsed, card["condition_steps"]):
        _same(c, ref)


def test_a_parsed_check_cannot_be_changed():
    c = CARDS.tasks["tasks-red-conquest"].checks[0]
    assert isinstance(c, PiecesOn) and (c.squares, c.min_total, c.min_upgraded) == ("red", 3, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.min_total = 1     # type: ignore[misc]


def test_every_kind_of_check_has_a_rule_and_every_word_field_a_table():
    assert set(RULES) == set(KINDS.values())
    for cls, rule in RULES.items():
        words = {f.name for f in dataclasses.fields(cls) if f.type == "str"}
        assert set(rule.words) == words, f"{cls.__name__}: every word field is checked, and only those"


def test_the_shipped_tasks_use_only_known_words():
    assert unknown_words(CARDS.tasks.values()) == []


def test_an_unknown_word_is_named_with_its_card_even_inside_an_any_of():
    task = dataclasses.replace(CARDS.tasks["tasks-center-cross"],
                               checks=(check({"check": "any-of", "of": [
                                   {"check": "pieces-on", "squares": "central-star", "who": "own", "min_total": 5},
                                   {"check": "pieces-on", "squares": "central-x", "who": "theirs"}]}, "x"),))
    assert unknown_words([task]) == ["tasks-center-cross: squares 'central-star'", "tasks-center-cross: who 'theirs'"]


def test_a_kind_of_check_no_rule_decides_is_named_with_its_card(monkeypatch):
    monkeypatch.delitem(RULES, Chain)
    assert unknown_words(CARDS.tasks.values()) == ["tasks-side-chain: check Chain (no rule decides it)",
                                                  "tasks-corner-chain: check Chain (no rule decides it)"]


@pytest.mark.parametrize("raw, error, message", [
    ({"check": "pieces-of", "squares": "red", "who": "own"}, UnknownCardWord, "check 'pieces-of'"),
    ({"squares": "red", "who": "own"}, UnknownCardWord, "check None"),
    ({"check": "pieces-on", "squares": "red", "who": "own", "min_adjacent": 6}, UnknownCardKey, "'min_adjacent'"),
    ({"check": "pieces-on", "who": "own", "min_total": 3}, MalformedTaskCheck, "['squares'] missing"),
    ({"check": "pieces-on", "squares": "red", "who": "own", "min_total": "3"}, MalformedTaskCheck, "min_total '3'"),
    ({"check": "chain", "who": "own", "between": ["opposite-sides"], "adjacency": "8-neighbour"}, MalformedTaskCheck,
     "between"),
    ({"check": "each-of", "of": [{"check": "isolation", "who": "enemy"}]}, MalformedTaskCheck, "missing"),
])
def test_a_check_the_rules_cannot_read_is_refused_naming_the_card(raw, error, message):
    with pytest.raises(error, match="^tasks-test: ") as refused:
        check(raw, "tasks-test")
    assert message in str(refused.value)


def test_a_task_with_an_unknown_key_fails_at_import(tmp_path):
    refused_at_import(tmp_path, '"min_adjacent": 6', '"min_adjacant": 6', "UnknownCardKey", "tasks-imprisonment", "'min_adjacant'")


def test_a_task_with_an_unknown_word_fails_at_import(tmp_path):
    refused_at_import(tmp_path, '"between": "opposite-corners"', '"between": "opposite-edges"', "UnknownCardWord", "tasks-corner-chain: between 'opposite-edges'")


def test_a_task_with_an_unknown_kind_of_check_fails_at_import(tmp_path):
    refused_at_import(tmp_path, '"check": "line-difference"', '"check": "line-dominance"', "UnknownCardWord", "tasks-line-dominance: check 'line-dominance'")


def test_the_square_sets_the_task_words_name_are_the_reference_boards():
    reference = json.loads(REFERENCE.read_text())
    board = reference["board"]

    def squares(cells):
        return {f"{'abcdefghi'[x - 1]}{y}" for x, y in cells}
    cross = next(c for deck in reference["decks"] for c in deck["cards"] if c["id"] == "tasks-center-cross")
    plus, x_shape = ([(5 + o["x"], 5 + o["y"]) for o in shape] for shape in cross["pattern"]["any_of"])
    assert {name: set(s) for name, s in tasks.SQUARE_SETS.items()} == {
        "red": squares(board["red_squares"]), "green": squares(board["green_squares"]),
        "red-or-green": squares(board["red_squares"] + board["green_squares"]),
        "central-3x3": squares(board["central_squares"]), "central-plus": squares(plus), "central-x": squares(x_shape),
        "diagonal-a": squares(board["diagonals"]["diagonal-a"]), "diagonal-b": squares(board["diagonals"]["diagonal-b"])}
    sides, corners = ({k: squares(v) for k, v in board[part].items()} for part in ("sides", "corners"))
    assert tasks.ENDS == {"opposite-sides": [(sides["left"], sides["right"]), (sides["top"], sides["bottom"])],
                          "opposite-corners": [(corners["nw"], corners["se"]), (corners["ne"], corners["sw"])]}
