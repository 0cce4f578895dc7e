"""Engine timings: legal commands on a crowded board, whole random games, replay speed, the
primitives computer players search with (copying a position, applying a command, the commands a
bot weighs), and the search itself on fixed positions.

    python bench/engine.py [--games 20] [--search 12] [--only search]

Prints medians (and spreads) of wall-clock times measured in this process, then the three figures
issue 12 holds the engine to, each beside its floor. Self-play is counted in CPU time of this
process (one core), so other load on the machine does not lower it.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.ai import LEVELS, Knowledge  # noqa: E402
from engine.ai.match import level_player  # noqa: E402
from engine.ai.match import play_game as ai_game  # noqa: E402
from engine.ai.policy import playable  # noqa: E402
from engine.ai.search import search  # noqa: E402
from engine.decide import advance  # noqa: E402
from engine.selfplay import play_game  # noqa: E402
from engine.state import clone  # noqa: E402
from engine.state import active_seat  # noqa: E402


def _timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def crowded_position() -> tuple[dict, int]:
    """A mid-game state from self-play: the most crowded board where the mover holds six cards."""
    best = None
    for i in range(20):
        game = play_game("duel", ["northern", "highland"], f"crowd-{i}")
        state = engine.replay(game.events[:1])
        for event in game.events[1:]:
            engine.apply(state, event)
            seat = active_seat(state)
            if state["phase"] == "play" and not state["pending"] and state["turn"]["actions"] > 0 \
                    and len(state["hands"][seat]) == 6 and (best is None or len(state["board"]) > len(best[0]["board"])):
                best = (engine.replay([], state), seat)
    return best


def report(name: str, samples: list[float], unit: float = 1e3, label: str = "ms") -> None:
    samples = sorted(samples)
    p90 = samples[int(0.9 * (len(samples) - 1))]
    print(f"{name:<44} median {statistics.median(samples) * unit:8.3f} {label}   "
          f"min {samples[0] * unit:8.3f}   p90 {p90 * unit:8.3f}   (n={len(samples)})")


def search_primitives(state: dict, seat: int) -> None:
    """What one step of search costs on the crowded position: a copy, and every legal command
    applied the way search did before `advance` existed (decide, then fold the events on a copy)
    and with `advance` (decide's own scratch state handed back), side by side."""
    commands = [c for c in engine.legal_commands(state, seat) if c["type"] not in ("resign", "undo", "redo")]
    report("copy a position (clone)", _timed(lambda: clone(state), 300), 1e6, "us")
    report(f"commands a bot weighs (playable, {len(playable(state, seat))} cmds)",
           _timed(lambda: playable(state, seat), 300))
    before = _timed(lambda: [engine.replay(engine.decide(state, c), state) for c in commands], 5)
    after = _timed(lambda: [advance(state, c) for c in commands], 5)
    report(f"apply a command: decide + replay ({len(commands)} cmds)", [t / len(commands) for t in before])
    report(f"apply a command: advance ({len(commands)} cmds)", [t / len(commands) for t in after])
    print(f"{'advance speed-up over decide + replay':<44} {statistics.median(before) / statistics.median(after):8.2f} x")


def search_decisions(count: int) -> None:
    """CPU seconds per search decision (club level, 16 simulations) on `count` fixed positions of
    two casual-level duels, simulations per CPU second, and a digest of the commands chosen: equal
    digests before and after a change to the engine mean the change kept every choice."""
    positions = []
    for i in range(2):
        played = ai_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": f"s-{i}"},
                         [level_player(2)] * 2, f"s-{i}")
        for n in range(1, len(played.events)):
            state = engine.replay(played.events[:n])
            seat = active_seat(state)
            if state["phase"] == "play" and not state["pending"] and seat is not None and state["turn"]["actions"] > 0 \
                    and played.events[n - 1]["type"] != "CommandAccepted":
                positions.append((played.events[:n], seat))
    step = max(1, len(positions) // count)
    cpu, sims, chosen = [], 0, []
    for events, seat in positions[::step][:count]:
        knowledge = Knowledge(seat).observe(engine.redact(e, seat) for e in events)
        start = time.process_time()
        command, done = search(knowledge, random.Random(len(events)), LEVELS[3].budget)
        cpu.append(time.process_time() - start)
        sims += done
        chosen.append(json.dumps(command, sort_keys=True))
    report(f"search decision, 16 simulations ({len(cpu)} positions)", cpu, 1e3)
    print(f"{'simulations per CPU second':<44} {sims / sum(cpu):8.1f}   commands digest "
          f"{hashlib.sha256('|'.join(chosen).encode()).hexdigest()[:12]}")


def floors(legal_ms: float, replay_us: float, duels_per_s: float) -> None:
    print()
    for name, value, floor, unit, ok in (
            ("legal_commands, 6 cards, crowded board", legal_ms, 0.25, "ms (median)", legal_ms <= 0.25),
            ("replay, per event", replay_us, 1.0, "us (median)", replay_us <= 1.0),
            ("random self-play, duels per CPU second", duels_per_s, 30.0, "duels/s", duels_per_s >= 30)):
        print(f"{name:<44} {value:8.3f} {unit:<12} floor {floor:g}   {'ok' if ok else 'BELOW THE FLOOR'}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--search", type=int, default=12, help="positions of the search timing")
    parser.add_argument("--only", choices=["search"], help="time only the search primitives and decisions")
    args = parser.parse_args()

    state, seat = crowded_position()
    n = len(engine.legal_commands(state, seat))
    legal = _timed(lambda: engine.legal_commands(state, seat), 300)
    report(f"legal_commands ({len(state['board'])} pieces, 6 cards, {n} cmds)", legal)
    search_primitives(state, seat)
    search_decisions(args.search)
    if args.only == "search":
        return

    events_total = 0
    replay_samples = []
    duel_cpu = []
    for form, schools in (("high_form", ["northern", "sylvan"]), ("duel", ["highland", "sylvan"]),
                          ("melee", ["northern", "sylvan", "highland"]),
                          ("melee", ["northern", "sylvan", "highland", "southern"])):
        games = []
        for i in range(args.games):
            start, cpu = time.perf_counter(), time.process_time()
            game = play_game(form, schools, f"bench-{i}")
            games.append(time.perf_counter() - start)
            if form == "duel":
                duel_cpu.append(time.process_time() - cpu)
            events = game.events
            events_total += len(events)
            replay_samples.extend(t * 100 / len(events) for t in _timed(lambda: engine.replay(events), 3))
        report(f"one random game, {form} {len(schools)}p", games)
    report("replay per 100 events", replay_samples)
    floors(statistics.median(legal) * 1e3, statistics.median(replay_samples) * 1e4, len(duel_cpu) / sum(duel_cpu))


if __name__ == "__main__":
    main()
