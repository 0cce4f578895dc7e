"""Moves on a Redis Cluster next to a single Redis, and what waiting for a replica costs.

    python bench/cluster.py [--moves 300] [--writers 1,8] [--fsync always]

Throwaway redis-servers on loopback, with an AOF synced as --fsync says:
  single              one Redis, no replica: today's deployment (nothing to WAIT for)
  single + replica    one Redis and its replica: WAIT off, then WAIT 1 (ARENA_WAIT_REPLICAS=1)
  cluster             3 masters with a replica each: WAIT off, then WAIT 1
A move is GameService.execute of a random legal command (load, decide, append: what a POST does
without HTTP); each writer process plays games of its own, all writers in step. Printed: moves/s,
the p50/p99 of one move, and for each WAIT pair the cost of waiting (p50 difference and ratio).
PING to the same Redis is the floor. The client processes share the machine's cores with Redis.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import redis                                                       # noqa: E402
from redis.cluster import RedisCluster                             # noqa: E402
from store import execution_plan, percentiles, timed               # noqa: E402

from events.redis_process import start_cluster, start_redis        # noqa: E402
from events.replication import Replication                         # noqa: E402
from events.service import GameService                             # noqa: E402


def client_for(target: tuple[str, int]) -> redis.Redis | RedisCluster:
    kind, port = target
    return RedisCluster(host="127.0.0.1", port=port) if kind == "cluster" else redis.Redis(port=port)


def writer(target: tuple[str, int], wait: int, index: int, moves: int, barrier, results) -> None:
    client = client_for(target)
    service = GameService(client, replication=Replication(wait, 1000))
    plan = iter(execution_plan(service, f"c{os.getpid()}-{index}-{wait}", moves))

    def move() -> None:
        game_id, command, version = next(plan)
        service.execute(game_id, command["seat"], {k: v for k, v in command.items() if k != "seat"},
                        expected_version=version)

    ping = timed(200, client.ping)
    barrier.wait()
    began = time.perf_counter()
    samples = timed(moves, move)
    results.put((ping, samples, time.perf_counter() - began))
    client.close()


def run(target: tuple[str, int], wait: int, writers: int, moves: int) -> tuple[float, float, float, float]:
    """(moves/s, p50 µs, p99 µs, PING p50 µs) of `writers` processes making `moves` moves each."""
    ctx = mp.get_context("fork")
    barrier, results = ctx.Barrier(writers), ctx.Queue()
    procs = [ctx.Process(target=writer, args=(target, wait, i, moves, barrier, results)) for i in range(writers)]
    for p in procs:
        p.start()
    outs = [results.get() for _ in procs]
    for p in procs:
        p.join()
    samples = [s for _, out, _ in outs for s in out]
    pings = [s for ping, _, _ in outs for s in ping]
    p50, p99 = percentiles(samples)
    return len(samples) / max(wall for _, _, wall in outs), p50, p99, percentiles(pings)[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="moves per writer per figure")
    parser.add_argument("--writers", default="1,8", help="writer process counts, comma-separated")
    parser.add_argument("--fsync", choices=("always", "everysec", "no"), default="always")
    args = parser.parse_args()
    aof = {"appendonly": "yes" if args.fsync != "no" else "no", "appendfsync": args.fsync if args.fsync != "no" else "everysec"}
    work = Path(tempfile.mkdtemp(prefix="arena-bench-cluster-"))
    single = start_redis(work / "single", aof)
    primary = start_redis(work / "primary", {**aof, "repl-diskless-sync": "yes", "repl-diskless-sync-delay": 0})
    replica = start_redis(work / "replica", {**aof, "replicaof": ("127.0.0.1", primary.port)})
    cluster = start_cluster(work / "cluster", masters=3, replicas=1, extra=aof)
    try:
        for _ in range(200):
            if int(primary.client().info("replication")["connected_slaves"]) >= 1:
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("the replica did not attach")
        setups = [("single", ("single", single.port), 0), ("single + replica, WAIT off", ("single", primary.port), 0),
                  ("single + replica, WAIT 1", ("single", primary.port), 1),
                  ("cluster 3x(1+1), WAIT off", ("cluster", cluster.nodes[0].port), 0),
                  ("cluster 3x(1+1), WAIT 1", ("cluster", cluster.nodes[0].port), 1)]
        print(f"appendfsync {args.fsync}; {args.moves} moves per writer; {os.cpu_count()} cores shared by Redis "
              f"and the writers")
        print(f"{'setup':<30} {'writers':>7} {'moves/s':>9} {'p50 µs':>9} {'p99 µs':>9} {'PING µs':>8}")
        for writers in (int(w) for w in args.writers.split(",")):
            figures = {}
            for name, target, wait in setups:
                figures[name] = run(target, wait, writers, args.moves)
                rate, p50, p99, ping = figures[name]
                print(f"{name:<30} {writers:>7} {rate:>9.0f} {p50:>9.0f} {p99:>9.0f} {ping:>8.0f}")
            for base in ("single + replica", "cluster 3x(1+1)"):
                off, on = figures[f"{base}, WAIT off"], figures[f"{base}, WAIT 1"]
                print(f"  WAIT cost, {base:<20} p50 +{on[1] - off[1]:.0f} µs (x{on[1] / off[1]:.2f}), "
                      f"p99 +{on[2] - off[2]:.0f} µs, throughput x{on[0] / off[0]:.2f}")
            single_rate = figures["single"][0]
            print(f"  cluster with WAIT vs a single Redis: throughput x{figures['cluster 3x(1+1), WAIT 1'][0] / single_rate:.2f}, "
                  f"p50 x{figures['cluster 3x(1+1), WAIT 1'][1] / figures['single'][1]:.2f}")
    finally:
        for server in (single, replica, primary):
            server.stop()
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
