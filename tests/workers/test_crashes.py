"""Crashes, with real processes and real time where the wait is the point: kill -9 of the worker
during a wait, kill -9 of Redis (append-only file flushed on every write) during a wait, kill -9 of
a worker in the middle of an end-of-game job. Limits are a few seconds; each test ends every
process it started, by its pid."""
from __future__ import annotations

import json
import time

from events import inbox, keys
from workers import endgame

from .helpers import TWO_SECONDS, all_timed_out, bearer, deadlines_of, new_game, record_file, register, timed_out_at
from .processes import START_SECONDS, Worker, pulses, wait_for

GAMES = 4
RECOVERY_SECONDS = 5.0              # the promise after a restart


def timed_games_under_way(client, redis, workers, seed: str) -> tuple[Worker, dict[str, float]]:
    """A worker whose deadline loop runs, and GAMES games with a 2 s move limit: their deadlines."""
    worker = workers()
    wait_for(lambda: pulses(redis.client()), START_SECONDS, "the worker's deadline loop")
    games = [new_game(client, time_control=TWO_SECONDS, seed=f"{seed}{i}") for i in range(GAMES)]
    return worker, deadlines_of(client, games)


def sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.time()))          # the wait is the point: deadlines pass meanwhile


def test_every_turn_that_fell_due_while_the_worker_was_killed_times_out_within_5_s_of_its_restart(
        durable_client, durable_redis, worker_processes):
    first, due = timed_games_under_way(durable_client, durable_redis, worker_processes, "kill")
    first.kill9()                                       # during the wait
    sleep_until(max(due.values()) + 0.5)
    assert not any(timed_out_at(durable_client, g) for g in due), "nothing applies deadlines while no worker runs"
    before = pulses(durable_redis.client())            # the killed worker's lapses within 3 s
    second = worker_processes()
    up = wait_for(lambda: pulses(durable_redis.client()) - before and time.time(), START_SECONDS,
                  "the restarted worker's pulse")
    seen = wait_for(lambda: all_timed_out(durable_client, due), RECOVERY_SECONDS, "every overdue timeout",
                    step=0.1)
    assert all(seen[g] >= due[g] for g in due), "a turn timed out before its deadline"
    after = max(seen.values())
    print(f"\nworker kill -9: {GAMES} overdue timeouts applied {after - second.started:.2f} s after the worker "
          f"process was started again, {after - up:.2f} s after it was up (its Python start-up: "
          f"{up - second.started:.2f} s)")
    assert after - up <= RECOVERY_SECONDS


def test_every_turn_that_fell_due_while_redis_was_killed_times_out_within_5_s_of_its_restart(
        durable_client, durable_redis, worker_processes):
    _, due = timed_games_under_way(durable_client, durable_redis, worker_processes, "redis")
    durable_redis.kill9()                               # during the wait
    sleep_until(max(due.values()) + 0.5)
    restarted = time.time()
    durable_redis.start()                               # same port, same files
    seen = wait_for(lambda: all_timed_out(durable_client, due), RECOVERY_SECONDS, "every overdue timeout",
                    step=0.1)
    assert all(seen[g] >= due[g] for g in due), "a turn timed out before its deadline"
    assert all(seen[g] >= restarted for g in due)
    after = max(seen.values()) - restarted
    print(f"\nredis kill -9: {GAMES} overdue timeouts applied {after:.2f} s after Redis was back")
    assert after <= RECOVERY_SECONDS


def test_an_end_of_game_job_whose_worker_is_killed_mid_run_completes_once_after_a_restart(
        durable_client, durable_redis, worker_processes, tmp_path):
    flag = tmp_path / "paused"
    first = worker_processes(ARENA_PAUSE_AT="finish.rated", ARENA_PAUSE_FLAG=str(flag))
    ann, bob = register(durable_client, "Ann"), register(durable_client, "Bob")
    game = new_game(durable_client, seed=None, players=[{"name": "Ann", "school": "northern", "player": ann["id"]},
                                                        {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    resigned = durable_client.post(f"/games/{game['id']}/resign", headers=bearer(game["seats"][1]["token"]))
    assert resigned.status_code == 200
    wait_for(flag.exists, START_SECONDS, "the end-of-game job to reach its pause")
    server = durable_redis.client()
    assert server.get(keys.meta(game["id"], "rating"))                          # rated, not archived, not told
    assert not (tmp_path / "data" / "archive").exists()
    assert not endgame.done(server, game["id"])
    first.kill9()
    second = worker_processes()
    wait_for(lambda: endgame.done(server, game["id"]), 15, "the end-of-game job to complete after the restart",
             step=0.1)
    print(f"\nend-of-game job completed {time.time() - second.started:.2f} s after the worker's restart")
    for player in (ann, bob):
        rating = durable_client.get("/players/me/rating", headers=bearer(player["token"])).json
        assert rating["games"] == 1                                             # rated once
        overs = [n for _, n in inbox.read(server, player["id"]) if n["type"] == "game_over"]
        assert len(overs) == 1                                                  # told once
    archive = tmp_path / "data" / "archive"
    assert record_file(archive, game["id"]).exists()
    result = json.loads((archive / f"{game['id']}.result.json").read_text())
    assert [(r["name"], r["place"]) for r in result["standings"]] == [("Ann", 1), ("Bob", 2)]
