"""The lobby holds up: a few open tables per account and per address, the newest listed first a page
at a time (or those that fit the caller best), expired tables gone on time, one seek per account
however many requests race. Over real HTTP with the shipped limits, against a real Redis."""
from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

from freezegun import freeze_time

from .served import csrf, new_address, served, sign_up  # noqa: F401 (served is a fixture)

TABLE = {"form": "duel", "rated": False}


def _open(client, **extra):
    return client.post("/lobby/tables", json={**TABLE, **extra}, headers=csrf(client))


def test_an_account_and_an_address_may_have_only_a_few_open_tables(served):
    me = served.at()
    sign_up(me)
    assert [_open(me).status_code for _ in range(4)] == [201, 201, 201, 429]
    refused = _open(me)
    assert refused.json()["code"] == "too_many_open_tables" and int(refused.headers["Retry-After"]) > 3600
    mine = [t for t in me.get("/lobby/tables?limit=200").json()["tables"] if t["creator"] == me.get("/accounts/me").json()["id"]]
    me.post(f"/lobby/tables/{mine[0]['id']}/leave", headers=csrf(me))       # its creator leaves: it closes ...
    assert _open(me).status_code == 201                                     # ... and no longer counts
    address = new_address()
    neighbours = [served.at(address) for _ in range(4)]                     # four accounts behind one address
    codes = []
    for n in neighbours:
        sign_up(n)
        codes.append(_open(n).status_code)
    assert codes == [201, 201, 201, 429]


def test_racing_opens_of_one_account_stay_within_its_cap(served):
    me = served.at()
    sign_up(me)
    answers: list[int] = []
    barrier = threading.Barrier(8)

    def go() -> None:
        barrier.wait()
        answers.append(_open(me).status_code)

    threads = [threading.Thread(target=go) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [201] * 3 + [429] * 5


def test_the_newest_tables_come_first_a_page_at_a_time_and_expired_ones_are_gone(served):
    opened = []
    for _ in range(3):
        c = served.at()
        sign_up(c)
        opened.append(_open(c).json()["id"])
    viewer = served.at()
    first = viewer.get("/lobby/tables?limit=2").json()
    assert [t["id"] for t in first["tables"]] == opened[::-1][:2] and first["next"] is not None
    second = viewer.get(f"/lobby/tables?limit=2&before={first['next']}").json()
    assert second["tables"][0]["id"] == opened[0]
    assert viewer.get("/lobby/tables?limit=0").status_code == 400
    assert viewer.get("/lobby/tables?order=oldest").status_code == 400
    ttl = served.app.extensions["arena"].settings.lobby_table_ttl
    with freeze_time(datetime.now(timezone.utc) + timedelta(seconds=ttl + 1)):
        listed = {t["id"] for t in viewer.get("/lobby/tables?limit=200").json()["tables"]}
    assert not listed & set(opened)


def test_tables_that_fit_my_rating_come_first(served):
    host = served.at()
    sign_up(host)
    narrow = _open(host, rating_min=20, rating_max=30).json()["id"]
    wide = _open(host).json()["id"]
    me = served.at()
    sign_up(me)
    order = [t["id"] for t in me.get("/lobby/tables?order=fit&limit=200").json()["tables"]]
    assert order.index(wide) < order.index(narrow)


def test_two_racing_seeks_of_one_account_make_one_search(served):
    me = served.at()
    sign_up(me)
    partners = []
    for form in ("duel", "high_form"):
        p = served.at()
        sign_up(p)
        assert p.post("/lobby/seeks", json={"form": form}, headers=csrf(p)).json()["status"] == "waiting"
        partners.append(p)
    answers: list[dict] = []
    barrier = threading.Barrier(2)

    def seek(form: str) -> None:
        barrier.wait()
        r = me.post("/lobby/seeks", json={"form": form}, headers=csrf(me))
        answers.append({"code": r.status_code, **r.json()})

    threads = [threading.Thread(target=seek, args=(f,)) for f in ("duel", "high_form")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    games = {a.get("game_id") for a in answers if a["code"] == 201 and a.get("game_id")}
    assert len(games) <= 1, answers
    for p in partners:
        p.delete("/lobby/seeks/me", headers=csrf(p))
