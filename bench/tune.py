"""Tune the evaluation's weights (engine/ai/evaluate.py) by self-play.

    python bench/tune.py [--games 24] [--rounds 1] [--step 1.5] [--processes 2] [--seed tune]

Coordinate ascent on `Weights`: each weight in turn is multiplied and divided by `--step`; the
candidate plays the incumbent with the search's own move policy (engine/ai/policy.py, no noise, so
only the weights differ) in duels and High Form games (seats alternating) and in 3-player melees
(the candidate in one seat); every candidate meets the same seeds, so they are compared on the same
deals. A candidate replaces the incumbent when its mean advantage (win rate above 1/2 in the
two-sided forms, above 1/3 in melees) is at least `--margin`. Prints every trial and the weights
found; seeded, so a run repeats exactly.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import Level, play_as  # noqa: E402
from engine.ai.evaluate import DEFAULT, Weights  # noqa: E402
from engine.ai.match import play_game  # noqa: E402
from engine.ai.policy import Style  # noqa: E402
from engine.setup import SUPPORTED_SCHOOLS  # noqa: E402

FORMS = (("duel", 2, 1.0), ("high_form", 2, 1.0), ("melee", 3, 0.5))   # (form, seats, share of --games)


def _player(weights: Weights):
    level = Level(0, "tuned", "", Style(weights=weights))

    def player(state, knowledge, options, seed):
        return play_as(knowledge, options, level, seed)
    return player


def _game(job: tuple[str, int, int, str, Weights, Weights]) -> tuple[str, float]:
    """(form, the candidate's share of the win) of one game."""
    form, seats, number, seed, candidate, incumbent = job
    import random
    schools = random.Random(f"{seed}:{number}").sample(SUPPORTED_SCHOOLS, seats)
    players = [_player(incumbent)] * seats
    players[number % seats] = _player(candidate)
    played = play_game({"form": form, "seats": [{"school": s} for s in schools], "seed": f"{seed}:{number}"},
                       players, f"{seed}:{number}")
    winners = played.winning_sides()
    side = number % seats if form == "melee" else played.state["seats"][number % seats]["color"]
    return form, (1.0 / len(winners) if side in winners else 0.0)


def advantage(pool: Any, candidate: Weights, incumbent: Weights, games: int, seed: str) -> tuple[float, dict[str, float]]:
    jobs = [(form, seats, i, f"{seed}:{form}", candidate, incumbent)
            for form, seats, share in FORMS for i in range(max(seats, round(games * share)))]
    rates: dict[str, list[float]] = {}
    for form, won in pool.imap_unordered(_game, jobs):
        rates.setdefault(form, []).append(won)
    by_form = {form: sum(r) / len(r) for form, r in rates.items()}
    gains = [by_form[form] - 1.0 / seats for form, seats, _ in FORMS]
    return sum(gains) / len(gains), by_form


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=24, help="games per two-sided form per trial (melees: half)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--step", type=float, default=1.5)
    parser.add_argument("--margin", type=float, default=0.04)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", default="tune")
    args = parser.parse_args()
    best = DEFAULT
    started = time.time()
    with Pool(args.processes) as pool:
        for round_ in range(args.rounds):
            for field in dataclasses.fields(Weights):
                for factor in (args.step, 1 / args.step):
                    value = round(getattr(best, field.name) * factor, 3)
                    candidate = dataclasses.replace(best, **{field.name: value})
                    gain, by_form = advantage(pool, candidate, best, args.games, f"{args.seed}:{round_}")
                    kept = gain >= args.margin
                    print(f"round {round_} {field.name:<12} {value:8.3f}  advantage {gain:+.3f}  "
                          + "  ".join(f"{f} {r:.2f}" for f, r in by_form.items())
                          + f"  {'KEPT' if kept else ''}  ({time.time() - started:.0f} s)", flush=True)
                    if kept:
                        best = candidate
                        break
    print(f"\ntuned: {best}")
    print(f"tuning took {time.time() - started:.0f} s of wall time on {args.processes} processes")


if __name__ == "__main__":
    main()
