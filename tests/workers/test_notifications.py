"""Notifications: the per-player SSE stream (resumable) and signed webhooks, retried through RQ."""
from __future__ import annotations

import json
from datetime import datetime, timezone

import httpx
import pytest
from freezegun import freeze_time
from rq import Queue
from rq.registry import ScheduledJobRegistry

from events import inbox
from workers import notify, webhooks

from .helpers import Receiver, bearer, later, new_game, play_legal, register, run_worker


@pytest.fixture
def receiver(monkeypatch):
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1/32")     # the local receiver is the operator's choice
    made = []

    def make(*statuses: int) -> Receiver:
        made.append(Receiver(list(statuses)))
        return made[-1]
    yield make
    for r in made:
        r.close()


def seated(client, player: dict, seat: int = 1, **extra) -> dict:
    players = [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]
    players[seat] = {**players[seat], "name": player["name"], "player": player["id"]}
    return new_game(client, players=players, creator=player, **extra)


def sse_events(text: str) -> list[dict]:
    out = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
        if fields:
            out.append({"id": fields["id"], "event": fields["event"], "data": json.loads(fields["data"])})
    return out


def test_your_turn_arrives_on_the_players_stream_and_the_stream_resumes_after_the_last_id(app, client, front_for):
    bob = register(client, "Bob")
    game = seated(client, bob)
    front = httpx.Client(base_url=front_for(app), timeout=30)
    first = sse_events(front.get("/players/me/stream?follow=0", headers=bearer(bob["token"])).text)
    assert [(e["event"], e["data"]["game_id"], e["data"]["seat"]) for e in first] == [("your_turn", game["id"], 1)]
    play_legal(client, game, seat=1)
    play_legal(client, game, seat=0)                                   # Bob's turn again
    resumed = front.get("/players/me/stream?follow=0", headers={**bearer(bob["token"]), "Last-Event-ID": first[0]["id"]})
    again = sse_events(resumed.text)
    assert [e["event"] for e in again] == ["your_turn"] and again[0]["id"] > first[0]["id"]


def test_a_followed_stream_delivers_a_notification_sent_after_it_opened(app, client, redis_db, front_for):
    bob = register(client, "Bob")
    seated(client, bob)
    with httpx.stream("GET", front_for(app) + "/players/me/stream", headers=bearer(bob["token"]), timeout=30) as response:
        chunks = response.iter_text()
        assert "your_turn" in next(chunks)
        notify.send(redis_db, bob["id"], notify.notification("game_over", "g1", 1, 99, text="over"))
        assert "game_over" in next(c for c in chunks if "keep-alive" not in c)


def test_the_stream_needs_a_player_token(client):
    assert client.get("/players/me/stream?follow=0").status_code == 401


def test_players_other_than_the_mover_and_the_next_seat_are_told_an_opponent_moved(client):
    cy = register(client, "Cy")
    game = new_game(client, form="melee", creator=cy, players=[{"name": "Ann", "school": "northern"},
                                                   {"name": "Cy", "school": "highland", "player": cy["id"]},
                                                   {"name": "Bob", "school": "sylvan"}])
    mover = following = client.get(f"/games/{game['id']}").json["active_seat"]
    for _ in range(10):                                # the setup may take the mover several commands
        if following != mover:
            break
        play_legal(client, game, seat=mover)
        following = client.get(f"/games/{game['id']}").json["active_seat"]
    assert 1 not in (mover, following)
    [note] = client.get("/players/me/notifications", headers=bearer(cy["token"])).json["notifications"]
    assert (note["type"], note["by"], note["seat"]) == ("opponent_moved", mover, 1)
    assert note["text"] == f"{['Ann', 'Cy', 'Bob'][mover]} has moved in your game against Ann and Bob; " \
                           f"{['Ann', 'Cy', 'Bob'][following]} is to play."


def test_a_notification_sent_twice_is_delivered_once(redis_db, client):
    bob = register(client, "Bob")
    note = notify.notification("your_turn", "g2", 0, 5, text="hi")
    assert notify.send(redis_db, bob["id"], note) is True
    assert notify.send(redis_db, bob["id"], note) is False
    assert len(inbox.read(redis_db, bob["id"])) == 1


def test_a_webhook_is_delivered_signed_with_the_players_secret_and_a_delivery_id(client, redis_db, receiver):
    hook = receiver(200)
    bob = register(client, "Bob", webhook_url=hook.url)
    game = seated(client, bob)
    run_worker(redis_db)
    [(headers, body)] = hook.requests
    assert webhooks.verify(bob["webhook_secret"], body, headers["X-Arena-Signature"])
    assert not webhooks.verify("another secret", body, headers["X-Arena-Signature"])
    note = json.loads(body)
    assert (note["type"], note["game_id"], note["seat"]) == ("your_turn", game["id"], 1)
    assert headers["X-Arena-Delivery"] == note["id"] and headers["X-Arena-Event"] == "your_turn"


def test_a_failed_delivery_is_recorded_and_retried_with_the_same_delivery_id(client, redis_db, receiver):
    hook = receiver(500, 200)
    bob = register(client, "Bob", webhook_url=hook.url)
    seated(client, bob)
    run_worker(redis_db)                                  # ARENA_WEBHOOK_RETRIES=0,0: retried at once
    assert len(hook.requests) == 2
    (first, body1), (second, body2) = hook.requests
    assert first["X-Arena-Delivery"] == second["X-Arena-Delivery"] and body1 == body2
    assert (first["X-Arena-Attempt"], second["X-Arena-Attempt"]) == ("1", "2")
    [failure] = client.get("/players/me/webhook-failures", headers=bearer(bob["token"])).json["failures"]
    assert failure["delivery"] == first["X-Arena-Delivery"] and failure["error"] == "failed: HTTP 500"
    assert failure["attempt"] == 1


def test_retries_back_off_through_rqs_schedule(client, redis_db, receiver, monkeypatch):
    monkeypatch.setenv("ARENA_WEBHOOK_RETRIES", "30,120")
    hook = receiver(503)
    bob = register(client, "Bob", webhook_url=hook.url)
    seated(client, bob)
    run_worker(redis_db)
    assert len(hook.requests) == 1
    registry = ScheduledJobRegistry(queue=Queue("arena-notify", connection=redis_db))
    [job_id] = registry.get_job_ids()
    assert job_id.startswith("hook-yourturn-")
    waited = registry.get_scheduled_time(job_id).timestamp() - hook.times[0]
    assert 28 <= waited <= 32
    with freeze_time(later(datetime.fromtimestamp(hook.times[0], timezone.utc), 31)):
        run_worker(redis_db)                              # the deadline loop moves it to its queue
    assert len(hook.requests) == 2 and registry.get_job_ids()[0].startswith("hook-yourturn-")    # and the next


def test_an_unreachable_receiver_is_a_recorded_failure(client, redis_db, monkeypatch):
    monkeypatch.setenv("ARENA_WEBHOOK_RETRIES", "")
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1/32")
    bob = register(client, "Bob", webhook_url="http://127.0.0.1:9/nobody")
    seated(client, bob)
    run_worker(redis_db)
    failures = client.get("/players/me/webhook-failures", headers=bearer(bob["token"])).json["failures"]
    assert len(failures) == 1 and failures[0]["url"] == "http://127.0.0.1:9/nobody"
    assert failures[0]["error"] == "failed: no answer"
