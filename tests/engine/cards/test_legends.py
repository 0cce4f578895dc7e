"""The legends deck (12 cards): each legend summoned through the engine on a pattern that fits.

Duel scores: +1 for the summoned legend at once, destroyed enemy pieces scored at the end of the
turn (2 per legendary, 1 per heroic, 1 per pair of commons). Positions give seat 0 one action, so
the turn ends (and destruction is scored) as soon as the effect is over.
"""
import pytest

import engine
from engine.state import score
from tests.engine.helpers import SKIP, at, choose, legal, move, play, position

RANK = {"c": "common", "h": "heroic", "l": "legendary"}


def pcs(seat: int, spec: str) -> list[dict]:
    """Pieces of `seat` from 'e4h d2c f3l' (square then rank letter)."""
    return [{"square": tok[:-1], "seat": seat, "rank": RANK[tok[-1]]} for tok in spec.split()]


def summon(card: str, square: str) -> dict:
    return {"type": "summon", "card": card, "square": square}


def start(card: str, mine: str, theirs: str = "", actions: int = 1, **extra) -> dict:
    """Seat 0 to act, holding `card`, with its pieces `mine` and seat 1's pieces `theirs`."""
    board = pcs(0, mine) + (pcs(1, theirs) if theirs else [])
    return position(board=board, hands={"0": [card]}, actions=actions, **extra)


def all_legal_accepted(state: dict) -> None:
    """Every command legal_commands lists is accepted by decide."""
    seat = engine.state.active_seat(state)
    for cmd in legal(state):
        engine.decide(state, {"seat": seat, **cmd})


def refused(state: dict, command: dict) -> str:
    seat = engine.state.active_seat(state)
    with pytest.raises(engine.RuleError) as err:
        engine.decide(state, {"seat": seat, **command})
    return err.value.code


def squares_of(options: list[dict]) -> set[str]:
    return {o["square"] for o in options if "square" in o}


# --- Fire Dragon: d2 H, f2 H, e3 C, e4 H for the being on e5; arrows w, e, sw, s, se ---------------

DRAGON = "legends-fire-dragon"
DRAGON_PATTERN = "d2h f2h e3c e4h"


def test_legends_fire_dragon_burns_three_rays():
    state = start(DRAGON, DRAGON_PATTERN + " c7c", "e6l e7c d6h f6c d5c")
    state = play(state, summon(DRAGON, "e5"))
    assert at(state, "e5") == (0, "legendary")
    assert state["points"] == [1, 0]                       # the legend scores at once
    assert state["pending"]["ask"] == "direction"
    assert sorted(legal(state), key=str) == sorted(
        [{"type": "choose", "direction": d} for d in ("w", "e", "sw", "s", "se")], key=str)
    all_legal_accepted(state)
    state = play(state, {"type": "choose", "direction": "s"})
    assert at(state, "e6") == (1, "legendary")             # legends are spared...
    assert at(state, "e7") is None                         # ...and do not shield
    assert at(state, "d6") is None and at(state, "c7") is None   # sw ray, own piece too
    assert at(state, "f6") is None                         # se ray
    assert at(state, "d5") == (1, "common")                # w is not burnt
    assert at(state, "e4") == (0, "heroic")                # pattern pieces behind are safe
    # end of turn: heroic 1 + a pair of commons 1 (the own common scores nothing)
    assert state["turn"]["seat"] == 1
    assert state["points"] == [3, 0]


def test_legends_fire_dragon_side_arrow_burns_unmarked_diagonal():
    state = start(DRAGON, DRAGON_PATTERN, "d5c c5c d4h c3c d6c f5c")
    state = play(state, summon(DRAGON, "e5"), {"type": "choose", "direction": "w"})
    for sq in ("d5", "c5", "d4", "c3", "d6"):              # w, then nw and sw at 45 degrees
        assert at(state, sq) is None
    assert at(state, "f5") == (1, "common")
    assert state["points"] == [1 + 1 + 2, 0]               # legend, heroic, two pairs of commons


def test_legends_fire_dragon_rays_stop_at_the_edge():
    # being on e8 (pattern d5 f5 e6 e7): the s ray has one square (e9), the se ray f9, the sw ray d9
    state = start(DRAGON, "d5h f5h e6c e7h", "e9c f9c d9h")
    state = play(state, summon(DRAGON, "e8"), {"type": "choose", "direction": "s"})
    assert all(at(state, sq) is None for sq in ("e9", "f9", "d9"))
    assert state["points"] == [1 + 1 + 1, 0]


def test_legends_fire_dragon_arrow_past_the_edge_still_fans_out():
    # being on b8 (pattern a5 c5 b6 b7): the w, sw and s arrows point off the board, yet
    # choosing w burns the nw ray (a7) at 45 degrees
    state = start(DRAGON, "a5h c5h b6c b7h", "a7c c9c c8c")
    state = play(state, summon(DRAGON, "b8"))
    assert {o["direction"] for o in legal(state)} == {"w", "e", "sw", "s", "se"}
    state = play(state, {"type": "choose", "direction": "w"})
    assert at(state, "a7") is None
    assert at(state, "c9") == (1, "common") and at(state, "c8") == (1, "common")


# --- Hell Bull: d4 C, f4 C, d5 H, e5 own C (being square), f5 H, e6 C ------------------------------

BULL = "legends-hell-bull"
BULL_PATTERN = "d4c f4c d5h e5c f5h e6c"


def test_legends_hell_bull_charges_until_it_kills_a_legend():
    state = start(BULL, BULL_PATTERN, "e4c e3l e2c")
    state = play(state, summon(BULL, "e5"))
    assert at(state, "e5") == (0, "legendary")             # the own common on e5 became the Bull
    assert state["turn"]["destroyed"] == []                # over-summoning an own piece scores nothing
    assert state["pending"]["can_skip"]
    assert len(legal(state)) == 9                          # 8 directions (any piece) + skip
    all_legal_accepted(state)
    state = play(state, move("e5", "e4"))
    assert legal(state) == [move("e4", "e3"), SKIP]        # the direction is now fixed
    state = play(state, move("e4", "e3"))                  # destroys the legend: the charge stops
    assert at(state, "e3") == (0, "legendary")
    assert at(state, "e2") == (1, "common")
    assert state["points"] == [1 + 2, 0]                   # legend + legendary victim (odd common: 0)


def test_legends_hell_bull_may_stop_or_not_move():
    state = start(BULL, BULL_PATTERN, "e4c e3l e2c")
    state = play(state, summon(BULL, "e5"), move("e5", "e4"), SKIP)
    assert at(state, "e4") == (0, "legendary") and at(state, "e3") == (1, "legendary")
    state = start(BULL, BULL_PATTERN, "e4c")
    state = play(state, summon(BULL, "e5"), SKIP)
    assert at(state, "e5") == (0, "legendary") and at(state, "e4") == (1, "common")


def test_legends_hell_bull_runs_to_the_edge():
    state = start(BULL, BULL_PATTERN, "e3h")
    state = play(state, summon(BULL, "e5"), move("e5", "e4"), move("e4", "e3"), move("e3", "e2"),
                 move("e2", "e1"))
    assert state["pending"] is None                        # no square beyond e1
    assert at(state, "e1") == (0, "legendary")
    assert state["points"] == [2, 0]


def test_legends_hell_bull_needs_own_piece_on_its_square():
    state = start(BULL, "d4c f4c d5h f5h e6c", "e5c")
    assert refused(state, summon(BULL, "e5")) == "pattern_not_matched"


# --- Angel of Death: d4 C, f4 C, c5 C, e5 own H (being square), g5 C, e6 C --------------------------

ANGEL = "legends-angel-of-death"
ANGEL_PATTERN = "d4c f4c c5c e5h g5c e6c"


def test_legends_angel_of_death_upgrades_then_leaps_on_victim():
    state = start(ANGEL, ANGEL_PATTERN, "h8c")
    state = play(state, summon(ANGEL, "e5"))
    options = squares_of(legal(state))
    assert "e5" not in options                             # not the Angel itself
    assert {"h8", "d4", "e6"} <= options                   # any piece, own ones included
    assert SKIP in legal(state)
    state = play(state, choose("h8"))                      # upgrade and leap are automatic
    assert at(state, "e5") is None
    assert at(state, "h8") == (0, "legendary")
    assert state["points"] == [1 + 1, 0]                   # the common died a heroic


def test_legends_angel_of_death_heroic_victim_dies_legendary():
    state = start(ANGEL, ANGEL_PATTERN, "b2h")
    state = play(state, summon(ANGEL, "e5"), choose("b2"))
    assert at(state, "b2") == (0, "legendary")
    assert state["points"] == [1 + 2, 0]


def test_legends_angel_of_death_heroic_victim_without_enemy_legend_supply():
    state = start(ANGEL, ANGEL_PATTERN, "b2h", supply={"1": {"legendary": 0}})
    state = play(state, summon(ANGEL, "e5"), choose("b2"))
    assert at(state, "b2") == (0, "legendary")
    assert state["points"] == [1 + 1, 0]                   # no upgrade possible: scored as heroic


def test_legends_angel_of_death_legendary_target_is_still_captured():
    state = start(ANGEL, ANGEL_PATTERN, "c2l")
    state = play(state, summon(ANGEL, "e5"), choose("c2"))
    assert at(state, "c2") == (0, "legendary") and at(state, "e5") is None
    assert state["points"] == [1 + 2, 0]


def test_legends_angel_of_death_own_target_and_decline():
    state = start(ANGEL, ANGEL_PATTERN, "h8c")
    state = play(state, summon(ANGEL, "e5"), choose("e6"))
    assert at(state, "e6") == (0, "legendary") and at(state, "e5") is None
    assert state["points"] == [1, 0]                       # own victim: no score
    state = play(start(ANGEL, ANGEL_PATTERN, "h8c"), summon(ANGEL, "e5"), SKIP)
    assert at(state, "e5") == (0, "legendary") and at(state, "h8") == (1, "common")


# --- The Eldest Tree: f4 H, c5 C, g5 C, d6 H --------------------------------------------------------

TREE = "legends-the-eldest-tree"
TREE_PATTERN = "f4h c5c g5c d6h"


def test_legends_the_eldest_tree_destroys_upgrades_and_places():
    state = start(TREE, TREE_PATTERN + " f5c", "d4l e4c d5h")
    state = play(state, summon(TREE, "e5"))
    # enemy legend d4 and own heroics f4, d6 cannot be chosen
    assert squares_of(legal(state)) == {"e4", "d5", "f5", "e6", "f6"}
    assert SKIP in legal(state)
    all_legal_accepted(state)
    state = play(state, choose("d5"))
    assert "d5" not in squares_of(legal(state))
    state = play(state, choose("f5"), choose("e6"))
    assert state["pending"] is None                        # three squares: done
    assert at(state, "d5") is None
    assert at(state, "f5") == (0, "heroic")
    assert at(state, "e6") == (0, "common")
    assert at(state, "e4") == (1, "common") and at(state, "f6") is None
    assert state["points"] == [1 + 1, 0]


def test_legends_the_eldest_tree_stop_early_and_empty_supply():
    state = start(TREE, TREE_PATTERN, "e4c", supply={"0": {"non_legendary": 0}})
    state = play(state, summon(TREE, "e5"))
    assert squares_of(legal(state)) == {"e4"}              # nothing to place with
    state = play(state, choose("e4"))
    assert state["pending"] is None
    state = start(TREE, TREE_PATTERN, "e4c")
    state = play(state, summon(TREE, "e5"), choose("e6"), SKIP)
    assert at(state, "e6") == (0, "common") and at(state, "e4") == (1, "common")


# --- Bone Catapult: d4 C, d6 H, e6 H, f6 H; arrows n, ne, w, e --------------------------------------

CATAPULT = "legends-bone-catapult"
CATAPULT_PATTERN = "d4c d6h e6h f6h"


def test_legends_bone_catapult_hits_a_piece_on_a_ray_and_its_common_neighbours():
    state = start(CATAPULT, CATAPULT_PATTERN + " f2c", "e4c e2h e1c d1c f3h g3c c4c")
    state = play(state, summon(CATAPULT, "e5"))
    # pieces on the n, ne, w, e rays (e4 does not block e2); the nw pattern piece and c4 are off-ray
    assert squares_of(legal(state)) == {"e4", "e2", "e1", "g3"}
    all_legal_accepted(state)
    state = play(state, choose("e2"))
    assert at(state, "e2") is None
    assert at(state, "e1") is None and at(state, "d1") is None and at(state, "f2") is None
    assert at(state, "f3") == (1, "heroic")                # only commons splash
    assert at(state, "e4") == (1, "common")                # distance 2 from the target
    assert state["points"] == [1 + 1 + 1, 0]               # legend, heroic, pair of enemy commons


def test_legends_bone_catapult_legendary_target_and_decline():
    state = start(CATAPULT, CATAPULT_PATTERN, "h5l")
    state = play(state, summon(CATAPULT, "e5"), choose("h5"))
    assert at(state, "h5") is None
    assert state["points"] == [1 + 2, 0]
    state = play(start(CATAPULT, CATAPULT_PATTERN, "h5l"), summon(CATAPULT, "e5"), SKIP)
    assert at(state, "h5") == (1, "legendary")


def test_legends_bone_catapult_orientation_decides_the_arrows():
    # f4 lets the mirrored pattern fit too: its arrows are n, nw, w, e instead of n, ne, w, e
    state = start(CATAPULT, CATAPULT_PATTERN + " f4c", "c3h g3h")
    state = play(state, summon(CATAPULT, "e5"))
    assert state["pending"]["kind"] == "orientation"
    assert legal(state) == [{"type": "choose", "orientation": 0}, {"type": "choose", "orientation": 4}]
    mirrored = play(state, {"type": "choose", "orientation": 4})
    assert "c3" in squares_of(legal(mirrored)) and "g3" not in squares_of(legal(mirrored))
    mirrored = play(mirrored, choose("c3"))
    assert at(mirrored, "c3") is None and at(mirrored, "d4") is None   # own common splashed
    plain = play(state, {"type": "choose", "orientation": 0})
    assert "g3" in squares_of(legal(plain)) and "c3" not in squares_of(legal(plain))


# --- Fire Elemental: d6 H, f6 C, c7 H, e7 C, g7 C ---------------------------------------------------

FIRE_ELEMENTAL = "legends-fire-elemental"
FIRE_PATTERN = "d6h f6c c7h e7c g7c"


def test_legends_fire_elemental_adjacent_option():
    state = start(FIRE_ELEMENTAL, FIRE_PATTERN + " d5c", "e4h f5c d4l g3c c3h")
    state = play(state, summon(FIRE_ELEMENTAL, "e5"))
    assert legal(state) == [{"type": "choose", "option": "adjacent"}, {"type": "choose", "option": "distance 2"}]
    assert refused(state, SKIP) == "step_not_optional"
    state = play(state, {"type": "choose", "option": "adjacent"})
    assert at(state, "e4") is None and at(state, "f5") is None
    assert at(state, "d4") == (1, "legendary") and at(state, "d5") == (0, "common")
    assert at(state, "g3") == (1, "common") and at(state, "c3") == (1, "heroic")
    assert state["points"] == [1 + 1, 0]                   # heroic; the single common scores 0


def test_legends_fire_elemental_distance_two_option():
    state = start(FIRE_ELEMENTAL, FIRE_PATTERN + " d5c", "e4h f5c d4l g3c c3h")
    state = play(state, summon(FIRE_ELEMENTAL, "e5"), {"type": "choose", "option": "distance 2"})
    assert at(state, "f5") is None and at(state, "g3") is None
    assert at(state, "e4") == (1, "heroic") and at(state, "c3") == (1, "heroic")
    assert at(state, "d5") == (0, "common")
    assert state["points"] == [1 + 1, 0]


def test_legends_fire_elemental_melee_legend_point_in_chosen_colour():
    board = pcs(0, FIRE_PATTERN) + pcs(1, "e4c f5c") + pcs(2, "d4c")
    state = position(board=board, form="melee", hands={"0": [FIRE_ELEMENTAL]}, actions=1)
    state = play(state, summon(FIRE_ELEMENTAL, "e5"))
    assert state["pending"]["kind"] == "legend_color"
    assert legal(state) == [{"type": "choose", "color": 1}, {"type": "choose", "color": 2}]
    state = play(state, {"type": "choose", "color": 2}, {"type": "choose", "option": "adjacent"})
    assert state["points"][0] == [0, 1, 1]                 # legend in colour 2; pair of colour-1 commons
    assert at(state, "d4") is None


def test_legends_fire_elemental_with_empty_legend_supply():
    # no legendary piece in the supply: one of the own legends on the board must be picked up
    state = start(FIRE_ELEMENTAL, FIRE_PATTERN + " a5l", "f5c", supply={"0": {"legendary": 0}})
    state = play(state, summon(FIRE_ELEMENTAL, "e5"))
    assert state["pending"]["kind"] == "pickup"
    assert legal(state) == [choose("a5")]
    state = play(state, choose("a5"), {"type": "choose", "option": "adjacent"})
    assert at(state, "a5") is None and at(state, "e5") == (0, "legendary")
    assert at(state, "f5") is None
    state = start(FIRE_ELEMENTAL, FIRE_PATTERN, supply={"0": {"legendary": 0}})
    assert refused(state, summon(FIRE_ELEMENTAL, "e5")) == "piece_shortage"


# --- Leviathan: c6 H, d6 H, a7 H, b7 C --------------------------------------------------------------

LEVIATHAN = "legends-leviathan"
LEVIATHAN_PATTERN = "c6h d6h a7h b7c"


def test_legends_leviathan_destroys_a_connected_group_of_commons():
    state = start(LEVIATHAN, LEVIATHAN_PATTERN + " g1c", "f2c g2c h2c c2c g3h")
    state = play(state, summon(LEVIATHAN, "e5"))
    assert SKIP in legal(state)
    state = play(state, {"type": "choose", "option": "destroy group"})
    assert {"f2", "c2", "b7", "g1"} <= squares_of(legal(state))
    state = play(state, choose("f2"))
    assert squares_of(legal(state)) == {"g1", "g2"}        # must touch the group; g3 is heroic
    state = play(state, choose("g2"), choose("h2"), choose("g1"))
    assert state["pending"] is None                        # four pieces: done
    assert all(at(state, sq) is None for sq in ("f2", "g2", "h2", "g1"))
    assert at(state, "c2") == (1, "common") and at(state, "g3") == (1, "heroic")
    assert state["points"] == [1 + 1, 0]                   # three enemy commons: one pair


def test_legends_leviathan_downgrades_a_group_of_upgraded_pieces():
    state = start(LEVIATHAN, LEVIATHAN_PATTERN, "g2h h2l h3h c2h")
    state = play(state, summon(LEVIATHAN, "e5"), {"type": "choose", "option": "downgrade group"})
    state = play(state, choose("g2"), choose("h2"))
    assert squares_of(legal(state)) == {"h3"}
    state = play(state, SKIP)
    assert at(state, "g2") == (1, "common") and at(state, "h2") == (1, "heroic")
    assert at(state, "h3") == (1, "heroic") and at(state, "c2") == (1, "heroic")
    assert state["points"] == [1, 0]                       # downgrades destroy nothing


def test_legends_leviathan_legend_needs_owner_supply_to_downgrade():
    state = start(LEVIATHAN, LEVIATHAN_PATTERN, "g2h h2l", supply={"1": {"non_legendary": 0}})
    state = play(state, summon(LEVIATHAN, "e5"), {"type": "choose", "option": "downgrade group"})
    assert "h2" not in squares_of(legal(state))
    state = play(state, choose("g2"))
    assert state["pending"] is None


def test_legends_leviathan_downgrading_itself_costs_its_high_form_point():
    state = start(LEVIATHAN, LEVIATHAN_PATTERN, form="high_form")
    state = play(state, summon(LEVIATHAN, "e5"))
    assert score(state, 0) == 1                            # a legendary piece on the board
    state = play(state, {"type": "choose", "option": "downgrade group"}, choose("e5"))
    assert at(state, "e5") == (0, "heroic")
    state = play(state, choose("d6"), SKIP)
    assert at(state, "d6") == (0, "common")
    assert score(state, 0) == 0


def test_legends_leviathan_declined():
    state = start(LEVIATHAN, LEVIATHAN_PATTERN, "f2c")
    state = play(state, summon(LEVIATHAN, "e5"), SKIP)
    assert at(state, "f2") == (1, "common")


# --- Two-Headed Dragon: g5 H, f6 H, e7 H, g7 C, h8 C (all marked) -----------------------------------

TWO_HEADED = "legends-two-headed-dragon"
TWO_HEADED_PATTERN = "g5h f6h e7h g7c h8c"


def test_legends_two_headed_dragon_upgrades_pattern_piece_then_kills_heroic():
    state = start(TWO_HEADED, TWO_HEADED_PATTERN, "g6h e4h")
    state = play(state, summon(TWO_HEADED, "e5"))
    assert squares_of(legal(state)) == {"g5", "f6", "e7", "g7", "h8"}
    assert SKIP in legal(state)
    state = play(state, choose("f6"))
    assert at(state, "f6") == (0, "legendary")
    assert squares_of(legal(state)) == {"g5", "e7", "g6"}  # heroics next to f6, any colour
    all_legal_accepted(state)
    state = play(state, choose("g6"))
    assert at(state, "g6") is None and at(state, "e4") == (1, "heroic")
    assert state["points"] == [1 + 1, 0]                   # the upgrade to legendary is no summoning


def test_legends_two_headed_dragon_without_legend_supply_and_declines():
    state = start(TWO_HEADED, TWO_HEADED_PATTERN, "g6h", supply={"0": {"legendary": 1}})
    state = play(state, summon(TWO_HEADED, "e5"))
    assert squares_of(legal(state)) == {"g7", "h8"}        # heroics cannot become legendary
    state = play(state, choose("g7"))
    assert at(state, "g7") == (0, "heroic")
    state = play(state, SKIP)
    assert at(state, "g6") == (1, "heroic")
    state = play(start(TWO_HEADED, TWO_HEADED_PATTERN, "g6h"), summon(TWO_HEADED, "e5"), SKIP)
    assert state["pending"] is None and at(state, "g6") == (1, "heroic")


# --- Earth Elemental on d3: e3 C, d4 C, e4 C, c5 H, f5 H --------------------------------------------

EARTH = "legends-earth-elemental"
EARTH_PATTERN = "e3c d4c e4c c5h f5h"


def test_legends_earth_elemental_three_stages():
    state = start(EARTH, EARTH_PATTERN, "d2h c3c")
    state = play(state, summon(EARTH, "d3"))
    # non-legendary pieces on or next to a red square (d2, e5): any colour
    assert squares_of(legal(state)) == {"d2", "c3", "e3", "d4", "e4", "f5"}
    assert refused(state, SKIP) == "step_not_optional"
    state = play(state, choose("d2"))
    # commons on or next to a green square (c3)
    assert squares_of(legal(state)) == {"c3", "d4"}
    assert refused(state, SKIP) == "step_not_optional"
    state = play(state, choose("c3"))
    assert at(state, "c3") == (1, "heroic")
    assert sorted(map(str, legal(state))) == sorted(map(str, [move("d3", "c3"), move("d3", "d2"), SKIP]))
    state = play(state, move("d3", "c3"))
    assert at(state, "c3") == (0, "legendary") and at(state, "d3") is None
    assert state["points"] == [1 + 1 + 1, 0]


def test_legends_earth_elemental_hits_own_pieces_when_nothing_else():
    state = start(EARTH, EARTH_PATTERN)
    state = play(state, summon(EARTH, "d3"))
    assert squares_of(legal(state)) == {"e3", "d4", "e4", "f5"}
    state = play(state, choose("d4"))                      # mandatory, own piece
    assert at(state, "d4") is None
    # no common next to a green square now: stage two is skipped; stage three is offered
    assert state["pending"]["ask"] == "move"
    state = play(state, SKIP)
    assert at(state, "d3") == (0, "legendary")
    assert state["points"] == [1, 0]


# --- Time Elemental: d6 H, f6 H, e7 H, d8 C, f8 C ---------------------------------------------------

TIME = "legends-time-elemental"
TIME_PATTERN = "d6h f6h e7h d8c f8c"


def test_legends_time_elemental_grants_an_extra_turn():
    state = start(TIME, TIME_PATTERN)
    number = state["turn"]["number"]
    state = play(state, summon(TIME, "e5"))
    assert state["turn"]["seat"] == 0
    assert state["turn"]["extra"] is True
    assert state["turn"]["number"] == number + 1
    assert state["turn"]["actions"] == 2                   # a full turn
    assert state["points"] == [1, 0]
    state = play(state, {"type": "place", "square": "a5"}, {"type": "place", "square": "b5"})
    assert state["turn"]["seat"] == 1 and state["turn"]["extra"] is False


def test_legends_time_elemental_extra_turn_after_the_end_is_triggered():
    state = start(TIME, TIME_PATTERN, scores={"0": 17})
    state = play(state, summon(TIME, "e5"))                # 18 points: the end is triggered
    assert state["points"] == [18, 0]
    assert state["turn"]["seat"] == 0 and state["turn"]["extra"] is True
    extra = state["turn"]["number"]
    state = play(state, {"type": "place", "square": "a5"}, {"type": "place", "square": "b5"})
    # as BGA does, the trigger counts from the end of the extra turn
    assert state["final"] == {"seat": 0, "turn": extra, "reason": "threshold"}
    assert state["phase"] == "play"                        # the opponent still has its last turn
    assert state["turn"]["seat"] == 1
    state = play(state, {"type": "place", "square": "i5"}, {"type": "place", "square": "h5"})
    assert state["turn"]["seat"] == 0
    state = play(state, {"type": "place", "square": "c4"}, {"type": "place", "square": "c6"})
    assert state["phase"] == "over"


def test_legends_time_elemental_summoned_in_the_last_turn():
    state = start(TIME, TIME_PATTERN)
    state["final"] = {"seat": 0, "turn": state["turn"]["number"] - 2, "reason": "threshold"}
    state = play(state, summon(TIME, "e5"))
    assert state["phase"] == "play" and state["turn"]["seat"] == 0   # the extra turn is still played
    state = play(state, {"type": "place", "square": "a5"}, {"type": "place", "square": "b5"})
    assert state["phase"] == "over"


# --- Storm Elemental: d3 H, d4 H, f4 H, e5 own C (being square) -------------------------------------

STORM = "legends-storm-elemental"
STORM_PATTERN = "d3h d4h f4h e5c"


def test_legends_storm_elemental_common_makes_five_combat_moves():
    state = start(STORM, STORM_PATTERN, "d6c e6c")
    state = play(state, summon(STORM, "e5"))
    options = legal(state)
    assert SKIP in options
    assert {o["rank"] for o in options if o["type"] == "choose"} == {"common", "heroic", "legendary"}
    assert {"type": "choose", "square": "b6", "rank": "common"} in options
    assert not any(o.get("square") in ("e9", "a5") for o in options)          # beyond distance 3
    state = play(state, {"type": "choose", "square": "b6", "rank": "common"})
    assert at(state, "b6") == (0, "common")
    for src, dst in (("b6", "c6"), ("c6", "d6"), ("d6", "e6"), ("e6", "f6")):
        state = play(state, move(src, dst))
    assert legal(state) == [move("f6", "g6"), SKIP]        # fixed direction, fifth move
    state = play(state, move("f6", "g6"))
    assert at(state, "g6") is None                         # destroyed afterwards, without score
    assert at(state, "d6") is None and at(state, "e6") is None
    assert state["points"] == [1 + 1, 0]


def test_legends_storm_elemental_heroic_makes_three_moves():
    state = start(STORM, STORM_PATTERN)
    state = play(state, summon(STORM, "e5"), {"type": "choose", "square": "h7", "rank": "heroic"},
                 move("h7", "h6"), move("h6", "h5"), move("h5", "h4"))
    assert state["pending"] is None
    assert at(state, "h4") is None and at(state, "h3") is None


def test_legends_storm_elemental_legendary_piece_destroys_the_being_mid_effect():
    state = start(STORM, STORM_PATTERN)
    state = play(state, summon(STORM, "e5"), {"type": "choose", "square": "e6", "rank": "legendary"})
    state = play(state, move("e6", "e5"))                  # one move, onto the Storm Elemental itself
    assert state["pending"] is None
    assert at(state, "e5") is None and at(state, "e6") is None
    assert state["points"] == [1, 0]


def test_legends_storm_elemental_with_empty_non_legendary_supply():
    # an own common on e5 would go back to the supply when over-summoned: use an own legend there
    state = start(STORM, "d3h d4h f4h e5l", supply={"0": {"non_legendary": 0}})
    state = play(state, summon(STORM, "e5"))
    assert {o["rank"] for o in legal(state) if o["type"] == "choose"} == {"legendary"}
    state = play(state, {"type": "choose", "square": "g5", "rank": "legendary"}, move("g5", "h5"))
    assert at(state, "h5") is None and at(state, "e5") == (0, "legendary")


def test_legends_storm_elemental_with_no_supply_at_all():
    # no legend in the supply: the own legend on e5 becomes the Storm Elemental (5.5)
    state = start(STORM, "d3h d4h f4h e5l", supply={"0": {"non_legendary": 0, "legendary": 0}})
    state = play(state, summon(STORM, "e5"))
    assert state["pending"] is None                        # nothing to place: the effect is over
    assert at(state, "e5") == (0, "legendary")
    assert state["turn"]["seat"] == 1


# --- Titan: e6 H, e7 H, d8 C, e8 C, f8 C ------------------------------------------------------------

TITAN = "legends-titan"
TITAN_PATTERN = "e6h e7h d8c e8c f8c"


def test_legends_titan_destruction_is_not_credited():
    state = start(TITAN, TITAN_PATTERN + " f6c", "e4l d5h f5c d4c f4h d6l")
    state = play(state, summon(TITAN, "e5"))
    assert state["pending"] is None
    for sq in ("e4", "d5", "f5", "e6", "d4", "f4", "f6"):  # orthogonal: any rank; diagonal: non-legendary
        assert at(state, sq) is None
    assert at(state, "d6") == (1, "legendary")
    assert at(state, "e7") == (0, "heroic")
    assert state["turn"]["seat"] == 1
    assert state["points"] == [1, 0]                       # only the legend: nothing credited


def test_legends_titan_over_summoning_is_still_credited():
    state = start(TITAN, TITAN_PATTERN, "e5h f5h", actions=2)
    state = play(state, summon(TITAN, "e5"))
    assert state["turn"]["destroyed"] == [[1, 2]]          # the over-summoned heroic only


def test_legends_titan_high_form_destroyed_legend_loses_its_point():
    state = start(TITAN, TITAN_PATTERN, "e4l", form="high_form")
    assert score(state, 1) == 1
    state = play(state, summon(TITAN, "e5"))
    assert at(state, "e4") is None
    assert score(state, 1) == 0 and score(state, 0) == 1
