"""The lobby over HTTP against a real Redis: open tables, join, leave, start, the feed, quick match."""
from __future__ import annotations

import json

from freezegun import freeze_time

from events import keys
from workers import results

from .people import fresh, person, race_to_join

TIMED = {"kind": "move", "seconds": 86400}


def open_table(p, **body):
    r = p.post("/lobby/tables", {"form": "duel", **body})
    assert r.status_code == 201, r.json
    return r.json


def test_a_table_is_listed_joined_and_starts_a_game_when_full(app, redis_client):
    ann, bob = person(app, "ann"), person(app, "bob")
    before = bob.get("/lobby/tables").json["feed"]
    table = open_table(ann, time_control=TIMED, rated=False)
    assert table["status"] == "open" and [p["name"] for p in table["players"]] == [ann.name]
    listed = bob.get("/lobby/tables").json
    assert table["id"] in [t["id"] for t in listed["tables"]]
    feed = bob.get(f"/lobby/feed?after={before}").json["entries"]
    assert [(e["kind"], e["table"]["id"]) for e in feed] == [("opened", table["id"])]

    joined = bob.post(f"/lobby/tables/{table['id']}/join")
    assert joined.status_code == 200 and joined.json["status"] == "started"
    game_id = joined.json["game_id"]
    assert table["id"] not in [t["id"] for t in bob.get("/lobby/tables").json["tables"]]
    # both find the game from their account, each in their own seat
    for p in (ann, bob):
        mine = p.get("/players/me/games").json["games"]
        assert [g["id"] for g in mine] == [game_id]
        view = p.get(f"/games/{game_id}").json
        assert view["players"][view["seat"]]["player"] == p.id
        assert view["time_control"]["kind"] == "move"
    assert not results.is_rated(redis_client, game_id)
    assert bob.post(f"/lobby/tables/{table['id']}/join").status_code == 409        # started


def test_leaving_frees_the_place_and_the_creator_leaving_closes_the_table(app):
    ann, bob, cid = person(app), person(app), person(app)
    table = open_table(ann, form="melee", seats=4)
    assert bob.post(f"/lobby/tables/{table['id']}/join").json["players"][1]["player"] == bob.id
    left = bob.post(f"/lobby/tables/{table['id']}/leave").json
    assert [p["player"] for p in left["players"]] == [ann.id] and left["status"] == "open"
    assert cid.post(f"/lobby/tables/{table['id']}/join").status_code == 200
    closed = ann.post(f"/lobby/tables/{table['id']}/leave").json
    assert closed["status"] == "closed"
    assert bob.post(f"/lobby/tables/{table['id']}/join").status_code == 409


def test_the_creator_of_a_melee_of_four_may_start_it_with_three(app):
    ann, bob, cid = person(app), person(app), person(app)
    table = open_table(ann, form="melee", seats=4, schools="draft")
    bob.post(f"/lobby/tables/{table['id']}/join")
    assert ann.post(f"/lobby/tables/{table['id']}/start").status_code == 409        # only 2
    cid.post(f"/lobby/tables/{table['id']}/join")
    assert bob.post(f"/lobby/tables/{table['id']}/start").status_code == 403        # not the creator
    started = ann.post(f"/lobby/tables/{table['id']}/start").json
    assert started["status"] == "started" and started["seats"] == 3
    view = cid.get(f"/games/{started['game_id']}").json
    assert len(view["players"]) == 3 and view["form"] == "melee"


def test_fixed_schools_are_chosen_by_each_player_and_never_twice(app):
    ann, bob = person(app), person(app)
    assert ann.post("/lobby/tables", {"form": "duel", "schools": "fixed"}).status_code == 400
    table = open_table(ann, schools="fixed", school="northern")
    assert bob.post(f"/lobby/tables/{table['id']}/join").status_code == 400
    assert bob.post(f"/lobby/tables/{table['id']}/join", {"school": "northern"}).status_code == 409
    game_id = bob.post(f"/lobby/tables/{table['id']}/join", {"school": "sylvan"}).json["game_id"]
    view = bob.get(f"/games/{game_id}").json
    assert sorted(s["school"] for s in view["seats"]) == ["northern", "sylvan"]


def test_a_rating_range_keeps_others_out_and_bad_tables_are_refused(app, redis_client):
    ann, bob = person(app), person(app)
    table = open_table(ann, rating_min=5)
    r = bob.post(f"/lobby/tables/{table['id']}/join")
    assert r.status_code == 403 and r.json["code"] == "rating_out_of_range"
    redis_client.hset(keys.form_ratings(bob.id), "duel", json.dumps({"mu": 40.0, "sigma": 5.0, "games": 9}))
    assert bob.post(f"/lobby/tables/{table['id']}/join").json["status"] == "started"
    for bad in ({"form": "duel", "seats": 3}, {"form": "melee", "seats": 2}, {"form": "chess"},
                {"form": "duel", "rating_min": 9, "rating_max": 1}, {"form": "duel", "extra": 1}):
        assert ann.post("/lobby/tables", bad).status_code == 400, bad
    assert fresh(app).post("/lobby/tables", json={"form": "duel"}).status_code == 401
    assert ann.post("/lobby/tables/nope/join").status_code == 404


def test_racing_for_the_last_place_exactly_one_wins(app):
    ann = person(app)
    rivals = [person(app) for _ in range(6)]
    table = open_table(ann)
    assert race_to_join(rivals, table["id"]) == [200] + [409] * 5
    final = ann.get(f"/lobby/tables/{table['id']}").json
    assert len(final["players"]) == 2 and final["status"] == "started"


def test_quick_match_pairs_seeks_of_the_same_kind(app):
    ann, bob, cid = person(app), person(app), person(app)
    first = ann.post("/lobby/seeks", {"form": "high_form", "time_control": {"kind": "move", "seconds": 3600}})
    assert first.status_code == 201 and first.json["status"] == "waiting"
    other_kind = cid.post("/lobby/seeks", {"form": "high_form", "time_control": {"kind": "move", "seconds": 7200}})
    assert other_kind.json["status"] == "waiting"
    paired = bob.post("/lobby/seeks", {"form": "high_form", "time_control": {"kind": "move", "seconds": 3600}}).json
    assert paired["status"] == "matched"
    mine = ann.get("/lobby/seeks/me").json
    assert mine["status"] == "matched" and mine["game_id"] == paired["game_id"]
    players = {p["player"] for p in ann.get(f"/games/{mine['game_id']}").json["players"]}
    assert players == {ann.id, bob.id}
    assert cid.get("/lobby/seeks/me").json["status"] == "waiting"
    assert cid.delete("/lobby/seeks/me").status_code == 204
    assert cid.get("/lobby/seeks/me").json["status"] == "none"


def test_the_rating_window_widens_while_a_seek_waits(app, redis_client):
    strong, weak = person(app), person(app)
    redis_client.hset(keys.form_ratings(strong.id), "duel", json.dumps({"mu": 35.0, "sigma": 3.0, "games": 20}))
    tc = {"kind": "bank", "seconds": 600, "increment": 5}          # ordinals 26 and 0: a gap of 26
    with freeze_time("2026-01-01 12:00:00") as clock:
        assert strong.post("/lobby/seeks", {"form": "duel", "time_control": tc}).json["status"] == "waiting"
        assert weak.post("/lobby/seeks", {"form": "duel", "time_control": tc}).json["status"] == "waiting"
        clock.tick(60)                                       # 3 + 0.25 * 60 = 18 < 26
        assert weak.get("/lobby/seeks/me").json["status"] == "waiting"
        clock.tick(40)                                       # 3 + 0.25 * 100 = 28 >= 26
        assert weak.get("/lobby/seeks/me").json["status"] == "matched"
    assert strong.get("/lobby/seeks/me").json["status"] == "matched"
