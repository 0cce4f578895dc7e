"""Random legal self-play: 200 full games of each form end by a rule of section 10, without error."""
import pytest

from engine.selfplay import run

FORMS = [("high_form", 2), ("duel", 2), ("melee", 3), ("melee", 4)]
CHUNKS = 4
GAMES = 200


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("form,players", FORMS)
def test_random_games_finish_with_a_result_by_the_rules(form, players, chunk):
    report = run(GAMES // CHUNKS, form, players, seed=1000 + chunk)
    assert report["errors"] == []
    assert report["finished"] == GAMES // CHUNKS
    assert sum(report["wins_per_seat"].values()) + report["ties"] == GAMES // CHUNKS
