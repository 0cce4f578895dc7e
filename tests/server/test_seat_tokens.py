"""Seat tokens die with the account's say-so: those issued to an account's seats are listed with its
tokens (kind 'seat'), can be deleted there, and end when it signs out everywhere or changes its
password; its sessions and API tokens play its seats without them; guests' join links keep working.
Over real HTTP against a real Redis."""
from __future__ import annotations

from .served import PASSWORD, csrf, served, sign_up  # noqa: F401 (served is a fixture)


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def _game_with_me_and_a_guest(client, me: dict) -> dict:
    r = client.post("/games", headers=csrf(client), json={
        "form": "duel", "players": [{"name": "Me", "school": "northern", "player": me["id"]},
                                    {"name": "Guest", "school": "sylvan"}]})
    assert r.status_code == 201, r.text
    return r.json()


def _seat_seen(client, game_id: str, token: str) -> int | None:
    r = client.get(f"/games/{game_id}", headers=_bearer(token))
    return r.json()["seat"] if r.status_code == 200 else r.status_code


def test_my_seats_tokens_are_listed_deletable_and_my_session_plays_on(served):
    mine = served.at()
    me = sign_up(mine)
    game = _game_with_me_and_a_guest(mine, me)
    my_token, guest_token = game["seats"][0]["token"], game["seats"][1]["token"]
    other = served.at()
    assert _seat_seen(other, game["id"], my_token) == 0             # used once: any process may remember it
    [listed] = mine.get("/accounts/me/tokens").json()["tokens"]
    assert (listed["kind"], listed["game_id"], listed["seat"]) == ("seat", game["id"], 0) and "token" not in listed
    api = mine.post("/accounts/me/tokens", json={"label": "bot"}, headers=csrf(mine)).json()
    assert {t["kind"] for t in mine.get("/accounts/me/tokens").json()["tokens"]} == {"seat", "api"}
    assert mine.delete(f"/accounts/me/tokens/{listed['id']}", headers=csrf(mine)).status_code == 204
    assert _seat_seen(other, game["id"], my_token) == 401           # ended at once, in every process
    assert mine.get(f"/games/{game['id']}").json()["seat"] == 0     # the session plays the seat
    assert _seat_seen(other, game["id"], api["token"]) == 0         # and so does an API token
    assert _seat_seen(other, game["id"], guest_token) == 1          # the guest's join link is untouched


def test_signing_out_everywhere_and_a_new_password_end_my_seat_tokens_not_the_guests(served):
    mine = served.at()
    me = sign_up(mine)
    first = _game_with_me_and_a_guest(mine, me)
    r = mine.post("/accounts/me/sign-out-everywhere", headers=csrf(mine))
    assert r.status_code == 200 and r.json()["seat_tokens_revoked"] == 1
    other = served.at()
    assert _seat_seen(other, first["id"], first["seats"][0]["token"]) == 401
    assert _seat_seen(other, first["id"], first["seats"][1]["token"]) == 1
    assert mine.post("/accounts/session", json={"name": me["name"], "password": PASSWORD}).status_code == 200
    second = _game_with_me_and_a_guest(mine, me)
    changed = mine.post("/accounts/me/password", json={"current": PASSWORD, "new": "a whole new password"},
                        headers=csrf(mine))
    assert changed.status_code == 200 and changed.json()["seat_tokens_revoked"] == 1
    assert _seat_seen(other, second["id"], second["seats"][0]["token"]) == 401
    assert mine.get("/accounts/me/tokens").json()["tokens"] == []


def test_an_accepted_invitations_token_is_the_invitees_and_ends_with_their_sessions(served):
    host, guest = served.at(), served.at()
    ann, bob = sign_up(host), sign_up(guest)
    created = host.post("/games", headers=csrf(host), json={
        "form": "duel", "players": [{"name": "Ann", "school": "northern", "player": ann["id"]},
                                    {"name": "Bob", "school": "sylvan", "player": bob["id"]}]}).json()
    accepted = guest.post(f"/players/me/invitations/{created['seats'][1]['invitation']}/accept", headers=csrf(guest))
    assert accepted.status_code == 200
    [listed] = guest.get("/accounts/me/tokens").json()["tokens"]
    assert (listed["kind"], listed["game_id"], listed["seat"]) == ("seat", created["id"], 1)
    assert _seat_seen(served.at(), created["id"], accepted.json()["token"]) == 1
    guest.post("/accounts/me/sign-out-everywhere", headers=csrf(guest))
    assert _seat_seen(served.at(), created["id"], accepted.json()["token"]) == 401
