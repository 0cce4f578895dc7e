"""HTTP API timings: POST /games/{id}/commands under gunicorn, next to a one-Redis-call floor.

    python bench/api.py [--seconds 5] [--games 32] [--workers 4]

Starts a throwaway redis-server and gunicorn (sync workers) on free ports, creates many games,
then for 1 and for 16 concurrent clients measures p50/p99 latency and throughput of
  - GET /health (one Redis PING: the floor of any request), and
  - POST /games/{id}/commands (load, decide, append: a real move; each client plays its own games,
    reading /legal between moves, which is not timed),
and prints each move figure as a ratio to the floor.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.selfplay import pick  # noqa: E402
from events.redis_process import free_port, start_redis  # noqa: E402


class Client:
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else {})


def new_game(client: Client, seed: str) -> tuple[str, list[str]]:
    status, body = client.call("POST", "/games", {"form": "duel", "seed": seed, "players": [
        {"name": "A", "school": "northern"}, {"name": "B", "school": "sylvan"}]})
    assert status == 201, body
    return body["id"], [s["token"] for s in body["seats"]]


def move_loop(port: int, games: list[tuple[str, list[str]]], until: float, out: list[float]) -> None:
    client, rng = Client(port), random.Random(games[0][0])
    turn = 0
    while time.perf_counter() < until:
        game_id, tokens = games[turn % len(games)]
        turn += 1
        _, view = client.call("GET", f"/games/{game_id}")
        if view.get("status") == "finished":
            continue
        seat = view["active_seat"]
        _, legal = client.call("GET", f"/games/{game_id}/legal", token=tokens[seat])
        command = pick(rng, legal["commands"])
        start = time.perf_counter()
        status, body = client.call("POST", f"/games/{game_id}/commands", command, token=tokens[seat])
        out.append(time.perf_counter() - start)
        assert status == 200, body


def floor_loop(port: int, until: float, out: list[float]) -> None:
    client = Client(port)
    while time.perf_counter() < until:
        start = time.perf_counter()
        client.call("GET", "/health")
        out.append(time.perf_counter() - start)


def run(jobs: list[tuple], seconds: float) -> tuple[list[float], float]:
    """Run one thread per (target, *args) job until the time is up; all latencies and the rate."""
    samples: list[list[float]] = [[] for _ in jobs]
    until = time.perf_counter() + seconds
    threads = [threading.Thread(target=target, args=(*args, until, samples[i]))
               for i, (target, *args) in enumerate(jobs)]
    begin = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    flat = [x for s in samples for x in s]
    return flat, len(flat) / (time.perf_counter() - begin)


def summary(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    return statistics.median(samples), samples[int(0.99 * (len(samples) - 1))]


def generous_limits() -> dict[str, str]:
    """Limits so high that the bench's one address never reaches them (their counting still runs)."""
    import server  # noqa: F401 - registers every limit
    from server.limits import RATE_LIMITS
    return {**{name: "100000000/minute" for name in RATE_LIMITS},
            "ARENA_MAX_UNMOVED_GAMES": "100000000"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--rate-limits", choices=("on", "off"), default="on",
                        help="count every request against (generous, never reached) rate limits, or not at all")
    args = parser.parse_args()
    redis = start_redis(Path(tempfile.mkdtemp()))
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis.url, **generous_limits(), "ARENA_RATE_LIMITS": args.rate_limits}
    web = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", str(args.workers), "-b", f"127.0.0.1:{port}",
                            "--log-level", "warning", "server:create_app()"], cwd=ROOT, env=env)
    try:
        for _ in range(100):
            try:
                Client(port).call("GET", "/health")
                break
            except OSError:
                time.sleep(0.1)
        setup = Client(port)
        print(f"gunicorn sync x{args.workers}, redis-server (appendfsync default), {args.seconds:.0f} s per figure, "
              f"rate limits {args.rate_limits}")
        for clients in (1, 16):
            games = [[new_game(setup, f"bench-{clients}-{i}-{g}") for g in range(max(1, args.games // clients))]
                     for i in range(clients)]
            floor, floor_rate = run([(floor_loop, port)] * clients, args.seconds)
            moves, move_rate = run([(move_loop, port, games[i]) for i in range(clients)], args.seconds)
            (f50, f99), (m50, m99) = summary(floor), summary(moves)
            print(f"{clients:>2} client(s)  GET /health      p50 {f50 * 1e3:7.2f} ms  p99 {f99 * 1e3:7.2f} ms  "
                  f"{floor_rate:8.0f} req/s")
            print(f"{clients:>2} client(s)  POST commands    p50 {m50 * 1e3:7.2f} ms  p99 {m99 * 1e3:7.2f} ms  "
                  f"{move_rate:8.0f} req/s   (p50 x{m50 / f50:.1f}, throughput x{move_rate / floor_rate:.2f} of the floor)")
    finally:
        web.terminate()
        web.wait()
        redis.stop()


if __name__ == "__main__":
    main()
