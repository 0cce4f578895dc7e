"""The desk of a player with many games (issue 24: at most 50 ms for 200 games), side by side with
a floor: the bare Redis reads the desk is made of.

    python bench/desk.py [--games 200] [--repeat 30]

Starts a throwaway redis-server and the app in-process (Flask test client, no HTTP server), makes
one player's games (a third finished, a third theirs to play against a per-move clock of hours
to days, the rest waiting on the opponent), then times `--repeat` requests of each and prints the
median wall time in ms:

- GET /players/me/desk, from the per-player index (events/desk.py), warm: each row already decoded
  and put in words by this process (as for every row that did not change since the last read);
- the same cold: those per-row caches emptied before each request (a new process, or all changed);
- the same with the index emptied before each request, so every game is loaded and its row built
  again (what GET /players/me/games did before the index, one load per game);
- GET /players/me/games, read from the same index;
- the floor: one pipeline of SMEMBERS + two HGETALL on the player's keys, from redis-py;

and what keeping the index costs each change to a game (the follow-up hook's `desk.index`, with the
clock the hook already has), beside a Redis PING.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from events import desk as desk_index, game_clock, keys, roster  # noqa: E402
from events.redis_process import start_redis  # noqa: E402
from server import create_app, desk as desk_view, game_words  # noqa: E402

UNLIMITED = {"ARENA_RATE_LIMITS": False, "ARENA_MAX_UNMOVED_GAMES": 100_000}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_games(client, me: dict, count: int) -> None:
    """`count` duels of the player against guest seats: finished, theirs, or the opponent's turn."""
    for i in range(count):
        seats = [{"name": f"Rival {i % 17}", "school": "northern"}, {"name": me["name"], "school": "sylvan", "player": me["id"]}]
        kind = i % 3
        made = client.post("/games", headers=bearer(me["token"]), json={
            "form": "duel", "players": seats if kind != 2 else seats[::-1],
            "time_control": {"kind": "move", "seconds": 3600 * (1 + i % 48)}}).json
        assert "seats" in made, made
        if kind == 0:
            rival = next(s["token"] for s in made["seats"] if s["name"] != me["name"])
            assert client.post(f"/games/{made['id']}/resign", headers=bearer(rival)).status_code == 200


def median_ms(run: Callable[[], object], repeat: int, before: Callable[[], object] | None = None,
              clock: Callable[[], float] = time.perf_counter) -> float:
    """The median ms of `run` by `clock`: wall time, or this process's CPU time (time.process_time:
    the app's own work, which a busy machine skews less; Redis runs apart)."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = clock()
        run()
        times.append((clock() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    server = start_redis(Path(tempfile.mkdtemp(prefix="bench-desk-")))
    try:
        app = create_app({"REDIS_URL": server.url, **UNLIMITED})
        client, redis = app.test_client(), app.extensions["arena"].redis
        me = client.post("/players", json={"name": "Ann"}).json
        started = time.perf_counter()
        make_games(client, me, args.games)
        print(f"{args.games} games made in {time.perf_counter() - started:.1f} s")
        desk = client.get("/players/me/desk", headers=bearer(me["token"])).json
        assert len(desk["games"]) == args.games, len(desk["games"])
        print(f"the desk: {desk['counts']}; median ms of {args.repeat} requests, wall and this process's CPU")

        def ok(path: str) -> Callable[[], object]:
            return lambda: client.get(path, headers=bearer(me["token"])).status_code == 200 or sys.exit(path)

        def floor() -> object:
            pipe = redis.pipeline(transaction=False)
            pipe.smembers(keys.player_games(me["id"]))
            pipe.hgetall(keys.desk(me["id"]))
            pipe.hgetall(keys.desk_seen(me["id"]))
            return pipe.execute()

        base = median_ms(floor, args.repeat)
        rows = [("floor: SMEMBERS + 2 HGETALL (redis-py pipeline)", floor, None),
                ("GET /players/me/desk (the index)", ok("/players/me/desk"), None),
                ("GET /players/me/desk, cold (per-row caches emptied)", ok("/players/me/desk"), forget_rows),
                ("GET /players/me/desk?opponent=Rival 3 (filtered)", ok("/players/me/desk?opponent=Rival%203"), None),
                ("GET /players/me/games (the index)", ok("/players/me/games"), None),
                ("GET /players/me/desk, index emptied (every game loaded)", ok("/players/me/desk"),
                 lambda: redis.delete(keys.desk(me["id"])))]
        for name, run, before in rows:
            repeat = args.repeat if before is None else max(5, args.repeat // 3)
            ms, cpu = (median_ms(run, repeat, before, clock) for clock in (time.perf_counter, time.process_time))
            print(f"  {name:58s} {ms:8.2f} ms  {ms / base:6.1f}x floor   CPU {cpu:7.2f} ms")
        index_cost(app, redis, me, desk["next"], args.repeat)

    finally:
        server.stop()


def forget_rows() -> None:
    for cached in (desk_index._decoded, game_words._fixed, desk_view._desk_fields):
        cached.cache_clear()


def index_cost(app, redis, me: dict, game_id: str, repeat: int) -> None:
    """The hook's share of a change: one desk.index of a timed game of two seats, one a player's."""
    service = app.extensions["arena"].service
    loaded = service.load(game_id)
    clock = game_clock.current(redis, service, game_id, roster.seating_of(redis, game_id).tc)
    ping = median_ms(redis.ping, repeat * 10)
    ms = median_ms(lambda: desk_index.index(redis, service, game_id, loaded.state, loaded.version, 0.0, clock),
                   repeat * 10)
    print(f"  {'desk.index after a change (the hook)':58s} {ms:8.3f} ms  {ms / ping:6.1f}x a PING ({ping:.3f} ms)")


if __name__ == "__main__":
    main()
