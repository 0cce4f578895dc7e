"""Game review: a finished game's moves judged on the bot queue, at a tiny budget here; the better
move is told to its own player only, and a live game is never reviewed."""
from __future__ import annotations

import pytest
from rq import Queue

import engine
from engine.ai import review as engine_review
from engine.state import active_seat
from events.settings import Settings

from .helpers import bearer, run_worker

# empty school decks: Ann's turn, Bob's, and Ann's again end the game
NEAR_THE_END = {"board": [{"square": "d4", "seat": 0, "rank": "common"}, {"square": "d6", "seat": 0, "rank": "common"},
                          {"square": "c4", "seat": 1, "rank": "common"}, {"square": "g5", "seat": 1, "rank": "common"}],
                "hands": {"0": ["northern-swordmaster", "northern-herald"]}, "decks": {"0": [], "1": []},
                "scores": {"1": 1}, "turn": {"seat": 0, "actions_left": 2}}


@pytest.fixture(autouse=True)
def tiny_budget(monkeypatch):
    monkeypatch.setenv("ARENA_REVIEW_SIMULATIONS", "3")


def _finished(client) -> tuple[str, list[str]]:
    created = client.post("/games", json={"form": "duel", "setup": NEAR_THE_END, "players": [
        {"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "southern"}]}).json
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    while (view := client.get(f"/games/{game_id}").json)["status"] != "finished":
        seat = view["active_seat"]
        legal = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[seat])).json["commands"]
        command = next((c for c in legal if c["type"] in ("place", "end_turn")), legal[0])
        assert client.post(f"/games/{game_id}/commands", json=command, headers=bearer(tokens[seat])).status_code == 200
    return game_id, tokens


def test_a_live_game_is_never_reviewed(client):
    created = client.post("/games", json={"form": "duel", "setup": NEAR_THE_END, "players": [
        {"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "southern"}]}).json
    refused = client.post(f"/games/{created['id']}/review", headers=bearer(created["seats"][0]["token"]))
    assert (refused.status_code, refused.json["code"]) == (409, "game_not_over")
    assert client.get(f"/games/{created['id']}/review").status_code == 404


def test_a_finished_games_review_marks_moves_and_tells_each_player_only_their_own_better_move(client, redis_db, monkeypatch):
    monkeypatch.setattr(engine_review, "DROPS", ((0.0, "inaccuracy"),))     # every move marked: `better` shows
    game_id, (ann, bob) = _finished(client)
    asked = client.post(f"/games/{game_id}/review", headers=bearer(ann))
    assert (asked.status_code, asked.json["status"], asked.json["simulations"]) == (202, "pending", 3)
    Queue(Settings.load().bot_queue, connection=redis_db).empty()     # the job lost (a Redis without it)
    assert client.post(f"/games/{game_id}/review", headers=bearer(bob)).json["status"] == "pending"   # queued again
    run_worker(redis_db)                                                  # the bot queue's job
    mine = client.get(f"/games/{game_id}/review", headers=bearer(ann)).json
    assert mine["status"] == "done" and mine["seat"] == 0
    assert {m["seat"] for m in mine["moves"]} == {0, 1}
    for move in mine["moves"]:
        assert 0 <= move["chance"] <= move["best"] <= 1 and move["mark"] == "inaccuracy"
        assert (move["better"] is not None) == (move["seat"] == 0)       # Bob's better moves are his own business
    told = next(m for m in mine["moves"] if m["better"])
    assert told["better_text"].startswith("Better was: Ann ")
    assert all(m["better"] is None for m in client.get(f"/games/{game_id}/review").json["moves"])   # a spectator
    again = client.post(f"/games/{game_id}/review", headers=bearer(bob))
    assert again.status_code == 200 and [m["chance"] for m in again.json["moves"]] == [m["chance"] for m in mine["moves"]]


def test_a_review_is_a_pure_function_of_the_game_the_budget_and_the_seed():
    events = engine.from_position({"form": "duel", "seats": [{"school": "northern"}, {"school": "southern"}],
                                   "seed": "r", **NEAR_THE_END})
    state = engine.replay(events)
    while state["phase"] != "over":
        seat = active_seat(state)
        new = engine.decide(state, {**engine.legal_commands(state, seat)[0], "seat": seat})
        events, state = events + new, engine.replay(new, state)
    first = engine_review.review(events, 2, "seed")
    assert first == engine_review.review(events, 2, "seed") and first
    assert engine_review.mark_of(0.05) is None and engine_review.mark_of(0.25) == "mistake"
