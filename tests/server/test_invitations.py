"""Consent before a seat: naming a registered player invites them; only their acceptance seats them."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from freezegun import freeze_time
from rq import Queue

from tests.server.conftest import bearer, reconfigure

START = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)


def _register(client, name, **extra):
    r = client.post("/players", json={"name": name, **extra})
    assert r.status_code == 201
    return r.json


def _invite(client, invitee, *, creator=None, time_control=None, extra_seats=()):
    players = [{"name": "Ann", "school": "northern", **({"player": creator["id"]} if creator else {})},
               {"name": invitee["name"], "school": "sylvan", "player": invitee["id"]}, *extra_seats]
    body = {"form": "duel" if len(players) == 2 else "melee", "seed": "invite", "players": players,
            **({"time_control": time_control} if time_control else {})}
    r = client.post("/games", json=body, headers=bearer(creator["token"]) if creator else {})
    assert r.status_code == 201, r.json
    return r.json


def _answer(client, player, invitation, verb="accept"):
    return client.post(f"/players/me/invitations/{invitation}/{verb}", headers=bearer(player["token"]))


def test_naming_a_player_invites_them_and_gives_the_creator_no_token_for_their_seat(client, redis_server, monkeypatch):
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1")
    bob = _register(client, "Bob", webhook_url="http://127.0.0.1:9/hook")
    created = _invite(client, bob)
    seat = created["seats"][1]
    assert created["status"] == "waiting_for_players" and created["version"] == 0
    assert seat["status"] == "invited" and "token" not in seat and seat["invitation"] == f"{created['id']}.1"
    view = client.get(f"/games/{created['id']}").json
    assert view["status"] == "waiting_for_players" and view["status_text"] == "waiting for 1 invited player to accept"
    assert [p["status"] for p in view["players"]] == ["claimed", "invited"]
    [listed] = client.get("/players/me/invitations", headers=bearer(bob["token"])).json["invitations"]
    assert (listed["id"], listed["status"], listed["game_status"]) == (seat["invitation"], "invited",
                                                                         "waiting_for_players")
    [note] = client.get("/players/me/notifications", headers=bearer(bob["token"])).json["notifications"]
    assert (note["type"], note["invitation"], note["game_id"]) == ("invitation", seat["invitation"], created["id"])
    hooks = Queue("arena-notify", connection=redis_server.client()).get_job_ids()
    assert f"hook-{note['id']}" in hooks                      # the webhook goes out the same way


def test_nobody_plays_before_every_seat_is_claimed_and_the_invitee_gets_the_token_on_their_own_call(client):
    bob, eve = _register(client, "Bob"), _register(client, "Eve")
    created = _invite(client, bob)
    game_id, invitation = created["id"], created["seats"][1]["invitation"]
    ann_token = created["seats"][0]["token"]
    r = client.post(f"/games/{game_id}/commands", json={"type": "choose", "square": "c5"}, headers=bearer(ann_token))
    assert (r.status_code, r.json["code"]) == (409, "game_not_started")
    assert client.get(f"/games/{game_id}/events").json["code"] == "game_not_started"
    assert (_answer(client, eve, invitation).status_code, _answer(client, eve, invitation).json["code"]) == \
        (404, "invitation_not_found")
    assert client.post(f"/players/me/invitations/{invitation}/accept").status_code == 401
    accepted = _answer(client, bob, invitation)
    assert accepted.status_code == 200 and accepted.json["game_status"] == "started"
    assert _answer(client, bob, invitation).json["code"] == "invitation_answered"
    view = client.get(f"/games/{game_id}", headers=bearer(accepted.json["token"])).json
    assert view["status"] in ("setup", "playing") and view["seat"] == 1 and view["version"] > 0
    assert client.get(f"/games/{game_id}", headers=bearer(bob["token"])).json["seat"] == 1
    moved = client.post(f"/games/{game_id}/commands", json={"type": "choose", "square": "c5"},
                        headers=bearer(accepted.json["token"]))
    assert moved.status_code == 200


def test_the_clock_starts_when_the_last_seat_is_claimed_not_at_creation(client):
    bob = _register(client, "Bob")
    with freeze_time(START):
        created = _invite(client, bob, time_control={"kind": "move", "seconds": 60})
    with freeze_time(START + timedelta(hours=5)):
        _answer(client, bob, created["seats"][1]["invitation"])
        clocks = client.get(f"/games/{created['id']}").json["clocks"]
    assert clocks["since"] == "2026-05-01T17:00:00.000000Z"
    assert clocks["deadline"] == "2026-05-01T17:01:00.000000Z"


def test_a_decline_cancels_the_game_for_everyone(client):
    ann, bob, cy = _register(client, "Ann"), _register(client, "Bob"), _register(client, "Cy")
    created = _invite(client, bob, creator=ann, extra_seats=[{"name": "Cy", "school": "highland", "player": cy["id"]}])
    assert [s["status"] for s in created["seats"]] == ["claimed", "invited", "invited"]
    assert _answer(client, cy, created["seats"][2]["invitation"]).json["game_status"] == "waiting_for_players"
    declined = _answer(client, bob, created["seats"][1]["invitation"], "decline")
    assert declined.status_code == 200 and declined.json["game_status"] == "cancelled"
    view = client.get(f"/games/{created['id']}").json
    assert (view["status"], view["status_text"]) == ("cancelled", "cancelled: invitation declined")
    assert [p["status"] for p in view["players"]] == ["claimed", "declined", "accepted"]
    late = _answer(client, bob, created["seats"][1]["invitation"])
    assert (late.status_code, late.json["code"]) == (409, "invitation_declined")
    r = client.post(f"/games/{created['id']}/commands", json={"type": "choose", "square": "c5"},
                    headers=bearer(created["seats"][0]["token"]))
    assert (r.status_code, r.json["code"]) == (409, "game_cancelled")
    answers = [n["answer"] for n in client.get("/players/me/notifications", headers=bearer(ann["token"])).json[
        "notifications"] if n["type"] == "invitation_answered"]
    assert answers == ["accepted", "declined"]
    games = client.get("/players/me/games", headers=bearer(cy["token"])).json["games"]
    assert [(g["id"], g["status"]) for g in games] == [(created["id"], "cancelled")]


def test_an_unanswered_invitation_expires_into_a_cancelled_game(app, client):
    reconfigure(app, ARENA_INVITATION_TIMEOUT=600)
    bob = _register(client, "Bob")
    with freeze_time(START):
        created = _invite(client, bob)
    with freeze_time(START + timedelta(seconds=599)):
        assert client.get(f"/games/{created['id']}").json["status"] == "waiting_for_players"
    with freeze_time(START + timedelta(seconds=601)):
        view = client.get(f"/games/{created['id']}").json
        assert (view["status"], view["status_text"]) == ("cancelled", "cancelled: invitation expired")
        [listed] = client.get("/players/me/invitations", headers=bearer(bob["token"])).json["invitations"]
        assert listed["status"] == "expired"
        late = _answer(client, bob, created["seats"][1]["invitation"])
    assert (late.status_code, late.json["code"]) == (409, "invitation_expired")


def test_your_own_seat_needs_your_player_token_and_guests_keep_their_join_links(client):
    ann = _register(client, "Ann")
    players = [{"name": "Ann", "school": "northern", "player": ann["id"]}, {"name": "Guest", "school": "sylvan"}]
    mine = client.post("/games", json={"form": "duel", "players": players}, headers=bearer(ann["token"])).json
    assert mine["status"] == "playing" and all("token" in s for s in mine["seats"])
    unasked = client.post("/games", json={"form": "duel", "players": players}).json
    assert [s["status"] for s in unasked["seats"]] == ["invited", "claimed"] and "token" in unasked["seats"][1]
    forged = client.post("/games", json={"form": "duel", "players": players}, headers=bearer("forged"))
    assert (forged.status_code, forged.json["code"]) == (401, "bad_token")


def test_invitees_accepting_at_once_start_the_game_exactly_once(app, redis_server):
    from concurrent.futures import ThreadPoolExecutor

    from server import create_app
    client = app.test_client()
    ann, *others = [_register(client, n) for n in ("Ann", "Bob", "Cy", "Di")]
    players = [{"name": p["name"], "school": s, "player": p["id"]}
               for p, s in zip([ann, *others], ["northern", "sylvan", "highland", "southern"])]
    created = client.post("/games", json={"form": "melee", "seed": "race", "players": players},
                          headers=bearer(ann["token"])).json
    apps = [create_app({"REDIS_URL": redis_server.url, "TESTING": True}) for _ in others]   # three processes

    def accept(i):
        return _answer(apps[i].test_client(), others[i], created["seats"][i + 1]["invitation"]).json

    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(accept, range(3)))
    assert sorted(a["game_status"] for a in answers) == ["started", "waiting_for_players", "waiting_for_players"]
    events = client.get(f"/games/{created['id']}/events").json["events"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert sum(e["version"] == 1 for e in events) == 1
    assert {client.get(f"/games/{created['id']}", headers=bearer(a["token"])).json["seat"] for a in answers} == {1, 2, 3}


def test_the_newest_notifications_come_oldest_first(client):
    ann, bob = _register(client, "Ann"), _register(client, "Bob")
    games = [_invite(client, bob, creator=ann)["id"] for _ in range(3)]
    got = client.get("/players/me/notifications?newest=2", headers=bearer(bob["token"])).json
    assert [n["game_id"] for n in got["notifications"]] == games[1:]
    assert got["last_id"] == got["notifications"][-1]["stream_id"]
    assert client.get("/players/me/notifications?newest=0", headers=bearer(bob["token"])).status_code == 400
    listed = client.get("/players/me/invitations", headers=bearer(bob["token"])).json["invitations"]
    assert {i["invited_by_name"] for i in listed} == {"Ann"} and got["notifications"][0]["text"].startswith("Ann invites")
