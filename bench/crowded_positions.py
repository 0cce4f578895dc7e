"""Writes bench/data/crowded_positions.json: the positions bench/engine.py times `legal_commands` on.

    python bench/crowded_positions.py

Each position is a state from random self-play (engine/selfplay.py, fixed seeds, so the file comes
out the same every time for the same engine) where the seat on turn holds six cards, may still
act, and the board holds exactly 32 pieces: the crowded case issue 26 holds `legal_commands` to.
Duels, High Form games and three- and four-player melees (whose improvised summoning asks the
pattern search once per lending colour) give PER_FORM positions each, one per game at most.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.selfplay import play_game  # noqa: E402
from engine.state import State, active_seat  # noqa: E402

OUT = Path(__file__).resolve().parent / "data" / "crowded_positions.json"
PIECES, CARDS_HELD, PER_FORM, GAMES_TRIED = 32, 6, 6, 200
FORMS = (("duel", ["northern", "highland"]), ("high_form", ["sylvan", "southern"]),
         ("melee", ["northern", "sylvan", "highland"]), ("melee", ["highland", "southern", "sylvan", "northern"]))


def crowded(state: State) -> bool:
    seat = active_seat(state)
    return seat is not None and state["phase"] == "play" and not state["pending"] \
        and state["turn"] is not None and state["turn"]["actions"] > 0 \
        and len(state["board"]) == PIECES and len(state["hands"][seat]) == CARDS_HELD


def first_crowded(events: list) -> State | None:
    """The first position of a game, between two commands, that is crowded."""
    state = engine.replay(events[:1])
    for k, event in enumerate(events[1:], start=1):
        engine.apply(state, event)
        between = k + 1 == len(events) or events[k + 1]["type"] == "CommandAccepted"
        if between and crowded(state):
            return state
    return None


def positions() -> list[dict]:
    out = []
    for form, schools in FORMS:
        found = 0
        for i in range(GAMES_TRIED):
            seed = f"crowded-{form}-{len(schools)}-{i}"
            state = first_crowded(play_game(form, schools, seed).events)
            if state is not None:
                out.append({"form": form, "players": len(schools), "seed": seed, "seat": active_seat(state),
                            "state": state})
                found += 1
                if found == PER_FORM:
                    break
    return out


if __name__ == "__main__":
    found = positions()
    OUT.write_text(json.dumps(found, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(found)} positions written to {OUT.relative_to(Path.cwd()) if OUT.is_relative_to(Path.cwd()) else OUT}")
