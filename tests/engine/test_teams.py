"""Team play (RULES.md 11, with 4.1, 4.3, 8.1 C, 8.3, 8.4, 10.1): one test per rule, on real games
and positions. Seats 0 and 2 are team A (colour 0), seats 1 and 3 team B (colour 1)."""
from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import teams
from engine.cards import CARDS, card_kind
from engine.state import active_seat
from tests.engine.helpers import SKIP, at, choose, events_of, legal, play, position

TEAM = ["northern", "sylvan", "highland", "southern"]
SWORD = "northern-swordmaster"
MYSTIC = "sylvan-forest-mystic"
GIANT = "highland-hill-giant"
FLARE = "flares-01"                      # lower half: the other side has 4 more pieces -> place a common
CROSS = "tasks-center-cross"             # five own pieces on e4 d5 e5 f5 e6
L1, L2 = "legends-fire-dragon", "legends-hell-bull"
TIME = "legends-time-elemental"


def pc(square: str, color: int = 0, rank: str = "common") -> dict:
    return {"square": square, "seat": color, "rank": rank}


def new(form: str = "duel", seed: str = "teams") -> dict:
    options = {"form": form, "teams": True, "seats": [{"school": s} for s in TEAM], "seed": seed}
    return engine.replay(engine.new_game(options))


def table(form: str = "duel", **kw) -> dict:
    """A team position (the board keyed by team colour, hands by seat)."""
    return position(form=form, schools=TEAM, teams=True, **kw)


def refused(state: dict, command: dict, seat: int) -> str:
    with pytest.raises(engine.RuleError) as err:
        engine.decide(state, {"seat": seat, **command})
    return err.value.code


def kinds(hand: list[str]) -> Counter:
    return Counter(card_kind(c) for c in hand)


def places_until_turn_ends(state: dict) -> dict:
    """The acting seat places on empty squares until the turn passes to another player."""
    turn = state["turn"]["number"]
    while state["turn"]["number"] == turn and state["phase"] != "over":
        if state["turn"]["actions"] > 0:
            square = next(c["square"] for c in legal(state) if c["type"] == "place")
            state = play(state, {"type": "place", "square": square})
        else:
            state = play(state, {"type": "end_turn"})
    return state


# --- seats, colours and setup ------------------------------------------------------------------------

def test_teammates_sit_opposite_share_one_colour_and_turns_alternate_teams():
    state = new("high_form")
    assert [s["color"] for s in state["seats"]] == [0, 1, 0, 1]
    assert state["capacity"] == [[17, 3], [17, 3]] and state["points"] == [0, 0]
    assert [teams.teammate(state, s) for s in range(4)] == [2, 3, 0, 1]
    order = []
    for _ in range(5):
        order.append(state["turn"]["seat"])
        state = places_until_turn_ends(state)
    assert order == [0, 1, 2, 3, 0]


def test_each_player_has_his_own_school_deck_whose_lowest_six_cards_lie_sideways():
    state = new()
    for seat, school in enumerate(TEAM):
        assert set(state["decks"][seat]) <= set(CARDS.decks[school]) and len(state["decks"][seat]) == 15
    view = engine.player_view(state, 0)
    assert view["teams"] is True
    assert [s["sideways"] for s in view["seats"]] == [6, 6, 6, 6]


def test_only_the_teammate_who_plays_first_draws_legends_at_setup():
    state = new()
    assert [kinds(h)["legend"] for h in state["hands"]] == [2, 2, 0, 0]
    assert all(kinds(h)["being"] == 3 and kinds(h)["flare"] == 1 for h in state["hands"])
    assert len(state["legends"]["deck"]) == 12 - 4


def test_the_fourth_player_places_the_duel_start_pieces():
    state = new("duel")
    assert state["turn"] is None and active_seat(state) == 3
    assert refused(state, choose("c5"), 1) == "not_your_decision"
    state = play(state, choose("c5"))
    assert at(state, "c5") == (1, "common") and at(state, "g5") == (0, "common")
    assert state["turn"]["seat"] == 0 and state["turn"]["actions"] == 1


def test_team_play_is_refused_for_a_melee_and_needs_four_seats():
    seats = [{"school": s} for s in TEAM]
    with pytest.raises(engine.RuleError) as err:
        engine.new_game({"form": "melee", "teams": True, "seats": seats})
    assert err.value.code == "teams_not_available"
    with pytest.raises(engine.RuleError) as err:
        engine.new_game({"form": "duel", "teams": True, "seats": seats[:2]})
    assert err.value.code == "wrong_player_count"
    with pytest.raises(engine.RuleError) as err:
        engine.new_game({"form": "duel", "teams": "yes", "seats": seats})
    assert err.value.code == "malformed_command"


# --- decks: sideways cards and the end trigger -------------------------------------------------------

def test_drawing_the_last_upright_card_triggers_the_end():
    deck = list(CARDS.decks["northern"][3:10])                       # 7 cards: 1 upright, 6 sideways
    state = table(hands={"0": list(CARDS.decks["northern"][:2])}, decks={"0": deck})
    state = places_until_turn_ends(state)
    assert state["decks"][0] == deck[1:] and teams.sideways(state, 0) == 6
    assert state["final"]["reason"] == "deck_exhausted" and state["final"]["seat"] == 0


def test_the_end_is_not_triggered_while_an_upright_card_is_left():
    deck = list(CARDS.decks["northern"][3:11])                       # 8 cards: 2 upright
    state = table(hands={"0": list(CARDS.decks["northern"][:2])}, decks={"0": deck})
    state = places_until_turn_ends(state)
    assert len(state["decks"][0]) == 7 and state["final"] is None


def test_sideways_cards_can_still_be_drawn_when_more_are_needed():
    deck = list(CARDS.decks["northern"][3:10])                       # 1 upright, 6 sideways
    state = places_until_turn_ends(table(decks={"0": deck}))
    assert kinds(state["hands"][0])["being"] == 3 and state["decks"][0] == deck[3:]
    assert teams.sideways(state, 0) == 4 and state["final"]["reason"] == "deck_exhausted"


def test_a_card_returned_under_your_deck_lies_sideways_and_straightens_the_highest_sideways_card():
    hand = list(CARDS.decks["northern"][:3])
    deck = list(CARDS.decks["northern"][3:10])                       # 1 upright, 6 sideways
    state = table(hands={"0": hand}, decks={"0": deck})
    state = play(state, {"type": "discard", "card": hand[0], "returns": [hand[1]]})
    assert state["decks"][0] == deck + [hand[1]]                     # under the deck ...
    assert teams.sideways(state, 0) == 6                            # ... crosswise, still exactly 6 sideways
    assert not teams.deck_exhausted(state, 0)                       # deck[1], sideways before, is upright now
    assert engine.player_view(state, 0)["seats"][0]["sideways"] == 6


# --- legends -----------------------------------------------------------------------------------------

def test_at_the_end_of_a_turn_the_legends_go_to_the_teammate_who_draws_up_to_two():
    state = table(hands={"0": [L1]})
    top = state["legends"]["deck"][0]
    state = places_until_turn_ends(state)
    assert state["turn"]["seat"] == 1
    assert kinds(state["hands"][0]) == {"being": 3, "flare": 1}        # beings and a flare, no legend
    assert [c for c in state["hands"][2] if card_kind(c) == "legend"] == [L1, top]


def test_end_of_turn_legend_passing_is_an_event_shown_to_the_team_only():
    state = table(hands={"0": [L1, L2]}, actions=1)
    events = events_of(state, {"type": "place", "square": "e5"})
    passed = next(e for e in events if e["type"] == "LegendsPassed")
    assert passed == {"type": "LegendsPassed", "seat": 0, "to": 2, "cards": [L1, L2]}
    assert engine.redact(passed, 2)["cards"] == [L1, L2]
    assert "cards" not in engine.redact(passed, 1) and engine.redact(passed, 1)["count"] == 2
    assert not any(e["type"] == "CardsDrawn" and e["deck"] == "legends" for e in events)   # seat 2 holds 2


def test_extra_legend_draws_are_made_by_the_teammate():
    # Forest Mystic (seat 1, team B): one extra school card for the summoner, one extra legend for seat 3
    state = table(board=[pc("e4", 1), pc("d5", 1), pc("f6", 1)], hands={"1": [MYSTIC]}, seat=1, actions=1)
    state = play(state, {"type": "summon", "card": MYSTIC, "square": "e5"})
    assert state["turn"]["seat"] == 2
    assert kinds(state["hands"][1]) == {"being": 4, "flare": 1}
    assert kinds(state["hands"][3])["legend"] == 3


def test_legends_go_to_the_teammate_even_when_an_extra_turn_follows():
    # UNCERTAIN reading (teams.pass_legends): Time Elemental's extra turn begins without legends
    pattern = [pc("d6", rank="heroic"), pc("f6", rank="heroic"), pc("e7", rank="heroic"), pc("d8"), pc("f8")]
    state = table(board=pattern, hands={"0": [TIME, L1]}, actions=1)
    state = play(state, {"type": "summon", "card": TIME, "square": "e5"})
    assert state["turn"]["seat"] == 0 and state["turn"]["extra"] is True
    assert kinds(state["hands"][0])["legend"] == 0 and L1 in state["hands"][2]


# --- passing control ---------------------------------------------------------------------------------

def test_passing_control_hands_over_the_legends_and_leaves_the_teammate_place_actions_only():
    state = table(hands={"0": [SWORD, L1], "2": [GIANT]})
    assert {"type": "pass_control"} in legal(state, 0)
    state = play(state, {"type": "pass_control"}, seat=0)
    assert state["turn"]["control"] == 2 and active_seat(state) == 2
    assert L1 in state["hands"][2] and L1 not in state["hands"][0]
    assert {c["type"] for c in legal(state, 2)} == {"place"}
    assert legal(state, 0) == []
    assert refused(state, {"type": "summon", "card": GIANT, "square": "e5"}, 2) == "places_only"
    assert refused(state, {"type": "place", "square": "e5"}, 0) == "not_your_turn"
    state = play(state, {"type": "place", "square": "e5"}, {"type": "place", "square": "e6"})
    assert at(state, "e5") == (0, "common") and at(state, "e6") == (0, "common")
    assert state["turn"]["seat"] == 1 and "control" not in state["turn"]
    assert kinds(state["hands"][0]) == {"being": 3, "flare": 1}          # the turn's player drew his cards


def test_control_may_be_passed_midway_through_an_effect_and_the_teammate_finishes_it():
    state = table(board=[pc("e4"), pc("e6"), pc("f4", 1), pc("d6", 1)], hands={"0": [SWORD]})
    state = play(state, {"type": "summon", "card": SWORD, "square": "e5"})
    assert state["pending"]["seat"] == 0
    state = play(state, {"type": "pass_control"}, seat=0)
    assert state["pending"]["seat"] == 2 and state["effect"]["seat"] == 0
    assert refused(state, choose("f4"), 0) == "not_your_decision"
    assert SKIP in legal(state, 2)
    state = play(state, choose("f4"))
    assert at(state, "f4") is None and at(state, "e5") == (0, "heroic")
    assert SWORD in state["discards"][0]                                # the card goes to its owner's pile
    assert active_seat(state) == 2 and {c["type"] for c in legal(state, 2)} == {"place"}


def test_the_teammate_also_answers_a_summonings_pick_up_and_his_own_place_shortage():
    state = table(board=[pc("e4"), pc("e6"), pc("c3")], hands={"0": [SWORD]}, supply={"0": {"non_legendary": 0}})
    state = play(state, {"type": "summon", "card": SWORD, "square": "e5"})
    assert state["pending"]["kind"] == "pickup"
    state = play(state, {"type": "pass_control"}, seat=0)
    assert active_seat(state) == 2 and legal(state, 2) == [choose("c3")]
    state = play(state, choose("c3"), {"type": "place", "square": "a5"})
    assert state["pending"] == {**state["pending"], "kind": "place_pickup", "seat": 2}
    state = play(state, choose("e5"))
    assert at(state, "a5") == (0, "common") and at(state, "e5") is None and state["turn"]["seat"] == 1


def test_no_flare_may_be_invoked_once_control_has_been_passed():
    enemies = [pc(sq, 1) for sq in ("a5", "b5", "c5", "d5")]
    state = table(board=enemies, hands={"0": [FLARE], "2": ["flares-02"]})
    assert {"type": "flare", "card": FLARE} in legal(state, 0)
    state = play(state, {"type": "pass_control"}, seat=0)
    assert not any(c["type"] == "flare" for c in legal(state, 2))
    assert refused(state, {"type": "flare", "card": "flares-02"}, 2) == "places_only"
    state = play(state, {"type": "place", "square": "e9"}, {"type": "place", "square": "f9"})
    assert state["turn"]["seat"] == 1 and FLARE in state["hands"][0]   # the open flare did not hold the turn


def test_after_the_teammate_used_the_actions_the_turns_player_claims_a_task_but_invokes_no_flare():
    own = [pc(sq) for sq in ("e4", "d5", "e5", "f5")]
    enemies = [pc(f"{col}{row}", 1) for row, cols in ((1, "cdefg"), (2, "bcdefgh")) for col in cols]
    state = table("high_form", board=own + enemies, hands={"0": [FLARE]},
                  tasks={"current": [CROSS], "deck": ["tasks-destruction"]})
    state = play(state, {"type": "pass_control"}, seat=0)
    state = play(state, {"type": "place", "square": "e6"}, {"type": "place", "square": "e9"})
    assert active_seat(state) == 0 and state["turn"]["seat"] == 0
    assert legal(state, 0) == [{"type": "end_turn"}, {"type": "claim_task", "task": CROSS}]
    assert refused(state, {"type": "flare", "card": FLARE}, 0) == "flares_closed"
    assert refused(state, {"type": "pass_control"}, 0) == "cannot_pass_control"
    state = play(state, {"type": "claim_task", "task": CROSS})
    assert state["tasks"]["claimed"][0] == [CROSS] and state["turn"]["seat"] == 1


def test_control_cannot_be_passed_without_a_teammate_or_off_your_turn_or_with_nothing_left():
    solo = position(hands={"0": [SWORD]})
    assert refused(solo, {"type": "pass_control"}, 0) == "no_teammate"
    state = table()
    assert refused(state, {"type": "pass_control"}, 1) == "not_your_turn"
    assert {"type": "pass_control"} not in legal(state, 1)
    own = [pc(sq) for sq in ("e4", "d5", "e5", "f5", "e6")]
    done = table("high_form", board=own, actions=0, tasks={"current": [CROSS], "deck": []})
    assert active_seat(done) == 0
    assert refused(done, {"type": "pass_control"}, 0) == "cannot_pass_control"
    assert {"type": "pass_control"} not in legal(done, 0)


# --- scores, flares, end and result -------------------------------------------------------------------

def test_duel_points_are_shared_by_the_team():
    pieces = [pc("e6"), pc("d7"), pc("e7"), pc("f7"), pc("e4", 1), pc("d5", 1), pc("f5", 1, "heroic")]
    state = table(board=pieces, hands={"2": [GIANT]}, seat=2, actions=1)
    state = play(state, {"type": "summon", "card": GIANT, "square": "e5"})
    assert state["points"] == [2, 0]
    scores = engine.player_view(state, None)["scores"]
    assert [s["score"] for s in scores] == [2, 0, 2, 0]


def test_tasks_claimed_by_either_teammate_count_for_the_team():
    own = [pc(sq) for sq in ("e4", "d5", "e5", "f5", "e6")]
    state = table("high_form", board=own, seat=2, actions=0, tasks={"current": [CROSS], "deck": []})
    state = play(state, {"type": "claim_task", "task": CROSS})
    view = engine.player_view(state, None)
    assert [s["score"] for s in view["scores"]] == [2, 0, 2, 0]
    assert view["scores"][0]["tasks"] == [CROSS]


def test_flares_compare_team_colour_against_team_colour():
    enemies = [pc(sq, 1) for sq in ("a5", "b5", "c5", "d5")]
    state = table(board=enemies, hands={"2": [FLARE]}, seat=2)
    assert {"type": "flare", "card": FLARE} in legal(state)
    crowded = table(board=enemies + [pc("e9")], hands={"2": [FLARE]}, seat=2)   # a teammate's piece counts
    assert not any(c["type"] == "flare" for c in legal(crowded))
    state = play(state, {"type": "flare", "card": FLARE}, choose("e9"))
    assert at(state, "e9") == (0, "common") and state["points"] == [0, 1]


def test_a_team_reaching_the_threshold_gives_every_player_one_more_turn_then_the_team_wins():
    state = table(seat=1, scores={"1": 18})
    state = places_until_turn_ends(state)
    assert state["final"] == {"seat": 1, "turn": 2, "reason": "threshold"}
    for seat in (2, 3, 0, 1):
        assert state["phase"] == "play" and state["turn"]["seat"] == seat
        state = places_until_turn_ends(state)
    assert state["phase"] == "over" and state["result"]["winners"] == [1, 3]
    assert [r["place"] for r in state["result"]["standings"]] == [1, 1, 3, 3]


def test_a_resigning_player_resigns_for_the_team():
    state = play(table(), {"type": "resign"}, seat=2)
    assert state["result"]["reason"] == "resignation" and sorted(state["result"]["winners"]) == [1, 3]
