"""Open tables nobody joins expire after ARENA_LOBBY_TABLE_TTL: they leave the list at once, the
worker's lobby sweep closes them and tells their creator once; each join renews the time."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from freezegun import freeze_time

from events import lobby
from server import create_app
from tests.server.people import person

from .helpers import run_worker

TTL = 60
START = datetime(2026, 6, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def app(redis_url, redis_db):
    return create_app({"REDIS_URL": redis_url, "TESTING": True, "ARENA_LOBBY_TABLE_TTL": TTL})


def expired_notes(p) -> list[dict]:
    return [n for n in p.get("/players/me/notifications").json["notifications"] if n["type"] == "table_expired"]


def test_a_table_nobody_joins_expires_and_its_creator_is_told_once(app, redis_db):
    with freeze_time(START) as clock:
        ann, bob, cid = person(app, "ann"), person(app, "bob"), person(app, "cid")
        duel = ann.post("/lobby/tables", {"form": "duel"}).json
        melee = bob.post("/lobby/tables", {"form": "melee", "seats": 4}).json
        assert duel["expires"] == START.timestamp() + TTL
        feed = ann.get("/lobby/tables").json["feed"]
        clock.tick(TTL / 2)
        assert cid.post(f"/lobby/tables/{melee['id']}/join").json["expires"] == START.timestamp() + TTL * 1.5

        clock.tick(TTL / 2 + 1)                                # the duel's time ran out; the melee's was renewed
        assert [t["id"] for t in cid.get("/lobby/tables").json["tables"]] == [melee["id"]]    # before any sweep
        assert cid.get(f"/lobby/tables/{duel['id']}").json["status"] == "expired"
        refused = cid.post(f"/lobby/tables/{duel['id']}/join")
        assert refused.status_code == 409 and "expired" in refused.json["detail"]
        run_worker(redis_db)
        assert ann.get(f"/lobby/tables/{duel['id']}").json["status"] == "expired"
        entries = ann.get(f"/lobby/feed?after={feed}").json["entries"]
        assert [(e["kind"], e["table"]["id"]) for e in entries if e["kind"] == "expired"] == [("expired", duel["id"])]
        run_worker(redis_db)
        [note] = expired_notes(ann)
        assert note["game_id"] == duel["id"] and "expired" in note["text"]
        assert not expired_notes(bob)

        clock.tick(TTL)
        run_worker(redis_db)
        assert bob.get(f"/lobby/tables/{melee['id']}").json["status"] == "expired"
        assert len(expired_notes(bob)) == 1 and ann.get("/lobby/tables").json["tables"] == []


def test_a_creator_is_still_told_when_the_sweep_died_after_expiring(app, redis_db):
    with freeze_time(START) as clock:
        ann = person(app, "ann")
        table = ann.post("/lobby/tables", {"form": "duel"}).json
        clock.tick(TTL + 1)
        now = START.timestamp() + TTL + 1

        def crash(_table: dict) -> None:
            raise ConnectionError("the worker died")

        with pytest.raises(ConnectionError):
            lobby.expire_due(redis_db, now, crash)
        assert lobby.table(redis_db, table["id"])["status"] == "expired"
        run_worker(redis_db)
        assert [n["game_id"] for n in expired_notes(ann)] == [table["id"]]
        assert lobby.expire_due(redis_db, now + 10, crash) == []                 # told: off the expiry index
