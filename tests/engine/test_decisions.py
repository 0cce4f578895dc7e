"""Pending decisions as one protocol (engine/pending.py): every kind that can be raised is
registered, raised only through the one constructor, and stored as the documented frame."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import engine
from engine import decisions
from engine.context import Context
from engine.pending import DECISIONS, Decision, Options, Pending, decision, raise_decision
from events.snapshots import ENGINE_DIR

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"


def _calls(path: Path) -> list[ast.Call]:
    return [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.Call)]


def _name(call: ast.Call) -> str | None:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ENGINE_DIR.parent).with_suffix("").parts)


def _recorded_pendings() -> list[dict]:
    return [e["pending"] for p in sorted(CORPUS.glob("*.json"))
            for e in json.loads(p.read_text(encoding="utf-8"))["events"]
            if e["type"] == "ResolutionAdvanced" and e["pending"]]


def test_only_the_protocol_module_emits_a_pending_decision():
    """No rule builds a pending dict by hand: ResolutionAdvanced comes from engine/pending.py alone."""
    emitting = {_module(path) for path in ENGINE_DIR.rglob("*.py") for call in _calls(path)
                if _name(call) == "emit" and call.args and isinstance(call.args[0], ast.Constant)
                and call.args[0].value == "ResolutionAdvanced"}
    assert emitting == {"engine.pending"}


def test_every_kind_that_can_be_raised_is_registered_by_a_module_the_router_loads():
    """Raising takes a Decision object (refused unless registered), and every module that declares
    one is among those engine/decisions.py imports, so no raised kind can be missing."""
    declaring = {_module(path) for path in ENGINE_DIR.rglob("*.py") for call in _calls(path)
                 if _name(call) == "decision"} - {"engine.pending"}
    assert declaring == {m.__name__ for m in decisions.DECLARING_MODULES}
    declared = {v.kind for m in decisions.DECLARING_MODULES for v in vars(m).values() if isinstance(v, Decision)}
    assert declared == set(DECISIONS)
    recorded = {p["kind"] for p in _recorded_pendings()}
    assert recorded <= set(DECISIONS), recorded - set(DECISIONS)
    assert recorded == set(DECISIONS), "the corpus raises every kind at least once"


def test_a_kind_declared_twice_is_refused():
    with pytest.raises(ValueError, match="declared twice"):
        decision("school", lambda state: Options([]), lambda ctx, answer: None)


def test_an_unregistered_decision_cannot_be_raised():
    stray = Decision("stray", lambda state: Options([]), lambda ctx, answer: None, ask="square", prompt="?")
    with pytest.raises(ValueError, match="not registered"):
        raise_decision(Context({}), stray, {"kind": "stray", "seat": 0}, 0)


def test_every_recorded_pending_decision_is_the_documented_frame():
    """Required fields always, `card` exactly for the kinds that show it, `info` for effects only."""
    required, optional = Pending.__required_keys__, Pending.__optional_keys__
    assert required == {"seat", "kind", "ask", "prompt", "can_skip"} and optional == {"card", "info"}
    for pending in _recorded_pendings():
        kind = DECISIONS[pending["kind"]]
        assert required <= set(pending) <= required | optional, pending
        assert ("card" in pending) == kind.shows_card, pending
        assert ("info" in pending) == (kind.kind == "effect"), pending
        if kind.ask is not None:
            assert (pending["ask"], pending["prompt"]) == (kind.ask, kind.prompt)


def test_listed_answers_come_from_the_kind_and_are_accepted():
    """The router lists a kind's options and accepts each of them (a Deathmatch start-pieces pick)."""
    state = engine.replay(engine.new_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}],
                                           "seed": "protocol"}))
    assert state["pending"]["kind"] == "start_pieces"
    listed = decisions.options(state)
    assert listed == DECISIONS["start_pieces"].options(state) and listed.commands and not listed.can_skip
    seat = state["pending"]["seat"]
    for command in listed.commands:
        assert engine.decide(state, {"seat": seat, **command})
    with pytest.raises(engine.RuleError) as refused:
        engine.decide(state, {"seat": seat, "type": "choose", "square": "a1"})
    assert refused.value.code == "not_an_option"
