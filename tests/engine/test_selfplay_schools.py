"""Every school against every other school: 100 full random duels per pair end by the rules
without error, half with each school seated first, and each expansion school's own mechanic
(frozen cards, the Gateway, warps) really happens in its games."""
from itertools import combinations

import pytest

from engine.cards import BASE_SCHOOLS, EXPANSION_SCHOOLS
from engine.selfplay import play_game
from tests.engine.test_properties import _check_game

GAMES = 100
SIGNATURE = {"everfrost": {"CardFrozen"}, "nethervoid": {"GatewayMarked"}, "etherweave": {"WarpPlayed"}}


@pytest.mark.parametrize("first,second", list(combinations(BASE_SCHOOLS + EXPANSION_SCHOOLS, 2)))
def test_a_hundred_duels_between_two_schools_end_by_the_rules(first, second):
    seen: set[str] = set()
    for i in range(GAMES):
        schools = [first, second] if i % 2 == 0 else [second, first]
        game = play_game("duel", schools, f"{first}-{second}-{i}")
        assert game.error is None and game.finished, (i, game.error)
        assert game.winners
        seen.update(e["type"] for e in game.events)
    for school in (first, second):
        assert SIGNATURE.get(school, set()) <= seen, school


@pytest.mark.parametrize("form,schools", [(form, schools) for school in EXPANSION_SCHOOLS for form, schools in (
    ("duel", [school, "sylvan"]), ("high_form", ["highland", school]), ("melee", ["northern", school, "southern"]),
    ("melee", ["highland", "sylvan", school, "northern"]))])
def test_expansion_games_replay_exactly_and_accept_every_listed_command(form, schools):
    assert _check_game(form, schools, seed=7, check_every_command=True) > 0
