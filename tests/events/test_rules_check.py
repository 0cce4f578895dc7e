"""The rules version in every new game, and `arena check-rules` against a real Redis."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from engine.moves import move_spans
from engine.version import RULES_VERSION
from events import GameService
from events.rules_check import check_all
from events.verify import verify_record
from server.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
DB = 2


@pytest.fixture
def redis_db(redis_server):
    client = redis_server.client(db=DB)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


@pytest.fixture
def arena(monkeypatch, redis_server, redis_db):
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{redis_server.port}/{DB}")

    def run(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["check-rules", *args], catch_exceptions=False)
        return result.exit_code, result.output
    return run


def _replay_corpus_game(service: GameService, name: str) -> str:
    """A corpus game played again through the service, command by command."""
    record = json.loads((CORPUS / f"{name}.json").read_text())
    created = service.create_game(record["options"], game_id=name)
    events = record["events"]
    for begin, _ in move_spans(events):
        accepted = events[begin]
        service.execute(created.game_id, accepted["seat"], accepted["command"])
    return created.game_id


def test_a_new_game_records_the_rules_it_was_created_with():
    created = engine.new_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": "s"})
    assert created[0]["rules"] == RULES_VERSION == {"engine": RULES_VERSION["engine"], "cards": RULES_VERSION["cards"]}
    position = engine.from_position({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}]})
    assert position[0]["rules"] == RULES_VERSION
    assert "rules" not in engine.replay(created)        # a stamp, not a part of the state


def test_a_game_created_before_the_stamp_still_loads_verifies_and_checks(redis_db):
    service = GameService(redis_db)
    old = [{k: v for k, v in e.items() if k != "rules"} for e in
           engine.new_game({"form": "duel", "seats": [{"school": "sylvan"}, {"school": "highland"}], "seed": "old"})]
    service._create(old, "old-game")
    service.execute("old-game", 0, {"type": "resign"})
    assert service.load("old-game").state["phase"] == "over"
    assert verify_record(service.export_record("old-game")).ok
    [check] = check_all(redis_db)
    assert check.rules is None and check.divergence is None


def test_check_rules_passes_today_and_lists_the_games_a_rules_change_would_break(arena, redis_db, monkeypatch):
    service = GameService(redis_db)
    ids = [_replay_corpus_game(service, name) for name in ("duel-northern-sylvan", "melee3-1", "timeouts-duel-0")]
    code, out = arena("--verbose")
    assert code == 0, out
    assert "3 games checked" in out and "0 would decide differently" in out
    assert all(f"{game}: " in out for game in ids)

    monkeypatch.setattr(engine.turns, "ACTIONS_PER_TURN", 3)           # a rules change, deployed by mistake
    code, out = arena()
    assert code == 1
    assert "3 would decide differently" in out
    assert all(f"{game}: differs at version" in out for game in ids)
    assert f"created under rules engine {RULES_VERSION['engine']}" in out
