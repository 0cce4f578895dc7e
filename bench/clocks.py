"""Turn-deadline lateness under `arena serve`: how long after its recorded deadline a turn times out.

    python bench/clocks.py [--games 30] [--seconds 2] [--spread 1.5] [--root DIR] [--bots 4]

Starts `arena serve` (embedded Redis with appendfsync always, web server, workers) in a temporary
data directory on a free port, creates `--games` duels with a move limit of `--seconds`, their
creations spread evenly over `--spread` seconds (so deadlines fall at every fraction of a second),
then reads each game's TurnTimedOut event and prints the lateness (its recorded time minus the
recorded deadline): median, p90, max and min. A negative minimum would be a turn timed out early.
`--root` runs another checkout of the project (e.g. main, to compare before and after).
`--bots N` first starts N games between two computer players of the strongest level, so the bot
workers think all through the measurement; it then also times one person's move in each of
`--games` untimed games (median and p99): run with --bots 0 and --bots 4 to compare.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import Client  # noqa: E402
from events.redis_process import free_port  # noqa: E402

START_SECONDS = 90


def call(base: str, path: str, body: dict | None = None) -> dict:
    """One request to the server (bench/api.py's client); the JSON answer, or HTTPError."""
    status, answer = Client(int(base.rsplit(":", 1)[1])).call("POST" if body is not None else "GET", path, body)
    if status >= 400:
        raise urllib.error.HTTPError(base + path, status, str(answer), None, None)
    return answer


def quantile(samples: list[float], q: float) -> float:
    return samples[min(len(samples) - 1, int(q * len(samples)))]


def epoch(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


def await_health(base: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("arena serve exited early")
        try:
            if call(base, "/health")["status"] == "ok":
                return
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.1)
    raise SystemExit("arena serve did not become healthy")


def await_workers(data: Path, count: int) -> None:
    """Until `count` RQ workers have registered with the embedded Redis (a loaded machine starts
    Python processes slowly; a deadline missed for that reason says nothing about the clocks)."""
    from rq import Worker

    from events.embedded import EmbeddedRedis
    redis = EmbeddedRedis(data).client()
    deadline = time.monotonic() + START_SECONDS
    while len(Worker.all(connection=redis)) < count:
        if time.monotonic() > deadline:
            raise SystemExit("the workers did not start")
        time.sleep(0.1)
    time.sleep(1.0)                                         # their first rounds


def timed_out_at(base: str, game_id: str) -> float | None:
    for event in call(base, f"/games/{game_id}/events")["events"]:
        if event["type"] == "TurnTimedOut":
            return epoch(event["time"])
    return None


def start_bots(base: str, count: int) -> None:
    """`count` games between two strongest-level computer players, thinking while we measure."""
    level = max(entry["level"] for entry in call(base, "/vocabulary")["bot_levels"])
    for _ in range(count):
        call(base, "/games", {"form": "duel", "players": [{"name": "A", "school": "northern", "bot_level": level},
                                                          {"name": "B", "school": "sylvan", "bot_level": level}]})


def move_times(base: str, games: int) -> list[float]:
    """Seconds one person's move takes to be answered, in `games` fresh untimed duels."""
    out = []
    for _ in range(games):
        game = call(base, "/games", {"form": "duel", "players": [{"name": "A", "school": "northern"},
                                                                 {"name": "B", "school": "sylvan"}]})
        seat = call(base, f"/games/{game['id']}")["active_seat"]
        token = game["seats"][seat]["token"]
        port = int(base.rsplit(":", 1)[1])
        legal = Client(port).call("GET", f"/games/{game['id']}/legal", None, token=token)[1]["commands"]
        start = time.perf_counter()
        Client(port).call("POST", f"/games/{game['id']}/commands", legal[0], token=token)
        out.append(time.perf_counter() - start)
    return sorted(out)


def measure(base: str, games: int, seconds: int, spread: float) -> list[float]:
    created: list[tuple[str, float]] = []
    start = time.monotonic()
    for i in range(games):
        time.sleep(max(0.0, start + i * spread / max(1, games - 1) - time.monotonic()))
        game = call(base, "/games", {"form": "duel", "time_control": {"kind": "move", "seconds": seconds},
                                     "players": [{"name": "A", "school": "northern"}, {"name": "B", "school": "sylvan"}]})
        created.append((game["id"], epoch(call(base, f"/games/{game['id']}")["clocks"]["deadline"])))
    time.sleep(seconds + 2.5)
    late = []
    for game_id, due in created:
        at = timed_out_at(base, game_id)
        late.append(float("inf") if at is None else at - due)
    return late


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seconds", type=int, default=2)
    parser.add_argument("--spread", type=float, default=1.5)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--bots", type=int, default=0, help="games between strongest-level bots thinking meanwhile")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    errors = tempfile.TemporaryFile("w+")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(ARENA_DATA_DIR=str(data), PORT=str(port), WEB_CONCURRENCY="1", WEB_THREADS="4", ARENA_RATE_LIMITS="0",
               ARENA_MAX_UNMOVED_GAMES="100000",
               PYTHONPATH=str(args.root))
    server = subprocess.Popen([sys.executable, "-m", "server.cli", "serve"], cwd=args.root, env=env,
                              stdout=subprocess.DEVNULL, stderr=errors)
    try:
        base = f"http://127.0.0.1:{port}"
        await_health(base, server)
        await_workers(data, 3 if args.bots else 2)
        start_bots(base, args.bots)
        late = sorted(measure(base, args.games, args.seconds, args.spread))
        moves = move_times(base, args.games)
    except SystemExit:
        errors.seek(0)
        print(errors.read()[-3000:], file=sys.stderr)
        raise
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(data, ignore_errors=True)
    missing = sum(1 for x in late if x == float("inf"))
    done = [x for x in late if x != float("inf")]
    print(f"root {args.root}: {args.games} games, move limit {args.seconds} s, deadlines spread over {args.spread} s, "
          f"{args.bots} bot games thinking")
    print(f"a person's move  median {statistics.median(moves) * 1000:7.0f} ms   p99 {quantile(moves, 0.99) * 1000:7.0f} ms")
    if done:
        p90 = done[min(len(done) - 1, int(0.9 * len(done)))]
        print(f"lateness  median {statistics.median(done) * 1000:7.0f} ms   p90 {p90 * 1000:7.0f} ms   "
              f"p99 {quantile(done, 0.99) * 1000:7.0f} ms   "
              f"max {max(done) * 1000:7.0f} ms   min {min(done) * 1000:7.0f} ms   "
              f"early {sum(1 for x in done if x < 0)}   not timed out {missing}")
    else:
        print(f"no game timed out ({missing} missing)")


if __name__ == "__main__":
    main()
