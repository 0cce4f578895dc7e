"""Bots: a seat created with "bot": true is played by a worker job through the game service."""
from __future__ import annotations

import random
from datetime import datetime, timezone

from freezegun import freeze_time

import engine
from engine.selfplay import pick
from engine.state import active_seat
from events import due
from workers import bots

from .helpers import later, new_game, run_worker

BOT_FIRST = [{"name": "Ann", "school": "northern"}, {"name": "Robot", "school": "sylvan", "bot": True}]


def test_a_bot_plays_its_wait_as_soon_as_the_game_waits_for_it(client, redis_db):
    game = new_game(client, players=BOT_FIRST)
    assert client.get(f"/games/{game['id']}").json["active_seat"] == 1
    run_worker(redis_db)
    view = client.get(f"/games/{game['id']}").json
    assert view["active_seat"] == 0
    moves = client.get(f"/games/{game['id']}/moves").json["moves"]
    assert moves[1]["seat"] == 1


def test_two_bots_play_a_whole_game_which_is_then_scored_and_archived(client, redis_db, tmp_path):
    game = new_game(client, players=[{"name": "R1", "school": "northern", "bot": True},
                                     {"name": "R2", "school": "highland", "bot": True}], seed="bots")
    run_worker(redis_db)
    view = client.get(f"/games/{game['id']}").json
    assert view["status"] == "finished"
    assert (tmp_path / "data" / "archive" / f"{game['id']}.json").exists()


def test_the_bots_choice_is_always_legal_and_never_a_resignation():
    state = engine.replay(engine.new_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}],
                                           "seed": "policy"}))
    rng = random.Random(1)
    for _ in range(25):
        seat = active_seat(state)
        if seat is None:
            break
        command = bots.choose(state, seat, random.Random(0))
        assert command["type"] != "resign"
        assert command in engine.legal_commands(state, seat)
        state = engine.replay(engine.decide(state, pick(rng, engine.legal_commands(state, seat))), state)


def test_a_bot_with_a_delay_is_played_by_the_deadline_loop_once_the_delay_has_passed(client, redis_db, monkeypatch):
    monkeypatch.setenv("ARENA_BOT_DELAY", "5")
    game = new_game(client, players=BOT_FIRST)
    member = due.member("bot", game["id"], 1)
    assert due.when(redis_db, member) is not None
    start = datetime.fromtimestamp(due.when(redis_db, member) - 5, timezone.utc)
    with freeze_time(later(start, 4)):
        run_worker(redis_db)
    assert client.get(f"/games/{game['id']}").json["active_seat"] == 1          # not yet
    with freeze_time(later(start, 5.1)):
        run_worker(redis_db)
    assert client.get(f"/games/{game['id']}").json["active_seat"] == 0
