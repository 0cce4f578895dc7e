"""Moves on a Redis Cluster next to a single Redis, and what waiting for a replica costs.

    python bench/cluster.py [--moves 300] [--writers 1,8] [--rounds 3] [--fsync always]
    python bench/cluster.py --shared [--moves 300] [--writers 8]

Throwaway redis-servers on loopback, with an AOF synced as --fsync says:
  single              one Redis, no replica: today's deployment (nothing to WAIT for)
  single + replica    one Redis and its replica: WAIT off, then WAIT 1 (ARENA_WAIT_REPLICAS=1)
  cluster             3 masters with a replica each: WAIT off, then WAIT 1
A move is GameService.execute of a random legal command (load, decide, append: what a POST does
without HTTP); each writer process plays games of its own, all writers in step. Printed: moves/s,
the p50/p99 of one move, and, separately, the cost of WAIT: a bare 5-event EventStore.append with
WAIT off and on (the Python of a move is the noisy part of its time). PING to the same Redis is the
floor. Every setup runs --rounds times, interleaved, and the medians of the rounds are printed: the
client processes share the machine's cores with Redis and with whatever else runs there.

--shared measures what every player shares instead, on a Cluster of 3 masters (no replicas, no
fsync: the spread is the point): each round a writer opens a lobby table and fills it, claims an
account name and marks a game live, and every tenth round lists the open tables and the live
games. Printed: rounds/s, the p50/p99 of each step, and the busiest master's share of all commands
(1/3 is an even spread; 1.0 would mean one master did everything).
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import redis                                                       # noqa: E402
from redis.cluster import RedisCluster                             # noqa: E402
from store import Chain, execution_plan, percentiles, timed, typical_batch  # noqa: E402

from events.redis_process import start_cluster, start_redis        # noqa: E402
from events.replication import Replication                         # noqa: E402
from events.service import GameService                             # noqa: E402
from events.store import EventStore                                # noqa: E402


def client_for(target: tuple[str, int]) -> redis.Redis | RedisCluster:
    kind, port = target
    return RedisCluster(host="127.0.0.1", port=port) if kind == "cluster" else redis.Redis(port=port)


def writer(target: tuple[str, int], wait: int, index: int, moves: int, barrier, results) -> None:
    client = client_for(target)
    replication = Replication(wait, 1000)
    service = GameService(client, replication=replication)
    plan = iter(execution_plan(service, f"c{os.getpid()}-{index}-{wait}", moves))
    store, chain = EventStore(client, replication=replication), Chain(f"a{os.getpid()}-{index}-{wait}")
    batch = typical_batch()
    appends = iter([(chain.version, chain.seal(batch)) for _ in range(moves)])

    def move() -> None:
        game_id, command, version = next(plan)
        service.execute(game_id, command["seat"], {k: v for k, v in command.items() if k != "seat"},
                        expected_version=version)

    def append() -> None:
        version, envelopes = next(appends)
        store.append(chain.game_id, version, envelopes)

    ping = timed(200, client.ping)
    barrier.wait()
    began = time.perf_counter()
    samples = timed(moves, move)
    wall = time.perf_counter() - began
    barrier.wait()
    results.put((ping, samples, wall, timed(moves, append)))
    client.close()


def run(target: tuple[str, int], wait: int, writers: int, moves: int) -> dict[str, float]:
    """moves/s, p50 and p99 of a move, p50 of a bare append, PING p50 (µs) of `writers` processes."""
    ctx = mp.get_context("fork")
    barrier, results = ctx.Barrier(writers), ctx.Queue()
    procs = [ctx.Process(target=writer, args=(target, wait, i, moves, barrier, results)) for i in range(writers)]
    for p in procs:
        p.start()
    outs = [results.get() for _ in procs]
    for p in procs:
        p.join()
    p50, p99 = percentiles([s for _, out, _, _ in outs for s in out])
    return {"rate": writers * moves / max(wall for _, _, wall, _ in outs), "p50": p50, "p99": p99,
            "append": percentiles([s for *_, out in outs for s in out])[0],
            "ping": percentiles([s for ping, *_ in outs for s in ping])[0]}


STEPS = ("table", "name", "live", "list tables", "list live")


def shared_writer(port: int, index: int, rounds: int, barrier, results) -> None:
    from events import accounts, lobby, presence
    client = RedisCluster(host="127.0.0.1", port=port)
    tag = f"{os.getpid()}x{index}"
    samples: dict[str, list[int]] = {step: [] for step in STEPS}

    def step(name: str, action) -> None:
        began = time.perf_counter_ns()
        action()
        samples[name].append(time.perf_counter_ns() - began)

    def table(table_id: str) -> None:
        lobby.open_table(client, {"id": table_id, "form": "duel", "seats": 2, "status": "open", "created": time.time(),
                                  "players": [{"player": f"p{tag}", "name": "A", "school": None}], "game_id": None})
        lobby.change_table(client, table_id, lambda t: {**t, "status": "started", "game_id": table_id,
                                                        "players": t["players"] + [{"player": "q", "name": "B"}]})

    barrier.wait()
    began = time.perf_counter()
    for i in range(rounds):
        step("table", lambda: table(f"B{tag}n{i}"))
        step("name", lambda: accounts.claim_name(client, f"n{tag}n{i}", f"p{tag}n{i}"))
        step("live", lambda: presence.mark_live(client, f"g{tag}n{i % 50}"))
        if i % 10 == 0:
            step("list tables", lambda: lobby.open_tables(client))
            step("list live", lambda: presence.live(client, 50))
    wall = time.perf_counter() - began
    results.put((samples, wall))
    client.close()


def shared(writers: int, rounds: int) -> None:
    work = Path(tempfile.mkdtemp(prefix="arena-bench-shared-"))
    cluster = start_cluster(work / "cluster", masters=3, replicas=0, extra={"appendonly": "no"})
    try:
        masters = [n.client() for n in cluster.nodes]
        before = [int(m.info("stats")["total_commands_processed"]) for m in masters]
        ctx = mp.get_context("fork")
        barrier, results = ctx.Barrier(writers), ctx.Queue()
        procs = [ctx.Process(target=shared_writer, args=(cluster.nodes[0].port, i, rounds, barrier, results))
                 for i in range(writers)]
        for p in procs:
            p.start()
        outs = [results.get() for _ in procs]
        for p in procs:
            p.join()
        done = [int(m.info("stats")["total_commands_processed"]) - b for m, b in zip(masters, before)]
        print(f"{writers} writers x {rounds} rounds on a 3-master Cluster; {os.cpu_count()} cores shared")
        print(f"rounds/s {writers * rounds / max(wall for _, wall in outs):.0f}; busiest master's share of commands "
              f"{max(done) / sum(done):.2f} ({', '.join(str(d) for d in done)})")
        for name in STEPS:
            p50, p99 = percentiles([s for samples, _ in outs for s in samples[name]])
            print(f"  {name:<12} p50 {p50:>7.0f} µs   p99 {p99:>7.0f} µs")
    finally:
        cluster.stop()


def medians(rounds: list[dict[str, float]]) -> dict[str, float]:
    return {name: statistics.median(r[name] for r in rounds) for name in rounds[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="moves per writer per figure")
    parser.add_argument("--writers", default="1,8", help="writer process counts, comma-separated")
    parser.add_argument("--fsync", choices=("always", "everysec", "no"), default="always")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved repetitions of every setup")
    parser.add_argument("--shared", action="store_true", help="the lobby, account names and live games instead")
    args = parser.parse_args()
    if args.shared:
        shared(int(args.writers.split(",")[-1]), args.moves)
        return 0
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
        print(f"appendfsync {args.fsync}; {args.moves} moves per writer; medians of {args.rounds} interleaved rounds; "
              f"{os.cpu_count()} cores shared by Redis and the writers")
        print(f"{'setup':<30} {'writers':>7} {'moves/s':>9} {'p50 µs':>9} {'p99 µs':>9} {'append µs':>10} "
              f"{'PING µs':>8}")
        for writers in (int(w) for w in args.writers.split(",")):
            rounds: dict[str, list] = {name: [] for name, _, _ in setups}
            for _ in range(args.rounds):
                for name, target, wait in setups:
                    rounds[name].append(run(target, wait, writers, args.moves))
            figures = {name: medians(r) for name, r in rounds.items()}
            for name, f in figures.items():
                print(f"{name:<30} {writers:>7} {f['rate']:>9.0f} {f['p50']:>9.0f} {f['p99']:>9.0f} "
                      f"{f['append']:>10.0f} {f['ping']:>8.0f}")
            for base in ("single + replica", "cluster 3x(1+1)"):
                off, on = figures[f"{base}, WAIT off"], figures[f"{base}, WAIT 1"]
                print(f"  WAIT cost, {base:<17} bare append p50 +{on['append'] - off['append']:.0f} µs "
                      f"(x{on['append'] / off['append']:.2f}); move p50 x{on['p50'] / off['p50']:.2f}, "
                      f"p99 x{on['p99'] / off['p99']:.2f}, moves/s x{on['rate'] / off['rate']:.2f}")
            alone, spread = figures["single"], figures["cluster 3x(1+1), WAIT 1"]
            print(f"  cluster (WAIT 1) / single Redis: moves/s x{spread['rate'] / alone['rate']:.2f}, "
                  f"p50 x{spread['p50'] / alone['p50']:.2f}, p99 x{spread['p99'] / alone['p99']:.2f}")
    finally:
        for server in (single, replica, primary):
            server.stop()
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
