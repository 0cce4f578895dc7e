"""The flare deck (12 cards): each flare invoked when its criterion holds, half by half.

Upper criterion: the opponent has at least N more upgraded pieces on the board; lower: at least N
more pieces. Both halves resolve upper first. Duel: the opponent scores 1 per flare invoked.
Seat 1's pieces stand on the bottom rows (see `enemy`); seat 0's pieces are given per test.
"""
import pytest

import engine
from engine.state import active_seat, score
from tests.engine.helpers import SKIP, at, choose, legal, move, play, position

RANK = {"c": "common", "h": "heroic", "l": "legendary"}
FILLER = ["c9", "d9", "e9", "f9", "g9", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "a7", "b7", "i7"]


def pcs(seat: int, spec: str) -> list[dict]:
    """Pieces of `seat` from 'e4h d2c f3l' (square then rank letter)."""
    return [{"square": tok[:-1], "seat": seat, "rank": RANK[tok[-1]]} for tok in spec.split()]


def enemy(heroic: int = 0, common: int = 0, extra: str = "") -> str:
    """Seat 1's pieces: `heroic` heroics then `common` commons on the bottom rows, plus `extra`."""
    squares = iter(FILLER)
    spec = [f"{next(squares)}h" for _ in range(heroic)] + [f"{next(squares)}c" for _ in range(common)]
    return " ".join(spec + ([extra] if extra else []))


def start(card: str, mine: str = "", theirs: str = "", actions: int = 2, **extra) -> dict:
    board = (pcs(0, mine) if mine else []) + (pcs(1, theirs) if theirs else [])
    return position(board=board, hands={"0": [card]}, actions=actions, **extra)


def flare(card: str, against: int | None = None) -> dict:
    cmd = {"type": "flare", "card": card}
    if against is not None:
        cmd["against"] = against
    return cmd


def refused(state: dict, command: dict) -> str:
    with pytest.raises(engine.RuleError) as err:
        engine.decide(state, {"seat": active_seat(state), **command})
    return err.value.code


def all_legal_accepted(state: dict) -> None:
    for cmd in legal(state):
        engine.decide(state, {"seat": active_seat(state), **cmd})


def invoked(state: dict, card: str) -> None:
    """The flare left the hand for the flare discard pile and the opponent scored its point."""
    assert card not in state["hands"][0]
    assert card in state["flares"]["discard"]
    assert state["points"] == [0, 1]


def option(label: str) -> dict:
    return {"type": "choose", "option": label}


def squares_of(options: list[dict]) -> set[str]:
    return {o["square"] for o in options if "square" in o}


# --- flares-00: 3 upgraded -> place a common; 6 pieces -> place a heroic ------------------------------

def test_flares_00_upper_places_a_common():
    state = start("flares-00", theirs=enemy(3))
    assert flare("flares-00") in legal(state)
    state = play(state, flare("flares-00"))
    assert state["pending"]["ask"] == "square" and not state["pending"]["can_skip"]
    assert len(legal(state)) == 69 - 3                     # every empty square, no skip
    state = play(state, choose("e5"))
    assert at(state, "e5") == (0, "common")
    assert state["pending"] is None and state["turn"]["actions"] == 2   # a flare costs no action
    invoked(state, "flares-00")


def test_flares_00_lower_places_a_heroic():
    state = play(start("flares-00", theirs=enemy(0, 6)), flare("flares-00"), choose("e5"))
    assert at(state, "e5") == (0, "heroic")
    invoked(state, "flares-00")


def test_flares_00_both_halves_upper_first():
    state = play(start("flares-00", theirs=enemy(3, 3)), flare("flares-00"), choose("e5"))
    assert at(state, "e5") == (0, "common")
    assert state["pending"] is not None                    # now the lower half
    all_legal_accepted(state)
    state = play(state, choose("e6"))
    assert at(state, "e6") == (0, "heroic")
    invoked(state, "flares-00")                            # one point, not two


def test_flares_00_with_empty_supply_is_still_invoked_and_scores():
    state = start("flares-00", theirs=enemy(3, 3), supply={"0": {"non_legendary": 0}})
    state = play(state, flare("flares-00"))
    assert state["pending"] is None
    assert not any(p[1] == 0 for p in state["board"].values())
    invoked(state, "flares-00")


def test_flares_00_refused_when_no_criterion_holds():
    state = start("flares-00", theirs=enemy(2, 3))
    assert flare("flares-00") not in legal(state)
    assert refused(state, flare("flares-00")) == "flare_criteria_not_met"


def test_flares_00_with_no_action_left_turn_ends_after_it():
    state = start("flares-00", theirs=enemy(3), actions=0)
    assert state["turn"]["seat"] == 0                      # waits: a flare can still be invoked
    state = play(state, flare("flares-00"), choose("e5"))
    assert state["turn"]["seat"] == 1


# --- flares-01: 4 upgraded -> place a common; 4 pieces -> place a common -----------------------------

def test_flares_01_upper_only_places_one_common():
    state = play(start("flares-01", "a5c", enemy(4)), flare("flares-01"), choose("e5"))
    assert at(state, "e5") == (0, "common") and state["pending"] is None
    invoked(state, "flares-01")


def test_flares_01_lower_only_places_one_common():
    state = play(start("flares-01", theirs=enemy(0, 4)), flare("flares-01"), choose("e5"))
    assert at(state, "e5") == (0, "common") and state["pending"] is None


def test_flares_01_both_halves_place_two_commons():
    state = play(start("flares-01", theirs=enemy(4)), flare("flares-01"), choose("e5"), choose("e6"))
    assert at(state, "e5") == (0, "common") and at(state, "e6") == (0, "common")
    invoked(state, "flares-01")


def test_flares_01_refused_below_both_thresholds():
    state = start("flares-01", "a5c", enemy(3, 1))
    assert refused(state, flare("flares-01")) == "flare_criteria_not_met"


# --- flares-02: 3 upgraded -> up to 3 standard moves with own commons; 5 pieces -> gain an action ----

def test_flares_02_upper_up_to_three_standard_moves():
    state = start("flares-02", "e5c c2c", enemy(3, 0, "d5c"))
    state = play(state, flare("flares-02"))
    options = legal(state)
    assert SKIP in options
    assert move("e5", "d5") not in options                 # a common cannot capture a common (standard)
    assert move("e5", "e4") in options and move("c2", "c3") in options
    all_legal_accepted(state)
    state = play(state, move("e5", "e4"), move("e4", "e3"), move("c2", "c3"))
    assert state["pending"] is None
    assert at(state, "e3") == (0, "common") and at(state, "c3") == (0, "common")
    assert state["turn"]["actions"] == 2
    invoked(state, "flares-02")


def test_flares_02_upper_optional():
    state = play(start("flares-02", "e5c", enemy(3)), flare("flares-02"), SKIP)
    assert at(state, "e5") == (0, "common") and state["pending"] is None
    state = play(start("flares-02", "e5c", enemy(3)), flare("flares-02"), move("e5", "e4"), SKIP)
    assert at(state, "e4") == (0, "common") and state["pending"] is None


def test_flares_02_lower_gains_an_action():
    state = start("flares-02", theirs=enemy(0, 5), actions=0)
    state = play(state, flare("flares-02"))
    assert state["turn"]["seat"] == 0 and state["turn"]["actions"] == 1
    invoked(state, "flares-02")


def test_flares_02_both_halves():
    state = start("flares-02", "e5c c2c", enemy(3, 4), actions=0)
    state = play(state, flare("flares-02"), move("e5", "e4"), SKIP)
    assert at(state, "e4") == (0, "common")
    assert state["turn"]["actions"] == 1


# --- flares-03: 4 upgraded -> place a common; 5 pieces -> place a common or convert an enemy common --

def test_flares_03_upper_places_a_common():
    state = play(start("flares-03", theirs=enemy(4)), flare("flares-03"), choose("e5"))
    assert at(state, "e5") == (0, "common") and state["pending"] is None
    invoked(state, "flares-03")


def test_flares_03_lower_converts_an_enemy_common():
    state = play(start("flares-03", theirs=enemy(1, 4)), flare("flares-03"))
    assert legal(state) == [option("place"), option("convert")]
    state = play(state, option("convert"))
    assert squares_of(legal(state)) == {"d9", "e9", "f9", "g9"}   # commons only, not the heroic
    state = play(state, choose("e9"))
    assert at(state, "e9") == (0, "common")
    assert state["turn"]["destroyed"] == [[1, 1]]          # a conversion counts as destroying


def test_flares_03_lower_places():
    state = play(start("flares-03", theirs=enemy(0, 5)), flare("flares-03"), option("place"), choose("e5"))
    assert at(state, "e5") == (0, "common")
    assert state["turn"]["destroyed"] == []


def test_flares_03_both_halves_upper_first():
    state = play(start("flares-03", theirs=enemy(4, 1)), flare("flares-03"), choose("e5"))
    assert state["pending"]["ask"] == "option"
    state = play(state, option("convert"))                 # g9, the single enemy common: no question
    assert at(state, "e5") == (0, "common") and at(state, "g9") == (0, "common")
    invoked(state, "flares-03")


def test_flares_03_convert_without_supply_does_nothing():
    state = start("flares-03", theirs=enemy(0, 5), supply={"0": {"non_legendary": 0}})
    state = play(state, flare("flares-03"))                # neither branch can act: nothing is asked
    assert state["pending"] is None
    assert at(state, "c9") == (1, "common")
    invoked(state, "flares-03")


# --- flares-04: 3 upgraded -> one standard move or upgrade of an own common; 6 pieces -> two commons --

def test_flares_04_upper_standard_move():
    state = play(start("flares-04", "e5c", enemy(3)), flare("flares-04"))
    assert legal(state) == [option("move"), option("upgrade")]
    state = play(state, option("move"))
    assert not state["pending"]["can_skip"]                # mandatory
    state = play(state, move("e5", "e4"))
    assert at(state, "e4") == (0, "common") and state["pending"] is None
    invoked(state, "flares-04")


def test_flares_04_upper_upgrade():
    state = play(start("flares-04", "e5c", enemy(3)), flare("flares-04"), option("upgrade"))
    assert at(state, "e5") == (0, "heroic")                # the single candidate is taken at once
    assert state["pending"] is None


def test_flares_04_lower_places_two_commons():
    state = play(start("flares-04", theirs=enemy(0, 6)), flare("flares-04"), choose("e5"))
    assert state["pending"]["info"] == {"op": "place", "done": 1, "of": 2}
    state = play(state, choose("e6"))
    assert at(state, "e5") == (0, "common") and at(state, "e6") == (0, "common")


def test_flares_04_both_halves_and_short_supply():
    state = start("flares-04", "e5c", enemy(3, 4), supply={"0": {"non_legendary": 1}})
    state = play(state, flare("flares-04"), option("upgrade"), choose("a5"))
    assert at(state, "e5") == (0, "heroic") and at(state, "a5") == (0, "common")
    assert state["pending"] is None                        # the supply had one piece only
    invoked(state, "flares-04")


# --- flares-05: 4 upgraded -> place or upgrade an own common; 4 pieces -> may combat-leap a common ----

def test_flares_05_upper_places_or_upgrades():
    state = play(start("flares-05", "e5c", enemy(4)), flare("flares-05"))
    assert legal(state) == [option("place"), option("upgrade")]
    placed = play(state, option("place"), choose("a5"))
    assert at(placed, "a5") == (0, "common") and placed["pending"] is None
    upgraded = play(state, option("upgrade"))
    assert at(upgraded, "e5") == (0, "heroic") and upgraded["pending"] is None
    invoked(upgraded, "flares-05")


def test_flares_05_lower_combat_leap_captures_a_common():
    state = play(start("flares-05", "e5c", enemy(1, 4)), flare("flares-05"))
    options = legal(state)
    assert SKIP in options
    assert move("e5", "d9") in options                     # onto an enemy common
    assert move("e5", "c9") not in options                 # not onto the heroic
    assert move("e5", "a5") in options                     # any empty square
    state = play(state, move("e5", "d9"))
    assert at(state, "d9") == (0, "common") and at(state, "e5") is None
    assert state["turn"]["destroyed"] == [[1, 1]]


def test_flares_05_lower_may_be_declined():
    state = play(start("flares-05", "e5c", enemy(0, 5)), flare("flares-05"), SKIP)
    assert at(state, "e5") == (0, "common")
    invoked(state, "flares-05")


def test_flares_05_both_upgrade_first_leaves_no_common_to_leap():
    state = play(start("flares-05", "e5c", enemy(4, 1)), flare("flares-05"), option("upgrade"))
    assert at(state, "e5") == (0, "heroic")
    assert state["pending"] is None                        # the lower half finds no own common


def test_flares_05_both_place_then_leap():
    state = play(start("flares-05", "e5c", enemy(4, 1)), flare("flares-05"), option("place"), choose("a5"))
    state = play(state, move("a5", "g9"))                  # g9: the enemy common
    assert at(state, "g9") == (0, "common") and at(state, "a5") is None


# --- flares-06: 4 upgraded -> place a common; 6 pieces -> upgrade an own common, gain an action ------

def test_flares_06_upper_places_a_common():
    state = play(start("flares-06", theirs=enemy(4)), flare("flares-06"), choose("e5"))
    assert at(state, "e5") == (0, "common") and state["turn"]["actions"] == 2
    invoked(state, "flares-06")


def test_flares_06_lower_upgrades_and_gains_an_action():
    state = play(start("flares-06", "e5c", enemy(0, 7), actions=0), flare("flares-06"))
    assert at(state, "e5") == (0, "heroic")
    assert state["turn"]["seat"] == 0 and state["turn"]["actions"] == 1


def test_flares_06_lower_without_common_still_gains_the_action():
    state = play(start("flares-06", "e5h", enemy(0, 7), actions=0), flare("flares-06"))
    assert at(state, "e5") == (0, "heroic")
    assert state["turn"]["actions"] == 1


def test_flares_06_both_halves():
    state = play(start("flares-06", "e5c", enemy(4, 3), actions=0), flare("flares-06"), choose("a5"))
    assert squares_of(legal(state)) == {"a5", "e5"}        # the piece just placed may be upgraded
    state = play(state, choose("a5"))
    assert at(state, "a5") == (0, "heroic") and at(state, "e5") == (0, "common")
    assert state["turn"]["actions"] == 1
    invoked(state, "flares-06")


# --- flares-07: 4 upgraded -> gain an action; 5 pieces -> place a common -----------------------------

def test_flares_07_upper_gains_an_action():
    state = play(start("flares-07", theirs=enemy(4), actions=0), flare("flares-07"))
    assert state["turn"]["actions"] == 1 and state["pending"] is None
    invoked(state, "flares-07")


def test_flares_07_lower_places_a_common():
    state = play(start("flares-07", theirs=enemy(0, 5), actions=0), flare("flares-07"), choose("e5"))
    assert at(state, "e5") == (0, "common")
    assert state["turn"]["seat"] == 1                      # no action gained: the turn is over


def test_flares_07_both_halves():
    state = play(start("flares-07", theirs=enemy(4, 1), actions=0), flare("flares-07"))
    assert state["turn"]["actions"] == 1                   # upper first
    state = play(state, choose("e5"))
    assert at(state, "e5") == (0, "common") and state["turn"]["actions"] == 1


def test_flares_07_melee_point_goes_to_the_compared_opponent_in_invokers_colour():
    board = pcs(1, enemy(4))
    state = position(board=board, form="melee", hands={"0": ["flares-07"]})
    assert flare("flares-07", 1) in legal(state)
    assert flare("flares-07", 2) not in legal(state)
    assert refused(state, flare("flares-07")) == "choose_opponent"
    assert refused(state, flare("flares-07", 2)) == "flare_criteria_not_met"
    state = play(state, flare("flares-07", 1))
    assert state["turn"]["actions"] == 3
    assert state["points"] == [[0, 0, 0], [1, 0, 0], [0, 0, 0]]


def test_flares_07_high_form_scores_nothing():
    state = position(board=pcs(1, enemy(4)), form="high_form", hands={"0": ["flares-07"]})
    state = play(state, flare("flares-07"))
    assert state["turn"]["actions"] == 3
    assert score(state, 0) == 0 and score(state, 1) == 0


# --- flares-08: 5 upgraded -> place a heroic; 4 pieces -> one standard and one combat move -----------

def test_flares_08_upper_places_a_heroic():
    state = play(start("flares-08", "a5c b5c", enemy(5)), flare("flares-08"), choose("e5"))
    assert at(state, "e5") == (0, "heroic") and state["pending"] is None
    invoked(state, "flares-08")


def test_flares_08_lower_combat_then_standard():
    state = play(start("flares-08", "e5c c2c", enemy(0, 4, "e4c d3c")), flare("flares-08"))
    assert move("e5", "e4") in legal(state) and SKIP in legal(state)
    state = play(state, move("e5", "e4"))                  # the combat move (captures a common)
    options = legal(state)
    assert move("e4", "d3") not in options and move("c2", "d3") not in options
    assert move("c2", "c3") in options
    state = play(state, move("c2", "c3"))
    assert state["pending"] is None
    assert state["turn"]["destroyed"] == [[1, 1]]


def test_flares_08_lower_standard_then_combat():
    state = play(start("flares-08", "e5c c2c", enemy(0, 4, "e4c d3c")), flare("flares-08"),
                 move("e5", "f5"), move("c2", "d3"))
    assert at(state, "f5") == (0, "common") and at(state, "d3") == (0, "common")
    assert state["pending"] is None


def test_flares_08_lower_optional_and_both_halves():
    state = play(start("flares-08", "e5c c2c", enemy(0, 6)), flare("flares-08"), SKIP)
    assert state["pending"] is None
    state = play(start("flares-08", "e5c c2c", enemy(5, 1)), flare("flares-08"), choose("a5"))
    assert at(state, "a5") == (0, "heroic")
    assert state["pending"]["ask"] == "move"               # then the lower half
    state = play(state, move("e5", "e4"), move("e4", "e3"))
    assert at(state, "e3") == (0, "common")


# --- flares-09: 5 upgraded -> place two commons; 5 pieces -> place a common --------------------------

def test_flares_09_upper_places_two_commons():
    state = play(start("flares-09", "a5c", enemy(5)), flare("flares-09"), choose("e5"), choose("e6"))
    assert at(state, "e5") == (0, "common") and at(state, "e6") == (0, "common")
    assert state["pending"] is None
    invoked(state, "flares-09")


def test_flares_09_lower_places_one_common():
    state = play(start("flares-09", theirs=enemy(0, 5)), flare("flares-09"), choose("e5"))
    assert at(state, "e5") == (0, "common") and state["pending"] is None


def test_flares_09_both_halves_place_three_until_supply_runs_out():
    state = play(start("flares-09", theirs=enemy(5)), flare("flares-09"), choose("e5"), choose("e6"), choose("e7"))
    assert [at(state, sq) for sq in ("e5", "e6", "e7")] == [(0, "common")] * 3
    state = start("flares-09", theirs=enemy(5), supply={"0": {"non_legendary": 2}})
    state = play(state, flare("flares-09"), choose("e5"), choose("e6"))
    assert state["pending"] is None


# --- flares-10: 3 upgraded -> place a common; 4 pieces -> one combat move or two standard moves ------

def test_flares_10_upper_places_a_common():
    state = play(start("flares-10", theirs=enemy(3)), flare("flares-10"), choose("e5"))
    assert at(state, "e5") == (0, "common") and state["pending"] is None
    invoked(state, "flares-10")


def test_flares_10_lower_one_combat_move():
    state = play(start("flares-10", "e5h f5l", enemy(0, 5, "e4h")), flare("flares-10"))
    assert legal(state) == [option("combat"), option("two standard"), SKIP]
    state = play(state, option("combat"))
    assert all(o["from"] == "e5" for o in legal(state) if o["type"] == "move")   # not the legend
    state = play(state, move("e5", "e4"))                  # heroic captures heroic
    assert at(state, "e4") == (0, "heroic") and state["pending"] is None
    assert state["turn"]["destroyed"] == [[1, 2]]


def test_flares_10_lower_two_standard_moves():
    state = play(start("flares-10", "e5h", enemy(0, 4, "e4h d4c")), flare("flares-10"), option("two standard"))
    assert move("e5", "e4") not in legal(state)            # standard: no capture of an equal rank
    state = play(state, move("e5", "d4"), move("d4", "c4"))
    assert at(state, "c4") == (0, "heroic") and state["pending"] is None


def test_flares_10_lower_declined():
    state = play(start("flares-10", "e5h", enemy(0, 5)), flare("flares-10"), SKIP)
    assert at(state, "e5") == (0, "heroic") and state["pending"] is None
    invoked(state, "flares-10")


def test_flares_10_both_halves():
    state = play(start("flares-10", "e5h", enemy(4, 1)), flare("flares-10"), choose("a5"), option("two standard"),
                 move("a5", "a4"), SKIP)
    assert at(state, "a4") == (0, "common") and state["pending"] is None


# --- flares-11: 2 upgraded -> may standard-leap a common; 5 pieces -> gain an action ----------------

def test_flares_11_upper_standard_leap_to_an_empty_square():
    state = play(start("flares-11", "e5c", enemy(2, 0, "a5c")), flare("flares-11"))
    options = legal(state)
    assert SKIP in options
    assert move("e5", "a5") not in options and move("e5", "c9") not in options
    assert len(options) == 69 - 4 + 1                      # every empty square, and skip
    state = play(state, move("e5", "i5"))
    assert at(state, "i5") == (0, "common") and at(state, "e5") is None
    invoked(state, "flares-11")


def test_flares_11_lower_gains_an_action():
    state = play(start("flares-11", theirs=enemy(0, 5), actions=0), flare("flares-11"))
    assert state["turn"]["actions"] == 1


def test_flares_11_both_halves():
    state = play(start("flares-11", "e5c", enemy(2, 4), actions=0), flare("flares-11"), SKIP)
    assert state["turn"]["actions"] == 1 and at(state, "e5") == (0, "common")
    invoked(state, "flares-11")


def test_flares_11_refused_below_both_thresholds():
    state = start("flares-11", "e5c", enemy(1, 4))
    assert refused(state, flare("flares-11")) == "flare_criteria_not_met"


def test_flares_11_not_during_an_effect():
    # a legend's effect is waiting for an answer: no flare may be slipped in (RULES 6.1, 8.2)
    state = position(board=pcs(0, "d4c f4c d5h e5c f5h e6c") + pcs(1, enemy(6, 7)),
                     hands={"0": ["legends-hell-bull", "flares-11"]})
    state = play(state, {"type": "summon", "card": "legends-hell-bull", "square": "e5"})
    assert state["pending"]["kind"] == "effect"
    assert refused(state, flare("flares-11")) == "decision_pending"
    state = play(state, SKIP, flare("flares-11"), SKIP)
    assert "flares-11" in state["flares"]["discard"]
