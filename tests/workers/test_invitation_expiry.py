"""An invitation that runs out is told, not only found: the deadline loop of a real worker cancels
the game at its deadline and the invitee and the inviter hear of it (inbox and stream), once;
an invitation accepted in time is left alone (freezegun moves the app's and the worker's clock)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import httpx
from freezegun import freeze_time

from events import invitations, keys

from tests.server.conftest import reconfigure

from .helpers import bearer, register, run_worker

START = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)


def invite(client, creator: dict, invitee: dict) -> dict:
    players = [{"name": creator["name"], "school": "northern", "player": creator["id"]},
               {"name": invitee["name"], "school": "sylvan", "player": invitee["id"]}]
    r = client.post("/games", json={"form": "duel", "players": players}, headers=bearer(creator["token"]))
    assert r.status_code == 201 and r.json["status"] == "waiting_for_players", r.json
    return r.json


def expired_notes(client, player: dict) -> list[dict]:
    notes = client.get("/players/me/notifications", headers=bearer(player["token"])).json["notifications"]
    return [n for n in notes if n["type"] == "invitation_expired"]


def test_the_inviter_and_the_invitee_are_told_when_an_invitation_expires(app, client, redis_db, front_for):
    reconfigure(app, ARENA_INVITATION_TIMEOUT=600)
    ann, bob, cy = register(client, "Ann"), register(client, "Bob"), register(client, "Cy")
    with freeze_time(START) as clock:
        lapsed = invite(client, ann, bob)
        kept = invite(client, ann, cy)
        assert client.post(f"/players/me/invitations/{kept['seats'][1]['invitation']}/accept",
                           headers=bearer(cy["token"])).status_code == 200
        clock.tick(599)
        run_worker(redis_db)
        assert expired_notes(client, bob) == [] and invitations.load(redis_db, lapsed["id"]).status == "waiting"
        clock.tick(2)
        run_worker(redis_db)
        stored = invitations.load(redis_db, lapsed["id"])            # stored, not just seen so by a reader
        assert (stored.status, stored.reason) == ("cancelled", "invitation_expired")
        [to_bob] = expired_notes(client, bob)
        [to_ann] = expired_notes(client, ann)
        assert to_bob["game_id"] == to_ann["game_id"] == lapsed["id"] and to_ann["waiting_for"] == [1]
        assert to_ann["text"].startswith("Your invitation to a game of duel with Bob has expired: Bob did not accept")
        assert to_bob["text"].startswith("The invitation to a game of duel with Ann has expired")     # names, not ids
        assert redis_db.zscore(keys.unmoved_games(f"p:{ann['id']}"), lapsed["id"]) is None    # it no longer counts
        clock.tick(60)
        run_worker(redis_db)                                          # dealt with again: told once all the same
        assert len(expired_notes(client, bob)) == 1 and len(expired_notes(client, ann)) == 1
        assert expired_notes(client, cy) == []
        assert client.get(f"/games/{kept['id']}").json["status"] not in ("cancelled", "waiting_for_players")
    stream = httpx.get(front_for(app) + "/players/me/stream?follow=0", headers=bearer(bob["token"]), timeout=30).text
    assert stream.count("event: invitation_expired") == 1 and lapsed["id"] in stream
