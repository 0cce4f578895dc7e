"""End to end: `arena serve` as a subprocess (embedded Redis, web server, workers) on a free port;
a game with a 2-second move limit is timed out, as seen through the API, within 4 seconds, and
still after its game worker was killed with kill -9 (serve starts it again)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from rq import Worker

from events.embedded import EmbeddedRedis
from events.redis_process import free_port

START_SECONDS = 90                  # a loaded 2-core machine starts four Python processes slowly
ROOT = Path(__file__).resolve().parents[2]


def call(base: str, path: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method="POST" if data else "GET",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def await_health(base: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert server.poll() is None, "arena serve exited early"
        try:
            if call(base, "/health")["status"] == "ok":
                return
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.1)                                     # polling with a deadline, not for correctness
    raise AssertionError("arena serve did not become healthy")


@pytest.fixture
def served():
    data = Path(tempfile.mkdtemp(prefix="arena-e2e-"))      # short: the Redis socket path has a limit
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(ARENA_DATA_DIR=str(data), PORT=str(port), WEB_CONCURRENCY="1", WEB_THREADS="4",
               PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""))
    server = subprocess.Popen([sys.executable, "-m", "server.cli", "serve"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        yield f"http://127.0.0.1:{port}", server, data
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        EmbeddedRedis(data).stop()
        shutil.rmtree(data, ignore_errors=True)


def seconds_to_a_timeout(base: str, limit: float) -> float | None:
    """Create a game with a 2 s move limit; how long until it was timed out (None: not within `limit`)."""
    game = call(base, "/games", {"form": "duel", "time_control": {"kind": "move", "seconds": 2},
                                 "players": [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]})
    created = time.monotonic()
    while time.monotonic() - created < limit:
        events = call(base, f"/games/{game['id']}/events")["events"]
        if any(e["type"] == "TurnTimedOut" for e in events):
            return time.monotonic() - created
        time.sleep(0.05)
    return None


def game_worker_pid(data: Path) -> int:
    """The pid of `arena serve`'s game worker (a child of the serve process this test started)."""
    [pid] = [w.pid for w in Worker.all(connection=EmbeddedRedis(data).client()) if "arena" in w.queue_names()]
    return pid


def test_arena_serve_times_out_a_two_second_move_limit_within_four_seconds_and_stops_on_ctrl_c(served):
    base, server, data = served
    await_health(base, server)
    assert seconds_to_a_timeout(base, 4.0) is not None, "no timeout within 4 s"
    os.kill(game_worker_pid(data), signal.SIGKILL)          # arena serve starts its worker again
    assert seconds_to_a_timeout(base, 2.0 + 6.0) is not None, "no timeout after the worker was killed"
    server.send_signal(signal.SIGINT)                       # Ctrl-C
    _, errors = server.communicate(timeout=30)
    assert server.returncode == 0, errors[-2000:]
    assert "the worker exited; starting it again" in errors
    assert not EmbeddedRedis(data).is_running()
