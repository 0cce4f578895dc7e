"""Random self-play with Etherweave: 100 full duels against each base school end by a rule of
section 10, without error, and actually warp, copy warps and put pieces in stasis; and a few games
of each form replay to the live state and accept every command they list."""
from collections import Counter

import pytest

from engine.selfplay import play_game
from tests.engine.test_properties import _check_game

GAMES = 100
MECHANICS = ("WarpPlayed", "WarpCopied", "PendingBeingCleared", "PieceStored")


@pytest.mark.parametrize("opponent", ["northern", "southern", "highland", "sylvan"])
def test_etherweave_plays_full_duels_against_each_base_school(opponent):
    seen: Counter = Counter()
    for i in range(GAMES):
        schools = ["etherweave", opponent] if i % 2 == 0 else [opponent, "etherweave"]
        outcome = play_game("duel", schools, f"ether-{opponent}-{i}")
        assert outcome.error is None, (i, outcome.error)
        assert outcome.finished and outcome.winners
        seen.update(e["type"] for e in outcome.events)
    assert all(seen[kind] > 0 for kind in MECHANICS), seen


@pytest.mark.parametrize("form,schools", [("duel", ["etherweave", "sylvan"]),
                                          ("high_form", ["highland", "etherweave"]),
                                          ("melee", ["northern", "etherweave", "southern"])])
def test_etherweave_games_replay_to_the_live_state_and_accept_every_listed_command(form, schools):
    for seed in range(2):
        assert _check_game(form, schools, seed, check_every_command=seed == 0) > 0
