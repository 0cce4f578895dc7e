"""Games between computer levels, timed: what `arena bots` and bench/bots.py run, one game a call
(so a process pool plays them in parallel). Each game's record is written verifiable: the events
in hash-chained envelopes, as the store would have appended them (`arena verify` checks it).

A player is named by its level ("1".."5") or "random" (random play); bench/bots.py adds the old
greedy bot as a baseline.
"""
from __future__ import annotations

import random
import time
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

from engine.ai.match import Player, level_player, play_game
from engine.legal import legal_commands
from engine.selfplay import pick
from engine.setup import SUPPORTED_SCHOOLS
from events import SYSTEM
from events.envelope import format_time, utc_now
from events.hashchain import GENESIS
from events.record import build_record, write_record
from events.schemas import REGISTRY
from events.service import seal
from events.snapshots import FINGERPRINT

Job = tuple[str, list[str], int, str]           # (form, the player of each seat, the game's number, the seed)


def _random(state: Any, knowledge: Any, options: Any, seed: str) -> Any:
    return pick(random.Random(seed), [{**c, "seat": knowledge.seat} for c in legal_commands(state, knowledge.seat)])


def named(name: str, extra: dict[str, Player] | None = None) -> Player:
    if extra and name in extra:
        return extra[name]
    return _random if name == "random" else level_player(int(name))


def jobs(form: str, first: str, second: str, games: int, seed: str, seats: int = 2) -> list[Job]:
    """`games` games of `first` against `second` (the rest of the seats), seats alternating."""
    out = []
    for i in range(games):
        names = [second] * seats
        names[i % seats] = first
        out.append((form, names, i, f"{seed}:{form}:{first}:{second}"))
    return out


def play(job: Job, records: str | None = None, extra: dict[str, Player] | None = None) -> dict[str, Any]:
    """One game: the score of each player name, its CPU seconds per decision, and per name the
    summons, legends and flares of its seats, and its decisions where a flare was open."""
    form, names, number, seed = job
    rng = random.Random(f"{seed}:{number}")
    schools = rng.sample(SUPPORTED_SCHOOLS, len(names))
    cpu: dict[str, list[float]] = defaultdict(list)

    def timed(name: str) -> Player:
        inner = named(name, extra)

        def run(state: Any, knowledge: Any, options: Any, s: str) -> Any:
            start = time.process_time()
            command = inner(state, knowledge, options, s)
            cpu[name].append(time.process_time() - start)
            return command
        return run
    game_id = f"bots-{zlib.crc32(seed.encode()):08x}-{number}"
    played = play_game({"form": form, "seats": [{"school": s} for s in schools], "seed": f"{seed}:{number}"},
                       [timed(n) for n in names], f"{seed}:{number}")
    winners = played.winning_sides()
    state = played.state
    score = {n: 0.0 for n in names}
    counts: dict[str, list[int]] = {n: [0, 0, 0, 0] for n in names}
    for seat, name in enumerate(names):
        side = seat if form == "melee" else state["seats"][seat]["color"]
        if side in winners:
            score[name] += 1.0 / len(winners)
        for i, counter in enumerate((played.summons, played.legends, played.flares, played.flare_chances)):
            counts[name][i] += counter[seat]
    if records:
        _write(Path(records), game_id, played.events, state)
    return {"names": names, "score": score, "cpu": dict(cpu), "counts": counts, "illegal": played.illegal,
            "finished": state["phase"] == "over", "draw": len(winners) != 1}


def _write(directory: Path, game_id: str, events: list[Any], state: Any) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    envelopes = seal(game_id, 0, GENESIS, events, events[0]["seed"], SYSTEM, format_time(utc_now()), REGISTRY)
    write_record(build_record(game_id, envelopes, state, engine=FINGERPRINT), str(directory / f"{game_id}.json"))


def quantile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def summary(results: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    """The one JSON line of `arena bots`."""
    cpu: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for name, samples in r["cpu"].items():
            cpu[name].extend(samples)
    games = len(results)
    return {"games": games,
            "wins": {n: sum(1 for r in results if not r["draw"] and r["score"].get(n, 0) == 1) for n in names},
            "draws": sum(1 for r in results if r["draw"]),
            "illegal": sum(r["illegal"] for r in results),
            "cpu_per_decision": {n: {"median": round(quantile(cpu[n], 0.5), 4), "p99": round(quantile(cpu[n], 0.99), 4)}
                                 for n in names},
            "summons_per_game": {n: round(sum(r["counts"][n][0] for r in results) / max(1, games), 2) for n in names}}

