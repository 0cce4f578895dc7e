"""Durable follow-up: the end of an untimed game without bots is not lost when the web process dies
between the append and its follow-up hook (events/followup.py). Once as a test of the parts (an
app without the hook appends the finishing move, as a web process that died there would leave it),
once with real processes: a web process killed with kill -9 right after the append, a worker
process that picks up what it owed. Standings, rating and archive are written once, and each
player is told once."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from datetime import datetime, timedelta, timezone

from freezegun import freeze_time

from events import followup, inbox, keys
from events.redis_process import free_port
from server import create_app
from workers import endgame
from workers import followup as hook

from .helpers import bearer, new_game, record_file, register, run_worker
from .processes import ROOT, START_SECONDS, wait_for


def untimed_duel(client) -> tuple[dict, dict, dict]:
    """A rated duel of two registered players (the server draws its seed)."""
    ann, bob = register(client, "Ann"), register(client, "Bob")
    game = new_game(client, seed=None, players=[{"name": "Ann", "school": "northern", "player": ann["id"]},
                                                {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    return ann, bob, game


def told_once_and_rated_once(client, redis, players: list[dict], game_id: str, archive) -> None:
    for player in players:
        assert client.get("/players/me/rating", headers=bearer(player["token"])).json["games"] == 1
        overs = [n for _, n in inbox.read(redis, player["id"]) if n["type"] == "game_over"]
        assert len(overs) == 1, overs
    assert endgame.done(redis, game_id)
    result = json.loads((archive / f"{game_id}.result.json").read_text())
    assert [(r["name"], r["place"]) for r in result["standings"]] == [("Ann", 1), ("Bob", 2)]


def test_a_finishing_move_whose_hook_never_ran_is_followed_up_by_a_deadline_loop_once(redis_url, redis_db, tmp_path):
    crashed = create_app({"REDIS_URL": redis_url, "TESTING": True, "FOLLOW_UP": None}).test_client()
    ann, bob, game = untimed_duel(crashed)
    resigned = crashed.post(f"/games/{game['id']}/resign", headers=bearer(game["seats"][1]["token"]))
    assert resigned.status_code == 200
    assert followup.owed(redis_db, game["id"]) == resigned.json["version"]     # recorded by the append itself
    run_worker(redis_db)
    assert not endgame.done(redis_db, game["id"])                              # not before the grace
    later = datetime.now(timezone.utc) + timedelta(seconds=followup.grace() + 1)
    with freeze_time(later):
        run_worker(redis_db)                                                   # the loop catches up, the job runs
    assert followup.owed(redis_db, game["id"]) is None
    archive = tmp_path / "data" / "archive"
    written = record_file(archive, game["id"]).stat().st_mtime_ns
    service = hook.service(redis_db)
    hook.hook(service, game["id"], None)                                       # the hook after all, and a loop again
    assert not service.catch_up(game["id"])                                    # nothing owed any more
    with freeze_time(later + timedelta(seconds=60)):
        run_worker(redis_db)
    assert record_file(archive, game["id"]).stat().st_mtime_ns == written      # archived once
    told_once_and_rated_once(crashed, redis_db, [ann, bob], game["id"], archive)


def test_the_hook_settles_the_debt_and_a_later_append_keeps_its_own(app, client, redis_db):
    _, _, game = untimed_duel(client)
    app.extensions["arena"].service.settle_now()                              # what its settler does a moment later
    assert followup.owed(redis_db, game["id"]) is None                         # the hook ran and settled
    redis_db.set(keys.follow_up(game["id"]), 7)
    followup.settle(redis_db, game["id"], 6)                                   # an older change's hook
    assert followup.owed(redis_db, game["id"]) == 7


class WebProcess:
    """`arena web` on a free port, started by this test and ended by its pid."""

    def __init__(self, redis_url: str, data_dir, **env: str) -> None:
        self.port = free_port()
        environ = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_PAUSE")}
        environ.update(REDIS_URL=redis_url, ARENA_DATA_DIR=str(data_dir), **env,
                       PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.process = subprocess.Popen([sys.executable, "-m", "server.cli", "web", "--port", str(self.port),
                                         "--web-workers", "1", "--threads", "2"], cwd=ROOT, env=environ,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/health", timeout=2) as answer:
                return answer.status == 200
        except OSError:
            return False

    def post(self, path: str, token: str) -> None:
        request = urllib.request.Request(self.base + path, data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"Bearer {token}"})
        try:
            urllib.request.urlopen(request, timeout=START_SECONDS).close()
        except OSError:
            pass                        # the process was killed while answering

    def kill9(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()


def test_a_web_process_killed_right_after_the_append_loses_no_end_of_game(
        durable_client, durable_redis, worker_processes, tmp_path):
    flag = tmp_path / "appended"
    web = WebProcess(durable_redis.url, tmp_path / "data", ARENA_PAUSE_AT="service.appended",
                     ARENA_PAUSE_FLAG=str(flag), ARENA_FOLLOW_UP_GRACE="0.5")
    try:
        ann, bob, game = untimed_duel(durable_client)       # made through another web app
        wait_for(web.healthy, START_SECONDS, "the web process to answer")
        resign = threading.Thread(target=web.post, args=(f"/games/{game['id']}/resign", game["seats"][1]["token"]),
                                  daemon=True)
        resign.start()
        wait_for(flag.exists, START_SECONDS, "the web process to reach the point after the append")
        web.kill9()                                                     # after the append, before its hook
        resign.join(10)
    finally:
        web.kill9()
    server = durable_redis.client()
    assert durable_client.get(f"/games/{game['id']}").json["result"]                # the resignation is stored
    assert followup.owed(server, game["id"]) is not None                # stored, and owed
    assert not endgame.done(server, game["id"])
    worker = worker_processes()
    started = time.time()
    wait_for(lambda: endgame.done(server, game["id"]), START_SECONDS, "the end-of-game work after the kill",
             step=0.1)
    print(f"\nweb kill -9 after the append: end of game done {time.time() - started:.2f} s after the worker started")
    worker.stop()
    told_once_and_rated_once(durable_client, server, [ann, bob], game["id"], tmp_path / "data" / "archive")
    assert followup.owed(server, game["id"]) is None
