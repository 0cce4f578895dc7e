"""Card words are checked at load: a card using a word the interpreter does not know fails at import."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import CARDS
from engine.effects.interpreter import OPS, WORDS
from engine.effects.select import CONDITIONS, WHERE
from engine.card_steps import step as parse_step
from engine.effects.words import selectors, unknown_words, vocabulary

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_the_shipped_cards_use_only_known_words():
    assert unknown_words(CARDS, OPS, CONDITIONS, WHERE, WORDS) == []


def test_a_field_word_no_ops_module_offers_is_named_with_its_card():
    found = unknown_words(CARDS, OPS, CONDITIONS, WHERE, {"via": {"move"}, "exclude": {"s1", "s2"}})
    assert any(w.endswith("via 'leap'") for w in found), "'leap:2' is checked by its name"
    assert any(w.endswith("exclude 'self'") for w in found), "each word of a tuple is checked"
    assert not any(" via 'move'" in w for w in found)
    with pytest.raises(ValueError, match="no step field is called 'vai'"):
        vocabulary({"vai": {"move"}})


def test_an_unknown_op_or_condition_is_named_with_its_card():
    ops = {k: v for k, v in OPS.items() if k != "destroy"}
    conditions = {k: v for k, v in CONDITIONS.items() if k != "did"}
    wheres = {k: v for k, v in WHERE.items() if k != "within"}
    found = unknown_words(CARDS, ops, conditions, wheres)
    assert any(w.endswith("op 'destroy'") for w in found)
    assert any(w.endswith("condition 'did'") for w in found)
    assert any(w.endswith("where 'within'") for w in found), "a part of an '&' where is checked too"


def test_the_where_of_a_selector_is_checked_and_nested_steps_are_left_to_themselves():
    step = parse_step({"op": "move", "mover": {"who": "own", "where": "adjacent-to:s1"},
                       "options": [{"label": "a", "steps": [{"op": "place", "where": "within:2"}]}]}, "test")
    assert [sel.where for sel in selectors(step) if sel.where] == ["adjacent-to:s1"]


def _import_with(tmp_path: Path, old: str, new: str) -> subprocess.CompletedProcess[str]:
    """`import engine` from a copy whose card data has `old` replaced by `new` (once)."""
    copy = tmp_path / "engine"
    shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    data = copy / "data" / "cards.json"
    text = data.read_text()
    assert old in text
    data.write_text(text.replace(old, new, 1))
    return subprocess.run([sys.executable, "-c", "import engine"], cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path)}, timeout=60)


def refused_at_import(tmp_path: Path, old: str, new: str, *named: str) -> None:
    """`import engine` fails when the card data has `old` replaced by `new`, and its error says
    each of `named` (the error class, the card, the word)."""
    run = _import_with(tmp_path, old, new)
    assert run.returncode != 0
    for text in named:
        assert text in run.stderr, (text, run.stderr[-2000:])


def test_a_card_with_an_unknown_word_fails_at_import(tmp_path):
    refused_at_import(tmp_path, '"op": "destroy"', '"op": "obliterate"', "UnknownCardWord", "op 'obliterate'")


def test_a_card_with_an_unknown_where_word_fails_at_import(tmp_path):
    refused_at_import(tmp_path, '"where": "diagonally-adjacent"', '"where": "diagonally-adjacant"', "UnknownCardWord", "where 'diagonally-adjacant'")


def test_a_card_with_an_unknown_key_fails_at_import(tmp_path):
    refused_at_import(tmp_path, '"up_to": true', '"upto": true', "UnknownCardKey", "'upto'")
