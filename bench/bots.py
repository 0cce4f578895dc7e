"""The computer players' ladder: each level against the one below it, the beginner against random
play, the strongest against the old one-step greedy bot (bench/greedy.py, which reads the true
state) in duels, High Form and 3-player melees.

    python bench/bots.py [--games 20] [--top-games 20] [--melee-games 20] [--processes 2] [--seed 1]
                         [--only ladder,greedy,melee] [--records DIR] [--results FILE] [--stop-after MIN]
    python bench/bots.py --report FILE          # the same tables from the results of a run

The pairings' games are taken in turn, in proportion to their counts, so a ladder stopped early
(--stop-after) has played the same share of each. Prints, per pairing, the win rate of the higher level with its 95% (Wilson) interval, then an
Elo-like table chained from those rates, the CPU seconds per decision of each player (median and
p99, one core), simulations per CPU second, per player the mean summons, legends and flares per
game, per pairing the JSON line `arena bots` prints for the same games, and the wall time. Seats alternate; schools rotate over every school.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from multiprocessing import Pool, TimeoutError
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import LEVELS  # noqa: E402
from workers import ladder  # noqa: E402

from greedy import choose as greedy_choose  # noqa: E402

TARGETS = {"ladder": 0.65, "beginner": 0.60, "greedy": 0.95, "melee": 0.70}


def _greedy(state, knowledge, options, seed):
    return greedy_choose(state, knowledge.seat, random.Random(seed))


def _game(task: tuple[str, ladder.Job, str | None]) -> dict[str, Any]:
    label, job, records = task
    return {"label": label, **ladder.play(job, records=records, extra={"greedy": _greedy})}


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _label(name: str) -> str:
    return LEVELS[int(name)].name if name.isdigit() else name


Pairing = tuple[str, str, str, str, int, int]       # (label, form, top, bottom, games, seats)


def pairings(wanted: set[str], games: int, top_games: int, melee_games: int) -> list[Pairing]:
    levels = [str(n) for n in sorted(LEVELS)]
    out: list[Pairing] = []
    if "ladder" in wanted:
        out.append(("beginner vs random", "duel", levels[0], "random", games, 2))
        out += [(f"{_label(high)} vs {_label(low)}", "duel", high, low, games, 2) for low, high in zip(levels, levels[1:])]
    top = levels[-1]
    if "greedy" in wanted:
        out += [("strongest vs greedy, duel", "duel", top, "greedy", top_games, 2),
                ("strongest vs greedy, High Form", "high_form", top, "greedy", top_games, 2)]
    if "melee" in wanted:
        out.append(("strongest vs 2 greedy, melee 3", "melee", top, "greedy", melee_games, 3))
    return out


def interleaved(chosen: list[Pairing], seed: str, records: str | None) -> list[tuple[str, ladder.Job, str | None]]:
    """Every pairing's games, taken in turn from each in proportion to its count, so a ladder stopped
    early has played the same share of each."""
    keyed = [((i + 0.5) / n, order, (label, job, records))
             for order, (label, form, top, bottom, n, seats) in enumerate(chosen)
             for i, job in enumerate(ladder.jobs(form, top, bottom, n, seed, seats))]
    return [task for _, _, task in sorted(keyed, key=lambda k: k[:2])]


def run(tasks: list[tuple[str, ladder.Job, str | None]], processes: int, stop_at: float | None,
        results_file: str | None) -> list[dict[str, Any]]:
    """Play the games; each result is kept (and appended to `results_file`) as it ends. At `stop_at`
    (seconds since the epoch) the games still in play are abandoned and the ladder reports the rest."""
    started = time.time()
    results: list[dict[str, Any]] = []
    out = open(results_file, "a") if results_file else None
    pool = Pool(processes)
    played = pool.imap_unordered(_game, tasks, chunksize=1)
    try:
        while True:
            try:
                result = played.next(None if stop_at is None else max(0.0, stop_at - time.time()))
            except StopIteration:
                break
            except TimeoutError:
                print("  stopped at the given time; games in play are left out", file=sys.stderr)
                break
            results.append(result)
            if out:
                out.write(json.dumps(result, sort_keys=True) + "\n")
                out.flush()
            print(f"  {result['label']}: {result['score']} ({time.time() - started:.0f} s)", file=sys.stderr, flush=True)
    finally:
        pool.terminate()
        if out:
            out.close()
    return results


def report(chosen: list[Pairing], results: list[dict[str, Any]]) -> None:
    """The ladder's tables from the games' results."""
    by_label: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for result in results:
        by_label[result["label"]].append(result)
    print(f"{'pairing':<34} {'games':>5} {'win rate':>9}   95% interval    target")
    elo = {"random": 0.0}
    lines = []
    for label, form, top, bottom, n, seats in chosen:
        rows = by_label[label]
        wins = sum(r["score"][top] for r in rows)
        low, high = wilson(wins, len(rows))
        target = TARGETS["beginner" if bottom == "random" else "melee" if seats == 3
                         else "greedy" if bottom == "greedy" else "ladder"]
        rate = wins / max(1, len(rows))
        print(f"{label:<34} {len(rows):>5} {rate:>8.1%}   [{low:5.1%}, {high:5.1%}]   {target:.0%} "
              f"{'met' if rate >= target else 'MISSED'}")
        lines.append(f"{label}: {json.dumps(ladder.summary(rows, [top, bottom]), sort_keys=True)}")
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
          f"{'summons':>8} {'legends':>8} {'flares':>7} {'open':>6}  (per game; open: decisions with a flare open)")
    for name in sorted(cpu, key=lambda n: (not n.isdigit(), n)):
        samples = cpu[name]
        budget = LEVELS[int(name)].budget if name.isdigit() else None
        sims = f"{budget.simulations / statistics.median(samples):8.0f}" if budget else f"{'-':>8}"
        means = [sum(g[i] for g in counts[name] if len(g) > i) / len(counts[name]) for i in range(4)]
        print(f"{_label(name):<10} {len(samples):>9} {ladder.quantile(samples, 0.5):>10.3f}s "
              f"{ladder.quantile(samples, 0.99):>8.3f}s {sims} {means[0]:>8.1f} {means[1]:>8.2f} {means[2]:>7.2f} {means[3]:>6.1f}")
    illegal = sum(r["illegal"] for r in results)
    unfinished = sum(1 for r in results if not r["finished"])
    print(f"\nillegal commands: {illegal}; unfinished games: {unfinished}")
    print("\nper pairing, the line `arena bots` prints for the same games:")
    for line in lines:
        print(f"  {line}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20, help="games per pairing of neighbouring levels")
    parser.add_argument("--top-games", type=int, default=20, help="games of the strongest level against the greedy bot, per two-sided form")
    parser.add_argument("--melee-games", type=int, default=20, help="3-player melees of the strongest level against two greedy bots")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--only", default="ladder,greedy,melee", help="comma-separated parts to run: ladder, greedy, melee")
    parser.add_argument("--records", help="directory to write every game's verifiable record to")
    parser.add_argument("--results", help="file to append every game's result to, one JSON line each")
    parser.add_argument("--report", help="print the ladder from a --results file instead of playing")
    parser.add_argument("--stop-after", type=float, help="minutes after which the games in play are left out")
    args = parser.parse_args()
    chosen = pairings(set(args.only.split(",")), args.games, args.top_games, args.melee_games)
    started = time.time()
    if args.report:
        with open(args.report) as f:
            results = [json.loads(line) for line in f if line.strip()]
    else:
        stop_at = started + 60 * args.stop_after if args.stop_after else None
        results = run(interleaved(chosen, args.seed, args.records), args.processes, stop_at, args.results)
    report(chosen, results)
    if not args.report:
        print(f"\nthe ladder took {time.time() - started:.0f} s of wall time on {args.processes} processes")


if __name__ == "__main__":
    main()
