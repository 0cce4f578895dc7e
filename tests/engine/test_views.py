"""Views and redaction: nobody learns another seat's hand or any deck order; the log reads well."""
import json

import pytest

import engine
from engine.narrate import describe, describe_command
from engine.views import hidden_cards
from engine.selfplay import play_game
from tests.engine.helpers import position

GAMES = [("duel", ["northern", "sylvan"], "v1"), ("high_form", ["highland", "southern"], "v2"),
         ("melee", ["northern", "sylvan", "highland"], "v3"), ("duel", ["everfrost", "etherweave"], "v4"),
         ("melee", ["nethervoid", "etherweave", "everfrost"], "v5")]


@pytest.mark.parametrize("form,schools,seed", GAMES)
def test_redacted_events_and_views_never_show_hidden_cards(form, schools, seed):
    game = play_game(form, schools, seed)
    seats = list(range(len(schools))) + [None]
    state = {}
    for event in game.events:
        before = {s: hidden_cards(state, s) for s in seats}
        engine.apply(state, event)
        if event["type"] == "GameEnded":
            continue
        for s in seats:
            secret = before[s] & hidden_cards(state, s)
            if event["type"] == "CommandAccepted":        # the card a command plays is shown to all
                secret.discard(event["command"].get("card"))
            text = json.dumps(engine.redact(event, s))
            leaked = [c for c in secret if f'"{c}"' in text]
            assert leaked == [], (event["type"], s, leaked)
            assert "seed" not in engine.redact(event, s) or event["type"] == "GameEnded"
    for s in seats:
        view = json.dumps(engine.player_view(engine.replay(game.events[:len(game.events) // 2]), s))
        mid = engine.replay(game.events[:len(game.events) // 2])
        assert [c for c in hidden_cards(mid, s) if f'"{c}"' in view] == []


def test_a_seat_sees_its_own_hand_and_the_sizes_of_others():
    state = position(hands={"0": ["northern-bomb"], "1": ["sylvan-sapling", "flares-00"]})
    mine = engine.player_view(state, 0)
    assert mine["seats"][0]["hand"] == ["northern-bomb"]
    assert "hand" not in mine["seats"][1] and mine["seats"][1]["hand_size"] == 2
    spectator = engine.player_view(state, None)
    assert all("hand" not in s for s in spectator["seats"])


def test_the_pending_decision_lists_its_options_only_to_the_deciding_seat():
    board = [{"square": "e4", "seat": 0, "rank": "common"}, {"square": "e6", "seat": 0, "rank": "common"},
             {"square": "f4", "seat": 1, "rank": "common"}]
    state = position(board=board, hands={"0": ["northern-swordmaster"]})
    state = engine.replay(engine.decide(state, {"seat": 0, "type": "summon", "card": "northern-swordmaster",
                                                "square": "e5"}), state)
    assert engine.player_view(state, 0)["pending"]["options"] == [{"type": "choose", "square": "f4"}]
    assert "options" not in engine.player_view(state, 1)["pending"]


def test_the_seed_is_revealed_only_when_the_game_ends():
    game = play_game("duel", ["northern", "sylvan"], "reveal")
    assert "seed" not in engine.redact(game.events[0], 0)
    assert game.events[-1]["type"] == "GameEnded" and game.events[-1]["seed"] == "reveal"


@pytest.mark.parametrize("form,schools,seed", GAMES)
def test_every_event_reads_as_a_sentence_or_is_bookkeeping(form, schools, seed):
    game = play_game(form, schools, seed)
    names = {i: f"P{i}" for i in range(len(schools))}
    lines = [describe(engine.redact(e, 0), names) for e in game.events]
    told = [line for line in lines if line]
    assert told and all(line.endswith(".") for line in told)
    assert told[-1].startswith("The game is over")
    assert describe_command({"seat": 0, "type": "summon", "card": "northern-bomb", "square": "e5"}, names) == \
        "P0 summons Bomb on e5"
