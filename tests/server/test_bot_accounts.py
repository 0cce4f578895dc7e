"""Bot accounts: an account that has played no game becomes one for good; it is shown as BOT, plays
casual games only (never quick match, never rated) and only with its token, a few games at a time."""
from __future__ import annotations

import uuid

import pytest

from .conftest import bearer, reconfigure
from .people import fresh, registered

PASSWORD = "correct horse battery"
IRREVERSIBLE = {"irreversible": True}


@pytest.fixture
def client(app):
    return fresh(app)


def _bot(client, name: str = "Robo") -> dict:
    robo = registered(client, name)
    r = client.post("/accounts/me/bot", json=IRREVERSIBLE, headers=bearer(robo["token"]))
    assert r.status_code == 200, r.json
    assert (r.json["bot"], r.json["title"]) == (True, "BOT")
    return robo


def _invite(client, host: dict, guest: dict, **extra) -> dict:
    r = client.post("/games", headers=bearer(host["token"]), json={"form": "duel", **extra, "players": [
        {"name": "Ann", "school": "northern", "player": host["id"]},
        {"name": guest["name"], "school": "sylvan", "player": guest["id"]}]})
    assert r.status_code == 201, r.json
    return r.json


def test_a_new_account_becomes_a_bot_once_and_for_good_but_not_after_a_game(client):
    robo = _bot(client)
    again = client.post("/accounts/me/bot", json=IRREVERSIBLE, headers=bearer(robo["token"]))
    assert again.status_code == 200 and again.json["bot"]              # nothing turns it back
    assert client.post("/accounts/me/bot", json={"irreversible": False},
                       headers=bearer(robo["token"])).status_code == 400
    ann, bob = registered(client, "Ann"), registered(client, "Bob")
    created = _invite(client, ann, bob)
    invitation = created["seats"][1]["invitation"]
    assert client.post(f"/players/me/invitations/{invitation}/accept", headers=bearer(bob["token"])).status_code == 200
    refused = client.post("/accounts/me/bot", json=IRREVERSIBLE, headers=bearer(bob["token"]))
    assert (refused.status_code, refused.json["code"]) == (409, "has_played")


def _signed_up(app, name: str) -> tuple:
    """A person signed in on a page: (that browser, {id, name, token: an API token of theirs})."""
    page = fresh(app)
    r = page.post("/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.json
    token = page.post("/accounts/me/tokens", json={}, headers=_csrf(page)).json["token"]
    return page, {"id": r.json["id"], "name": name, "token": token}


def _csrf(page) -> dict:
    return {"X-CSRF-Token": page.get_cookie("arena_csrf").value}


def test_a_bot_accounts_game_is_casual_shows_bot_and_is_played_with_its_token_only(client, app):
    _, ann = _signed_up(app, f"ann{uuid.uuid4().hex[:8]}")
    robo_page, robo = _signed_up(app, f"robo{uuid.uuid4().hex[:8]}")
    assert robo_page.post("/accounts/me/bot", json=IRREVERSIBLE, headers=_csrf(robo_page)).json["bot"]
    created = _invite(client, ann, robo)
    listed = client.get("/players/me/invitations", headers=bearer(robo["token"])).json["invitations"]
    assert listed[0]["players"][1]["name"] == f"BOT {robo['name']}" and listed[0]["players"][1]["title"] == "BOT"
    accepted = client.post(f"/players/me/invitations/{listed[0]['id']}/accept", headers=bearer(robo["token"]))
    assert accepted.status_code == 200, accepted.json
    view = client.get(f"/games/{created['id']}").json
    assert view["rated"] is False
    robo_seat = next(p for p in view["players"] if p["player"] == robo["id"])
    assert (robo_seat["name"], robo_seat["title"], robo_seat["bot"]) == (f"BOT {robo['name']}", "BOT", False)
    ann_games = client.get("/players/me/games", headers=bearer(ann["token"])).json["games"]
    assert ann_games[0]["opponents"] == [f"BOT {robo['name']}"]
    assert client.get(f"/profiles/{robo['name']}").json["title"] == "BOT"

    game = f"/games/{created['id']}"
    while client.get(game).json["active_seat"] == 0:
        legal = client.get(f"{game}/legal", headers=bearer(ann["token"])).json["commands"]
        assert client.post(f"{game}/commands", json=legal[0], headers=bearer(ann["token"])).status_code == 200
    mine = client.get(f"{game}/legal", headers=bearer(robo["token"])).json["commands"]
    from_page = robo_page.post(f"{game}/commands", json=mine[0], headers=_csrf(robo_page))
    assert (from_page.status_code, from_page.json["code"]) == (403, "bot_plays_by_api")
    assert client.post(f"{game}/commands", json=mine[0], headers=bearer(robo["token"])).status_code == 200


def test_a_bot_never_seeks_a_quick_match_nor_sits_at_a_rated_table(client):
    robo = _bot(client)
    seek = client.post("/lobby/seeks", json={"form": "duel"}, headers=bearer(robo["token"]))
    assert (seek.status_code, seek.json["code"]) == (403, "bot_account")
    rated = client.post("/lobby/tables", json={"form": "duel"}, headers=bearer(robo["token"]))
    assert (rated.status_code, rated.json["code"]) == (403, "bot_account")
    ann = registered(client, "Ann")
    table = client.post("/lobby/tables", json={"form": "duel"}, headers=bearer(ann["token"])).json
    joined = client.post(f"/lobby/tables/{table['id']}/join", json={}, headers=bearer(robo["token"]))
    assert (joined.status_code, joined.json["code"]) == (403, "bot_account")
    casual = client.post("/lobby/tables", json={"form": "duel", "rated": False}, headers=bearer(ann["token"])).json
    joined = client.post(f"/lobby/tables/{casual['id']}/join", json={}, headers=bearer(robo["token"]))
    assert joined.status_code == 200 and joined.json["status"] == "started"
    assert "BOT Robo" in [p["name"] for p in joined.json["players"]]
    assert client.get(f"/games/{casual['id']}").json["rated"] is False


def test_a_bot_plays_only_so_many_games_at_once(client, app):
    reconfigure(app, ARENA_BOT_ACCOUNT_GAMES=1)
    robo, ann = _bot(client), registered(client, "Ann")
    first, second = _invite(client, ann, robo), _invite(client, ann, robo)
    answer = client.post(f"/players/me/invitations/{first['seats'][1]['invitation']}/accept", headers=bearer(robo["token"]))
    assert answer.status_code == 200
    busy = client.post(f"/players/me/invitations/{second['seats'][1]['invitation']}/accept", headers=bearer(robo["token"]))
    assert (busy.status_code, busy.json["code"]) == (429, "bot_busy")
