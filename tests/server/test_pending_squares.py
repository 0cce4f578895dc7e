"""The pending decision in GET /games/{id} carries, for each option, the same `squares` as /legal
(issue 13 point 2): a client drawing the question from the view needs no second request."""
from __future__ import annotations

import random

from engine.selfplay import pick
from engine.vocabulary import ANSWERS

from .conftest import bearer

PLAYERS = [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]
# Ann's Assassin fits on e5 two ways, each marking another of Bob's pieces (d4 or f4).
ASSASSIN = {"board": [{"square": s, "seat": 0, "rank": "common"} for s in ("d2", "c3", "b4", "h4", "g3", "f2")]
            + [{"square": "d4", "seat": 1, "rank": "common"}, {"square": "f4", "seat": 1, "rank": "heroic"}],
            "hands": {"0": ["northern-assassin", "northern-herald"]}, "turn": {"seat": 0, "actions_left": 2}}


def _answers(client, game_id: str, token: str) -> list[dict]:
    legal = client.get(f"/games/{game_id}/legal", headers=bearer(token)).json["commands"]
    return [c for c in legal if c["type"] in ANSWERS and c["type"] != "skip"]


def test_an_orientation_question_in_the_view_carries_the_squares_of_legal(client):
    r = client.post("/games", json={"form": "duel", "setup": ASSASSIN, "players": PLAYERS})
    game_id, ann, bob = r.json["id"], r.json["seats"][0]["token"], r.json["seats"][1]["token"]
    assert client.post(f"/games/{game_id}/commands", json={"type": "summon", "card": "northern-assassin",
                                                            "square": "e5"}, headers=bearer(ann)).status_code == 200
    pending = client.get(f"/games/{game_id}", headers=bearer(ann)).json["pending"]
    assert pending["kind"] == "orientation"
    assert pending["options"] == _answers(client, game_id, ann)
    marked = sorted(sq for o in pending["options"] for sq, _ in o["squares"]["marks"])
    assert marked == ["d4", "f4"] and all(o["squares"]["being"] == "e5" for o in pending["options"])
    assert "options" not in client.get(f"/games/{game_id}", headers=bearer(bob)).json["pending"]
    assert "options" not in client.get(f"/games/{game_id}").json["pending"]          # a spectator


def test_every_question_of_a_random_game_shows_the_options_legal_lists(client):
    r = client.post("/games", json={"form": "duel", "seed": "squares", "players": PLAYERS})
    game_id, tokens = r.json["id"], [s["token"] for s in r.json["seats"]]
    rng, questions, with_squares = random.Random("squares"), 0, 0
    for _ in range(120):
        view = client.get(f"/games/{game_id}", headers=bearer(tokens[0])).json
        if view["status"] == "finished":
            break
        seat = view["pending"]["seat"] if view["pending"] else view["active_seat"]
        if view["pending"]:
            options = client.get(f"/games/{game_id}", headers=bearer(tokens[seat])).json["pending"]["options"]
            assert options == _answers(client, game_id, tokens[seat])
            questions += 1
            with_squares += any("squares" in o for o in options)
        legal = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[seat])).json
        moves = [c for c in legal["commands"] if c["type"] not in ("resign", "undo")]
        command = pick(rng, moves)
        assert client.post(f"/games/{game_id}/commands", json=command, headers=bearer(tokens[seat])).status_code == 200
    assert questions >= 3 and with_squares >= 1
