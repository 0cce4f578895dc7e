"""Random self-play of 2 vs 2 team games: 100 full games of each team form end by the rules with a
whole team as the winner; listed commands (pass_control included) are accepted; replay holds; no
event tells a seat a card it may not know."""
import json
import random

import pytest

import engine
from engine.selfplay import pick, play_game, run, schools_for
from engine.state import active_seat, color_of
from engine.views import hidden_cards

FORMS = ("high_form", "duel")
CHUNKS = 2
GAMES = 100


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("form", FORMS)
def test_random_team_games_finish_with_a_result_by_the_rules(form, chunk):
    report = run(GAMES // CHUNKS, form, 4, seed=2000 + chunk, teams=True)
    assert report["errors"] == []
    assert report["finished"] == GAMES // CHUNKS
    assert sum(report["wins_per_seat"].values()) + report["ties"] == GAMES // CHUNKS
    assert set(report["wins_per_seat"]) <= {0, 1}                  # a team is counted as its first seat


@pytest.mark.parametrize("form", FORMS)
def test_a_team_game_is_won_by_both_teammates_and_replays_to_the_same_state(form):
    passed = 0
    for i in range(6):
        game = play_game(form, schools_for(random.Random(i), 4), f"replay-{form}-{i}", teams=True)
        assert game.error is None
        winners = game.state["result"]["winners"]
        assert len(winners) in (2, 4) and len({color_of(game.state, w) for w in winners}) == len(winners) // 2
        assert engine.replay(game.events) == game.state
        passed += sum(1 for e in game.events if e["type"] == "ControlPassed")
    assert passed > 0


def test_no_seat_learns_a_hidden_card_from_a_team_game_not_even_the_teammate():
    game = play_game("duel", ["northern", "sylvan", "highland", "southern"], "team-secrets", teams=True)
    state: dict = {}
    for event in game.events:
        before = {s: hidden_cards(state, s) for s in (0, 1, 2, 3, None)}
        engine.apply(state, event)
        if event["type"] == "GameEnded":
            continue
        for seat, hidden in before.items():
            secret = hidden & hidden_cards(state, seat)
            if event["type"] == "CommandAccepted":                # the card a command plays is shown to all
                secret.discard(event["command"].get("card"))
            text = json.dumps(engine.redact(event, seat))
            assert [c for c in secret if f'"{c}"' in text] == [], (event, seat)


@pytest.mark.parametrize("form", FORMS)
def test_every_listed_command_of_a_team_game_is_accepted(form):
    rng = random.Random(form)
    events = engine.new_game({"form": form, "teams": True, "seed": form,
                              "seats": [{"school": s} for s in schools_for(rng, 4)]})
    state = engine.replay(events)
    while state["phase"] != "over":
        listed = engine.legal_commands(state, active_seat(state))
        for command in rng.sample(listed, min(8, len(listed))):
            engine.decide(state, command)
        new = engine.decide(state, pick(rng, listed))
        events += new
        state = engine.replay(new, state)
    assert engine.replay(events) == state
