"""One fold: every reducer lives in engine/evolve.py, and the snapshot fingerprint covers every line
of code and data a folded state depends on (so a deploy can never load a stale snapshot)."""
from __future__ import annotations

import ast
import json
import random
import re
import shutil
from pathlib import Path

import pytest

import engine
from engine.selfplay import pick
from engine.state import active_seat
from engine.evolve import EVENT_VERSIONS, REDUCERS
from events.snapshots import ENGINE_DIR, FINGERPRINT, engine_fingerprint, fold_modules


def _emitted_types() -> set[str]:
    found = set()
    for path in ENGINE_DIR.rglob("*.py"):
        found.update(re.findall(r'emit\(\s*"([A-Za-z]+)"', path.read_text()))
        found.update(re.findall(r'"type": "([A-Z][A-Za-z]+)"', path.read_text()))
    return found


def test_every_reducer_is_registered_in_evolve_and_every_event_has_one():
    assert {fn.__module__ for fn in REDUCERS.values()} == {"engine.evolve"}
    assert set(REDUCERS) == set(EVENT_VERSIONS)
    assert _emitted_types() <= set(REDUCERS)
    for path in ENGINE_DIR.rglob("*.py"):
        if path.name == "evolve.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Name):
                assert node.id not in ("reducer", "REDUCERS"), f"{path.name}:{node.lineno} registers a reducer"


def test_a_second_reducer_for_one_event_type_is_refused():
    from engine.evolve import reducer
    with pytest.raises(ValueError, match="two reducers for PiecePlaced"):
        reducer("PiecePlaced")(lambda s, e: None)


@pytest.fixture
def engine_copy(tmp_path: Path) -> Path:
    """A copy of the engine's sources and data, to change one file at a time."""
    root = tmp_path / "engine"
    shutil.copytree(ENGINE_DIR, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_the_fingerprint_of_an_unchanged_copy_is_the_live_one(engine_copy):
    assert engine_fingerprint(engine_copy) == FINGERPRINT
    assert {"engine.evolve", "engine.state", "engine.cards"} <= set(fold_modules())


@pytest.mark.parametrize("file, old, new", [
    ("evolve.py", 's["next_piece"] = max(s["next_piece"], e["piece"] + 1)', 's["next_piece"] = e["piece"] + 1'),
    ("state.py", "marshal.loads(marshal.dumps(value))", "marshal.loads(marshal.dumps(dict(value)))"),
    ("vocabulary.py", 'RANKS = ("common", "heroic", "legendary")', 'RANKS = ("common", "legendary", "heroic")'),
    ("data/cards.json", '"heroic"', '"common"'),
], ids=["reducer", "state-helper", "ranks", "card-data"])
def test_any_change_the_fold_can_see_changes_the_fingerprint(engine_copy, file, old, new):
    _edit(engine_copy / file, old, new)
    assert engine_fingerprint(engine_copy) != FINGERPRINT


def test_a_reducer_registered_outside_evolve_is_fingerprinted_with_its_module(engine_copy):
    def _frozen(state, event):
        """Stands for a reducer someone registered in engine/frost.py."""
    _frozen.__module__ = "engine.frost"
    reducers = {**REDUCERS, "CardFrozen": _frozen}
    before = engine_fingerprint(engine_copy, reducers)
    assert before != FINGERPRINT and "engine.frost" in fold_modules(engine_copy, reducers)
    _edit(engine_copy / "frost.py", "THAW_ON_FREEZING_TURN = True", "THAW_ON_FREEZING_TURN = False")
    assert engine_fingerprint(engine_copy, reducers) != before


def test_rules_the_fold_never_runs_leave_snapshots_valid(engine_copy):
    _edit(engine_copy / "narrate.py", '"""', '"""Changed. ', )
    _edit(engine_copy / "legal.py", "def legal_commands(", "def legal_commands_(")
    assert engine_fingerprint(engine_copy) == FINGERPRINT


def test_a_log_folded_in_one_go_equals_its_events_applied_one_by_one():
    """`fold` runs the events that keep no checkpoint in bulk (engine/evolve.py `_fold_unkept`):
    on a game whose players step back and forth, every prefix folded at once, and the rest folded
    on top of it, give the state the events applied one at a time give, keys in the same order."""
    rng = random.Random(7)
    events = engine.new_game({"form": "melee", "seats": [{"school": s} for s in ("northern", "sylvan", "highland")],
                              "seed": "fold"})
    state = engine.replay(events)
    while state["phase"] != "over" and len(events) < 1500:
        listed = engine.legal_commands(state, active_seat(state))
        stepping = [c for c in listed if c["type"] in ("undo", "redo")]
        new = engine.decide(state, rng.choice(stepping) if stepping and rng.random() < 0.3 else pick(rng, listed))
        events += new
        state = engine.replay(new, state)
    assert any(e["type"] == "TurnStepUndone" for e in events) and any(e["type"] == "TurnStepRedone" for e in events)
    one_by_one = engine.replay(events[:1])
    for k, event in enumerate(events[1:], start=2):
        engine.apply(one_by_one, event)
        if k % 37 == 0 or k == len(events):
            at_once = engine.replay(events[:k])
            assert at_once == one_by_one and json.dumps(at_once) == json.dumps(one_by_one), k
            split = engine.replay(events[k // 2:k], engine.replay(events[:k // 2]))
            assert json.dumps(split) == json.dumps(one_by_one), k
