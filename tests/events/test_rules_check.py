"""The rules version in every new game, a rules change that keeps old games under their release, and
`arena check-rules` and `arena verify` against a real Redis."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from engine import releases, version
from engine.moves import move_spans
from engine.state import active_seat
from engine.version import rules_stamp
from events import GameService, signing
from events.errors import RecordRejected
from events.record import dumps_record, loads_record
from events.rules_check import check_all
from events.verify import report, verify_record
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
    assert created[0]["rules"] == rules_stamp() == {"engine": version.RULES_RELEASE, "cards": version.CARDS_HASH}
    assert version.RULES_RELEASE in releases.RELEASES
    position = engine.from_position({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}]})
    assert position[0]["rules"] == rules_stamp()
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

    changed = releases.Release("1", actions_per_turn=3)         # a rule changed in place, deployed by mistake
    monkeypatch.setitem(releases.RELEASES, "1", changed)
    code, out = arena()
    assert code == 1
    assert "3 would decide differently" in out
    assert all(f"{game}: differs at version" in out for game in ids)
    assert f"created under rules engine {version.RULES_RELEASE}" in out


# --- a deliberate rules change: a new release, old games decided under theirs --------------------

def _actions_of_next_turn(service: GameService, game_id: str) -> int:
    """Play the first legal command until a turn after the first starts; that turn's actions."""
    for _ in range(60):
        state = service.load(game_id).state
        seat = active_seat(state)
        done = service.execute(game_id, seat, engine.legal_commands(state, seat)[0])
        started = [e["payload"] for e in done.events if e["type"] == "TurnStarted" and e["payload"]["number"] > 1]
        if started:
            return started[0]["actions"]
    raise AssertionError("no second turn started")


@pytest.fixture
def next_release(monkeypatch):
    """A test-only release that changes one rule (three actions a turn), made the one new games take."""
    monkeypatch.setitem(releases.RELEASES, "test-3", releases.Release("test-3", actions_per_turn=3))
    monkeypatch.setattr(version, "RULES_RELEASE", "test-3")
    return "test-3"


def test_after_a_rules_change_old_games_keep_their_rules_and_verify_while_new_games_take_the_new_rule(redis_db, next_release):
    service = GameService(redis_db)
    duel = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}]}
    with pytest.MonkeyPatch.context() as before:
        before.setattr(version, "RULES_RELEASE", "1")
        finished = _replay_corpus_game(service, "duel-northern-sylvan")
        playing = service.create_game(duel, game_id="playing").game_id
    created = service.create_game(duel, game_id="new").game_id

    assert _actions_of_next_turn(service, playing) == 2        # an old game goes on under its release
    assert _actions_of_next_turn(service, created) == 3        # a new game takes the new rule
    assert service.load(created).state["release"] == next_release and "release" not in service.load(playing).state
    verdict = verify_record(service.export_record(finished))
    assert verdict.ok and verdict.foreign is None, verdict      # decided again, fully, under release 1
    for game in (playing, created):
        verdict = verify_record(service.export_record(game, allow_unfinished=True))
        assert verdict.ok and verdict.foreign is None, verdict
    assert [(c.held, c.divergence) for c in check_all(redis_db)] == [(True, None)] * 3


def test_a_record_under_rules_not_held_here_is_consistent_and_signed_and_said_so(redis_db, next_release, monkeypatch, arena):
    service = GameService(redis_db)
    created = service.create_game({"form": "duel", "seats": [{"school": "sylvan"}, {"school": "highland"}]},
                                  game_id="later").game_id
    service.execute(created, 0, {"type": "resign"})
    text = dumps_record(service.export_record(created))
    monkeypatch.delitem(releases.RELEASES, next_release)       # a server without that release
    key = signing.server_key().public_key()
    status, line = report(text, [key])
    assert status == 0, line
    assert line.startswith(f"consistent, signed by {signing.key_id(key)}; decided under rules engine {next_release} "
                           f"cards {version.CARDS_HASH}, which this server does not hold"), line
    forged = text.replace('"resign"', '"resigns"', 1)
    assert report(forged, [key])[0] == 1                        # the chain is still checked
    code, out = arena()
    assert code == 0 and "later: decided under rules engine test-3" in out and "1 under rules not held here" in out
    redis_db.flushdb()
    with pytest.raises(RecordRejected, match="does not hold"):  # nor is it taken in to be played on here
        service.import_record(loads_record(text))


def test_a_record_of_other_card_data_is_not_decided_again_but_verified(redis_db):
    service = GameService(redis_db)
    events = engine.new_game({"form": "duel", "seats": [{"school": "sylvan"}, {"school": "highland"}], "seed": "c"})
    events[0]["rules"] = {"engine": version.RULES_RELEASE, "cards": "0" * 16}
    service._create(events, "other-cards")
    service.execute("other-cards", 1, {"type": "resign"})
    verdict = verify_record(service.export_record("other-cards"))
    assert verdict.ok and verdict.foreign == {"engine": version.RULES_RELEASE, "cards": "0" * 16}
    [check] = check_all(redis_db)
    assert not check.held and check.divergence is None
