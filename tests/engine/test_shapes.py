"""The boundary types (engine/shapes.py) say what the data holds: every event, command and state
of the recorded corpus and of random games fits them, key by key and value by value."""
from __future__ import annotations

import functools
import json
import random
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import engine
from engine.selfplay import play_game
from engine.shapes import EVENT_SHAPES, Command, GameState
from engine.state import active_seat

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"


def misfits(value: Any, shape: Any, where: str = "") -> list[str]:
    """Where `value` does not fit the type `shape` (empty when it fits)."""
    if shape is Any:
        return []
    if shape is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if is_typeddict(shape):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a {shape.__name__}"]
        hints = _hints(shape)
        out = [f"{where}: {shape.__name__} lacks {k!r}" for k in shape.__required_keys__ - set(value)]
        out += [f"{where}: {shape.__name__} has no {k!r}" for k in set(value) - set(hints)]
        for key in set(value) & set(hints):
            out += misfits(value[key], hints[key], f"{where}.{key}")
        return out
    origin, args = get_origin(shape), get_args(shape)
    if origin in (Union, types.UnionType):
        fits = [misfits(value, option, where) for option in args]
        return [] if any(not f for f in fits) else [f for found in fits for f in found][:1]
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} not in {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} is not a list"]
        return [m for i, item in enumerate(value) for m in misfits(item, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a dict"]
        return [m for k, item in value.items() for m in misfits(item, args[1], f"{where}[{k!r}]")]
    if shape is int and isinstance(value, bool):
        return [f"{where}: {value!r} is a bool, not an int"]
    return [] if isinstance(value, shape) else [f"{where}: {value!r} is not {shape.__name__}"]


@functools.cache
def _hints(shape: Any) -> dict[str, Any]:
    """A TypedDict's key types, read once (get_type_hints is most of the time the checks take)."""
    return get_type_hints(shape)


def event_misfits(event: dict) -> list[str]:
    shape = EVENT_SHAPES.get(event["type"])
    return misfits(event, shape, event["type"]) if shape else [f"no shape for {event['type']}"]


def _games() -> list[list[dict]]:
    recorded = [json.loads(p.read_text(encoding="utf-8"))["events"] for p in sorted(CORPUS.glob("*.json"))]
    played = [play_game(form, schools, f"shapes-{i}").events for i, (form, schools) in enumerate(
        [("duel", ["etherweave", "nethervoid"]), ("melee", ["everfrost", "etherweave", "nethervoid"])])]
    return recorded + played + [_game_with_undos()]


def _game_with_undos() -> list[dict]:
    rng = random.Random("shapes")
    events = engine.new_game({"form": "duel", "seats": [{"school": "sylvan"}, {"school": "northern"}], "seed": "shapes"})
    state = engine.replay(events)
    for _ in range(80):
        commands = engine.legal_commands(state, active_seat(state))
        steps = [c for c in commands if c["type"] in ("undo", "redo")]
        command = rng.choice(steps if steps and rng.random() < 0.4 else
                             [c for c in commands if c["type"] not in ("undo", "redo", "resign")])
        new = engine.decide(state, command)
        events += new
        state = engine.replay(new, state)
    return events


@pytest.fixture(scope="module")
def games() -> list[list[dict]]:
    return _games()


def test_every_event_type_has_a_shape():
    assert set(EVENT_SHAPES) == set(engine.EVENT_VERSIONS)


def test_every_event_fits_its_shape(games):
    seen = set()
    for events in games:
        for event in events:
            seen.add(event["type"])
            assert event_misfits(event) == [], event
    assert {"TurnStepUndone", "TurnStepRedone", "PositionSet", "GameEnded"} <= seen


def test_states_and_listed_commands_fit_their_shapes(games):
    for events in games[::4] + games[-3:]:
        state: dict = {}
        for i, event in enumerate(events):
            engine.apply(state, event)
            if i % 40 == 0 or i == len(events) - 1:
                assert misfits(state, GameState, "state") == [], i
                seat = active_seat(state)
                if seat is not None:
                    for command in engine.annotated_commands(state, seat):
                        assert misfits(command, Command, "command") == [], command


@pytest.mark.parametrize("value,shape", [
    ({"type": "PiecePlaced", "square": "e5", "color": 0, "rank": "common", "piece": 1}, "PiecePlaced"),
    ({"type": "PiecePlaced", "square": "e5", "color": True, "rank": "common", "piece": 1, "cause": "place"}, "PiecePlaced"),
    ({"type": "PiecePlaced", "square": "e5", "color": 0, "rank": "common", "piece": 1, "cause": "x", "extra": 1},
     "PiecePlaced"),
])
def test_the_checker_sees_a_missing_key_a_wrong_type_and_an_unknown_key(value, shape):
    assert event_misfits(value)


def test_the_public_functions_are_typed_with_the_shapes():
    hints = {name: typing.get_type_hints(getattr(engine, name)) for name in
             ("decide", "legal_commands", "replay", "evolve", "apply", "new_game", "annotated_commands")}
    assert hints["decide"]["state"] is GameState and hints["decide"]["command"] is Command
    assert hints["replay"]["return"] is GameState and hints["evolve"]["return"] is GameState
    assert hints["legal_commands"]["return"] == list[Command] == hints["annotated_commands"]["return"]
