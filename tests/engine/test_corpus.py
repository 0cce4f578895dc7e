"""The recorded-games corpus: today's engine decides every recorded move exactly as recorded.

The corpus (tests/data/corpus, written by tools/record_corpus.py) is the guard of "no rule
changes": a refactoring that changes one event of one game fails here, naming the game and the
event. A deliberate rules change re-records the corpus in the same commit.
"""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

import engine
from engine.audit import redecide, state_digest
from engine.cards import BASE_SCHOOLS, EXPANSION_SCHOOLS

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "corpus"
_spec = importlib.util.spec_from_file_location("record_corpus", ROOT / "tools" / "record_corpus.py")
recorder = sys.modules.setdefault("record_corpus", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(recorder)
RECORDS = sorted(CORPUS.glob("*.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_corpus_covers_every_form_school_and_way_of_playing():
    records = [_load(p) for p in RECORDS]
    assert len(records) >= 60
    assert all(p.stat().st_size < recorder.MAX_BYTES for p in RECORDS)
    tags = {t for r in records for t in r["tags"]}
    assert {"duel", "high_form", "melee3", "melee4", "teams", "timeouts", "draft", "position", "resign"} <= tags
    played = {s["school"] for r in records for e in r["events"][:40]
              for s in (e.get("seats") or e.get("state", {}).get("seats") or [])}
    chosen = {e["school"] for r in records for e in r["events"] if e["type"] in ("SchoolChosen", "SchoolDrawn")}
    assert set(BASE_SCHOOLS + EXPANSION_SCHOOLS) <= played | chosen
    kinds = {e["type"] for r in records for e in r["events"]}
    assert {"TurnTimedOut", "SeatAbandoned", "SchoolChosen", "SchoolDrawn", "PositionSet", "PlayerResigned"} <= kinds
    assert any(e["type"] == "CommandAccepted" and e.get("auto") for r in records for e in r["events"])
    assert all(r["finished"] for r in records)


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_every_recorded_move_decides_as_recorded(path: Path):
    record = _load(path)
    assert record["format"] == recorder.FORMAT
    events = record["events"]
    assert redecide(events, record.get("position")) is None
    assert state_digest(engine.replay(events)) == record["final_state"]


def test_a_changed_outcome_is_found_and_named():
    record = _load(CORPUS / "duel-northern-sylvan.json")
    events = [dict(e) for e in record["events"]]
    drawn = next(i for i, e in enumerate(events) if e["type"] == "CardsDrawn" and i > 40)
    events[drawn]["cards"] = list(reversed(events[drawn]["cards"])) + ["northern-something"]
    found = redecide(events)
    assert found is not None and found.index == drawn and "CardsDrawn" in found.reason
