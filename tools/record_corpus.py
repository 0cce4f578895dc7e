"""Record the recorded-games corpus (tests/data/corpus/) that guards the rules against change.

Why: a rules engine is changed for years by people who did not write it; every stored game must
decide the same after a change. Each record here is a whole game played by the engine itself
(random legal play), written with its options (or starting position) so tests/engine/test_corpus.py
can make it again from nothing and decide every move again. The plan covers every form, every
school, 2 vs 2 teams, timeouts and abandoned seats played by autoplay, drafted and random schools,
school bans and mutual selection, a resignation and games started from a position; every record
stays under 100 KB.

    python tools/record_corpus.py            # rewrites tests/data/corpus/*.json
    python tools/record_corpus.py NAME...    # records only the plans named (a plan added), keeps the rest

Re-record only for a deliberate rules change, in the same commit, and say why in its message.
"""
from __future__ import annotations

import itertools
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.audit import state_digest  # noqa: E402
from engine.notation import to_text  # noqa: E402
from engine.selfplay import pick  # noqa: E402
from engine.state import active_seat  # noqa: E402

OUTPUT = ROOT / "tests" / "data" / "corpus"
FORMAT = "tash-kalar-arena/corpus"
MAX_BYTES = 100_000
MAX_COMMANDS = 1500
SCHOOLS = ("northern", "southern", "highland", "sylvan", "nethervoid", "everfrost", "etherweave")


@dataclass(frozen=True)
class Plan:
    """One game to record: how it is created and how it is played."""
    name: str
    options: dict[str, Any]
    timeouts: float = 0.0           # chance that the waited-for seat times out instead of playing
    resign_after: int | None = None  # the waited-for seat resigns after this many commands
    position_from: int | None = None  # start from the position after this many random commands
    tags: tuple[str, ...] = field(default=())


def plans() -> list[Plan]:
    out = []
    for a, b in itertools.combinations(SCHOOLS, 2):                 # every pair of schools: 21 duels
        out.append(Plan(f"duel-{a}-{b}", _options("duel", [a, b]), tags=("duel",)))
    for i, a in enumerate(SCHOOLS):                                  # every school in High Form
        b = SCHOOLS[(i + 3) % len(SCHOOLS)]
        out.append(Plan(f"high_form-{a}-{b}", _options("high_form", [a, b]), tags=("high_form",)))
    for i in range(5):
        three = [SCHOOLS[(i + k * 2) % 7] for k in range(3)]
        four = [SCHOOLS[(i + k * 3) % 7] for k in range(4)]
        out.append(Plan(f"melee3-{i}", _options("melee", three), tags=("melee", "melee3")))
        out.append(Plan(f"melee4-{i}", _options("melee", four), tags=("melee", "melee4")))
    for i in range(3):
        four = [SCHOOLS[(i * 2 + k) % 7] for k in range(4)]
        out.append(Plan(f"teams-high_form-{i}", _options("high_form", four, teams=True), tags=("teams", "high_form")))
        out.append(Plan(f"teams-duel-{i}", _options("duel", four, teams=True), tags=("teams", "duel")))
    for i, (form, schools, teams) in enumerate((
            ("duel", ["northern", "nethervoid"], False), ("duel", ["everfrost", "etherweave"], False),
            ("melee", ["sylvan", "highland", "southern"], False),
            ("melee", ["northern", "everfrost", "nethervoid", "etherweave"], False),
            ("high_form", ["southern", "sylvan", "highland", "northern"], True),
            ("duel", ["etherweave", "nethervoid", "everfrost", "sylvan"], True))):
        zombie = {"zombie_after": 1 + i % 3}
        out.append(Plan(f"timeouts-{form}-{i}", _options(form, schools, teams=teams, **zombie), timeouts=0.08,
                        tags=("timeouts", form)))
    for i, schools in enumerate((["draft", "draft"], ["random", "draft"], ["random", "random"],
                                 ["draft", "sylvan", "random"], ["everfrost", "draft", "draft", "random"])):
        form = "duel" if len(schools) == 2 else "melee"
        out.append(Plan(f"draft-{form}-{i}", _options(form, schools), tags=("draft", form)))
    out.append(Plan("draft-teams-high_form", _options("high_form", ["draft"] * 4, teams=True),
                    tags=("draft", "teams", "high_form")))
    out.append(Plan("bans-duel", _options("duel", ["bans"] * 2), tags=("bans", "duel")))
    out.append(Plan("mutual-melee", _options("melee", ["mutual"] * 3), tags=("mutual", "melee", "melee3")))
    for i, (form, schools) in enumerate((("duel", ["highland", "southern"]), ("duel", ["nethervoid", "sylvan"]),
                                         ("high_form", ["everfrost", "northern"]),
                                         ("melee", ["etherweave", "highland", "northern"]),
                                         ("duel", ["etherweave", "everfrost"]),
                                         ("melee", ["southern", "sylvan", "nethervoid", "everfrost"]))):
        out.append(Plan(f"position-{form}-{i}", _options(form, schools), position_from=30 + 7 * i,
                        tags=("position", form)))
    out.append(Plan("resign-duel", _options("duel", ["sylvan", "everfrost"]), resign_after=40,
                    tags=("resign", "duel")))
    out.append(Plan("resign-teams-duel", _options("duel", ["northern", "southern", "highland", "sylvan"], teams=True),
                    resign_after=25, tags=("resign", "teams", "duel")))
    return out


def _options(form: str, schools: list[str], teams: bool = False, **rules: Any) -> dict[str, Any]:
    return {"form": form, "seats": [{"school": s} for s in schools], "teams": teams, **rules}


def play(plan: Plan, seed: str) -> dict[str, Any]:
    rng = random.Random(f"corpus:{seed}")
    position = None
    events = engine.new_game({**plan.options, "seed": seed})
    state = engine.replay(events)
    if plan.position_from is not None:
        state = _advance(state, rng, plan.position_from)
        position = describe(state, plan.options, seed)
        events = engine.from_position(position)
        state = engine.replay(events)
    commands = 0
    while state["phase"] != "over" and commands < MAX_COMMANDS:
        seat = active_seat(state)
        if plan.resign_after is not None and commands == plan.resign_after:
            command = {"type": "resign", "seat": seat}
        elif plan.timeouts and rng.random() < plan.timeouts:
            command = {"type": "timeout", "seat": seat}
        else:
            command = pick(rng, engine.legal_commands(state, seat))
        new = engine.decide(state, command)
        events.extend(new)
        state = engine.replay(new, state)
        commands += 1
    record: dict[str, Any] = {"format": FORMAT, "name": plan.name, "tags": list(plan.tags), "seed": seed,
                              "options": {**plan.options, "seed": seed}, "commands": commands,
                              "finished": state["phase"] == "over", "final_state": state_digest(state)}
    if position is not None:
        record["position"] = position
        del record["options"]
    record["events"] = events
    return record


def _advance(state: dict, rng: random.Random, commands: int) -> dict:
    """Random play until `commands` were played and the seat to act has a free turn (no decision)."""
    played = 0
    while state["phase"] != "over" and (played < commands or state["pending"] or state["turn"]["actions"] < 2):
        command = pick(rng, engine.legal_commands(state, active_seat(state)))
        state = engine.replay(engine.decide(state, command), state)
        played += 1
    return state


def describe(state: dict, options: dict[str, Any], seed: str) -> dict[str, Any]:
    """A position description (engine.position) of a state at the start of a turn's actions."""
    by_seat = lambda rows: {str(i): list(r) for i, r in enumerate(rows)}  # noqa: E731
    desc: dict[str, Any] = {
        "form": options["form"], "teams": options.get("teams", False),
        "seats": [{"school": s["school"]} for s in state["seats"]], "seed": f"{seed}:position",
        "board": to_text(state["board"]), "hands": by_seat(state["hands"]), "decks": by_seat(state["decks"]),
        "discards": by_seat(state["discards"]),
        "legends": dict(state["legends"]), "flares": dict(state["flares"]),
        "turn": {"seat": state["turn"]["seat"], "actions_left": state["turn"]["actions"],
                 "number": state["turn"]["number"]},
    }
    if state["form"] != "melee":
        desc["scores"] = {str(c): p for c, p in enumerate(state["points"])}
    if state["tasks"]:
        desc["tasks"] = {k: state["tasks"][k] for k in ("current", "next", "deck")}
        desc["tasks"]["claimed"] = by_seat(state["tasks"]["claimed"])
    return desc


def dumps(record: dict[str, Any]) -> str:
    """Header on the first line, then one event per line, so a diff names the event that changed."""
    head = {k: v for k, v in record.items() if k != "events"}
    lines = [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in record["events"]]
    return json.dumps(head, sort_keys=True, separators=(",", ":"))[:-1] + ',"events":[\n' + ",\n".join(lines) + "\n]}\n"


def record(plan: Plan) -> str:
    """The first seed of the plan whose game ends within the size limit."""
    for attempt in range(40):
        text = dumps(play(plan, f"{plan.name}:{attempt}"))
        if len(text.encode()) < MAX_BYTES and '"finished":true' in text:
            return text
    raise SystemExit(f"{plan.name}: no finished game under {MAX_BYTES} bytes in 40 seeds")


def main(names: list[str]) -> int:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    chosen = [p for p in plans() if p.name in names] if names else plans()
    if len(chosen) != len(names or chosen):
        raise SystemExit(f"no such plan: {sorted(set(names) - {p.name for p in chosen})}")
    if not names:
        for old in OUTPUT.glob("*.json"):
            old.unlink()
    for plan in chosen:
        (OUTPUT / f"{plan.name}.json").write_text(record(plan), encoding="utf-8")
    print(f"wrote {len(chosen)} games to {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
