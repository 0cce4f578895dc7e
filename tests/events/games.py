"""Random legal games for store tests: played once with the pure engine, replayed through the
service command by command (same seed, same commands, so the same events)."""
from __future__ import annotations

import random
from dataclasses import dataclass

import engine
from engine.state import active_seat

SCHOOLS = {"duel": ["northern", "sylvan"], "high_form": ["southern", "highland"],
           "melee": ["northern", "sylvan", "highland"]}


def options(form: str, seed: str) -> dict:
    return {"form": form, "seats": [{"school": s} for s in SCHOOLS[form]], "seed": seed}


@dataclass(frozen=True)
class Script:
    options: dict
    commands: list[dict]          # each with its seat
    events: list[dict]            # every event, creation included
    created: int                  # how many events the creation made


def random_script(form: str, seed: str) -> Script:
    events = engine.new_game(options(form, seed))
    created = len(events)
    state = engine.replay(events)
    rng = random.Random(seed)
    commands = []
    while state["phase"] != "over":
        choices = [c for c in engine.legal_commands(state, active_seat(state)) if c["type"] != "resign"]
        command = rng.choice(choices)
        new = engine.decide(state, command)
        commands.append(command)
        events.extend(new)
        state = engine.replay(new, state)
    return Script(options(form, seed), commands, events, created)


def play(service, script: Script, game_id: str, upto: int | None = None) -> list:
    """Create the game and send its commands (the first `upto` of them); the results in order."""
    created = service.create_game(script.options, game_id=game_id)
    version = created.version
    results = []
    for command in script.commands[:upto]:
        seat = command["seat"]
        result = service.execute(game_id, seat, {k: v for k, v in command.items() if k != "seat"},
                                 expected_version=version)
        version = result.version
        results.append(result)
    return results
