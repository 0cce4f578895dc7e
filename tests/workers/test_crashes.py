"""Crashes, with real processes and real time where the wait is the point: kill -9 of the worker
during a wait, kill -9 of Redis (append-only file flushed on every write) during a wait, kill -9 of
a worker in the middle of an end-of-game job. Limits are a few seconds; each test ends every
process it started, by its pid."""
from __future__ import annotations

import json
import time

import pytest

from server import create_app
from workers import endgame, notify

from .helpers import bearer, new_game, parse, register
from .processes import START_SECONDS, DurableRedis, Worker, pulses, wait_for

LIMIT = {"kind": "move", "seconds": 2}
GAMES = 4
RECOVERY_SECONDS = 5.0              # the promise after a restart


@pytest.fixture
def redis(tmp_path):
    server = DurableRedis(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def client(redis):
    app = create_app({"REDIS_URL": redis.url, "TESTING": True})
    return app.test_client()


@pytest.fixture
def workers(redis, tmp_path):
    started: list[Worker] = []

    def start(**env: str) -> Worker:
        started.append(Worker(redis.url, tmp_path / "data", **env))
        return started[-1]
    yield start
    for worker in started:
        worker.stop()


def deadlines_of(client, games: list[dict]) -> dict[str, float]:
    return {g["id"]: parse(client.get(f"/games/{g['id']}").json["clocks"]["deadline"]).timestamp() for g in games}


def timed_out_at(client, game_id: str) -> float | None:
    for event in client.get(f"/games/{game_id}/events").json["events"]:
        if event["type"] == "TurnTimedOut":
            return parse(event["time"]).timestamp()
    return None


def all_timed_out(client, due: dict[str, float]) -> dict[str, float] | None:
    seen = {g: timed_out_at(client, g) for g in due}
    return seen if all(seen.values()) else None


def sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.time()))          # the wait is the point: deadlines pass meanwhile


def test_every_turn_that_fell_due_while_the_worker_was_killed_times_out_within_5_s_of_its_restart(
        client, redis, workers):
    first = workers()
    server = redis.client()
    wait_for(lambda: pulses(server), START_SECONDS, "the worker's deadline loop")
    games = [new_game(client, time_control=LIMIT, seed=f"kill{i}") for i in range(GAMES)]
    due = deadlines_of(client, games)
    first.kill9()                                       # during the wait
    sleep_until(max(due.values()) + 0.5)
    assert not any(timed_out_at(client, g) for g in due), "nothing applies deadlines while no worker runs"
    second = workers()
    seen = wait_for(lambda: all_timed_out(client, due), RECOVERY_SECONDS, "every overdue timeout", step=0.1)
    assert all(seen[g] >= due[g] for g in due), "a turn timed out before its deadline"
    after = max(seen.values()) - second.started
    print(f"\nworker kill -9: {GAMES} overdue timeouts applied {after:.2f} s after the restart (process start "
          "included)")
    assert after <= RECOVERY_SECONDS


def test_every_turn_that_fell_due_while_redis_was_killed_times_out_within_5_s_of_its_restart(
        client, redis, workers):
    workers()
    server = redis.client()
    wait_for(lambda: pulses(server), START_SECONDS, "the worker's deadline loop")
    games = [new_game(client, time_control=LIMIT, seed=f"redis{i}") for i in range(GAMES)]
    due = deadlines_of(client, games)
    redis.kill9()                                       # during the wait
    sleep_until(max(due.values()) + 0.5)
    restarted = time.time()
    redis.start()                                       # same port, same files
    seen = wait_for(lambda: all_timed_out(client, due), RECOVERY_SECONDS, "every overdue timeout", step=0.1)
    assert all(seen[g] >= due[g] for g in due), "a turn timed out before its deadline"
    assert all(seen[g] >= restarted for g in due)
    after = max(seen.values()) - restarted
    print(f"\nredis kill -9: {GAMES} overdue timeouts applied {after:.2f} s after Redis was back")
    assert after <= RECOVERY_SECONDS


def test_an_end_of_game_job_whose_worker_is_killed_mid_run_completes_once_after_a_restart(
        client, redis, workers, tmp_path):
    flag = tmp_path / "paused"
    first = workers(ARENA_PAUSE_AT="finish.rated", ARENA_PAUSE_FLAG=str(flag))
    ann, bob = register(client, "Ann"), register(client, "Bob")
    game = new_game(client, players=[{"name": "Ann", "school": "northern", "player": ann["id"]},
                                     {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    assert client.post(f"/games/{game['id']}/resign", headers=bearer(game["seats"][1]["token"])).status_code == 200
    wait_for(flag.exists, START_SECONDS, "the end-of-game job to reach its pause")
    server = redis.client()
    assert json.loads(server.hget("arena:{ratings}:games", game["id"]))       # rated, not archived, not told
    assert not endgame.done(server, game["id"])
    first.kill9()
    second = workers()
    wait_for(lambda: endgame.done(server, game["id"]), 15, "the end-of-game job to complete after the restart",
             step=0.1)
    print(f"\nend-of-game job completed {time.time() - second.started:.2f} s after the worker's restart")
    for player in (ann, bob):
        rating = client.get("/players/me/rating", headers=bearer(player["token"])).json
        assert rating["games"] == 1                                             # rated once
        overs = [n for _, n in notify.inbox(server, player["id"]) if n["type"] == "game_over"]
        assert len(overs) == 1                                                  # told once
    archive = tmp_path / "data" / "archive"
    assert (archive / f"{game['id']}.json").exists()
    result = json.loads((archive / f"{game['id']}.result.json").read_text())
    assert [(r["name"], r["place"]) for r in result["standings"]] == [("Ann", 1), ("Bob", 2)]
