"""Games belong to the account: made while signed in, or kept from a guest browser; and "Your games"
says how each stands in words (opponents never yourself, the form, the status, time left first)."""
from __future__ import annotations

from tests.server.conftest import bearer

from .people import PASSWORD, fresh, person

DAY = {"kind": "move", "seconds": 86400}


def _mine(p) -> dict:
    return {g["id"]: g for g in p.get("/players/me/games").json["games"]}


def test_a_game_made_signed_in_is_the_accounts_on_every_device(app):
    ann = person(app, "ann")
    made = ann.post("/games", {"form": "duel", "time_control": DAY, "players": [
        {"name": "Bob", "school": "northern"}, {"name": ann.name, "school": "sylvan", "player": ann.id}]})
    assert made.status_code == 201, made.json
    other = fresh(app)                                  # the same account, another browser
    assert other.post("/accounts/session", json={"name": ann.name, "password": PASSWORD}).status_code == 200
    [row] = other.get("/players/me/games").json["games"]
    assert row["id"] == made.json["id"] and row["opponents"] == ["Bob"] and row["form_text"] == "duel"
    assert row["your_turn"] and row["status_text"] in ("your turn, 23 hours left", "your turn, 1 day left")
    assert other.get(f"/games/{made.json['id']}").json["seat"] == 1


def test_a_guest_keeps_only_its_own_seat_and_such_games_are_unrated(app, client):
    made = client.post("/games", json={"form": "melee", "players": [
        {"name": "Me", "school": "northern"}, {"name": "Friend", "school": "sylvan"},
        {"name": "Cpu", "school": "highland", "bot": True}]}).json
    own, friends = made["seats"][0]["token"], made["seats"][1]["token"]
    ann = person(app, "ann")
    r = ann.post("/players/me/games/claim", {"games": [{"id": made["id"], "token": own}]})
    assert r.json == {"claimed": [made["id"]], "refused": []}
    again = ann.post("/players/me/games/claim", {"games": [{"id": made["id"], "token": friends}]})
    assert again.json["refused"] == [made["id"]]                    # one seat per game, never a friend's too
    row = _mine(ann)[made["id"]]
    assert (row["seat"], row["form_text"], row["opponents"]) == (0, "3-player melee", ["Friend", "Cpu (computer · level 1)"])
    assert row["status_text"] == "Cpu to play"                       # melee start: the last seat places first
    view = ann.get(f"/games/{made['id']}").json
    assert view["seat"] == 0 and view["rated"] is False
    bob = person(app, "bob")
    assert bob.post("/players/me/games/claim", {"games": [{"id": made["id"], "token": own}]}).json["refused"]


def test_a_game_the_browsers_own_guest_player_made_is_kept_on_signing_up(app, client):
    """The page's New game form gives a guest a passwordless player (POST /players) for its seat:
    signing up keeps that seat too, and the guest player no longer holds it."""
    guest = client.post("/players", json={"name": "You"}).json
    made = client.post("/games", headers=bearer(guest["token"]), json={"form": "duel", "players": [
        {"name": "You", "school": "northern", "player": guest["id"]},
        {"name": "Computer", "school": "sylvan", "bot_level": 1}]}).json
    own = made["seats"][0]["token"]
    ann = person(app, "ann")
    assert ann.post("/players/me/games/claim", {"games": [{"id": made["id"], "token": own}]}).json["claimed"] == [made["id"]]
    other = fresh(app)                                  # the account on another device
    assert other.post("/accounts/session", json={"name": ann.name, "password": PASSWORD}).status_code == 200
    assert [g["id"] for g in other.get("/players/me/games").json["games"]] == [made["id"]]
    assert other.get(f"/games/{made['id']}").json["seat"] == 0
    assert client.get("/players/me/games", headers=bearer(guest["token"])).json["games"] == []
    bob = person(app, "bob")                            # nobody else takes it with the same token
    assert bob.post("/players/me/games/claim", {"games": [{"id": made["id"], "token": own}]}).json["refused"]


def _commands(client, game_id: str, token: str) -> list[dict]:
    legal = client.get(f"/games/{game_id}/legal", headers=bearer(token)).json
    return [c for c in legal["commands"] if c["type"] != "resign"]


def test_a_claimed_seat_is_told_of_its_turns_as_any_account_seat(app, client):
    made = client.post("/games", json={"form": "duel", "players": [
        {"name": "Me", "school": "northern"}, {"name": "Friend", "school": "sylvan"}]}).json
    own, friend = made["seats"][0]["token"], made["seats"][1]["token"]
    ann = person(app, "ann")
    assert ann.post("/players/me/games/claim", {"games": [{"id": made["id"], "token": own}]}).json["claimed"]
    for _ in range(5):                              # the friend plays until the game waits for Ann's seat
        if _commands(client, made["id"], own):
            break
        command = _commands(client, made["id"], friend)[0]
        assert client.post(f"/games/{made['id']}/commands", json=command, headers=bearer(friend)).status_code == 200
    notes = ann.get("/players/me/notifications").json["notifications"]
    turn = [n for n in notes if n["type"] == "your_turn" and n["game_id"] == made["id"]]
    assert turn and turn[0]["seat"] == 0 and "Friend" in turn[0]["text"]


def test_a_team_game_reads_2_v_2_and_lists_the_other_side_only(app, client):
    ann = person(app, "ann")
    made = ann.post("/games", {"form": "duel", "teams": True, "players": [
        {"name": ann.name, "school": "northern", "player": ann.id}, {"name": "Bob", "school": "sylvan"},
        {"name": "Cat", "school": "highland"}, {"name": "Dan", "school": "southern"}]}).json
    row = _mine(ann)[made["id"]]
    assert (row["form_text"], row["opponents"], row["partners"]) == ("2 v 2", ["Bob", "Dan"], ["Cat"])
    client.post(f"/games/{made['id']}/resign", headers=bearer(made["seats"][1]["token"]))
    assert _mine(ann)[made["id"]]["status_text"] in ("you won by resignation",)
