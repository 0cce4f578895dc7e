"""Data an older version wrote in its single-slot keys is moved to today's sharded keys at start,
nothing lost: deadlines (and claims a dead loop held), lobby tables and seeks, the live games,
account names and sign-in failures. A second run moves nothing."""
from __future__ import annotations

import json
import time

from events import accounts, due, keys, layout, lobby, presence
from server import create_app
from server.accounts import HASHER
from tests.server.people import PASSWORD, person

NOW = time.time()


def write_old_layout(redis) -> dict:
    """What a deployment of the older layout holds: a bit of everything."""
    pid = accounts.new_player_id()
    redis.hset(keys.player(pid), mapping={"name": "Ann", "password": HASHER.hash(PASSWORD), "created": "1.0"})
    redis.hset(keys.legacy_account_names(), "ann", pid)
    redis.set(keys.legacy_signin_failures("bob".encode().hex()), 3, ex=600)
    deadlines = {"timeout:g1:3": NOW + 50, "remind:g2:1": NOW + 20, "finish:g3": NOW - 5}
    redis.zadd(keys.legacy_deadlines(), deadlines)
    redis.zadd(keys.legacy_deadline_leases(), {"bot:g4:2": NOW + 30})          # a claim its loop held
    waiting = {"id": "Lold1", "form": "duel", "seats": 2, "schools": "random", "time_control": None, "rated": False,
               "rating_min": None, "rating_max": None, "creator": pid,
               "players": [{"player": pid, "name": "Ann", "school": None}], "status": "open", "game_id": None,
               "created": NOW - 100}
    started = {**waiting, "id": "Lold2", "status": "started", "game_id": "Lold2"}
    for table in (waiting, started):
        redis.set(keys.legacy_table(table["id"]), json.dumps(table))
    redis.zadd(keys.legacy_open_tables(), {"Lold1": waiting["created"]})
    seek = {"player": "pseek", "name": "Sam", "form": "duel", "time_control": {"kind": "move", "seconds": 600},
            "ordinal": 0.0, "since": NOW - 10}
    redis.hset(keys.legacy_seeks(), "pseek", json.dumps(seek))
    redis.zadd(keys.legacy_live_games(), {"g5": NOW - 60, "g6": NOW - 30})
    return {"player": pid, "deadlines": deadlines}


LEGACY = (keys.legacy_deadlines(), keys.legacy_deadline_leases(), keys.legacy_open_tables(), keys.legacy_seeks(),
          keys.legacy_live_games(), keys.legacy_account_names(), keys.legacy_table("Lold1"),
          keys.legacy_table("Lold2"), keys.legacy_signin_failures("bob".encode().hex()))


def test_a_start_moves_the_old_layout_and_nothing_is_lost(redis_url, redis_db):
    old = write_old_layout(redis_db)
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "ARENA_LOBBY_TABLE_TTL": 3600})

    assert not any(redis_db.exists(k) for k in LEGACY)
    for member, at in old["deadlines"].items():
        assert due.when(redis_db, member) == at
    assert abs(due.when(redis_db, "bot:g4:2") - time.time()) < 60             # offered again at once
    claimed = due.claim(redis_db, time.time() + 60, 30, 10)
    assert {i.member for i in claimed.items} == {*old["deadlines"], "bot:g4:2"}

    ann = app.test_client()
    assert ann.post("/accounts/session", json={"name": "ANN", "password": PASSWORD}).status_code == 200
    assert app.test_client().post("/accounts", json={"name": "ann", "password": PASSWORD}).json["code"] == "name_taken"
    assert accounts.failures(redis_db, "Bob") == 3 and 0 < redis_db.ttl(keys.signin_failures("bob")) <= 600

    listed = ann.get("/lobby/tables").json["tables"]
    assert [t["id"] for t in listed] == ["Lold1"] and listed[0]["expires"] == NOW - 100 + 3600
    assert ann.get("/lobby/tables/Lold2").json["game_id"] == "Lold2"
    assert person(app, "bob").post("/lobby/tables/Lold1/join").json["status"] == "started"
    assert lobby.seek(redis_db, "pseek")["form"] == "duel"
    assert lobby.seek_pool(redis_db, "pseek") == "duel-move-600-0"
    assert [g for g in presence.live(redis_db) if g in ("g5", "g6")] == ["g6", "g5"]   # latest first

    assert layout.migrate(redis_db, NOW, 3600) == {}                           # a second run: nothing to move
    assert layout.ensure(redis_db, NOW, 3600) is None


def test_a_migration_stopped_midway_is_finished_by_the_next_run(redis_db):
    write_old_layout(redis_db)
    redis_db.set(keys.table("Lold1"), json.dumps({**json.loads(redis_db.get(keys.legacy_table("Lold1"))),
                                                  "expires": NOW + 5}))       # copied before a crash
    redis_db.zadd(keys.live_games(keys.live_shard("g6")), {"g6": NOW})         # moved, and a move since
    redis_db.rename(keys.legacy_deadlines(), keys.legacy_moving(keys.legacy_deadlines()))   # set aside, then
    redis_db.zadd(keys.legacy_deadlines(), {"timeout:g7:1": NOW + 9})          # an old worker wrote on
    moved = layout.migrate(redis_db, NOW, 3600)
    assert moved["tables"] == 2 and moved["deadlines"] == 5 and moved["account_names"] == 1
    assert due.when(redis_db, "timeout:g7:1") == NOW + 9 and due.when(redis_db, "timeout:g1:3") == NOW + 50
    assert not redis_db.keys("*moving*")
    assert [t["id"] for t in lobby.open_tables(redis_db)] == ["Lold1"]
    assert lobby.table(redis_db, "Lold1")["expires"] == NOW + 5                  # the copy already made is kept
    assert redis_db.zscore(keys.live_games(keys.live_shard("g6")), "g6") == NOW  # the later time wins


def test_arena_migrate_says_what_it_moved(redis_url, redis_db, monkeypatch):
    from click.testing import CliRunner

    from server.cli import main
    redis_db.zadd(keys.legacy_live_games(), {"g7": NOW})
    monkeypatch.setenv("REDIS_URL", redis_url)
    first = CliRunner().invoke(main, ["migrate"])
    assert first.exit_code == 0 and first.output.strip() == "live_games: 1", first.output
    assert CliRunner().invoke(main, ["migrate"]).output.strip() == "nothing to move"
    assert presence.live(redis_db) == ["g7"]
