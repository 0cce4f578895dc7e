"""Turn deadlines through a real RQ worker (burst mode, with its scheduler) against a real Redis.

The clock is moved with freezegun: the worker, RQ's scheduler and the game service all read it.
"""
from __future__ import annotations

import math
from datetime import timedelta

from freezegun import freeze_time
from rq import Queue

from events import SYSTEM
from workers import deadlines, queues, runtime
from workers.settings import Settings

from .helpers import (bearer, deadline, event_types, later, log_lines, new_game, parse, play_legal, register,
                      run_worker)

MINUTE = {"kind": "move", "seconds": 60}


def scheduled(redis, job_id: str) -> float | None:
    """When RQ will enqueue the job (epoch seconds, whole), None if it is not scheduled."""
    return queues.scheduled_time(Queue("arena", connection=redis), job_id)


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


def test_the_timeout_is_scheduled_at_the_deadline_in_whole_seconds_with_a_deterministic_id(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"]).timestamp()
    assert scheduled(redis_db, f"timeout-{game['id']}-1") == math.floor(due)


def test_a_timeout_job_that_starts_early_reschedules_itself_and_changes_nothing(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    with freeze_time(later(due, -5)):
        Queue("arena", connection=redis_db).enqueue("workers.jobs.timeout", game["id"], 1)
        run_worker(redis_db)
    assert "TurnTimedOut" not in event_types(client, game["id"])
    assert scheduled(redis_db, f"timeout-{game['id']}-1-1") == math.floor(due.timestamp())
    with freeze_time(later(due, 0.2)):
        run_worker(redis_db)
    assert len(events_of(client, game["id"], "TurnTimedOut")) == 1


def test_a_remainder_under_a_second_is_waited_out_and_the_turn_never_times_out_early(client, redis_db, app):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    service = runtime.service(redis_db)
    with freeze_time(later(due, -0.2)) as frozen:
        done = deadlines.apply_timeout(redis_db, service, game["id"], 1, 0, Settings.from_env(), runtime.now,
                                       pause=lambda s: frozen.tick(timedelta(seconds=s)))
    assert done == "timed_out"
    [timed_out] = events_of(client, game["id"], "TurnTimedOut")
    assert parse(timed_out["time"]) >= due


def test_a_seat_that_moved_in_time_is_not_timed_out_and_its_job_is_cancelled(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    with freeze_time(later(due, -30)):
        play_legal(client, game, seat=1)
    assert scheduled(redis_db, f"timeout-{game['id']}-1") is None
    with freeze_time(later(due, 1)):
        Queue("arena", connection=redis_db).enqueue("workers.jobs.timeout", game["id"], 1)    # a late copy
        run_worker(redis_db)
    assert "TurnTimedOut" not in event_types(client, game["id"])
    assert deadline(client, game["id"]) == later(due, 30)                  # Ann's turn, from Bob's move


def test_a_move_made_while_the_timeout_is_judged_wins_and_the_job_returns_quietly(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])

    def now_after_the_player_moved() -> float:
        if not moved:
            moved.append(play_legal(client, game, seat=1))
        return later(due, 1).timestamp()
    moved: list = []
    done = deadlines.apply_timeout(redis_db, runtime.service(redis_db), game["id"], 1, 0, Settings.from_env(),
                                   now_after_the_player_moved)
    assert done == "moved" and moved
    assert "TurnTimedOut" not in event_types(client, game["id"])


def test_after_k_timeouts_in_a_row_the_seat_is_abandoned_and_the_other_side_may_claim_the_win(client, redis_db):
    game = new_game(client, time_control={**MINUTE, "zombie_after": 1})
    due = deadline(client, game["id"])
    with freeze_time(later(due, 0.5)):
        run_worker(redis_db)
    assert "SeatAbandoned" in event_types(client, game["id"])
    legal = client.get(f"/games/{game['id']}/legal", headers=bearer(game["seats"][0]["token"])).json
    assert {"type": "claim_win"} in legal["commands"]


def test_the_sweeper_times_out_a_game_whose_job_was_lost(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    queue = Queue("arena", connection=redis_db)
    pipe = redis_db.pipeline()
    queues.cancel(pipe, queue, [f"timeout-{game['id']}-1"])                  # the job is lost
    pipe.execute()
    with freeze_time(later(due, 0.5)):
        run_worker(redis_db)
    assert "TurnTimedOut" not in event_types(client, game["id"])
    with freeze_time(later(due, 5)):
        queue.enqueue("workers.jobs.sweep")
        run_worker(redis_db)
    assert len(events_of(client, game["id"], "TurnTimedOut")) == 1


def test_the_sweeper_leaves_alone_games_before_their_deadline_or_with_a_job_in_the_queue(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    service = runtime.service(redis_db)
    assert deadlines.sweep(redis_db, service, Settings.from_env(), later(due, -1).timestamp()) == []
    assert deadlines.sweep(redis_db, service, Settings.from_env(), later(due, 1).timestamp()) == []   # grace
    Queue("arena", connection=redis_db).enqueue("workers.jobs.timeout", game["id"], 1, job_id=f"timeout-{game['id']}-1")
    assert deadlines.sweep(redis_db, service, Settings.from_env(), later(due, 3).timestamp()) == []   # queued


def test_the_sweeper_steps_in_when_an_overdue_job_is_still_only_scheduled(client, redis_db):
    game = new_game(client, time_control=MINUTE)
    due = deadline(client, game["id"])
    swept = deadlines.sweep(redis_db, runtime.service(redis_db), Settings.from_env(), later(due, 3).timestamp())
    assert swept == [game["id"]]
    assert Queue("arena", connection=redis_db).get_job_ids() == [f"sweep-{game['id']}-1"]


def test_a_player_is_reminded_at_eighty_percent_of_the_deadline_unless_they_moved(client, redis_db):
    bob = register(client, "Bob")
    game = new_game(client, time_control=MINUTE, players=[{"name": "Ann", "school": "northern"},
                                                          {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    due = deadline(client, game["id"])
    start = due - timedelta(seconds=60)
    assert scheduled(redis_db, f"remind-{game['id']}-1") == math.floor((start + timedelta(seconds=48)).timestamp())
    with freeze_time(later(start, 49)):
        run_worker(redis_db)
    kinds = [n["type"] for n in client.get("/players/me/notifications", headers=bearer(bob["token"])).json["notifications"]]
    assert kinds == ["your_turn", "deadline_soon"]
    assert "TurnTimedOut" not in event_types(client, game["id"])


def test_no_reminder_once_the_player_has_moved(client, redis_db):
    bob = register(client, "Bob")
    game = new_game(client, time_control=MINUTE, players=[{"name": "Ann", "school": "northern"},
                                                          {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    start = deadline(client, game["id"]) - timedelta(seconds=60)
    play_legal(client, game, seat=1)
    with freeze_time(later(start, 49)):
        Queue("arena", connection=redis_db).enqueue("workers.jobs.remind", game["id"], 1)
        run_worker(redis_db)
    kinds = [n["type"] for n in client.get("/players/me/notifications", headers=bearer(bob["token"])).json["notifications"]]
    assert "deadline_soon" not in kinds


def test_a_time_bank_shows_every_seats_time_left(client):
    game = new_game(client, time_control={"kind": "bank", "seconds": 300, "increment": 20})
    clocks = client.get(f"/games/{game['id']}").json["clocks"]
    assert clocks["kind"] == "bank" and clocks["waiting_for"] == 1
    assert clocks["seats"][0]["remaining"] == 300.0 and 299 < clocks["seats"][1]["remaining"] <= 300
    assert parse(clocks["deadline"]) == parse(clocks["since"]) + timedelta(seconds=300)
