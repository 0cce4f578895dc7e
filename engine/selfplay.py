"""Random legal self-play: the engine playing itself, to find crashes and stuck games.

    python -m engine.selfplay --games 200 --form duel --seed 1
    python -m engine.selfplay --games 50 --form melee --players 4
    python -m engine.selfplay --games 50 --form high_form --teams

Each turn the random player picks a kind of command first (place, summon, discard, flare, an
answer...) and then one command of that kind, so summons and flares happen as often as places.
"""
from __future__ import annotations

from typing import Any

import argparse
import random
from collections import Counter
from dataclasses import dataclass, field

from .cards import BASE_SCHOOLS
from .decide import decide
from .evolve import replay
from .legal import legal_commands
from .setup import new_game
from .shapes import Command, GameEvent
from .state import State, active_seat, color_of, current_turn
from .vocabulary import FORMS, STEP_COMMANDS

MAX_COMMANDS = 5000


@dataclass
class GameOutcome:
    finished: bool
    turns: int
    commands: int
    winners: list[int]
    error: str | None
    state: State = field(repr=False)
    events: list[GameEvent] = field(repr=False)


def pick(rng: random.Random, commands: list[Command]) -> Command:
    by_type: dict[str, list[Command]] = {}
    for c in commands:
        if c["type"] != "resign" and c["type"] not in STEP_COMMANDS:
            by_type.setdefault(c["type"], []).append(c)
    kind = rng.choice(sorted(by_type))
    return rng.choice(by_type[kind])


def schools_for(rng: random.Random, players: int) -> list[str]:
    return rng.sample(list(BASE_SCHOOLS), players)


def play_game(form: str, schools: list[str], seed: str, teams: bool = False) -> GameOutcome:
    rng = random.Random(f"policy:{seed}")
    events = new_game({"form": form, "seats": [{"school": s} for s in schools], "seed": seed, "teams": teams})
    state = replay(events)
    commands = 0
    try:
        while state["phase"] != "over" and commands < MAX_COMMANDS:
            seat = active_seat(state)
            assert seat is not None, "a game in play waits for a seat"
            command = pick(rng, legal_commands(state, seat))
            new = decide(state, command)
            events.extend(new)
            state = replay(new, state)
            commands += 1
    except Exception as exc:  # noqa: BLE001 - self-play reports every failure as data
        return GameOutcome(False, _turns(state), commands, [], f"{type(exc).__name__}: {exc}", state, events)
    finished = state["phase"] == "over"
    result = state["result"]
    winners = result["winners"] if finished and result else []
    return GameOutcome(finished, _turns(state), commands, winners, None if finished else "did not end", state, events)


def _turns(state: State) -> int:
    return current_turn(state)["number"] if state.get("turn") else 0


def winning_side(outcome: GameOutcome) -> int | None:
    """The first seat of the one side (a player, or a team) that won; None when shared or unfinished."""
    sides = {color_of(outcome.state, w) for w in outcome.winners}
    return min(outcome.winners) if len(sides) == 1 else None


def run(games: int, form: str, players: int, seed: int, teams: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    outcomes = []
    for i in range(games):
        outcomes.append(play_game(form, schools_for(rng, players), f"{seed}-{i}", teams))
    wins: Counter[Any] = Counter(side for o in outcomes if (side := winning_side(o)) is not None)
    done = [o for o in outcomes if o.finished]
    label = form if form != "melee" else f"melee-{players}"
    return {
        "form": f"{label}-teams" if teams else label, "games": games, "finished": len(done),
        "mean_turns": sum(o.turns for o in done) / max(1, len(done)),
        "mean_commands": sum(o.commands for o in done) / max(1, len(done)),
        "wins_per_seat": dict(sorted(wins.items())), "ties": sum(1 for o in done if winning_side(o) is None),
        "errors": [o.error for o in outcomes if o.error],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--form", choices=FORMS, default="duel")
    parser.add_argument("--players", type=int, default=None, help="3 or 4 for a melee")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--teams", action="store_true", help="2 vs 2 team play (High Form or duel)")
    args = parser.parse_args(argv)
    players = args.players or (3 if args.form == "melee" else 4 if args.teams else 2)
    report = run(args.games, args.form, players, args.seed, args.teams)
    print(f"{report['form']}: {report['finished']}/{report['games']} games finished, "
          f"mean turns {report['mean_turns']:.1f}, mean commands {report['mean_commands']:.1f}, "
          f"wins per seat {report['wins_per_seat']}, ties {report['ties']}, errors {len(report['errors'])}")
    for error in report["errors"][:10]:
        print("  error:", error)
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
