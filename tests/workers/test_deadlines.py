"""Turn deadlines through the deadline loop of a real RQ worker (burst mode) against a real Redis.

The clock is moved with freezegun: the worker, its deadline loop and the game service all read it.
"""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from freezegun import freeze_time
from rq import Queue

from events import SYSTEM, keys
from events import due as workers_due
from workers import deadlines, followup, runtime
from workers.deadline_loop import DeadlineLoop
from events.settings import Settings

from .helpers import (bearer, deadline, event_types, later, log_lines, new_game, parse, play_legal, register,
                      run_worker)

MINUTE = {"kind": "move", "seconds": 60}


def when(redis, kind: str, game_id: str, wait: int = 1) -> float | None:
    """When the game's member of that kind is due in the deadline index (None: not there)."""
    return workers_due.when(redis, workers_due.member(kind, game_id, wait))


def events_of(client, game_id: str, kind: str) -> list[dict]:
    return [e for e in client.get(f"/games/{game_id}/events").json["events"] if e["type"] == kind]


def test_the_worker_times_out_a_turn_once_its_recorded_deadline_has_passed(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    with freeze_time(later(due, 0.5)):
        run_worker(redis_db)
    [timed_out] = events_of(client, game["id"], "TurnTimedOut")
    assert timed_out["actor"] == SYSTEM and timed_out["payload"]["seat"] == 1
    assert parse(timed_out["time"]) >= due
    assert "Bob ran out of time; the turn is played automatically." in log_lines(client, game["id"])


def test_the_timeout_is_indexed_at_its_recorded_deadline_to_the_microsecond(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    assert when(redis_db, "timeout", game["id"]) == pytest.approx(deadline(client, game["id"]).timestamp(), abs=1e-6)


def test_a_timeout_claimed_early_is_indexed_again_at_the_deadline_and_changes_nothing(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    redis_db.zadd(keys.deadlines(keys.deadline_shard(game['id'])), {f"timeout:{game['id']}:1": later(due, -10).timestamp()})    # a wrong score
    with freeze_time(later(due, -5)):
        run_worker(redis_db)
    assert "TurnTimedOut" not in event_types(client, game["id"])
    assert when(redis_db, "timeout", game["id"]) == pytest.approx(due.timestamp(), abs=1e-6)
    with freeze_time(later(due, 0.2)):
        run_worker(redis_db)
    assert len(events_of(client, game["id"], "TurnTimedOut")) == 1
    assert when(redis_db, "timeout", game["id"]) is None


def test_a_remainder_under_a_second_is_waited_out_and_the_turn_never_times_out_early(client, redis_db, app):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    service = followup.service(redis_db)
    with freeze_time(later(due, -0.2)) as frozen:
        done = deadlines.apply_timeout(redis_db, service, game["id"], 1, Settings.load(), runtime.now,
                                       pause=lambda s: frozen.tick(timedelta(seconds=s)))
    assert done == ("timed_out", None)
    [timed_out] = events_of(client, game["id"], "TurnTimedOut")
    assert parse(timed_out["time"]) >= due


def test_a_seat_that_moved_in_time_is_not_timed_out_and_its_deadline_leaves_the_index(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    with freeze_time(later(due, -30)):
        play_legal(client, game, seat=1)
    assert when(redis_db, "timeout", game["id"], wait=1) is None
    redis_db.zadd(keys.deadlines(keys.deadline_shard(game['id'])), {f"timeout:{game['id']}:1": due.timestamp()})      # a stale copy
    with freeze_time(later(due, 1)):
        run_worker(redis_db)
    assert "TurnTimedOut" not in event_types(client, game["id"])
    assert deadline(client, game["id"]) == later(due, 30)                  # Ann's turn, from Bob's move


def test_a_move_made_while_the_timeout_is_judged_wins_and_the_loop_returns_quietly(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])

    def now_after_the_player_moved() -> float:
        if not moved:
            moved.append(play_legal(client, game, seat=1))
        return later(due, 1).timestamp()
    moved: list = []
    done = deadlines.apply_timeout(redis_db, followup.service(redis_db), game["id"], 1, Settings.load(),
                                   now_after_the_player_moved)
    assert done == ("moved", None) and moved
    assert "TurnTimedOut" not in event_types(client, game["id"])


def test_after_k_timeouts_in_a_row_the_seat_is_abandoned_and_the_other_side_may_claim_the_win(client, redis_db):
    game = new_game(client, time_control={**MINUTE, "zombie_after": 1})
    due = deadline(client, game["id"])
    with freeze_time(later(due, 0.5)):
        run_worker(redis_db)
    assert "SeatAbandoned" in event_types(client, game["id"])
    legal = client.get(f"/games/{game['id']}/legal", headers=bearer(game["seats"][0]["token"])).json
    assert {"type": "claim_win"} in legal["commands"]


def test_a_deadline_claimed_by_a_loop_that_died_is_applied_once_its_claim_lapses(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    lease = Settings.load().deadline_lease
    claimed = workers_due.claim(redis_db, later(due, 0.1).timestamp(), lease, 10)      # ... and never released
    assert [item.member for item in claimed.items] == [f"timeout:{game['id']}:1"]
    with freeze_time(later(due, 0.2 + lease / 2)):
        run_worker(redis_db)
    assert "TurnTimedOut" not in event_types(client, game["id"])
    with freeze_time(later(due, 0.2 + lease)):
        run_worker(redis_db)
    assert len(events_of(client, game["id"], "TurnTimedOut")) == 1


def test_two_loops_racing_over_the_index_deal_with_each_deadline_once(client, redis_db, redis_server, monkeypatch):
    games = [new_game(client, time_control=MINUTE, seed=f"race{i}") for i in range(12)]
    due = max(deadline(client, g["id"]) for g in games)
    dealt: list[str] = []
    handle = deadlines.handle

    def recorded(redis, service, item, settings, now):
        dealt.append(item.member)
        return handle(redis, service, item, settings, now)
    monkeypatch.setattr(deadlines, "handle", recorded)
    loops = [DeadlineLoop(redis_server.client(db=1), Settings.load(), [], name=lambda i=i: f"racer{i}")
             for i in range(2)]
    start = threading.Barrier(2)

    def race(loop):
        start.wait(5)
        loop.drain()
    with freeze_time(later(due, 0.5)):
        threads = [threading.Thread(target=race, args=(loop,)) for loop in loops]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    for loop in loops:
        loop.stop()
    assert sorted(dealt) == sorted(f"timeout:{g['id']}:1" for g in games)
    for g in games:
        assert len(events_of(client, g["id"], "TurnTimedOut")) == 1


def test_a_player_is_reminded_at_eighty_percent_of_the_deadline_unless_they_moved(client, redis_db):
    bob = register(client, "Bob")
    game = new_game(client, time_control=MINUTE, players=[{"name": "Ann", "school": "northern"},
                                                          {"name": "Bob", "school": "sylvan", "player": bob["id"]}],
                    creator=bob)
    due = deadline(client, game["id"])
    start = due - timedelta(seconds=60)
    assert when(redis_db, "remind", game["id"]) == pytest.approx((start + timedelta(seconds=48)).timestamp(), abs=1e-6)
    with freeze_time(later(start, 49)):
        run_worker(redis_db)
    kinds = [n["type"] for n in client.get("/players/me/notifications", headers=bearer(bob["token"])).json["notifications"]]
    assert kinds == ["your_turn", "deadline_soon"]
    assert "TurnTimedOut" not in event_types(client, game["id"])


def test_no_reminder_once_the_player_has_moved(client, redis_db):
    bob = register(client, "Bob")
    game = new_game(client, time_control=MINUTE, players=[{"name": "Ann", "school": "northern"},
                                                          {"name": "Bob", "school": "sylvan", "player": bob["id"]}],
                    creator=bob)
    start = deadline(client, game["id"]) - timedelta(seconds=60)
    play_legal(client, game, seat=1)
    redis_db.zadd(keys.deadlines(keys.deadline_shard(game['id'])), {f"remind:{game['id']}:1": later(start, 48).timestamp()})   # a stale copy
    with freeze_time(later(start, 49)):
        run_worker(redis_db)
    kinds = [n["type"] for n in client.get("/players/me/notifications", headers=bearer(bob["token"])).json["notifications"]]
    assert "deadline_soon" not in kinds


def test_a_time_bank_shows_every_seats_time_left(client):
    game = new_game(client, time_control={"kind": "bank", "seconds": 300, "increment": 20})
    clocks = client.get(f"/games/{game['id']}").json["clocks"]
    assert clocks["kind"] == "bank" and clocks["waiting_for"] == 1
    assert clocks["seats"][0]["remaining"] == 300.0 and 299 < clocks["seats"][1]["remaining"] <= 300
    assert parse(clocks["deadline"]) == parse(clocks["since"]) + timedelta(seconds=300)


def test_a_timeout_job_scheduled_in_rq_by_an_earlier_version_is_handed_to_the_deadline_loop(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    redis_db.zrem(keys.deadlines(keys.deadline_shard(game["id"])), f"timeout:{game['id']}:1")               # indexed by nothing but the job
    with freeze_time(later(due, 0.5)):
        Queue("arena", connection=redis_db).enqueue("workers.jobs.timeout", game["id"], 1)
        run_worker(redis_db)
    assert len(events_of(client, game["id"], "TurnTimedOut")) == 1


def test_a_wait_whose_planning_was_cut_short_is_planned_when_the_wait_before_comes_due(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    with freeze_time(later(due, -30)):
        play_legal(client, game, seat=1)                # Ann's wait is claimed and planned ...
    index = keys.deadlines(keys.deadline_shard(game["id"]))
    planned = dict(redis_db.zrange(index, 0, -1, withscores=True))
    redis_db.delete(index)
    redis_db.zadd(index, {f"timeout:{game['id']}:1": due.timestamp()})     # ... as if cut short
    with freeze_time(later(due, 0.1)):
        run_worker(redis_db)
    assert "TurnTimedOut" not in event_types(client, game["id"])
    assert dict(redis_db.zrange(index, 0, -1, withscores=True)) == planned
    assert list(planned.values()) == [pytest.approx(later(due, 30).timestamp(), abs=1e-6)]
