"""Registered players: seats in games, their own token acting for their seat, the waiting list."""
from tests.server.conftest import bearer


def _register(client, name):
    r = client.post("/players", json={"name": name})
    assert r.status_code == 201 and len(r.json["token"]) >= 32
    return r.json


def test_a_registered_player_is_seated_acts_with_their_own_token_and_sees_games_waiting_for_them(client):
    ann, bob = _register(client, "Ann"), _register(client, "Bob")
    r = client.post("/games", headers=bearer(ann["token"]), json={"form": "duel", "seed": "p", "players": [
        {"name": "Ann", "school": "northern", "player": ann["id"]},
        {"name": "Bob", "school": "sylvan", "player": bob["id"]}]})
    game_id = r.json["id"]
    assert [s["player"] for s in r.json["seats"]] == [ann["id"], bob["id"]]
    assert [s["status"] for s in r.json["seats"]] == ["claimed", "invited"] and "token" not in r.json["seats"][1]
    accepted = client.post(f"/players/me/invitations/{r.json['seats'][1]['invitation']}/accept",
                           headers=bearer(bob["token"]))
    assert accepted.status_code == 200 and accepted.json["game_status"] == "started"
    waiting = client.get("/players/me/games?waiting=1", headers=bearer(bob["token"])).json["games"]
    assert [g["id"] for g in waiting] == [game_id] and waiting[0]["your_turn"]
    assert client.get("/players/me/games?waiting=1", headers=bearer(ann["token"])).json["games"] == []
    assert client.get("/players/me/games", headers=bearer(ann["token"])).json["games"][0]["your_turn"] is False
    moved = client.post(f"/games/{game_id}/commands", json={"type": "choose", "square": "c5"}, headers=bearer(bob["token"]))
    assert moved.status_code == 200
    assert client.get(f"/games/{game_id}", headers=bearer(ann["token"])).json["seat"] == 0


def test_a_player_without_a_seat_cannot_act_and_unknown_players_cannot_be_seated(client, duel):
    game_id, _ = duel
    eve = _register(client, "Eve")
    r = client.post(f"/games/{game_id}/commands", json={"type": "choose", "square": "c5"}, headers=bearer(eve["token"]))
    assert (r.status_code, r.json["code"]) == (403, "not_your_seat")
    r = client.post("/games", json={"form": "duel", "players": [{"name": "X", "school": "northern", "player": "nobody"},
                                                                {"name": "Y", "school": "sylvan"}]})
    assert (r.status_code, r.json["code"]) == (404, "player_not_found")
    assert client.get("/players/me/games").status_code == 401
    assert client.get("/players/me/games", headers=bearer("forged")).json["code"] == "bad_token"
