"""The computer players' ladder: each level against the one below it, the beginner against random
play, the strongest against the old one-step greedy bot (bench/greedy.py, which reads the true
state) in duels, High Form and 3-player melees.

    python bench/bots.py [--games 20] [--top-games 20] [--processes 2] [--seed 1] [--only ladder,greedy]

Prints, per pairing, the win rate of the higher level with its 95% (Wilson) interval, then an
Elo-like table chained from those rates, the CPU seconds per decision of each player (median and
p99, one core), simulations per CPU second, per player the mean summons, legends and flares per
game, and the wall time the ladder took. Seats alternate; schools rotate over every school.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import LEVELS  # noqa: E402
from workers import ladder  # noqa: E402

from greedy import choose as greedy_choose  # noqa: E402

TARGETS = {"ladder": 0.65, "beginner": 0.60, "greedy": 0.95, "melee": 0.70}


def _greedy(state, knowledge, options, seed):
    return greedy_choose(state, knowledge.seat, random.Random(seed))


def _game(job: ladder.Job) -> dict[str, Any]:
    return ladder.play(job, extra={"greedy": _greedy})


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _label(name: str) -> str:
    return LEVELS[int(name)].name if name.isdigit() else name


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20, help="games per pairing of neighbouring levels")
    parser.add_argument("--top-games", type=int, default=20, help="games of the strongest level against the greedy bot, per form")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--only", default="ladder,greedy", help="comma-separated parts to run: ladder, greedy")
    args = parser.parse_args()
    wanted = set(args.only.split(","))
    levels = [str(n) for n in sorted(LEVELS)]
    pairings: list[tuple[str, str, str, str, int, int]] = []     # (label, form, top, bottom, games, seats)
    if "ladder" in wanted:
        pairings.append(("beginner vs random", "duel", levels[0], "random", args.games, 2))
        for low, high in zip(levels, levels[1:]):
            pairings.append((f"{_label(high)} vs {_label(low)}", "duel", high, low, args.games, 2))
    if "greedy" in wanted:
        top = levels[-1]
        pairings += [("strongest vs greedy, duel", "duel", top, "greedy", args.top_games, 2),
                     ("strongest vs greedy, High Form", "high_form", top, "greedy", args.top_games, 2),
                     ("strongest vs 2 greedy, melee 3", "melee", top, "greedy", args.top_games, 3)]
    started = time.time()
    jobs = [(label, job) for label, form, top, bottom, n, seats in pairings
            for job in ladder.jobs(form, top, bottom, n, args.seed, seats)]
    results = []
    with Pool(args.processes) as pool:                    # each game as it ends, for a ladder stopped early
        for (label, _), result in zip(jobs, pool.imap(_game, [job for _, job in jobs], chunksize=1)):
            results.append(result)
            print(f"  {label}: {result['score']} ({time.time() - started:.0f} s)", file=sys.stderr, flush=True)
    by_label: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (label, _), result in zip(jobs, results):
        by_label[label].append(result)
    print(f"{'pairing':<34} {'games':>5} {'win rate':>9}   95% interval    target")
    elo = {"random": 0.0}
    for label, form, top, bottom, n, seats in pairings:
        rows = by_label[label]
        wins = sum(r["score"][top] for r in rows)
        low, high = wilson(wins, len(rows))
        target = TARGETS["beginner" if bottom == "random" else "melee" if seats == 3
                         else "greedy" if bottom == "greedy" else "ladder"]
        rate = wins / max(1, len(rows))
        print(f"{label:<34} {len(rows):>5} {rate:>8.1%}   [{low:5.1%}, {high:5.1%}]   {target:.0%} "
              f"{'met' if rate >= target else 'MISSED'}")
        if form == "duel" and bottom in elo and top not in elo and rows:
            clipped = min(max(rate, 0.5 / len(rows)), 1 - 0.5 / len(rows))
            elo[top] = elo[bottom] + 400 * math.log10(clipped / (1 - clipped))
    print("\nElo-like ladder (random play = 0, chained from the duel pairings):")
    for name, value in sorted(elo.items(), key=lambda kv: kv[1]):
        print(f"  {_label(name):<10} {value:7.0f}")
    cpu: dict[str, list[float]] = defaultdict(list)
    counts: dict[str, list[list[int]]] = defaultdict(list)
    for r in results:
        for name, samples in r["cpu"].items():
            cpu[name].extend(samples)
        for name, c in r["counts"].items():
            counts[name].append(c)
    print(f"\n{'player':<10} {'decisions':>9} {'cpu median':>11} {'cpu p99':>9} {'sims/s':>8} "
          f"{'summons':>8} {'legends':>8} {'flares':>7}  (per game)")
    for name in sorted(cpu, key=lambda n: (not n.isdigit(), n)):
        samples = cpu[name]
        budget = LEVELS[int(name)].budget if name.isdigit() else None
        sims = f"{budget.simulations / statistics.median(samples):8.0f}" if budget else f"{'-':>8}"
        means = [sum(g[i] for g in counts[name]) / len(counts[name]) for i in range(3)]
        print(f"{_label(name):<10} {len(samples):>9} {ladder.quantile(samples, 0.5):>10.3f}s "
              f"{ladder.quantile(samples, 0.99):>8.3f}s {sims} {means[0]:>8.1f} {means[1]:>8.2f} {means[2]:>7.2f}")
    illegal = sum(r["illegal"] for r in results)
    unfinished = sum(1 for r in results if not r["finished"])
    print(f"\nillegal commands: {illegal}; unfinished games: {unfinished}")
    print(f"the ladder took {time.time() - started:.0f} s of wall time on {args.processes} processes")


if __name__ == "__main__":
    main()
