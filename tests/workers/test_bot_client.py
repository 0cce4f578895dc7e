"""`arena bot`: a computer player outside the server, through nothing but the public HTTP API."""
from __future__ import annotations

import pytest

from server.bot_client import Bot, NotABotAccount

from .helpers import bearer, register


def _send(client, token):
    def send(method, path, body=None):
        answer = client.open(path, method=method, json=body, headers=bearer(token))
        return answer.status_code, answer.get_json(silent=True) or {}
    return send


def test_the_reference_bot_accepts_an_invitation_and_plays_its_turn_with_its_token(client):
    ann, robo = register(client, "Ann"), register(client, "Robo")
    assert client.post("/accounts/me/bot", json={"irreversible": True}, headers=bearer(robo["token"])).json["bot"]
    created = client.post("/games", headers=bearer(ann["token"]), json={"form": "duel", "seed": "remote", "players": [
        {"name": "Robo", "school": "northern", "player": robo["id"]}, {"name": "Ann", "school": "sylvan", "player": ann["id"]}]})
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    bot = Bot(_send(client, robo["token"]), level=1, key="test")
    bot.run(poll=0, rounds=1)                           # accepts: the game starts, Ann places the start pieces
    legal = client.get(f"/games/{game_id}/legal", headers=bearer(ann["token"])).json["commands"]
    assert client.post(f"/games/{game_id}/commands", json=legal[0], headers=bearer(ann["token"])).status_code == 200
    bot.run(poll=0, rounds=8)
    view = client.get(f"/games/{game_id}").json
    assert view["status"] == "playing"
    moves = client.get(f"/games/{game_id}/moves").json["moves"]
    assert [m for m in moves if m["seat"] == 0 and m["move"] > 0]
    assert view["active_seat"] == 1                     # the bot played its whole first turn, and waits


def test_the_reference_bot_plays_only_as_a_bot_account(client):
    person = register(client, "Pat")
    with pytest.raises(NotABotAccount, match="not a bot account"):
        Bot(_send(client, person["token"]), level=1, key="test").run(poll=0, rounds=1)
