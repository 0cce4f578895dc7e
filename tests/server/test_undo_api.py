"""Undo and redo over HTTP: listed by /legal exactly when allowed, appended as events, shown as
undone in the moves and the log, rewindable, and verified in the exported record."""
from __future__ import annotations

from events.verify import verify_record

from .conftest import bearer

PLAYERS = [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]


def start(client, setup: dict) -> tuple[str, list[str]]:
    r = client.post("/games", json={"form": "duel", "setup": setup, "players": PLAYERS})
    assert r.status_code == 201
    return r.json["id"], [s["token"] for s in r.json["seats"]]


def steps(client, game_id: str, token: str) -> list[dict]:
    legal = client.get(f"/games/{game_id}/legal", headers=bearer(token)).json["commands"]
    return [c for c in legal if c["type"] in ("undo", "redo")]


def test_undo_and_redo_over_http_append_events_and_show_undone_moves(client):
    game_id, tokens = start(client, {"board": "5/7/9/9/9/9/9/7/5", "turn": {"seat": 0, "actions_left": 2}})
    send = lambda token, body: client.post(f"/games/{game_id}/commands", json=body, headers=bearer(token))
    assert steps(client, game_id, tokens[0]) == []
    placed = send(tokens[0], {"type": "place", "square": "e5"})
    assert placed.status_code == 200
    before_place = placed.json["version"] - len(placed.json["events"])
    assert steps(client, game_id, tokens[0]) == [{"type": "undo", "to_version": before_place}]
    assert steps(client, game_id, tokens[1]) == []
    refused = send(tokens[1], {"type": "undo"})
    assert refused.status_code == 422 and refused.json["code"] == "no_undo"
    undone = send(tokens[0], {"type": "undo", "to_version": before_place})
    assert undone.status_code == 200
    assert [e["type"] for e in undone.json["events"]] == ["CommandAccepted", "TurnStepUndone"]
    view = client.get(f"/games/{game_id}", headers=bearer(tokens[0])).json
    assert all(p["square"] != "e5" for p in view["board"])
    assert steps(client, game_id, tokens[0])[0]["type"] == "redo"
    moves = client.get(f"/games/{game_id}/moves").json["moves"]
    assert [m["undone"] for m in moves] == [False, True, False]
    lines = client.get(f"/games/{game_id}/log").json["lines"]
    assert any(line["undone"] and "e5" in line["text"] for line in lines)
    assert any("takes back" in line["text"] for line in lines)
    rewound = client.get(f"/games/{game_id}/moves/1").json
    assert any(p["square"] == "e5" for p in rewound["board"]), "rewinding still shows what was on the board"
    assert send(tokens[0], {"type": "redo"}).status_code == 200
    assert [m["undone"] for m in client.get(f"/games/{game_id}/moves").json["moves"]] == [False, False, False, False]
    assert send(tokens[0], {"type": "place", "square": "d4", "squares": {"affects": ["d4"]}}).status_code == 200
    assert send(tokens[1], {"type": "resign"}).status_code == 200
    record = client.get(f"/games/{game_id}/record").json
    assert verify_record(record).ok


MELEE_TIE = {"board": "5/7/9/9/9/9/9/7/5", "decks": {"0": [], "1": [], "2": []},
             "scores": {"0": {"1": 5, "2": 7}, "1": {"0": 5, "2": 6}, "2": {"0": 4, "1": 9}},
             "turn": {"seat": 0, "actions_left": 1}}


def test_stats_result_and_rematch_of_a_melee_decided_on_a_tie_break(client):
    players = [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"},
               {"name": "Cy", "school": "highland"}]
    r = client.post("/games", json={"form": "melee", "setup": MELEE_TIE, "players": players})
    game_id, tokens = r.json["id"], [s["token"] for s in r.json["seats"]]
    squares = iter(["a5", "b5", "c5", "d5", "e5", "f5", "g5"])
    for seat in (0, 1, 1, 2, 2, 0, 0):
        assert client.post(f"/games/{game_id}/commands", json={"type": "place", "square": next(squares)},
                           headers=bearer(tokens[seat])).status_code == 200
    view = client.get(f"/games/{game_id}").json
    assert view["status"] == "finished"
    assert view["result"]["tiebreak"]["decided_by"] == "second-lowest colour"
    assert view["result"]["standings"][0]["breakdown"]["weakest"] == 1
    stats = client.get(f"/games/{game_id}/stats").json
    assert [p["pieces_placed"] for p in stats["players"]] == [3, 2, 2] and stats["players"][0]["name"] == "Ann"
    assert stats["result"]["winners"] == [0]
    assert client.post(f"/games/{game_id}/rematch").status_code == 401
    for seat in (2, 0):
        assert client.post(f"/games/{game_id}/rematch", headers=bearer(tokens[seat])).status_code == 202
    again = client.post(f"/games/{game_id}/rematch", headers=bearer(tokens[1]))
    assert again.status_code == 201
    assert [s["name"] for s in again.json["seats"]] == ["Bob", "Cy", "Ann"] and again.json["seat"] == 0
    new = client.get(f"/games/{again.json['id']}", headers=bearer(again.json["token"])).json
    assert new["seat"] == 0
    assert [s["school"] for s in new["seats"]] == ["sylvan", "highland", "northern"]
    assert "/games/{game_id}/stats" in client.get("/openapi.json").json["paths"]


def test_a_rematch_waits_for_the_end_of_the_game(client):
    game_id, tokens = start(client, {"board": "5/7/9/9/9/9/9/7/5", "turn": {"seat": 0, "actions_left": 2}})
    r = client.post(f"/games/{game_id}/rematch", headers=bearer(tokens[0]))
    assert r.status_code == 409 and r.json["code"] == "game_not_over"


def test_legal_summons_and_orientations_carry_their_squares_and_are_accepted_with_them(client):
    board = [{"square": s, "seat": 0, "rank": "common"} for s in ("d2", "c3", "b4", "h4", "g3", "f2")]
    board += [{"square": "d4", "seat": 1, "rank": "common"}, {"square": "f4", "seat": 1, "rank": "heroic"}]
    game_id, tokens = start(client, {"board": board, "hands": {"0": ["northern-assassin"]},
                                     "turn": {"seat": 0, "actions_left": 2}})
    legal = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[0])).json["commands"]
    summon = next(c for c in legal if c["type"] == "summon" and c["square"] == "e5")
    assert summon["squares"]["affects"] == ["d4", "f4"] and "d2" in summon["squares"]["pattern"]
    assert client.post(f"/games/{game_id}/commands", json=summon, headers=bearer(tokens[0])).status_code == 200
    legal = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[0])).json["commands"]
    option = next(c for c in legal if c["type"] == "choose" and c["squares"]["affects"] == ["d4"])
    assert client.post(f"/games/{game_id}/commands", json=option, headers=bearer(tokens[0])).status_code == 200
    view = client.get(f"/games/{game_id}").json
    assert {p["square"] for p in view["board"]} >= {"e5", "f4"} and "d4" not in {p["square"] for p in view["board"]}
