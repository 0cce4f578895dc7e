"""Random legal self-play: Nethervoid plays 100 full duels against each base school without error,
first to play in half of them, and every game ends by a rule of section 10; in every form, replay
gives the live state and every listed command is accepted."""
import pytest

from engine.cards import BASE_SCHOOLS
from engine.selfplay import play_game
from tests.engine.test_properties import _check_game

GAMES = 100


@pytest.mark.parametrize("school", BASE_SCHOOLS)
def test_nethervoid_plays_full_duels_against_a_base_school(school):
    gateways = 0
    for i in range(GAMES):
        seats = ["nethervoid", school] if i % 2 == 0 else [school, "nethervoid"]
        game = play_game("duel", seats, f"nethervoid-{school}-{i}")
        assert game.error is None, (seats, i, game.error)
        assert game.finished and game.winners
        gateways += any(e["type"] == "GatewayMarked" for e in game.events)
    assert gateways > GAMES // 2                     # the Gateway really is in play


@pytest.mark.parametrize("form,schools", [("duel", ["sylvan", "nethervoid"]), ("high_form", ["nethervoid", "highland"]),
                                          ("melee", ["northern", "nethervoid", "southern"])])
def test_nethervoid_games_replay_to_the_live_state_and_accept_every_listed_command(form, schools):
    for seed in range(2):
        assert _check_game(form, schools, seed, check_every_command=True) > 0
