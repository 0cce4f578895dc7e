"""Engine timings: legal commands on crowded boards, whole random games, replay speed, the
primitives computer players search with (copying a position, applying a command, the commands a
bot weighs), and the search itself on fixed positions.

    python bench/engine.py [--games 20] [--search 12] [--only search] [--before REV]

`legal_commands` is timed cold on the committed positions of bench/data/crowded_positions.json
(bench/crowded_positions.py writes them: a seat holding six cards on a board of 32 pieces, in each
form): every call is timed once, with every memo of answers the engine has (MEMOS) emptied before
it, so no answer remembered from an earlier call counts. It and replay are timed side by side with
the engine as it was at `--before` (default: BEFORE, where issue 26's engine work began; `none`
skips it), loaded from git into this process as `engine_before`, in turns, and the ratios printed;
both engines must give the same commands and the same replayed states. (The old engine reads the
card data of this tree.)

Prints medians (and spreads) of wall-clock times measured in this process, then the figures
issues 12 and 26 hold the engine to, each beside its floor. Self-play is counted in CPU time of
this process (one core), so other load on the machine does not lower it.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import io
import json
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.ai import LEVELS, Knowledge  # noqa: E402
from engine.ai.match import level_player  # noqa: E402
from engine.ai.match import play_game as ai_game  # noqa: E402
from engine.ai.policy import playable  # noqa: E402
from engine.ai.search import search  # noqa: E402
from engine.decide import advance  # noqa: E402
from engine.selfplay import play_game  # noqa: E402
from engine.state import active_seat, clone  # noqa: E402

POSITIONS = ROOT / "bench" / "data" / "crowded_positions.json"
BEFORE = "aacc8a7"                   # main when issue 26's engine work began
MEMOS = (("patterns", "_fits_memo"),)  # (module, name) of the answer memos an engine has had
ROUNDS = 60                          # cold calls timed per position and engine


def _timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def load_before(rev: str) -> ModuleType:
    """The engine package as it was at `rev`, imported from a scratch directory as `engine_before`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "engine"], check=True, capture_output=True).stdout
    where = Path(tempfile.mkdtemp(prefix="engine-before-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(where)
    spec = importlib.util.spec_from_file_location("engine_before", where / "engine" / "__init__.py",
                                                  submodule_search_locations=[str(where / "engine")])
    assert spec is not None and spec.loader is not None
    module = sys.modules["engine_before"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def forget(eng: ModuleType) -> None:
    """Empty every memo of answers `eng` keeps, so that the next call is cold."""
    for name, memo in MEMOS:
        module = sys.modules.get(f"{eng.__name__}.{name}")
        if module is not None and hasattr(module, memo):
            getattr(module, memo).clear()


def crowded_positions() -> list[dict]:
    return json.loads(POSITIONS.read_text(encoding="utf-8"))


def side_by_side(engines: dict[str, ModuleType], call, cases: list, rounds: int) -> dict[str, list[list[float]]]:
    """Seconds of `call(eng, case)` for each engine, case and round, the engines taking turns
    (which goes first alternates), every call cold."""
    out: dict[str, list[list[float]]] = {name: [[] for _ in cases] for name in engines}
    order = list(engines.items())
    for r in range(rounds):
        for i, case in enumerate(cases):
            for name, eng in (order if (r + i) % 2 == 0 else order[::-1]):
                forget(eng)
                start = time.perf_counter()
                call(eng, case)
                out[name][i].append(time.perf_counter() - start)
    return out


def compare(title: str, timed: dict[str, list[list[float]]], unit: float, label: str) -> float:
    """Prints each engine's median over every call, and the ratio; returns the current engine's."""
    medians = {name: statistics.median(t for case in cases for t in case) for name, cases in timed.items()}
    for name, cases in timed.items():
        report(f"{title} [{name}]", [t for case in cases for t in case], unit, label)
    if "before" in medians:
        print(f"{title + ' before / after':<44} {medians['before'] / medians['after']:8.2f} x")
    return medians["after"]


def legal_side_by_side(engines: dict[str, ModuleType]) -> float:
    """`legal_commands` cold on every committed position, by form and in all; the median (ms)."""
    positions = crowded_positions()
    for p in positions:
        answers = {name: eng.legal_commands(p["state"], p["seat"]) for name, eng in engines.items()}
        assert all(a == answers["after"] for a in answers.values()), f"different commands at {p['seed']}"
    timed = side_by_side(engines, lambda eng, p: eng.legal_commands(p["state"], p["seat"]), positions, ROUNDS)
    sizes = sorted(len(engine.legal_commands(p["state"], p["seat"])) for p in positions)
    print(f"legal_commands, cold, on {len(positions)} positions (32 pieces, 6 cards; {sizes[0]}-{sizes[-1]} commands), "
          f"same answers from every engine")
    for form in sorted({(p["form"], p["players"]) for p in positions}):
        picked = [i for i, p in enumerate(positions) if (p["form"], p["players"]) == form]
        compare(f"  {form[0]} {form[1]}p", {n: [t[i] for i in picked] for n, t in timed.items()}, 1e3, "ms")
    return compare("  all positions", timed, 1e3, "ms")


def replay_side_by_side(engines: dict[str, ModuleType], games: list[list]) -> float:
    """Replay of whole games, per event (us); both engines fold every game to the same state."""
    for events in games:
        states = [eng.replay(events) for eng in engines.values()]
        assert all(s == states[0] for s in states), "the engines replay a game differently"
    timed = side_by_side(engines, lambda eng, events: eng.replay(events), games, 5)
    per_event = {name: [[t / len(events) for t in case] for case, events in zip(cases, games)]
                 for name, cases in timed.items()}
    print(f"replay of {len(games)} random games, {sum(map(len, games))} events, per event")
    return compare("  replay, per event", per_event, 1e6, "us")


def report(name: str, samples: list[float], unit: float = 1e3, label: str = "ms") -> None:
    samples = sorted(samples)
    p90 = samples[int(0.9 * (len(samples) - 1))]
    print(f"{name:<44} median {statistics.median(samples) * unit:8.3f} {label}   "
          f"min {samples[0] * unit:8.3f}   p90 {p90 * unit:8.3f}   (n={len(samples)})")


def search_primitives(engines: dict[str, ModuleType], state: dict, seat: int) -> None:
    """What one step of search costs on a crowded position: a copy, and every legal command
    applied the way search did before `advance` existed (decide, then fold the events on a copy)
    and with `advance` (decide's own scratch state handed back), side by side; then `decide` and
    `advance` of each engine side by side."""
    commands = [c for c in engine.legal_commands(state, seat) if c["type"] not in ("resign", "undo", "redo")]
    report("copy a position (clone)", _timed(lambda: clone(state), 300), 1e6, "us")
    report(f"commands a bot weighs (playable, {len(playable(state, seat))} cmds)",
           _timed(lambda: playable(state, seat), 300))
    before = _timed(lambda: [engine.replay(engine.decide(state, c), state) for c in commands], 5)
    after = _timed(lambda: [advance(state, c) for c in commands], 5)
    report(f"apply a command: decide + replay ({len(commands)} cmds)", [t / len(commands) for t in before])
    report(f"apply a command: advance ({len(commands)} cmds)", [t / len(commands) for t in after])
    print(f"{'advance speed-up over decide + replay':<44} {statistics.median(before) / statistics.median(after):8.2f} x")
    for name in ("decide", "advance"):
        timed = side_by_side(engines, lambda eng, c: getattr(sys.modules[f"{eng.__name__}.decide"], name)(state, c),
                             commands, 5)
        compare(f"{name} one command ({len(commands)} cmds)", timed, 1e3, "ms")


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
            ("legal_commands, 6 cards, 32 pieces, cold", legal_ms, 0.1, "ms (median)", legal_ms <= 0.1),
            ("replay, per event", replay_us, 0.5, "us (median)", replay_us <= 0.5),
            ("random self-play, duels per CPU second", duels_per_s, 30.0, "duels/s", duels_per_s >= 30)):
        print(f"{name:<44} {value:8.3f} {unit:<12} floor {floor:g}   {'ok' if ok else 'BELOW THE FLOOR'}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--search", type=int, default=12, help="positions of the search timing")
    parser.add_argument("--only", choices=["legal", "search", "replay"], help="time only this part")
    parser.add_argument("--before", default=BEFORE, help="git revision of the engine to time beside this one, or none")
    args = parser.parse_args()

    engines = {"after": engine} if args.before == "none" else {"before": load_before(args.before), "after": engine}
    legal_ms = legal_side_by_side(engines) * 1e3 if args.only in (None, "legal") else float("nan")
    if args.only in (None, "search"):
        duel = next(p for p in crowded_positions() if p["form"] == "duel")
        search_primitives(engines, duel["state"], duel["seat"])
        search_decisions(args.search)
    if args.only not in (None, "replay"):
        return

    replayed = []
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
            replayed.append(game.events)
        report(f"one random game, {form} {len(schools)}p", games)
    replay_us = replay_side_by_side(engines, replayed) * 1e6
    if args.only is None:
        floors(legal_ms, replay_us, len(duel_cpu) / sum(duel_cpu))


if __name__ == "__main__":
    main()
