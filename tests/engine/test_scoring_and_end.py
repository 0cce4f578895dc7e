"""Scoring (RULES.md 9), end triggers, the final round and the result (RULES.md 10), tasks (12)."""
import pytest

import engine
from engine.turns import destruction_points
from tests.engine.helpers import choose, legal, play, position


def p(square, seat=0, rank="common"):
    return {"square": square, "seat": seat, "rank": rank}


def refused(state, command, seat=0):
    with pytest.raises(engine.RuleError) as err:
        engine.decide(state, {"seat": seat, **command})
    return err.value.code


def test_destruction_scores_two_per_legend_one_per_heroic_and_one_per_pair_of_commons():
    assert destruction_points([[1, 3], [1, 2], [1, 1], [1, 1], [1, 1]]) == ({1: 4}, [1])
    assert destruction_points([[1, 1], [2, 1], [3, 1]]) == ({1: 0, 2: 0, 3: 0}, [1, 2, 3])


def test_duel_points_for_destroyed_enemies_are_scored_at_the_end_of_the_turn():
    # Hill Giant destroys the non-legendary pieces orthogonally adjacent to it.
    pieces = [p("e6"), p("d7"), p("e7"), p("f7"), p("e4", 1), p("d5", 1), p("f5", 1, "heroic")]
    state = position(board=pieces, hands={"0": ["highland-hill-giant"]}, actions=1,
                     schools=["highland", "sylvan"])
    state = play(state, {"type": "summon", "card": "highland-hill-giant", "square": "e5"})
    assert state["points"] == [2, 0]            # two commons (1) + one heroic (1)
    assert state["turn"]["seat"] == 1


def test_summoning_a_legend_scores_a_point_in_a_duel_at_once():
    pieces = [p("d6", rank="heroic"), p("f6", rank="heroic"), p("e7", rank="heroic"), p("d8"), p("f8")]
    state = position(board=pieces, hands={"0": ["legends-time-elemental"]})
    state = play(state, {"type": "summon", "card": "legends-time-elemental", "square": "e5"})
    assert state["points"] == [1, 0]


def test_invoking_a_flare_gives_the_opponent_a_point_in_a_duel():
    pieces = [p("a5", 1, "heroic"), p("b5", 1, "heroic"), p("c5", 1, "heroic")]
    state = position(board=pieces, hands={"0": ["flares-00"]})
    state = play(state, {"type": "flare", "card": "flares-00"}, choose("e5"))
    assert state["points"] == [0, 1]
    assert state["flares"]["discard"] == ["flares-00"]
    assert refused(position(hands={"0": ["flares-00"]}), {"type": "flare", "card": "flares-00"}) == "flare_criteria_not_met"


def test_melee_scores_per_colour_and_asks_where_the_unpaired_commons_score():
    # Bomb (not the last action) destroys every common around it: one of colour 1, one of colour 2.
    pieces = [p("f6"), p("f7"), p("d4", 1), p("d6", 2)]
    state = position(board=pieces, form="melee", hands={"0": ["northern-bomb"]}, actions=2)
    state = play(state, {"type": "summon", "card": "northern-bomb", "square": "e5"}, {"type": "place", "square": "a5"})
    assert state["pending"]["kind"] == "leftover_color"
    assert legal(state) == [{"type": "choose", "color": 1}, {"type": "choose", "color": 2}]
    state = play(state, {"type": "choose", "color": 2})
    assert state["points"][0] == [0, 0, 1]
    assert state["turn"]["seat"] == 1


def test_melee_legend_scores_in_a_colour_of_the_players_choice():
    pieces = [p("d6", rank="heroic"), p("f6", rank="heroic"), p("e7", rank="heroic"), p("d8"), p("f8")]
    state = position(board=pieces, form="melee", hands={"0": ["legends-time-elemental"]})
    state = play(state, {"type": "summon", "card": "legends-time-elemental", "square": "e5"})
    assert legal(state) == [{"type": "choose", "color": 1}, {"type": "choose", "color": 2}]
    state = play(state, {"type": "choose", "color": 1})
    assert state["points"][0] == [0, 1, 0]


def test_melee_improvised_summoning_borrows_one_enemy_piece_once_per_colour():
    state = position(board=[p("e4"), p("e6", 1)], form="melee", hands={"0": ["northern-swordmaster"]})
    cmd = {"type": "summon", "card": "northern-swordmaster", "square": "e5", "improvise": 1}
    assert cmd in legal(state)
    assert {"type": "summon", "card": "northern-swordmaster", "square": "e5", "improvise": 2} not in legal(state)
    after = play(state, cmd)
    assert after["impro"][0][1] is False
    assert after["board"]["e6"][1] == 1                     # the borrowed piece stays the enemy's
    used = position(board=[p("e4"), p("e6", 1)], form="melee", hands={"0": ["northern-swordmaster"]})
    used["impro"][0][1] = False
    assert refused(used, cmd) == "improvisation_used"
    assert refused(position(board=[p("e4"), p("e6", 1)], hands={"0": ["northern-swordmaster"]}), cmd) == \
        "improvisation_not_available"


def test_high_form_score_is_tasks_plus_legendary_pieces_on_board():
    state = position(form="high_form", board=[p("a5", rank="legendary"), p("b5", 1, "legendary")],
                     tasks={"current": ["tasks-destruction", "tasks-red-conquest", "tasks-imprisonment"],
                            "next": "tasks-center-cross", "deck": ["tasks-side-chain"],
                            "claimed": {"0": ["tasks-devastation"]}})
    assert engine.state.score(state, 0) == 3 and engine.state.score(state, 1) == 1


def test_a_task_is_claimed_at_the_end_of_the_turn_and_replaced_by_the_next():
    centre = [p(sq) for sq in ("e4", "d5", "f5", "e6")]
    state = position(form="high_form", board=centre, actions=1, hands={"0": [], "1": []},
                     tasks={"current": ["tasks-destruction", "tasks-center-cross", "tasks-imprisonment"],
                            "next": "tasks-side-chain", "deck": ["tasks-red-conquest", "tasks-diagonals"]})
    state = play(state, {"type": "place", "square": "e5"})
    assert state["turn"]["seat"] == 0
    assert legal(state) == [{"type": "end_turn"}, {"type": "claim_task", "task": "tasks-center-cross"}]
    assert refused(state, {"type": "claim_task", "task": "tasks-destruction"}) == "task_not_met"
    state = play(state, {"type": "claim_task", "task": "tasks-center-cross"})
    assert state["tasks"]["claimed"][0] == ["tasks-center-cross"]
    assert state["tasks"]["current"] == ["tasks-destruction", "tasks-imprisonment", "tasks-side-chain"]
    assert state["tasks"]["next"] == "tasks-red-conquest"
    assert state["turn"]["seat"] == 1


def test_the_last_card_of_a_deck_triggers_a_final_round_in_which_everybody_plays_once_more():
    state = position(actions=1, hands={"0": [], "1": []}, decks={"0": ["northern-bomb"], "1": ["sylvan-sapling"] * 0})
    state = play(state, {"type": "place", "square": "a5"})
    assert state["final"] == {"seat": 0, "turn": 2, "reason": "deck_exhausted"}
    state = play(state, {"type": "place", "square": "b5"}, {"type": "place", "square": "c5"})
    assert state["phase"] == "play" and state["turn"]["seat"] == 0
    state = play(state, {"type": "place", "square": "d5"}, {"type": "place", "square": "e5"})
    assert state["phase"] == "over"
    assert state["result"]["winners"] == [0]             # 3 pieces against 2: the total-pieces tie-break
    assert state["result"]["standings"][0]["key"] == [0, 0, 3]


def test_reaching_eighteen_points_in_a_duel_triggers_the_end():
    state = position(actions=1, hands={"0": [], "1": []}, scores={"0": 18})
    state = play(state, {"type": "place", "square": "a5"})
    assert state["final"]["reason"] == "threshold"


def test_high_form_trigger_needs_nine_points_at_the_end_of_a_turn():
    state = position(form="high_form", actions=1, hands={"0": [], "1": []},
                     board=[p("a5", rank="legendary")],
                     tasks={"current": ["tasks-destruction", "tasks-center-cross", "tasks-imprisonment"],
                            "next": None, "deck": [], "claimed": {"0": ["tasks-side-chain", "tasks-corner-chain",
                                                                         "tasks-heroic-devastation"]}})
    state = play(state, {"type": "place", "square": "b5"})
    assert state["final"]["reason"] == "threshold"


def test_ties_break_on_upgraded_pieces_then_on_all_pieces_then_are_shared():
    state = position(actions=1, hands={"0": [], "1": []}, decks={"0": [], "1": []},
                     board=[p("a5", 1, "heroic"), p("b5", 0)])
    state = play(state, {"type": "place", "square": "c5"})
    state = play(state, {"type": "place", "square": "d5"}, {"type": "place", "square": "e5"},
                 {"type": "place", "square": "f5"}, {"type": "place", "square": "g5"})
    assert state["phase"] == "over" and state["result"]["winners"] == [1]
    shared = position(actions=1, hands={"0": [], "1": []}, decks={"0": [], "1": []}, board=[p("a5", 1)])
    shared = play(shared, {"type": "place", "square": "c5"}, {"type": "place", "square": "d5"},
                  {"type": "place", "square": "e5"}, {"type": "place", "square": "f5"}, {"type": "place", "square": "g5"})
    assert shared["result"]["winners"] == [0, 1]


def test_melee_final_score_is_the_lowest_colour_then_the_second_lowest():
    state = position(form="melee", actions=1, hands={"0": [], "1": [], "2": []}, decks={"0": [], "1": [], "2": []},
                     scores={"0": {"1": 5, "2": 3}, "1": {"0": 3, "2": 4}, "2": {"0": 9, "1": 1}})
    state = play(state, {"type": "place", "square": "a5"})
    for square in ("b5", "c5", "d5", "e5", "f5", "g5"):
        state = play(state, {"type": "place", "square": square})
    assert state["phase"] == "over"
    assert [r["seat"] for r in state["result"]["standings"]] == [0, 1, 2]   # 3-5 beats 3-4 beats 1-9
    assert state["result"]["winners"] == [0]


def test_resignation_ends_a_two_sided_game_and_is_not_allowed_in_a_melee():
    state = play(position(), {"type": "resign"}, seat=1)
    assert state["phase"] == "over" and state["result"] == {**state["result"], "reason": "resignation", "winners": [0]}
    assert refused(position(form="melee"), {"type": "resign"}, seat=2) == "resign_not_allowed"
    assert refused(state, {"type": "place", "square": "e5"}) == "game_over"
