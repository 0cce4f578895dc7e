"""Random self-play with Everfrost: 100 full duels against each base school end by the rules without
error and really freeze and thaw cards; a few games of every form also replay exactly and accept
every command they list."""
import pytest

from engine.selfplay import play_game
from tests.engine.test_properties import _check_game

OPPONENTS = ("northern", "southern", "highland", "sylvan")
GAMES = 100


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_everfrost_plays_full_duels_against_each_base_school(opponent):
    frost_events = 0
    for i in range(GAMES):
        schools = ["everfrost", opponent] if i % 2 == 0 else [opponent, "everfrost"]
        game = play_game("duel", schools, f"everfrost-{opponent}-{i}")
        assert game.error is None and game.finished, (i, game.error)
        assert len(game.winners) >= 1
        frost_events += sum(1 for e in game.events if e["type"] in ("CardFrozen", "CardUnfrozen"))
    assert frost_events > 0


@pytest.mark.parametrize("form,schools", [("duel", ["everfrost", "sylvan"]), ("high_form", ["everfrost", "southern"]),
                                          ("melee", ["highland", "everfrost", "northern"])])
def test_everfrost_games_replay_exactly_and_accept_every_listed_command(form, schools):
    assert _check_game(form, schools, seed=7, check_every_command=True) > 0


@pytest.mark.parametrize("players", [3, 4])
def test_everfrost_plays_full_melees(players):
    for i in range(12):
        schools = ["northern", "sylvan", "highland", "everfrost"][-players:]
        game = play_game("melee", schools[i % players:] + schools[:i % players], f"everfrost-melee-{i}")
        assert game.error is None and game.finished, (i, game.error)
