"""Card words are checked at load: a card using a word the interpreter does not know fails at import."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from engine import CARDS
from engine.effects.interpreter import OPS
from engine.effects.select import CONDITIONS
from engine.effects.words import unknown_words

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_the_shipped_cards_use_only_known_words():
    assert unknown_words(CARDS, OPS, CONDITIONS) == []


def test_an_unknown_op_or_condition_is_named_with_its_card():
    ops = {k: v for k, v in OPS.items() if k != "destroy"}
    conditions = {k: v for k, v in CONDITIONS.items() if k != "did"}
    found = unknown_words(CARDS, ops, conditions)
    assert any(w.endswith("op 'destroy'") for w in found)
    assert any(w.endswith("condition 'did'") for w in found)


def test_a_card_with_an_unknown_word_fails_at_import(tmp_path):
    copy = tmp_path / "engine"
    shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    data = copy / "data" / "cards.json"
    data.write_text(data.read_text().replace('"op": "destroy"', '"op": "obliterate"', 1))
    run = subprocess.run([sys.executable, "-c", "import engine"], cwd=tmp_path, capture_output=True, text=True,
                         env={"PYTHONPATH": str(tmp_path)}, timeout=60)
    assert run.returncode != 0
    assert "UnknownCardWord" in run.stderr and "op 'obliterate'" in run.stderr
