"""History endpoints on a long game: GET /moves, a rewind (/moves/{n}), and what a page following
the stream asks after each move (before: /games/{id} + /legal + /moves + /log; now: /changes).

    python bench/history.py [--commands 400] [--repeat 30]

Starts a throwaway redis-server, plays one duel of random legal commands through the Flask app
(in-process, no HTTP server), then times each request `--repeat` times and prints the median CPU time of this process in ms
(the app's own work; Redis runs apart; CPU time rather than wall time, so a busy machine skews it less).
Endpoints a checkout does not have are left out, so the same script measures an older version.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.selfplay import pick  # noqa: E402
from events.redis_process import start_redis  # noqa: E402
from server import create_app  # noqa: E402


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def long_game(client, commands: int) -> tuple[str, list[str], int]:
    created = client.post("/games", json={"form": "duel", "seed": "bench-history", "players": [
        {"name": "A", "school": "northern"}, {"name": "B", "school": "sylvan"}]}).json
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    rng = random.Random(1)
    for _ in range(commands):
        view = client.get(f"/games/{game_id}").json
        if view["status"] == "finished":
            break
        seat = view["active_seat"]
        listed = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[seat])).json["commands"]
        command = {k: v for k, v in pick(rng, listed).items() if k != "squares"}
        client.post(f"/games/{game_id}/commands", json=command, headers=bearer(tokens[seat]))
    return game_id, tokens, client.get(f"/games/{game_id}").json["version"]


def median_ms(client, paths: list[str], token: str, repeat: int) -> float | None:
    if client.get(paths[0], headers=bearer(token)).status_code == 404 and "changes" in paths[0]:
        return None
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for path in paths:
            assert client.get(path, headers=bearer(token)).status_code == 200, path
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commands", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    redis = start_redis(Path(tempfile.mkdtemp(prefix="bench-history-")))
    try:
        client = create_app({"REDIS_URL": redis.url}).test_client()
        game_id, tokens, version = long_game(client, args.commands)
        moves = len(client.get(f"/games/{game_id}/moves").json["moves"])
        base = f"/games/{game_id}"
        rows = [("GET /games/{id}", [base]), ("GET /legal", [f"{base}/legal"]), ("GET /moves", [f"{base}/moves"]),
                ("GET /moves/{n} (rewind to the middle)", [f"{base}/moves/{moves // 2}"]),
                ("GET /log", [f"{base}/log"]),
                ("a page's catch-up, before: game + legal + moves + log",
                 [base, f"{base}/legal", f"{base}/moves", f"{base}/log"]),
                ("a page's catch-up, now: /changes after the last move", [f"{base}/changes?after={version - 3}"])]
        print(f"one duel: {version} events, {moves - 1} moves; median CPU ms of {args.repeat} runs, Flask test client")
        for name, paths in rows:
            ms = median_ms(client, paths, tokens[0], args.repeat)
            print(f"  {name:58s} {'n/a' if ms is None else f'{ms:8.2f} ms'}")
    finally:
        redis.stop()


if __name__ == "__main__":
    main()
