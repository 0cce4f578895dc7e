"""Setup (RULES.md 4): shuffles, opening hands, High Form tasks, Deathmatch start pieces."""
from collections import Counter

import pytest

import engine
from engine.cards import CARDS
from engine.state import active_seat
from tests.engine.helpers import board, legal, play


def _new(form, schools, seed="s"):
    return engine.replay(engine.new_game({"form": form, "seats": [{"school": s} for s in schools], "seed": seed}))


@pytest.mark.parametrize("form,schools", [("duel", ["northern", "sylvan"]), ("high_form", ["highland", "southern"]),
                                          ("melee", ["northern", "sylvan", "highland"]),
                                          ("melee", ["northern", "sylvan", "highland", "southern"])])
def test_opening_hands_hold_three_beings_two_legends_and_one_flare(form, schools):
    state = _new(form, schools)
    for seat, school in enumerate(schools):
        hand = state["hands"][seat]
        kinds = Counter(engine.cards.card_kind(c) for c in hand)
        assert kinds == {"being": 3, "legend": 2, "flare": 1}
        assert all(c in CARDS.decks[school] for c in hand if engine.cards.card_kind(c) == "being")
        assert len(state["decks"][seat]) == 15
    assert len(state["legends"]["deck"]) == 12 - 2 * len(schools)
    assert len(state["flares"]["deck"]) == 12 - len(schools)


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    a, b, c = (_new("duel", ["northern", "sylvan"], seed) for seed in ("x", "x", "y"))
    assert a == b
    assert a["decks"] != c["decks"]


def test_high_form_deals_three_simple_tasks_not_all_of_one_type_and_a_next_task():
    for seed in range(40):
        state = _new("high_form", ["northern", "sylvan"], str(seed))
        current = state["tasks"]["current"]
        assert len(current) == 3
        assert not any(CARDS.tasks[t].advanced for t in current)
        assert len({CARDS.tasks[t].type for t in current}) > 1
        four = [CARDS.tasks[t].type for t in current + [state["tasks"]["next"]]]
        assert max(Counter(four).values()) < 3
        assert sorted(current + [state["tasks"]["next"]] + state["tasks"]["deck"]) == sorted(CARDS.decks["tasks"])
        assert state["turn"] == {**state["turn"], "seat": 0, "actions": 1}


def test_duel_start_pieces_are_the_second_players_choice():
    state = _new("duel", ["northern", "sylvan"])
    assert state["turn"] is None and active_seat(state) == 1
    assert legal(state) == [{"type": "choose", "square": "c5"}, {"type": "choose", "square": "g5"}]
    with pytest.raises(engine.RuleError) as err:
        engine.decide(state, {"seat": 0, "type": "choose", "square": "c5"})
    assert err.value.code == "not_your_decision"
    state = play(state, {"type": "choose", "square": "c5"})
    assert board(state) == "5/7/9/9/2b3a2/9/9/7/5"
    assert state["turn"]["seat"] == 0 and state["turn"]["actions"] == 1


def test_melee_start_pieces_go_beside_three_symbols_in_bga_colour_order():
    state = _new("melee", ["northern", "sylvan", "highland", "southern"])
    assert active_seat(state) == 3
    assert state["effect"]["colors"] == [2, 3, 0]
    assert {c["square"] for c in legal(state)} == {"f2", "g2", "b7", "c7", "g6", "g7"}
    state = play(state, {"type": "choose", "square": "g2"})
    assert {c["square"] for c in legal(state)} == {"b7", "c7", "g6", "g7"}
    state = play(state, {"type": "choose", "square": "g7"}, {"type": "choose", "square": "b7"})
    assert engine.to_text(state["board"]) == "5/5c1/9/9/9/9/1a4d2/7/5"
    assert state["turn"]["seat"] == 0


def test_supplies_follow_the_form():
    duel = _new("duel", ["northern", "sylvan"])
    melee = _new("melee", ["northern", "sylvan", "highland", "southern"])
    high = _new("high_form", ["northern", "sylvan"])
    assert duel["capacity"][0] == [16, 3] and melee["capacity"][0] == [14, 3] and high["capacity"][0] == [17, 3]


@pytest.mark.parametrize("options,code", [
    ({"form": "chess", "seats": [{"school": "northern"}, {"school": "sylvan"}]}, "unknown_form"),
    ({"form": "duel", "seats": [{"school": "northern"}]}, "wrong_player_count"),
    ({"form": "melee", "seats": [{"school": "northern"}, {"school": "sylvan"}]}, "wrong_player_count"),
    ({"form": "duel", "seats": [{"school": "northern"}, {"school": "northern"}]}, "duplicate_school"),
    ({"form": "duel", "seats": [{"school": "northern"}, {"school": "wizards"}]}, "unknown_school"),
    ({"form": "duel", "seats": "two"}, "malformed_command"),
])
def test_bad_options_are_refused_with_a_code(options, code):
    with pytest.raises(engine.RuleError) as err:
        engine.new_game(options)
    assert err.value.code == code
