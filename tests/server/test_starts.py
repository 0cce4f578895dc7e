"""Every way a game starts, and that no answer ever hands a registered player's seat to anyone else.

The walk: POST /games (anonymous with guests, a player against the computer, a player inviting
another and a guest), a lobby table, a quick match, and rematches (registered players, guests, the
computer). Every answer is recorded with who received it; every token in any of them is then
looked up: a token of a registered player's seat may only ever have reached that player. Along
the way, every seat of a player whose account asks to confirm the end of each turn starts with
that option, by every path, and no other seat does.
"""
from __future__ import annotations

import threading

from freezegun import freeze_time

from events import roster, tokens
from tests.server.conftest import bearer

from .people import Person, person

GUESTS = [{"name": "Gus", "school": "northern"}, {"name": "Gil", "school": "sylvan"}]


class Walk:
    """Calls made as someone (a player token, a person's session, a seat token, nobody); every
    answer kept with its receiver."""

    def __init__(self, client, redis) -> None:
        self.client, self.redis = client, redis
        self.answers: list[tuple[str | None, dict]] = []      # (receiving player or None, answer)

    def call(self, method: str, path: str, who, json=None, token: str | None = None, expect=None):
        if isinstance(who, Person):
            r = getattr(who, method)(path, **({"json": json} if method == "post" else {}))
            player = who.id
        else:
            headers = bearer(token or who["token"]) if (token or who) else {}
            r = self.client.open(path, method=method.upper(), json=json, headers=headers)
            player = who["id"] if who and not token else None
        assert expect is None or r.status_code == expect, (path, r.status_code, r.json)
        self.answers.append((player, r.json or {}))
        return r.json

    def leaks(self, games: list[str]) -> list[tuple]:
        found = []
        for receiver, answer in self.answers:
            for token in _tokens(answer):
                for game_id in games:
                    seat = tokens.seat_of(self.redis, game_id, token)
                    owner = roster.seats(self.redis, game_id)[seat].get("player") if seat is not None else None
                    if owner is not None and owner != receiver:
                        found.append((game_id, seat, owner, receiver))
        return found


def _tokens(value) -> list[str]:
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == "token" and isinstance(v, str)] + \
            [t for v in value.values() for t in _tokens(v)]
    if isinstance(value, list):
        return [t for v in value for t in _tokens(v)]
    return []


def _resign_all(walk: Walk, game_id: str, who, token: str | None = None) -> None:
    walk.call("post", f"/games/{game_id}/resign", who, token=token, expect=200)


def test_no_way_a_game_starts_hands_a_registered_players_seat_to_anyone_else(app, client, redis_client):
    walk = Walk(client, redis_client)
    ann = walk.call("post", "/players", None, json={"name": "Ann"}, expect=201)
    bob = walk.call("post", "/players", None, json={"name": "Bob"}, expect=201)
    asked = {ann["id"]}                         # whose account asks to confirm the end of each turn
    assert client.put("/accounts/me/table", json={"confirm_turn_end": True}, headers=bearer(ann["token"])).status_code == 200
    games = []
    # 1. an anonymous creator with two guests: every guest link is theirs to hand out
    guests = walk.call("post", "/games", None, json={"form": "duel", "players": GUESTS}, expect=201)
    assert all(s["token"] for s in guests["seats"]) and guests["rated"] is True
    games.append(guests["id"])
    # 2. a player against the computer: their own seat and the computer's
    vs_bot = walk.call("post", "/games", ann, json={"form": "duel", "players": [
        {"name": "Ann", "school": "northern", "player": ann["id"]}, {"name": "Cpu", "school": "sylvan", "bot": True}]},
        expect=201)
    games.append(vs_bot["id"])
    # 3. a player inviting another and a guest, with a seed of their choosing: unrated, and said
    melee = walk.call("post", "/games", ann, json={"form": "melee", "seed": "mine", "players": [
        {"name": "Ann", "school": "northern", "player": ann["id"]}, {"name": "Bob", "school": "sylvan", "player": bob["id"]},
        {"name": "Gus", "school": "highland"}]}, expect=201)
    assert [("token" in s) for s in melee["seats"]] == [True, False, True]
    assert melee["rated"] is False and melee["start_chosen_by_creator"] is True
    [invite] = walk.call("get", "/players/me/invitations", bob)["invitations"]
    assert invite["rated"] is False and "chose the random seed" in invite["start_text"]
    walk.call("post", f"/players/me/invitations/{invite['id']}/accept", bob, expect=200)
    view = walk.call("get", f"/games/{melee['id']}", bob)
    assert (view["seat"], view["rated"], view["start_chosen_by_creator"]) == (1, False, True)
    games.append(melee["id"])
    # 4. a duel by invitation, played to its end, then a rematch both players click
    duel = walk.call("post", "/games", ann, json={"form": "duel", "players": [
        {"name": "Ann", "school": "northern", "player": ann["id"]}, {"name": "Bob", "school": "sylvan", "player": bob["id"]}]},
        expect=201)
    walk.call("post", f"/players/me/invitations/{duel['id']}.1/accept", bob, expect=200)
    assert walk.call("get", f"/games/{duel['id']}", ann)["rated"] is True
    _resign_all(walk, duel["id"], ann)
    offered = walk.call("post", f"/games/{duel['id']}/rematch", ann, expect=202)
    assert offered["status"] == "offered" and "token" not in offered and offered["seat"] == 1
    again = walk.call("post", f"/games/{duel['id']}/rematch", bob, expect=201)
    assert again["seat"] == 0 and again["token"]
    mine = walk.call("get", f"/games/{duel['id']}/rematch", ann)
    assert mine["id"] == again["id"] and mine["token"] != again["token"]
    assert walk.call("get", f"/games/{again['id']}", None, token=mine["token"])["seat"] == 1
    games.append(again["id"])
    # 5. a guests' rematch: each answers with its old seat token, the last starts it
    _resign_all(walk, guests["id"], None, token=guests["seats"][0]["token"])
    walk.call("post", f"/games/{guests['id']}/rematch", None, token=guests["seats"][1]["token"], expect=202)
    started = walk.call("post", f"/games/{guests['id']}/rematch", None, token=guests["seats"][0]["token"], expect=201)
    games.append(started["id"])
    # 6. against the computer: it accepts at once, so the offer starts the game
    _resign_all(walk, vs_bot["id"], ann)
    games.append(walk.call("post", f"/games/{vs_bot['id']}/rematch", ann, expect=201)["id"])
    # 7. a lobby table and a quick match: every seat is its player's own, no token in any answer
    cy, di = person(app, "cy"), person(app, "di")
    assert cy.client.put("/accounts/me/table", json={"confirm_turn_end": True}, headers=cy.csrf).status_code == 200
    asked.add(cy.id)
    table = walk.call("post", "/lobby/tables", cy, json={"form": "duel"}, expect=201)
    joined = walk.call("post", f"/lobby/tables/{table['id']}/join", di, expect=200)
    walk.call("post", "/lobby/seeks", cy, json={"form": "high_form"}, expect=201)
    matched = walk.call("post", "/lobby/seeks", di, json={"form": "high_form"}, expect=201)
    for game_id in (joined["game_id"], matched["game_id"]):
        assert {p["player"] for p in walk.call("get", f"/games/{game_id}", cy)["players"]} == {cy.id, di.id}
        games.append(game_id)
    assert walk.leaks(games) == []
    assert any(_tokens(a) for _, a in walk.answers)       # the walk did see tokens: it looked at something
    for game_id in games:                                 # the account's preference, applied by the server
        view = client.get(f"/games/{game_id}").json
        confirming = {p["seat"] for p in view["players"] if p.get("player") in asked}
        assert {s["seat"] for s in view["seats"] if s["confirm_turn_end"]} == confirming, (game_id, view["players"])
    assert sum(bool({p.get("player") for p in client.get(f"/games/{g}").json["players"]} & asked) for g in games) >= 5


def test_however_many_players_click_rematch_at_once_one_game_results(client):
    game = client.post("/games", json={"form": "duel", "players": GUESTS}).json
    tokens_ = [s["token"] for s in game["seats"]]
    client.post(f"/games/{game['id']}/resign", headers=bearer(tokens_[1]))
    answers: list = []
    barrier = threading.Barrier(6)

    def click(token: str) -> None:
        barrier.wait()
        answers.append(client.post(f"/games/{game['id']}/rematch", headers=bearer(token)))

    threads = [threading.Thread(target=click, args=(tokens_[i % 2],)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ids = {r.json.get("rematch_id") for r in answers if r.status_code in (201, 202)}
    assert len(ids) == 1 and sorted({r.status_code for r in answers}) <= [201, 202, 409, 429]
    assert sum(r.status_code == 201 for r in answers) >= 1
    view = client.get(f"/games/{game['id']}/rematch", headers=bearer(tokens_[0])).json
    assert view["status"] == "started" and view["id"] in ids


def test_an_offer_is_withdrawn_declined_or_expires_and_a_new_one_may_follow(client):
    game = client.post("/games", json={"form": "duel", "players": GUESTS}).json
    first, second = (s["token"] for s in game["seats"])
    client.post(f"/games/{game['id']}/resign", headers=bearer(first))
    path = f"/games/{game['id']}/rematch"
    assert client.get(path, headers=bearer(first)).json["status"] == "none"
    assert client.get(path).status_code == 401
    offered = client.post(path, headers=bearer(first)).json
    withdrawn = client.delete(path, headers=bearer(first)).json
    assert withdrawn["status"] == "withdrawn"
    assert client.post(path, headers=bearer(second)).status_code == 202          # a new offer, by the other
    assert client.get(path, headers=bearer(first)).json["rematch_id"] != offered["rematch_id"]
    assert client.delete(path, headers=bearer(first)).json["status"] == "declined"
    assert client.delete(path, headers=bearer(first)).status_code == 409
    with freeze_time() as clock:
        client.post(path, headers=bearer(first))
        clock.tick(24 * 3600 + 1)
        assert client.get(path, headers=bearer(second)).json["status"] == "expired"
        assert client.post(path, headers=bearer(second)).json["status"] == "offered"     # and again


def test_registered_players_hear_of_the_offer_and_of_its_start(client):
    ann = client.post("/players", json={"name": "Ann"}).json
    game = client.post("/games", headers=bearer(ann["token"]), json={"form": "duel", "players": [
        {"name": "Ann", "school": "northern", "player": ann["id"]}, GUESTS[1]]}).json
    guest = game["seats"][1]["token"]
    client.post(f"/games/{game['id']}/resign", headers=bearer(guest))
    client.post(f"/games/{game['id']}/rematch", headers=bearer(guest))
    notes = client.get("/players/me/notifications", headers=bearer(ann["token"])).json["notifications"]
    offer = next(n for n in notes if n["type"] == "rematch_offer")
    assert offer["state"] == "offered" and offer["text"].startswith("Gil offers a rematch")
    assert offer["rematch_of"] == game["id"]                    # the page links the game where it is answered
    assert client.post(f"/games/{game['id']}/rematch", headers=bearer(ann["token"])).status_code == 201
    started = client.get(f"/games/{game['id']}/rematch", headers=bearer(guest)).json
    assert started["status"] == "started" and started["seat"] == 0
    assert client.get(f"/games/{started['id']}", headers=bearer(started["token"])).json["seat"] == 0


def test_every_notification_kind_is_served_to_the_page_once(client):
    kinds = client.get("/notices.json").json["kinds"]
    names = [k["kind"] for k in kinds]
    assert len(names) == len(set(names)) and "rematch_offer" in names
    assert all(k["label"] for k in kinds)
