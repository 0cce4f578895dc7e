"""Bots: a seat played by the computer (engine/ai) is played by a job on the bot queue, through
the same GameService, thinking only about what its seat has seen."""
from __future__ import annotations

from datetime import datetime, timezone

from freezegun import freeze_time

from engine.ai import CHEAPEST, LEVELS
from engine.cards import CARDS
from events import bot_choice, due
from workers import followup, results
from workers.queues import job_id
from events.settings import Settings

from .helpers import bearer, later, new_game, record_file, run_worker

BOT_FIRST = [{"name": "Ann", "school": "northern"}, {"name": "Robot", "school": "sylvan", "bot": True}]


def test_a_bot_plays_its_wait_as_soon_as_the_game_waits_for_it(client, redis_db):
    game = new_game(client, players=BOT_FIRST)
    assert client.get(f"/games/{game['id']}").json["active_seat"] == 1
    assert redis_db.lrange(f"rq:queue:{Settings().bot_queue}", 0, -1) == [job_id("bot", game["id"], 1).encode()]
    run_worker(redis_db)
    view = client.get(f"/games/{game['id']}").json
    assert view["active_seat"] == 0
    moves = client.get(f"/games/{game['id']}/moves").json["moves"]
    assert moves[1]["seat"] == 1


def test_two_bots_play_a_whole_game_which_is_then_archived_and_not_rated(client, redis_db, tmp_path):
    game = new_game(client, players=[{"name": "R1", "school": "northern", "bot": True},
                                     {"name": "R2", "school": "highland", "bot_level": 2}], seed="bots")
    players = client.get(f"/games/{game['id']}").json["players"]
    assert [(p["bot"], p["bot_level"]) for p in players] == [(True, CHEAPEST), (True, 2)]
    run_worker(redis_db)
    view = client.get(f"/games/{game['id']}").json
    assert view["status"] == "finished"
    assert record_file(tmp_path / "data" / "archive", game["id"]).exists()
    assert not results.is_rated(redis_db, game["id"])          # games against the computer are unrated


def test_a_seat_is_a_person_or_the_computer_and_the_level_must_be_one_of_the_vocabulary(client):
    levels = [entry["level"] for entry in client.get("/vocabulary").json["bot_levels"]]
    assert levels == sorted(LEVELS)
    for seat in ({"name": "R", "school": "sylvan", "bot_level": max(levels) + 1},
                 {"name": "R", "school": "sylvan", "bot_level": "strong"}):
        r = client.post("/games", json={"form": "duel", "players": [{"name": "Ann", "school": "northern"}, seat]})
        assert r.status_code == 400 and r.json["code"] == "malformed_request", r.json


def _twin(client, opponent_hand: list[str], seed: str) -> dict:
    """A game from a given position where the bot (seat 0) moves first; only the opponent's hand and
    the decks' order (from the seed) differ between twins: what the bot cannot see."""
    setup = {"board": "5/7/9/9/2a3b2/9/9/7/5", "turn": {"seat": 0, "actions_left": 2},
             "hands": {"0": list(CARDS.decks["northern"][:3]), "1": opponent_hand}}
    r = client.post("/games", json={"form": "duel", "seed": seed, "setup": setup, "players": [
        {"name": "Robot", "school": "northern", "bot_level": 3}, {"name": "Ann", "school": "sylvan"}]})
    assert r.status_code == 201, r.json
    return r.json


def test_a_bot_plays_the_same_in_two_games_that_differ_only_in_what_its_seat_cannot_see(client, redis_db, monkeypatch):
    monkeypatch.setattr(bot_choice, "seed", lambda secret, game_id, seat, version: f"{secret}:{seat}:{version}")   # twins, one id
    one = _twin(client, list(CARDS.decks["sylvan"][:3]), "first")
    two = _twin(client, list(CARDS.decks["sylvan"][3:6]), "second")
    service = followup.service(redis_db)
    assert service.load(one["id"]).state["hands"][1] != service.load(two["id"]).state["hands"][1]
    run_worker(redis_db)
    first, second = ([m for m in client.get(f"/games/{g['id']}/moves").json["moves"] if m["seat"] == 0]
                     for g in (one, two))
    assert first and first == second


def test_the_seed_comes_from_the_server_secret_game_seat_and_version():
    assert bot_choice.seed("s", "g", 0, 5) == bot_choice.seed("s", "g", 0, 5)
    assert len({bot_choice.seed("s", "g", 0, 5), bot_choice.seed("t", "g", 0, 5), bot_choice.seed("s", "h", 0, 5),
                bot_choice.seed("s", "g", 1, 5), bot_choice.seed("s", "g", 0, 6)}) == 5


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


def test_a_hint_shows_what_the_strongest_level_would_play_only_against_the_computer(client, redis_db):
    game = new_game(client, players=[{"name": "Ann", "school": "northern"}, {"name": "Robot", "school": "sylvan", "bot": True}])
    ann = bearer(game["seats"][0]["token"])
    assert client.get(f"/games/{game['id']}/hint", headers=ann).json["code"] == "not_your_turn"    # Robot places first
    run_worker(redis_db)
    answer = client.get(f"/games/{game['id']}/hint", headers=ann)
    assert answer.status_code == 200 and answer.json["level"] == max(LEVELS)
    legal = client.get(f"/games/{game['id']}/legal", headers=ann).json["commands"]
    assert answer.json["command"] in legal
    people = new_game(client)
    refused = client.get(f"/games/{people['id']}/hint", headers=bearer(people["seats"][0]["token"]))
    assert refused.status_code == 409 and refused.json["code"] == "no_hint_here"
