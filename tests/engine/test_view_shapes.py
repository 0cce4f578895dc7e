"""What a seat is shown fits engine/view_shapes.py: every redacted event of the recorded corpus,
for every seat and a spectator, fits SeenEvent, views taken along each game fit PlayerView, and
the end screen of every game (stats.explain_result) fits ExplainedResult. A key the data gains
without its type saying so fails here, as does a required key the data lacks."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest

import engine
from engine.stats import ExplainedResult, explain_result, game_stats
from engine.view_shapes import PlayerView, SeenEvent
from tests.engine.test_shapes import misfits

CORPUS = sorted((Path(__file__).resolve().parents[1] / "data" / "corpus").glob("*.json"))
VIEW_EVERY = 4           # moves between two views checked; the last position of a game is always checked


def _seen_shapes() -> dict[str, list[Any]]:
    """Event type -> the shapes a redacted event of that type may take."""
    out: dict[str, list[Any]] = {}
    for shape in get_args(SeenEvent):
        for name in get_args(get_type_hints(shape)["type"]):
            out.setdefault(name, []).append(shape)
    return out


SEEN = _seen_shapes()


def seen_misfits(event: dict) -> list[str]:
    fits = [misfits(event, shape, event["type"]) for shape in SEEN.get(event["type"], [])]
    if not fits:
        return [f"no seen shape for {event['type']}"]
    return [] if any(not f for f in fits) else fits[0]


def test_every_event_type_has_a_seen_shape():
    assert set(SEEN) == set(engine.EVENT_VERSIONS)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_redacted_events_and_views_of_a_recorded_game_fit_their_shapes(path: Path):
    events = json.loads(path.read_text(encoding="utf-8"))["events"]
    seats = list(range(len(engine.replay(events[:1])["seats"]))) + [None]
    state: dict = {}
    moves = 0
    for i, event in enumerate(events):
        for seat in seats:
            assert seen_misfits(engine.redact(event, seat)) == [], (i, seat)
        engine.apply(state, event)
        settled = i == len(events) - 1 or events[i + 1]["type"] == "CommandAccepted"   # a position a seat sees
        moves += settled
        if settled and (moves % VIEW_EVERY == 0 or i == len(events) - 1):
            for seat in seats:
                assert misfits(engine.player_view(state, seat), PlayerView, "view") == [], (i, seat)


def test_a_view_with_a_hand_it_should_not_name_in_its_type_is_caught():
    events = json.loads(CORPUS[0].read_text(encoding="utf-8"))["events"]
    view: dict = dict(engine.player_view(engine.replay(events[:40]), 0))
    view["deck"] = ["a card"]
    assert misfits(view, PlayerView, "view") == ["view: PlayerView has no 'deck'"]
    redacted: dict = dict(engine.redact(next(e for e in events if e["type"] == "DeckShuffled"), None))
    redacted["cards"] = ["a card"]
    assert seen_misfits(redacted)


def test_the_end_screen_of_every_recorded_game_fits_its_shape():
    checked = 0
    for path in CORPUS:
        events = json.loads(path.read_text(encoding="utf-8"))["events"]
        state = engine.replay(events)
        explained = explain_result(state, game_stats([engine.redact(e, None) for e in events]))
        if explained is not None:
            checked += 1
            assert misfits(explained, ExplainedResult, "result") == [], path.stem
    assert checked > len(CORPUS) // 2


def test_a_position_game_keeps_its_rules_stamp_for_every_seat():
    """The redacted PositionSet carries the rules version the game was created with, as GameCreated does."""
    events = engine.from_position({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}],
                                   "seed": "stamp"})
    created = next(e for e in events if e["type"] == "PositionSet")
    for seat in (0, 1, None):
        seen = engine.redact(created, seat)
        assert seen["rules"] == created["rules"] and seen["state"]["seats"]
        assert "seed" not in str(seen["state"].get("rng", "")), "the seed stays hidden"
