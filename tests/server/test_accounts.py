"""Accounts over HTTP against a real Redis: sign-up, sign-in, the session cookie and its CSRF
token, API tokens, password change, signing out everywhere, and today's players and seat links."""
from __future__ import annotations

import uuid

import pytest

from .conftest import bearer
from .people import fresh

PASSWORD = "correct horse battery"


@pytest.fixture
def client(app):
    return fresh(app)


def unique(prefix: str = "ann") -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def csrf(client) -> dict:
    return {"X-CSRF-Token": client.get_cookie("arena_csrf").value}


def sign_up(client, name: str, password: str = PASSWORD) -> dict:
    r = client.post("/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.json
    return r.json


def test_sign_up_sets_a_secure_session_cookie_and_the_session_opens_my_account(client):
    name = unique()
    r = client.post("/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201 and r.json["name"] == name and "password" not in r.json
    cookies = {c.split("=", 1)[0]: c for c in r.headers.getlist("Set-Cookie")}
    assert "HttpOnly" in cookies["arena_session"] and "SameSite=Lax" in cookies["arena_session"]
    assert "HttpOnly" not in cookies["arena_csrf"]
    me = client.get("/accounts/me")
    assert me.status_code == 200 and me.json["id"] == r.json["id"] and me.json["via"] == "session"
    assert me.json["csrf"] == client.get_cookie("arena_csrf").value


def test_cookie_is_secure_over_https(app):
    https = fresh(app)
    r = https.post("/accounts", json={"name": unique(), "password": PASSWORD}, base_url="https://localhost")
    session_cookie = [c for c in r.headers.getlist("Set-Cookie") if c.startswith("arena_session=")][0]
    assert "Secure" in session_cookie


def test_names_are_unique_regardless_of_case_and_bad_input_is_a_400(client, app):
    name = unique("Bob")
    sign_up(client, name)
    other = fresh(app)
    assert other.post("/accounts", json={"name": name.lower(), "password": PASSWORD}).status_code == 409
    assert other.post("/accounts", json={"name": "x", "password": PASSWORD}).status_code == 400
    assert other.post("/accounts", json={"name": unique(), "password": "short"}).status_code == 400
    assert other.post("/accounts", json={"name": "<script>", "password": PASSWORD}).status_code == 400
    assert other.post("/accounts", data="nope", content_type="application/json").status_code == 400


def test_sign_in_does_not_tell_whether_the_name_exists(client, app):
    name = unique()
    sign_up(client, name)
    newcomer = fresh(app)
    wrong = newcomer.post("/accounts/session", json={"name": name, "password": "wrong password"})
    unknown = newcomer.post("/accounts/session", json={"name": unique("nobody"), "password": "wrong password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json["detail"] == unknown.json["detail"] and wrong.json["code"] == unknown.json["code"]
    ok = newcomer.post("/accounts/session", json={"name": name.upper(), "password": PASSWORD})
    assert ok.status_code == 200 and newcomer.get("/accounts/me").json["name"] == name


def test_repeated_failed_sign_ins_are_refused_for_a_while(app):
    name = unique()
    sign_up(fresh(app), name)
    c = fresh(app)
    codes = [c.post("/accounts/session", json={"name": name, "password": f"guess {i}"}).status_code for i in range(11)]
    assert codes[:10] == [401] * 10 and codes[10] == 429
    # even the right password waits until the window passes
    assert c.post("/accounts/session", json={"name": name, "password": PASSWORD}).status_code == 429


def test_a_stolen_session_cannot_guess_the_password_through_a_password_change(app):
    name = unique()
    thief = fresh(app)
    sign_up(thief, name)
    change = [thief.post("/accounts/me/password", json={"current": f"guess {i}", "new": "mine now, all mine"},
                         headers=csrf(thief)) for i in range(11)]
    assert [r.status_code for r in change] == [403] * 10 + [429] and change[10].json["code"] == "too_many_failures"
    right = thief.post("/accounts/me/password", json={"current": PASSWORD, "new": "mine now, all mine"},
                       headers=csrf(thief))
    assert right.status_code == 429                         # the right one too, until the window passes
    assert int(right.headers["Retry-After"]) > 0
    # ... but the thief's failures are the thief's credential's: the owner still signs in elsewhere
    assert fresh(app).post("/accounts/session", json={"name": name, "password": PASSWORD}).status_code == 200


def test_cookie_writes_need_the_csrf_header_token_writes_do_not(client, redis_client):
    sign_up(client, unique())
    assert client.post("/accounts/me/tokens", json={"label": "bot"}).status_code == 403
    assert client.post("/accounts/me/tokens", json={"label": "bot"}, headers={"X-CSRF-Token": "forged"}).status_code == 403
    made = client.post("/accounts/me/tokens", json={"label": "bot"}, headers=csrf(client))
    assert made.status_code == 201 and made.json["label"] == "bot"
    # a bearer token needs no CSRF token (no cookie is involved)
    again = fresh(client.application).post("/accounts/me/tokens", json={"label": "bot2"},
                                                   headers=bearer(made.json["token"]))
    assert again.status_code == 201


def test_api_tokens_are_listed_and_revoked(client):
    sign_up(client, unique())
    made = client.post("/accounts/me/tokens", json={"label": "my bot"}, headers=csrf(client)).json
    listed = client.get("/accounts/me/tokens").json["tokens"]
    assert [t["label"] for t in listed] == ["my bot"] and "token" not in listed[0]
    robot = fresh(client.application)
    assert robot.get("/players/me/games", headers=bearer(made["token"])).status_code == 200
    assert client.delete(f"/accounts/me/tokens/{made['id']}", headers=csrf(client)).status_code == 204
    assert robot.get("/players/me/games", headers=bearer(made["token"])).status_code == 401
    assert client.delete(f"/accounts/me/tokens/{made['id']}", headers=csrf(client)).status_code == 404


def test_password_change_signs_other_sessions_out(app):
    name = unique()
    laptop = fresh(app)
    sign_up(laptop, name)
    phone = fresh(app)
    assert phone.post("/accounts/session", json={"name": name, "password": PASSWORD}).status_code == 200
    wrong = laptop.post("/accounts/me/password", json={"current": "nope", "new": "another long one"}, headers=csrf(laptop))
    assert wrong.status_code == 403
    r = laptop.post("/accounts/me/password", json={"current": PASSWORD, "new": "another long one"}, headers=csrf(laptop))
    assert r.status_code == 200 and r.json["sessions_closed"] == 1
    assert laptop.get("/accounts/me").status_code == 200
    assert phone.get("/accounts/me").status_code == 401
    newcomer = fresh(app)
    assert newcomer.post("/accounts/session", json={"name": name, "password": PASSWORD}).status_code == 401
    assert newcomer.post("/accounts/session", json={"name": name, "password": "another long one"}).status_code == 200


def test_sign_out_and_sign_out_everywhere(app):
    name = unique()
    a, b, c = fresh(app), fresh(app), fresh(app)
    sign_up(a, name)
    for other in (b, c):
        assert other.post("/accounts/session", json={"name": name, "password": PASSWORD}).status_code == 200
    assert c.delete("/accounts/session", headers=csrf(c)).status_code == 204
    assert c.get("/accounts/me").status_code == 401
    assert b.get("/accounts/me").status_code == 200
    r = a.post("/accounts/me/sign-out-everywhere", headers=csrf(a))
    assert r.status_code == 200 and r.json["sessions_closed"] == 2
    assert a.get("/accounts/me").status_code == 401 and b.get("/accounts/me").status_code == 401


def test_a_registered_player_keeps_its_token_and_games_when_it_signs_up(client, app):
    player = client.post("/players", json={"name": "Old Ann"}).json
    game = client.post("/games", headers=bearer(player["token"]), json={"form": "duel", "players": [
        {"name": "Old Ann", "school": "northern", "player": player["id"]}, {"name": "Bob", "school": "sylvan"}]}).json
    listed = client.get("/accounts/me/tokens", headers=bearer(player["token"])).json["tokens"]
    assert [(t["kind"], t["label"]) for t in listed] == [("api", "registration"), ("seat", f"seat 0 of game {game['id']}")]
    name = unique("oldann")
    browser = fresh(app)
    r = browser.post("/accounts", json={"name": name, "password": PASSWORD}, headers=bearer(player["token"]))
    assert r.status_code == 201 and r.json["id"] == player["id"]
    # the old token still works, and the browser sees the same games through its cookie
    assert client.get("/players/me/games", headers=bearer(player["token"])).json["games"][0]["id"] == game["id"]
    mine = browser.get("/players/me/games").json["games"]
    assert [g["id"] for g in mine] == [game["id"]] and mine[0]["seat"] == 0
    assert browser.get(f"/games/{game['id']}").json["seat"] == 0
    assert browser.post("/accounts", json={"name": unique(), "password": PASSWORD},
                        headers=bearer(player["token"])).status_code == 409


def test_an_account_plays_its_seat_from_any_device_with_csrf(app, client):
    name = unique()
    home = fresh(app)
    me = sign_up(home, name)
    game = home.post("/games", headers=csrf(home), json={"form": "duel", "players": [
        {"name": name, "school": "northern", "player": me["id"]}, {"name": "Bob", "school": "sylvan"}]}).json
    phone = fresh(app)
    phone.post("/accounts/session", json={"name": name, "password": PASSWORD})
    legal = phone.get(f"/games/{game['id']}/legal").json
    assert legal["seat"] == 0 and legal["commands"]
    command = legal["commands"][0]
    assert phone.post(f"/games/{game['id']}/commands", json=command).status_code == 403      # no CSRF header
    assert phone.post(f"/games/{game['id']}/commands", json=command, headers=csrf(phone)).status_code == 200
    # a guest's seat link keeps working beside it
    guest = fresh(app)
    assert guest.get(f"/games/{game['id']}", headers=bearer(game["seats"][1]["token"])).json["seat"] == 1


@pytest.mark.parametrize("cookie", ["", "nodot", "p123.forged", "bad id!.x", "p" + "0" * 70 + ".x"])
def test_forged_session_cookies_are_ignored(app, cookie):
    c = fresh(app)
    c.set_cookie("arena_session", cookie)
    assert c.get("/accounts/me").status_code == 401
