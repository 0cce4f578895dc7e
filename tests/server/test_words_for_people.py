"""Words and numbers a person meets: a rating on the 1500 scale, a page for an unknown address, the
way back from /docs, e-mail settings that say when no mail is sent, a short password refused in words."""
from __future__ import annotations

from events import ratings

from .people import fresh, person


def test_a_rating_reads_on_a_1500_scale_marked_provisional_at_first(app):
    ann = person(app, "ann")
    mine = ann.get("/players/me/rating").json
    assert (mine["display_rating"], mine["provisional"], mine["ordinal"]) == ("1500?", True, 0.0)
    settled = ratings.public({"mu": 30.0, "sigma": 2.0, "games": 25})
    assert settled["display_rating"] == "2460" and not settled["provisional"]        # ordinal 24, 40 a point


def test_a_browser_gets_a_page_for_an_unknown_address_and_a_program_problem_json(client):
    page = client.get("/no/such/page", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "back to the start page" in page.get_data(as_text=True)
    assert client.get("/no/such/page").mimetype == "application/problem+json"
    assert "href='/'" in client.get("/docs").get_data(as_text=True)


def test_the_docs_name_each_endpoints_own_refusals_and_the_common_ones_once(client):
    page = client.get("/docs").get_data(as_text=True)
    ops = page.split('<div class="op">')[1:]
    listed = {op.split("responses: ")[1].split("<")[0] for op in ops}
    assert len(ops) > 40 and len(listed) > 5             # not every endpoint the same list
    legal = next(op for op in ops if "<code>/games/{game_id}/legal</code>" in op and ">GET<" in op)
    assert "responses: 200, 401, 404<" in legal
    assert page.count("the game store is unavailable") == 1


def test_the_email_settings_say_when_this_server_sends_no_mail(app, monkeypatch):
    monkeypatch.delenv("ARENA_SMTP_URL", raising=False)
    assert person(app, "ann").get("/accounts/me/email").json["sending"] is False


def test_a_short_password_is_refused_in_words(app):
    r = fresh(app).post("/accounts", json={"name": "shorty", "password": "abc"})
    assert r.status_code == 400 and "a password needs at least 8 characters" in r.json["detail"]
