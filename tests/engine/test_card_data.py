"""The project's card data (engine/data/cards.json) says what the card reference in the repository
(tools/reference/cards.json) says, card by card."""
import json
from pathlib import Path

import pytest

from engine.cards import CARDS, RANKS

from tests.engine.helpers import REFERENCE


def _reference():
    return json.loads(REFERENCE.read_text())


def _ref_cards(kind=None):
    for deck in _reference()["decks"]:
        for card in deck["cards"]:
            if kind is None or deck["kind"] == kind:
                yield deck, card


@pytest.mark.parametrize("card", [c for d, c in _ref_cards() if d["kind"] in ("school", "legends")], ids=lambda c: c["id"])
def test_every_being_keeps_name_rank_pattern_and_marked_squares(card):
    being = CARDS.beings[card["id"]]
    assert being.name == card["name"]
    assert being.rank == RANKS[card["rank"]]
    if being.anchor == "free":
        return
    first = next(o for o in being.orientations if o.index == 0)
    assert sorted(first.cells) == sorted((c["x"], c["y"], RANKS[c["rank"]]) for c in card["pattern"])
    assert sorted(first.marked) == sorted((m["x"], m["y"], m["kind"]) for m in card["marked"])
    assert being.own_square == (RANKS[card["being_square_min_rank"]] if card["being_square_must_be_own_piece"] else None)
    assert len(being.orientations) == card["symmetry"]


@pytest.mark.parametrize("card", [c for d, c in _ref_cards("flares")], ids=lambda c: c["id"])
def test_every_flare_keeps_its_thresholds(card):
    flare = CARDS.flares[card["id"]]
    assert flare.upper.threshold == card["upper"]["threshold"]
    assert flare.lower.threshold == card["lower"]["threshold"]


@pytest.mark.parametrize("card", [c for d, c in _ref_cards("tasks")], ids=lambda c: c["id"])
def test_every_task_keeps_type_level_and_points(card):
    task = CARDS.tasks[card["id"]]
    assert (task.name, task.type, task.advanced, task.points) == (card["name"], card["type"], card["advanced"], card["points"])


def test_deck_sizes_and_ranks_match_the_rules():
    for school in ("northern", "southern", "highland", "sylvan", "everfrost", "nethervoid", "etherweave"):
        ranks = [CARDS.beings[c].rank for c in CARDS.decks[school]]
        assert (len(ranks), ranks.count(1), ranks.count(2)) == (18, 5, 13)
    assert len(CARDS.decks["legends"]) == 12 and all(CARDS.beings[c].rank == 3 for c in CARDS.decks["legends"])
    assert len(CARDS.decks["flares"]) == 12
    advanced = [CARDS.tasks[t].advanced for t in CARDS.decks["tasks"]]
    assert (len(advanced), advanced.count(True)) == (24, 8)


def test_the_data_file_is_what_the_build_script_writes():
    import importlib.util
    spec = importlib.util.spec_from_file_location("build", Path(__file__).resolve().parents[2] / "tools" / "build_card_data.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    ours = json.loads((Path(__file__).resolve().parents[2] / "engine" / "data" / "cards.json").read_text())
    assert build.build(_reference()) == ours
