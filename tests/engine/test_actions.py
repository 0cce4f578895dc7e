"""The three actions and the turn's bookkeeping (RULES.md 5, 8)."""
import pytest

import engine
from tests.engine.helpers import at, board, choose, legal, play, position


def refused(state, command, seat=None):
    acting = seat if seat is not None else state["turn"]["seat"]
    with pytest.raises(engine.RuleError) as err:
        engine.decide(state, {"seat": acting, **command})
    return err.value.code


def p(square, seat=0, rank="common"):
    return {"square": square, "seat": seat, "rank": rank}


# --- place ---------------------------------------------------------------------------------------

def test_place_puts_a_common_piece_on_an_empty_square_and_spends_an_action():
    state = play(position(), {"type": "place", "square": "e5"})
    assert at(state, "e5") == (0, "common")
    assert state["turn"]["actions"] == 1


def test_place_on_an_occupied_square_is_refused_and_changes_nothing():
    state = position(board=[p("e5", 1)])
    assert refused(state, {"type": "place", "square": "e5"}) == "square_occupied"
    assert refused(state, {"type": "place", "square": "a1"}) == "malformed_command"


def test_place_with_an_empty_supply_picks_up_one_of_your_non_legendary_pieces():
    state = position(board=[p("a5"), p("b5", rank="heroic"), p("c5", rank="legendary"), p("d5", 1)],
                     supply={"0": {"non_legendary": 0}})
    state = play(state, {"type": "place", "square": "e5"})
    assert state["pending"]["kind"] == "place_pickup"
    assert legal(state) == [choose("a5"), choose("b5")]
    state = play(state, choose("b5"))
    assert at(state, "b5") is None and at(state, "e5") == (0, "common")


def test_place_is_refused_when_the_supply_is_empty_and_only_legends_are_on_the_board():
    state = position(board=[p("c5", rank="legendary")], supply={"0": {"non_legendary": 0}})
    assert refused(state, {"type": "place", "square": "e5"}) == "piece_shortage"
    assert not any(c["type"] == "place" for c in legal(state))


# --- summon --------------------------------------------------------------------------------------

SWORD = "northern-swordmaster"   # common; pattern e4 + e6 around e5


def test_summoning_over_an_enemy_piece_of_equal_rank_destroys_it_and_credits_you():
    state = position(board=[p("e4"), p("e6"), p("e5", 1)], hands={"0": [SWORD]})
    state = play(state, {"type": "summon", "card": SWORD, "square": "e5"})
    assert at(state, "e5") == (0, "common")
    assert state["turn"]["destroyed"] == [[1, 1]]


def test_summoning_over_your_own_piece_destroys_it_without_credit():
    state = position(board=[p("e4"), p("e6"), p("e5")], hands={"0": [SWORD]})
    state = play(state, {"type": "summon", "card": SWORD, "square": "e5"})
    assert state["turn"]["destroyed"] == []


def test_a_piece_of_higher_rank_on_the_being_square_forbids_the_summoning():
    state = position(board=[p("e4"), p("e6"), p("e5", 1, "heroic")], hands={"0": [SWORD]})
    assert refused(state, {"type": "summon", "card": SWORD, "square": "e5"}) == "being_square_blocked"


def test_an_unmatched_pattern_is_refused_and_costs_nothing():
    state = position(board=[p("e4")], hands={"0": [SWORD]})
    assert refused(state, {"type": "summon", "card": SWORD, "square": "e5"}) == "pattern_not_matched"


def test_enemy_pieces_never_fill_a_pattern_in_a_duel():
    state = position(board=[p("e4"), p("e6", 1)], hands={"0": [SWORD]})
    assert refused(state, {"type": "summon", "card": SWORD, "square": "e5"}) == "pattern_not_matched"


def test_a_card_not_in_hand_and_a_flare_cannot_be_summoned():
    state = position(board=[p("e4"), p("e6")], hands={"0": ["flares-00"]})
    assert refused(state, {"type": "summon", "card": SWORD, "square": "e5"}) == "card_not_in_hand"
    assert refused(state, {"type": "summon", "card": "flares-00", "square": "e5"}) == "not_a_being"


def test_higher_ranks_satisfy_lower_pattern_squares():
    state = position(board=[p("e4", rank="legendary"), p("e6", rank="heroic")], hands={"0": [SWORD]})
    assert {"type": "summon", "card": SWORD, "square": "e5"} in legal(state)


def test_shortage_reuses_your_own_piece_on_the_target_as_the_being():
    state = position(board=[p("e4"), p("e6"), p("e5")], hands={"0": [SWORD]}, supply={"0": {"non_legendary": 0}})
    pid = state["board"]["e5"][0]
    state = play(state, {"type": "summon", "card": SWORD, "square": "e5"})
    assert state["board"]["e5"][0] == pid and state["turn"]["destroyed"] == []


def test_shortage_picks_up_a_piece_the_pattern_does_not_need():
    state = position(board=[p("e4"), p("e6"), p("a5"), p("e5", 1)], hands={"0": [SWORD]},
                     supply={"0": {"non_legendary": 0}})
    state = play(state, {"type": "summon", "card": SWORD, "square": "e5"})
    assert state["pending"]["kind"] == "pickup"
    assert legal(state) == [choose("a5")]
    state = play(state, choose("a5"))
    assert at(state, "a5") is None and at(state, "e5") == (0, "common")
    assert state["turn"]["destroyed"] == [[1, 1]]


def test_shortage_with_nothing_to_pick_up_makes_the_summoning_illegal():
    state = position(board=[p("e4"), p("e6")], hands={"0": [SWORD]}, supply={"0": {"non_legendary": 0}})
    assert refused(state, {"type": "summon", "card": SWORD, "square": "e5"}) == "piece_shortage"


def test_shortage_protects_only_pieces_every_fitting_orientation_needs():
    # Swordmaster fits vertically (e4, e6) and horizontally (d5, f5): every piece is spare for one of them.
    state = position(board=[p("e4"), p("e6"), p("d5"), p("f5")], hands={"0": [SWORD]},
                     supply={"0": {"non_legendary": 0}})
    state = play(state, {"type": "summon", "card": SWORD, "square": "e5"})
    assert legal(state) == [choose("d5"), choose("e4"), choose("e6"), choose("f5")]


def test_the_player_chooses_the_orientation_when_marked_squares_differ():
    # Assassin: pattern (-1,-3) (-2,-2) (-3,-1), marked (-1,-1); two mirror images fit at e5.
    pieces = [p("d2"), p("c3"), p("b4"), p("h4"), p("g3"), p("f2"), p("d4", 1), p("f4", 1, "heroic")]
    state = position(board=pieces, hands={"0": ["northern-assassin"]})
    state = play(state, {"type": "summon", "card": "northern-assassin", "square": "e5"})
    assert state["pending"]["kind"] == "orientation"
    options = legal(state)
    assert len(options) == 2
    results = set()
    for option in options:
        after = play(state, option)
        results.add((at(after, "d4"), at(after, "f4")))
    assert results == {(None, (1, "heroic")), ((1, "common"), None)}


# --- discard -------------------------------------------------------------------------------------

def test_discard_sends_a_school_being_to_the_pile_and_returns_chosen_cards_under_their_decks():
    hand = [SWORD, "northern-bomb", "legends-titan", "flares-03"]
    state = position(hands={"0": hand})
    state = play(state, {"type": "discard", "card": SWORD, "returns": ["legends-titan", "flares-03"]})
    assert state["discards"][0] == [SWORD]
    assert state["hands"][0] == ["northern-bomb"]
    assert state["legends"]["deck"][-1] == "legends-titan" and state["flares"]["deck"][-1] == "flares-03"
    assert state["turn"]["actions"] == 1 and state["turn"]["discarded"]


def test_discard_is_once_per_turn_and_only_for_school_beings():
    state = position(hands={"0": [SWORD, "northern-bomb", "legends-titan"]})
    assert refused(state, {"type": "discard", "card": "legends-titan"}) == "not_a_school_being"
    state = play(state, {"type": "discard", "card": SWORD})
    assert refused(state, {"type": "discard", "card": "northern-bomb"}) == "discard_used"
    assert not any(c["type"] == "discard" for c in legal(state))


def test_discard_lists_every_subset_of_returns():
    state = position(hands={"0": [SWORD, "legends-titan", "flares-03"]})
    discards = [c for c in legal(state) if c["type"] == "discard"]
    assert len(discards) == 4


# --- turn order ----------------------------------------------------------------------------------

def test_commands_out_of_turn_are_refused():
    state = position(seat=0)
    assert refused(state, {"type": "place", "square": "e5"}, seat=1) == "not_your_turn"
    assert refused(state, {"type": "end_turn"}) == "actions_left"
    assert refused(state, {"type": "move", "from": "e5", "to": "e6"}) == "no_decision_pending"
    assert refused(state, {"type": "dance"}) == "malformed_command"
    assert refused(state, {"type": "place", "square": "e5"}, seat=7) == "malformed_command"


def test_the_turn_ends_by_itself_when_no_action_or_free_option_is_left():
    state = position(actions=1, hands={"0": [], "1": []})
    state = play(state, {"type": "place", "square": "e5"})
    assert state["turn"]["seat"] == 1 and state["turn"]["actions"] == 2


def test_a_flare_still_usable_keeps_the_turn_open_until_end_turn():
    # seat 1 has 3 more upgraded pieces: flares-00 upper holds for seat 0
    pieces = [p("a5", 1, "heroic"), p("b5", 1, "heroic"), p("c5", 1, "heroic")]
    state = position(board=pieces, actions=1, hands={"0": ["flares-00"]})
    state = play(state, {"type": "place", "square": "e5"})
    assert state["turn"]["seat"] == 0
    assert {"type": "end_turn"} in legal(state) and {"type": "flare", "card": "flares-00"} in legal(state)
    state = play(state, {"type": "end_turn"})
    assert state["turn"]["seat"] == 1


def test_drawing_refills_to_three_beings_two_legends_and_one_flare():
    state = position(actions=1, hands={"0": [SWORD], "1": []})
    state = play(state, {"type": "place", "square": "e5"})
    kinds = sorted(engine.cards.card_kind(c) for c in state["hands"][0])
    assert kinds == ["being"] * 3 + ["flare"] + ["legend"] * 2


def test_a_legends_deck_that_runs_out_is_reshuffled_from_its_discard_pile():
    state = position(actions=1, hands={"0": [], "1": []}, legends={"deck": ["legends-titan"],
                                                                  "discard": ["legends-leviathan", "legends-fire-dragon"]})
    state = play(state, {"type": "place", "square": "e5"})
    held = [c for c in state["hands"][0] if c.startswith("legends-")]
    assert len(held) == 2 and "legends-titan" in held
    assert state["legends"]["discard"] == []


def test_school_decks_are_never_reshuffled():
    state = position(actions=1, hands={"0": [], "1": []}, decks={"0": ["northern-bomb"], "1": []},
                     discards={"0": ["northern-herald", "northern-knight"]})
    state = play(state, {"type": "place", "square": "e5"})
    assert [c for c in state["hands"][0] if c.startswith("northern")] == ["northern-bomb"]
    assert state["discards"][0] == ["northern-herald", "northern-knight"]


def test_notation_round_trips_and_describes_the_board():
    text = "5/1a1B*3/9/9/2a3b2/9/9/c6/5"
    state = position(board=text, form="melee")
    assert board(state) == text
    assert at(state, "c2") == (0, "common") and at(state, "e2") == (1, "legendary")
    assert at(state, "b8") == (2, "common")


def test_board_notation_round_trips_for_any_board():
    from hypothesis import given, strategies as st
    from engine.geometry import SQUARES

    pieces = st.dictionaries(st.sampled_from(SQUARES), st.tuples(st.integers(0, 3), st.integers(1, 3)), max_size=40)

    @given(pieces)
    def check(board):
        state_board = {sq: [i, c, r] for i, (sq, (c, r)) in enumerate(board.items())}
        text = engine.to_text(state_board)
        assert engine.from_text(text) == board
        assert engine.to_text({sq: [0, c, r] for sq, (c, r) in engine.from_text(text).items()}) == text
    check()


@pytest.mark.parametrize("text", ["5/7/9/9/9/9/9/7", "6/7/9/9/9/9/9/7/5", "5/7/9/9/9/9/9/7/x4", "4a1/7/9/9/9/9/9/7/5"])
def test_bad_board_notation_names_the_problem(text):
    with pytest.raises(ValueError):
        engine.from_text(text)
