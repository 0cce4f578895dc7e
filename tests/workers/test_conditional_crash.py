"""A conditional reply survives a worker killed right after appending it: the web process that took
the other seat's move died before its follow-up (an app without the hook), a worker's deadline loop
plays the reply and is killed with kill -9 before settling it; the next worker settles it without
playing it again (the idempotency key made of the seat and the version), and its player is
told once."""
from __future__ import annotations

from events import conditionals, inbox
from server import create_app
from tests.server.test_conditionals import RULES, ann_waits, put

from .helpers import bearer, new_game, register
from .processes import START_SECONDS, wait_for


def test_a_reply_whose_worker_is_killed_after_the_append_is_played_once(durable_redis, worker_processes, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("ARENA_FOLLOW_UP_GRACE", "0.2")
    crashed = create_app({"REDIS_URL": durable_redis.url, "TESTING": True, "FOLLOW_UP": None}).test_client()
    ann = register(crashed, "Ann")
    game_id, tokens = ann_waits(crashed, new_game(crashed, seed="fixture", players=[
        {"name": "Ann", "school": "northern", "player": ann["id"]}, {"name": "Bob", "school": "sylvan"}]))
    assert put(crashed, game_id, tokens[0], RULES).status_code == 200
    for square in ("d1", "e1"):
        crashed.post(f"/games/{game_id}/commands", json={"type": "place", "square": square}, headers=bearer(tokens[1]))
    server = durable_redis.client()
    flag = tmp_path / "fired"
    first = worker_processes(ARENA_PAUSE_AT=conditionals.FIRED, ARENA_PAUSE_FLAG=str(flag))
    wait_for(flag.exists, START_SECONDS, "the worker to play the reply")
    first.kill9()

    def played() -> list[int]:
        events = crashed.get(f"/games/{game_id}/events").json["events"]
        return [e["version"] for e in events if e.get("via") == "conditional" and e["type"] == "CommandAccepted"]
    assert len(played()) == 2 and conditionals.queued(server, game_id, 0) is not None    # appended, not settled
    worker_processes()
    wait_for(lambda: conditionals.queued(server, game_id, 0) is None, START_SECONDS, "the reply to be settled")
    assert len(played()) == 2                                                           # not played again
    told = crashed.get(f"/games/{game_id}/conditionals", headers=bearer(tokens[0])).json["told"]
    assert told["played"] == 2 and told["results"][2]["result"] == "played"
    assert crashed.get(f"/games/{game_id}").json["turn"]["number"] == 4
    told_ann = [n for _, n in inbox.read(server, ann["id"]) if n["type"] == "conditional_reply"]
    assert [n["text"] for n in told_ann] == ["Your conditional reply 3 was played for you in your game against Bob."]
