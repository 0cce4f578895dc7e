"""The computer players' ladder: each level against the one below it, the beginner against random
play, the strongest against the old one-step greedy bot (workers/bots.py, which reads the true
state) in duels, High Form and 3-player melees.

    python bench/bots.py [--games 20] [--top-games 20] [--processes 2] [--seed 1] [--only duel]

Prints, per pairing, the win rate of the higher level with its 95% (Wilson) interval, then an
Elo-like table chained from those rates, the CPU seconds per decision of each level (median and
p99, one core), simulations per CPU second, and per level the mean summons, legends and flares per
game, and the wall time the ladder took. Seats alternate; schools rotate over every school.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
import zlib
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import LEVELS  # noqa: E402
from engine.ai.match import level_player, play_game  # noqa: E402
from engine.legal import legal_commands  # noqa: E402
from engine.selfplay import pick  # noqa: E402
from engine.setup import SUPPORTED_SCHOOLS  # noqa: E402

TARGETS = {"ladder": 0.65, "beginner": 0.60, "greedy": 0.95, "melee": 0.70}


def _random(state, knowledge, options, seed):
    return pick(random.Random(seed), [{**c, "seat": knowledge.seat} for c in legal_commands(state, knowledge.seat)])


def _greedy(state, knowledge, options, seed):
    from workers.bots import choose
    return choose(state, knowledge.seat, random.Random(seed))


def player(name: str):
    if name == "random":
        return _random
    if name == "greedy":
        return _greedy
    return level_player(int(name))


def _game(job: tuple[str, list[str], int, int]) -> dict[str, Any]:
    """One game: (form, the names by seat, the game's number, the ladder seed) -> what was measured."""
    form, names, number, seed = job
    rng = random.Random(f"{seed}:{number}")
    schools = rng.sample(SUPPORTED_SCHOOLS, len(names))
    cpu: dict[str, list[float]] = defaultdict(list)

    def timed(name: str):
        inner = player(name)

        def run(state, knowledge, options, s):
            start = time.process_time()
            command = inner(state, knowledge, options, s)
            cpu[name].append(time.process_time() - start)
            return command
        return run
    played = play_game({"form": form, "seats": [{"school": s} for s in schools], "seed": f"ladder-{seed}-{number}"},
                       [timed(n) for n in names], f"{seed}:{number}")
    winners = played.winning_sides()
    state = played.state
    side = (lambda seat: state["seats"][seat]["color"]) if form != "melee" else (lambda seat: seat)
    score = {n: 0.0 for n in names}
    for seat, n in enumerate(names):
        if side(seat) in winners:
            score[n] += 1.0 / len(winners)
    per = defaultdict(lambda: [0, 0, 0])
    for seat, n in enumerate(names):
        per[n][0] += played.summons[seat]
        per[n][1] += played.legends[seat]
        per[n][2] += played.flares[seat]
    return {"names": names, "score": score, "cpu": dict(cpu), "per": dict(per), "illegal": played.illegal,
            "finished": state["phase"] == "over"}


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pairing_jobs(form: str, top: str, bottom: str, games: int, seed: int, seats: int = 2) -> list[tuple[str, list[str], int, int]]:
    jobs = []
    for i in range(games):
        names = [bottom] * seats
        names[i % seats] = top
        jobs.append((form, names, zlib.crc32(f"{form}:{top}:{bottom}".encode()) % 10_000 * 1000 + i, seed))
    return jobs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20, help="games per pairing of neighbouring levels")
    parser.add_argument("--top-games", type=int, default=20, help="games of the strongest level against the greedy bot, per form")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated pairings to run: ladder,greedy")
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else {"ladder", "greedy"}
    levels = sorted(LEVELS)
    pairings: list[tuple[str, str, str, str, int, int]] = []     # (label, form, top, bottom, games, seats)
    if "ladder" in wanted:
        pairings.append(("beginner vs random", "duel", str(levels[0]), "random", args.games, 2))
        for low, high in zip(levels, levels[1:]):
            pairings.append((f"{LEVELS[high].name} vs {LEVELS[low].name}", "duel", str(high), str(low), args.games, 2))
    if "greedy" in wanted:
        top = str(levels[-1])
        pairings += [("strongest vs greedy, duel", "duel", top, "greedy", args.top_games, 2),
                     ("strongest vs greedy, High Form", "high_form", top, "greedy", args.top_games, 2),
                     ("strongest vs 2 greedy, melee 3", "melee", top, "greedy", args.top_games, 3)]
    started = time.time()
    jobs = [(label, job) for label, form, top, bottom, n, seats in pairings
            for job in pairing_jobs(form, top, bottom, n, args.seed, seats)]
    with Pool(args.processes) as pool:
        results = pool.map(_game, [job for _, job in jobs], chunksize=1)
    by_label: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (label, _), result in zip(jobs, results):
        by_label[label].append(result)
    cpu: dict[str, list[float]] = defaultdict(list)
    per: dict[str, list[list[int]]] = defaultdict(list)
    illegal = 0
    print(f"{'pairing':<34} {'games':>5} {'win rate':>9}   95% interval    target")
    elo = {"random": 0.0}
    for label, form, top, bottom, n, seats in pairings:
        rows = by_label[label]
        wins = sum(r["score"][top] for r in rows)
        low, high = wilson(wins, len(rows))
        target = TARGETS["beginner" if bottom == "random" else "greedy" if seats == 2 and bottom == "greedy"
                         else "melee" if seats == 3 else "ladder"]
        rate = wins / max(1, len(rows))
        print(f"{label:<34} {len(rows):>5} {rate:>8.1%}   [{low:5.1%}, {high:5.1%}]   {target:.0%} {'ok' if rate >= target else 'MISSED'}")
        if form == "duel" and bottom in elo and top not in elo:
            clipped = min(max(rate, 0.5 / len(rows)), 1 - 0.5 / len(rows))
            elo[top] = elo[bottom] + 400 * math.log10(clipped / (1 - clipped))
        for r in rows:
            illegal += r["illegal"]
            for name, samples in r["cpu"].items():
                cpu[name].extend(samples)
            for name, counts in r["per"].items():
                per[name].append(counts)
    print("\nElo-like ladder (random = 0, chained from the duel pairings):")
    for name, value in sorted(elo.items(), key=lambda kv: kv[1]):
        print(f"  {LEVELS[int(name)].name if name.isdigit() else name:<10} {value:7.0f}")
    print(f"\n{'player':<10} {'decisions':>9} {'cpu median':>11} {'cpu p99':>9} {'sims/s':>8} {'summons':>8} {'legends':>8} {'flares':>7}  (per game)")
    for name in sorted(cpu, key=lambda n: (not n.isdigit(), n)):
        samples = sorted(cpu[name])
        p99 = samples[min(len(samples) - 1, int(0.99 * len(samples)))]
        budget = LEVELS[int(name)].budget if name.isdigit() else None
        sims = f"{budget.simulations / statistics.median(samples):8.0f}" if budget else f"{'-':>8}"
        games = per[name]
        means = [sum(g[i] for g in games) / len(games) for i in range(3)]
        label = LEVELS[int(name)].name if name.isdigit() else name
        print(f"{label:<10} {len(samples):>9} {statistics.median(samples):>10.3f}s {p99:>8.3f}s {sims} "
              f"{means[0]:>8.1f} {means[1]:>8.2f} {means[2]:>7.2f}")
    unfinished = sum(1 for rows in by_label.values() for r in rows if not r["finished"])
    print(f"\nillegal commands: {illegal}; unfinished games: {unfinished}")
    print(f"the ladder took {time.time() - started:.0f} s of wall time on {args.processes} processes")


if __name__ == "__main__":
    main()
