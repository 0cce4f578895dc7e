"""Nethervoid deck (18 cards): each card summoned through the engine on a real position.

Seat 0 plays Nethervoid (colour 0), seat 1 Northern (colour 1). Pattern squares are given for the
being on the square named in each section title. The Gateway rules themselves are tested in
tests/engine/test_gateway.py; here the Gateway is mostly a heroic piece on a5, which no heroic or
common being takes over.
"""
from engine import tasks
from engine.state import score
from tests.engine.helpers import SKIP, at, choose, legal, move, play
from tests.engine.nether import A, B, all_legal_accepted, gate, moves_offered, squares_offered, start, summon


def option(label: str) -> dict:
    return {"type": "choose", "option": label}


def labels(state: dict) -> set[str]:
    return {c["option"] for c in legal(state) if "option" in c}


def destroyed(state: dict) -> list[list[int]]:
    return sorted(state["turn"]["destroyed"])


# --- Shadow Imp (common), on e5: d4 f5 --------------------------------------------------------------

SHADOW_IMP = "nethervoid-shadow-imp"
SHADOW_IMP_PATTERN = "d4c f5c"


def test_nethervoid_shadow_imp_gateway_follows_in_the_same_direction():
    state = start(SHADOW_IMP, SHADOW_IMP_PATTERN + " b7c", "b8c b6c", gate="b7")
    state = play(state, summon(SHADOW_IMP, "e5"))
    assert SKIP in legal(state)
    state = play(state, move("e5", "e6"))
    assert moves_offered(state) == {("b7", "b8")}           # south only, like the Imp
    assert SKIP in legal(state)
    state = play(state, move("b7", "b8"))
    assert gate(state) == "b8" and at(state, "e6") == (A, "common")
    assert destroyed(state) == [[B, 1]]


def test_nethervoid_shadow_imp_that_is_the_gateway_moves_alone():
    state = start(SHADOW_IMP, SHADOW_IMP_PATTERN)
    state = play(state, summon(SHADOW_IMP, "e5"), move("e5", "e6"))
    assert state["pending"] is None and gate(state) == "e6"


def test_nethervoid_shadow_imp_gateway_at_the_edge_cannot_follow():
    state = start(SHADOW_IMP, SHADOW_IMP_PATTERN + " a5h", gate="a5")
    state = play(state, summon(SHADOW_IMP, "e5"), move("e5", "d5"))
    assert state["pending"] is None and gate(state) == "a5"


def test_nethervoid_shadow_imp_declined_leaves_the_gateway():
    state = start(SHADOW_IMP, SHADOW_IMP_PATTERN + " b7c", gate="b7")
    state = play(state, summon(SHADOW_IMP, "e5"), SKIP)
    assert state["pending"] is None and gate(state) == "b7" and at(state, "e5") == (A, "common")


# --- Flame Imp (common), on e5: c5 d6 ---------------------------------------------------------------

FLAME_IMP = "nethervoid-flame-imp"
FLAME_IMP_PATTERN = "c5c d6c"


def test_nethervoid_flame_imp_destroys_a_common_next_to_the_gateway():
    state = start(FLAME_IMP, FLAME_IMP_PATTERN + " g3h h3c", "f2c g4h", gate="g3")
    state = play(state, summon(FLAME_IMP, "e5"))
    assert squares_offered(state) == {"f2", "h3"}           # any colour, commons only
    assert SKIP in legal(state)
    state = play(state, choose("f2"))
    assert at(state, "f2") is None and at(state, "g4") == (B, "heroic")
    assert destroyed(state) == [[B, 1]]


def test_nethervoid_flame_imp_may_decline_and_has_nothing_when_the_gateway_is_alone():
    state = start(FLAME_IMP, FLAME_IMP_PATTERN + " g3h", "f2c", gate="g3")
    state = play(state, summon(FLAME_IMP, "e5"), SKIP)
    assert at(state, "f2") == (B, "common")
    state = start(FLAME_IMP, FLAME_IMP_PATTERN + " a5h", "f2c", gate="a5")
    state = play(state, summon(FLAME_IMP, "e5"))
    assert state["pending"] is None and at(state, "f2") == (B, "common")


# --- Gate Keeper (common), on e5: e4 d5 f5 ----------------------------------------------------------

GATE_KEEPER = "nethervoid-gate-keeper"
GATE_KEEPER_PATTERN = "e4c d5c f5c"


def test_nethervoid_gate_keeper_upgrades_a_common_piece_into_the_gateway():
    state = start(GATE_KEEPER, GATE_KEEPER_PATTERN + " a5h", gate="a5")
    state = play(state, summon(GATE_KEEPER, "e5"))
    assert labels(state) == {"upgrade", "place"} and SKIP in legal(state)
    state = play(state, option("upgrade"))
    assert squares_offered(state) == {"e4", "d5", "f5", "e5"}  # the Keeper itself too; not a heroic
    state = play(state, choose("d5"))
    assert at(state, "d5") == (A, "heroic") and gate(state) == "d5"


def test_nethervoid_gate_keeper_places_a_new_gateway():
    state = start(GATE_KEEPER, GATE_KEEPER_PATTERN + " a5h", gate="a5")
    state = play(state, summon(GATE_KEEPER, "e5"), option("place"), choose("g7"))
    assert at(state, "g7") == (A, "common") and gate(state) == "g7"


def test_nethervoid_gate_keeper_declined_or_without_supply_to_place():
    state = start(GATE_KEEPER, GATE_KEEPER_PATTERN + " a5h", gate="a5")
    state = play(state, summon(GATE_KEEPER, "e5"), SKIP)
    assert gate(state) == "a5"
    state = start(GATE_KEEPER, GATE_KEEPER_PATTERN + " a5h", gate="a5", supply={"0": {"non_legendary": 1}})
    state = play(state, summon(GATE_KEEPER, "e5"))        # the last piece of the supply is the Keeper
    assert labels(state) == {"upgrade"}


# --- Demon of Gluttony (common), on e5: d6 e6 f6 ----------------------------------------------------

GLUTTONY = "nethervoid-demon-of-gluttony"
GLUTTONY_PATTERN = "d6c e6c f6c"


def test_nethervoid_demon_of_gluttony_two_captures_make_it_a_heroic_gateway():
    state = start(GLUTTONY, GLUTTONY_PATTERN + " a5h", "e4c e3c", gate="a5")
    state = play(state, summon(GLUTTONY, "e5"), move("e5", "e4"))
    assert at(state, "e4") == (A, "heroic") and gate(state) == "a5"
    assert SKIP in legal(state)
    state = play(state, move("e4", "e3"))
    assert gate(state) == "e3" and destroyed(state) == [[B, 1], [B, 1]]


def test_nethervoid_demon_of_gluttony_second_move_without_capture_keeps_the_gateway():
    state = start(GLUTTONY, GLUTTONY_PATTERN + " a5h", "e4c", gate="a5")
    state = play(state, summon(GLUTTONY, "e5"), move("e5", "e4"), move("e4", "e3"))
    assert at(state, "e3") == (A, "heroic") and gate(state) == "a5"


def test_nethervoid_demon_of_gluttony_without_capture_stays_common_with_one_move():
    state = start(GLUTTONY, GLUTTONY_PATTERN + " a5h", "e3c", gate="a5")
    state = play(state, summon(GLUTTONY, "e5"), move("e5", "e4"))
    assert state["pending"] is None and at(state, "e4") == (A, "common")


# --- Demon of Pride (common), on e5: e6 e7 f7 -------------------------------------------------------

PRIDE = "nethervoid-demon-of-pride"
PRIDE_PATTERN = "e6c e7c f7c"


def test_nethervoid_demon_of_pride_turns_heroic_takes_the_gateway_and_may_fight():
    state = start(PRIDE, PRIDE_PATTERN + " a5h", "e4h", gate="a5")
    state = play(state, summon(PRIDE, "e5"))
    assert at(state, "e5") == (A, "heroic") and gate(state) == "e5"
    assert ("e5", "e4") in moves_offered(state)              # combat: an equal rank may be taken
    state = play(state, move("e5", "e4"))
    assert gate(state) == "e4" and destroyed(state) == [[B, 2]]


def test_nethervoid_demon_of_pride_may_stay_put():
    state = start(PRIDE, PRIDE_PATTERN + " a5h", gate="a5")
    state = play(state, summon(PRIDE, "e5"), SKIP)
    assert at(state, "e5") == (A, "heroic") and gate(state) == "e5"


# --- Acolyte of Destruction (heroic), on e5 (red): d6 f6 e8 ------------------------------------------

DESTRUCTION = "nethervoid-acolyte-of-destruction"
DESTRUCTION_PATTERN = "d6c f6c e8c"


def test_nethervoid_acolyte_of_destruction_with_the_gateway_on_red_also_takes_a_heroic():
    state = start(DESTRUCTION, DESTRUCTION_PATTERN, "e3c d2h h8c")   # it becomes the Gateway on e5
    state = play(state, summon(DESTRUCTION, "e5"))
    assert gate(state) == "e5"
    assert {"e3", "h8", "d6", "f6", "e8"} <= squares_offered(state)   # any colour, own pieces too
    assert SKIP not in legal(state)
    state = play(state, choose("e3"))
    assert squares_offered(state) == {"d2"} and SKIP in legal(state)
    state = play(state, choose("d2"))
    assert destroyed(state) == [[B, 1], [B, 2]]


def test_nethervoid_acolyte_of_destruction_gateway_off_red_destroys_one_common():
    state = start(DESTRUCTION, DESTRUCTION_PATTERN + " a5h", "e3c d2h", gate="a5")
    state = play(state, summon(DESTRUCTION, "e5"), choose("e3"))
    assert state["pending"] is None and at(state, "d2") == (B, "heroic")


def test_nethervoid_acolyte_of_destruction_may_have_to_destroy_its_own_common():
    state = start(DESTRUCTION, DESTRUCTION_PATTERN, "d2h")
    state = play(state, summon(DESTRUCTION, "e5"))
    assert squares_offered(state) == {"d6", "f6", "e8"}
    state = play(state, choose("e8"))
    assert at(state, "e8") is None and destroyed(state) == []


# --- Acolyte of Growth (heroic), on e5: d4 f4 d5 f5 --------------------------------------------------

GROWTH = "nethervoid-acolyte-of-growth"
GROWTH_PATTERN = "d4c f4c d5c f5c"


def test_nethervoid_acolyte_of_growth_gateway_on_green_adds_a_heroic():
    state = start(GROWTH, GROWTH_PATTERN + " a5h", gate="a5")
    state = play(state, summon(GROWTH, "e5"))
    assert SKIP not in legal(state)
    state = play(state, choose("c7"))
    assert squares_offered(state) == {"b6", "c6", "d6", "b7", "d7", "b8", "c8", "d8"}
    state = play(state, choose("b7"))
    assert at(state, "c7") == (A, "common") and at(state, "b7") == (A, "heroic")


def test_nethervoid_acolyte_of_growth_gateway_off_green_adds_only_the_common():
    state = start(GROWTH, GROWTH_PATTERN + " b5h", gate="b5")
    state = play(state, summon(GROWTH, "e5"), choose("c7"))
    assert state["pending"] is None and at(state, "c7") == (A, "common")


def test_nethervoid_acolyte_of_growth_stops_when_the_supply_runs_out():
    state = start(GROWTH, GROWTH_PATTERN + " a5h", gate="a5", supply={"0": {"non_legendary": 2}})
    state = play(state, summon(GROWTH, "e5"), choose("c7"))
    assert state["pending"] is None                          # the shared disc supply is empty


# --- Power Seeker (heroic), on b5: c5 e5 d6 f6 ------------------------------------------------------

POWER_SEEKER = "nethervoid-power-seeker"
POWER_SEEKER_PATTERN = "c5c e5c d6c f6c"


def test_nethervoid_power_seeker_that_is_the_gateway_makes_one_standard_move():
    state = start(POWER_SEEKER, POWER_SEEKER_PATTERN, "b4c a4h")
    state = play(state, summon(POWER_SEEKER, "b5"))
    assert gate(state) == "b5"
    offered = moves_offered(state)
    assert ("b5", "b4") in offered and ("b5", "a4") not in offered and ("b5", "c5") in offered
    state = play(state, move("b5", "b4"))
    assert state["pending"] is None and gate(state) == "b4"


def test_nethervoid_power_seeker_charges_toward_a_gateway_elsewhere_as_far_as_wished():
    state = start(POWER_SEEKER, POWER_SEEKER_PATTERN + " h5h", "d5h", gate="h5")
    state = play(state, summon(POWER_SEEKER, "b5"), move("b5", "c4"), move("c4", "d5"))
    assert destroyed(state) == [[B, 2]]
    assert moves_offered(state) == {("d5", "e4"), ("d5", "e5"), ("d5", "e6")}
    state = play(state, SKIP)
    assert at(state, "d5") == (A, "heroic") and gate(state) == "h5"


# --- Hell Hound (heroic), on e5: c5 d5 b6 e6 --------------------------------------------------------

HELL_HOUND = "nethervoid-hell-hound"
HELL_HOUND_PATTERN = "c5c d5c b6c e6c"


def test_nethervoid_hell_hound_destroys_a_neighbour_and_slides_under_the_deck():
    state = start(HELL_HOUND, HELL_HOUND_PATTERN, "e4c f4l")
    state = play(state, summon(HELL_HOUND, "e5"))
    assert {"e4", "f4", "d5", "e6"} <= squares_offered(state) and SKIP in legal(state)
    state = play(state, choose("e4"))
    assert state["decks"][A][-1] == HELL_HOUND and HELL_HOUND not in state["discards"][A]


def test_nethervoid_hell_hound_returns_even_when_it_destroys_nothing():
    state = start(HELL_HOUND, HELL_HOUND_PATTERN, "e4c")
    state = play(state, summon(HELL_HOUND, "e5"), SKIP)
    assert state["decks"][A][-1] == HELL_HOUND


def test_nethervoid_hell_hound_killing_a_legend_is_discarded():
    state = start(HELL_HOUND, HELL_HOUND_PATTERN, "f4l")
    state = play(state, summon(HELL_HOUND, "e5"), choose("f4"))
    assert HELL_HOUND in state["discards"][A] and HELL_HOUND not in state["decks"][A]
    assert destroyed(state) == [[B, 3]]


def test_nethervoid_hell_hound_with_an_empty_deck_is_discarded():
    state = start(HELL_HOUND, HELL_HOUND_PATTERN, "e4c", decks={"0": []})
    state = play(state, summon(HELL_HOUND, "e5"), choose("e4"))
    assert state["discards"][A] == [HELL_HOUND] and state["decks"][A] == []


# --- Vortex Master (heroic), on e5: e2 d3 f3 e4 -----------------------------------------------------

VORTEX = "nethervoid-vortex-master"
VORTEX_PATTERN = "e2c d3c f3c e4c"


def test_nethervoid_vortex_master_moves_the_gateway_then_a_piece_next_to_it():
    state = start(VORTEX, VORTEX_PATTERN + " b7h a7c d8c", "c7c", gate="b7")
    state = play(state, summon(VORTEX, "e5"))
    # combat: the enemy common c7 and the own common a7 may be taken too
    assert moves_offered(state) == {("b7", sq) for sq in ("a6", "b6", "c6", "a7", "c7", "b8", "c8")}
    state = play(state, move("b7", "c7"))
    movers = {src for src, _ in moves_offered(state)}
    assert movers == {"d8"}                                 # a7 is no longer next to the Gateway
    state = play(state, move("d8", "d7"))
    assert gate(state) == "c7" and at(state, "d7") == (A, "common")


def test_nethervoid_vortex_master_second_move_happens_whether_or_not_the_gateway_moved():
    state = start(VORTEX, VORTEX_PATTERN + " b7h a7c", gate="b7")
    state = play(state, summon(VORTEX, "e5"), SKIP)
    assert {src for src, _ in moves_offered(state)} == {"a7"}
    state = play(state, move("a7", "a6"))
    assert gate(state) == "b7" and at(state, "a6") == (A, "common")


def test_nethervoid_vortex_master_that_is_the_gateway_moves_itself_first():
    state = start(VORTEX, VORTEX_PATTERN)
    state = play(state, summon(VORTEX, "e5"), move("e5", "f5"))
    assert gate(state) == "f5"
    assert {src for src, _ in moves_offered(state)} == {"e4"}   # the only own piece next to f5


# --- Gate Master (heroic), on e5: e4 f4 d5 f5 g5 ----------------------------------------------------

GATE_MASTER = "nethervoid-gate-master"
GATE_MASTER_PATTERN = "e4c f4c d5c f5c g5c"


def test_nethervoid_gate_master_makes_the_gateway_legendary_and_counts_a_legend():
    state = start(GATE_MASTER, GATE_MASTER_PATTERN + " a5h", gate="a5")
    state = play(state, summon(GATE_MASTER, "e5"))
    assert at(state, "a5") == (A, "legendary") and score(state, A) == 1
    assert state["turn"]["summons"] == [["e5", 3]]
    assert squares_offered(state) == {"e4", "f4", "d5", "f5", "g5", "e5"} and SKIP not in legal(state)
    state = play(state, choose("g5"))
    assert gate(state) == "g5"


def test_nethervoid_gate_master_over_a_common_gateway_upgrades_itself():
    state = start(GATE_MASTER, GATE_MASTER_PATTERN + " a5c", gate="a5")
    state = play(state, summon(GATE_MASTER, "e5"))          # it took the mark, then became legendary
    assert at(state, "e5") == (A, "legendary") and score(state, A) == 1
    assert "a5" in squares_offered(state) and "e5" not in squares_offered(state)


def test_nethervoid_gate_master_without_a_legendary_piece_only_names_a_gateway():
    state = start(GATE_MASTER, GATE_MASTER_PATTERN + " a5h", gate="a5", supply={"0": {"legendary": 0}})
    state = play(state, summon(GATE_MASTER, "e5"))
    assert at(state, "a5") == (A, "heroic") and score(state, A) == 0
    state = play(state, choose("a5"))
    assert gate(state) == "a5"


def test_nethervoid_gate_master_counts_for_legendary_summoning_in_high_form():
    state = start([FLAME_IMP, GATE_MASTER], GATE_MASTER_PATTERN + " a5h c7c d8c", gate="a5", form="high_form")
    state = play(state, summon(FLAME_IMP, "e7"), summon(GATE_MASTER, "e5"))
    assert tasks.met(state, A, "tasks-legendary-summoning")


def test_nethervoid_gate_master_in_a_melee_scores_in_a_chosen_colour():
    state = start(GATE_MASTER, GATE_MASTER_PATTERN + " a5h", gate="a5", form="melee",
                  schools=["nethervoid", "northern", "sylvan"])
    state = play(state, summon(GATE_MASTER, "e5"))
    assert [c["color"] for c in legal(state)] == [1, 2]
    all_legal_accepted(state)
    state = play(state, {"type": "choose", "color": 2})
    assert state["points"][A] == [0, 0, 1]


# --- Hell Rider (heroic), on e5 (own piece): f5 g5 e6 -----------------------------------------------

HELL_RIDER = "nethervoid-hell-rider"
HELL_RIDER_PATTERN = "e5c f5c g5c e6c"


def test_nethervoid_hell_rider_not_the_gateway_rides_three_times():
    state = start(HELL_RIDER, HELL_RIDER_PATTERN + " a5h", "e4c e3h", gate="a5")
    state = play(state, summon(HELL_RIDER, "e5"), move("e5", "e4"))
    assert SKIP in legal(state)
    state = play(state, move("e4", "e3"), move("e3", "e2"))
    assert state["pending"] is None and at(state, "e2") == (A, "heroic")
    assert destroyed(state) == [[B, 1], [B, 2]]


def test_nethervoid_hell_rider_on_the_common_gateway_becomes_it_and_rides_once():
    state = start(HELL_RIDER, HELL_RIDER_PATTERN, gate="e5")
    state = play(state, summon(HELL_RIDER, "e5"))
    assert gate(state) == "e5"
    state = play(state, move("e5", "e4"))
    assert state["pending"] is None and gate(state) == "e4"


def test_nethervoid_hell_rider_that_declines_rides_no_more():
    state = start(HELL_RIDER, HELL_RIDER_PATTERN + " a5h", gate="a5")
    state = play(state, summon(HELL_RIDER, "e5"), SKIP)
    assert state["pending"] is None and at(state, "e5") == (A, "heroic")


# --- Demon of Wrath (heroic), on e5: f5 d6 f6 e7 ----------------------------------------------------

WRATH = "nethervoid-demon-of-wrath"
WRATH_PATTERN = "f5c d6c f6c e7c"


def test_nethervoid_demon_of_wrath_destroys_every_enemy_common_next_to_the_gateway():
    state = start(WRATH, WRATH_PATTERN + " b3h b2c", "c2c c4c b4h", gate="b3")
    state = play(state, summon(WRATH, "e5"))
    assert state["pending"] is None                          # automatic, and no move since some died
    assert at(state, "c2") is None and at(state, "c4") is None
    assert at(state, "b4") == (B, "heroic") and at(state, "b2") == (A, "common")
    assert destroyed(state) == [[B, 1], [B, 1]]


def test_nethervoid_demon_of_wrath_gateway_moves_first_when_nothing_is_next_to_it():
    state = start(WRATH, WRATH_PATTERN + " b3h", "d3c d4c c2h", gate="b3")
    state = play(state, summon(WRATH, "e5"))
    assert ("b3", "c2") not in moves_offered(state)          # standard: an equal rank blocks
    state = play(state, move("b3", "c3"))
    assert at(state, "d3") is None and at(state, "d4") is None and at(state, "c2") == (B, "heroic")


def test_nethervoid_demon_of_wrath_declined_move_destroys_nothing():
    state = start(WRATH, WRATH_PATTERN + " b3h", "d3c", gate="b3")
    state = play(state, summon(WRATH, "e5"), SKIP)
    assert at(state, "d3") == (B, "common") and gate(state) == "b3"


# --- Demon of Greed (heroic), on e5: d4 e4 d6 f6 ----------------------------------------------------

GREED = "nethervoid-demon-of-greed"
GREED_PATTERN = "d4c e4c d6c f6c"


def test_nethervoid_demon_of_greed_sacrifices_two_non_gateway_pieces_for_two_actions():
    state = start(GREED, GREED_PATTERN + " a5h b7h", gate="a5")
    state = play(state, summon(GREED, "e5"))
    assert squares_offered(state) == {"d4", "e4", "d6", "f6"} and SKIP not in legal(state)
    state = play(state, choose("d4"))
    assert squares_offered(state) == {"e5", "b7"}            # the heroic Gateway a5 is spared
    state = play(state, choose("e5"))
    assert at(state, "e5") is None and state["turn"]["actions"] == 3
    assert destroyed(state) == []


def test_nethervoid_demon_of_greed_as_the_gateway_has_no_heroic_to_give():
    state = start(GREED, GREED_PATTERN)
    state = play(state, summon(GREED, "e5"), choose("d4"))
    assert state["pending"] is None and gate(state) == "e5"
    assert state["turn"]["actions"] == 2                      # one sacrifice, one action


def test_nethervoid_demon_of_greed_may_sacrifice_a_common_that_lost_the_mark_to_it():
    state = start(GREED, GREED_PATTERN + " a5c", gate="a5")   # Greed takes the mark from a5
    state = play(state, summon(GREED, "e5"))
    assert "a5" in squares_offered(state) and gate(state) == "e5"
    state = play(state, choose("a5"))
    assert state["pending"] is None and state["turn"]["actions"] == 2


# --- Demon of Lust (heroic), on e5: e6 f6 f7 g7 -----------------------------------------------------

LUST = "nethervoid-demon-of-lust"
LUST_PATTERN = "e6c f6c f7c g7c"


def test_nethervoid_demon_of_lust_draws_two_pieces_toward_the_gateway():
    state = start(LUST, LUST_PATTERN + " a5h", "c7c b6c", gate="a5")
    state = play(state, summon(LUST, "e5"))
    assert ("c7", "b6") in moves_offered(state)              # an enemy piece, moved by you
    state = play(state, move("c7", "b6"))
    assert destroyed(state) == [[B, 1]]                        # its capture is credited to you
    assert not any(src == "b6" for src, _ in moves_offered(state))   # a different piece next
    assert SKIP in legal(state)
    state = play(state, move("e5", "d5"))
    assert state["pending"] is None and gate(state) == "a5"


def test_nethervoid_demon_of_lust_one_piece_is_enough():
    state = start(LUST, LUST_PATTERN + " a5h", "c7c", gate="a5")
    state = play(state, summon(LUST, "e5"), move("c7", "b6"), SKIP)
    assert at(state, "b6") == (B, "common") and at(state, "c7") is None


# --- Demon of Sloth (heroic), on e5: f4 -------------------------------------------------------------

SLOTH = "nethervoid-demon-of-sloth"


def test_nethervoid_demon_of_sloth_costs_the_remaining_action():
    state = start(SLOTH, "f4c a5h", gate="a5")
    state = play(state, summon(SLOTH, "e5"))
    assert state["turn"]["seat"] == B                         # no action left: the turn ended
    assert at(state, "a5") == (A, "heroic")


def test_nethervoid_demon_of_sloth_as_the_last_action_destroys_the_gateway():
    state = start(SLOTH, "f4c a5h", gate="a5", actions=1)
    state = play(state, summon(SLOTH, "e5"))
    assert at(state, "a5") is None and gate(state) is None
    assert at(state, "e5") == (A, "heroic")


def test_nethervoid_demon_of_sloth_that_is_the_gateway_destroys_itself():
    state = start(SLOTH, "f4c", actions=1)
    state = play(state, summon(SLOTH, "e5"))
    assert at(state, "e5") is None and gate(state) is None


# --- Demon of Envy (heroic), on e5 (own piece): d4 f5 -----------------------------------------------

ENVY = "nethervoid-demon-of-envy"
ENVY_PATTERN = "d4c e5c f5c"
CROWD = "c1c d1c e1c f1c g1c b2c c2c d2c e2c f2c"          # ten enemy pieces


def test_nethervoid_demon_of_envy_fills_the_gateway_surroundings():
    state = start(ENVY, ENVY_PATTERN + " a5h", CROWD, gate="a5")
    state = play(state, summon(ENVY, "e5"))
    around = {"a4", "b4", "b5", "b6", "a6"}
    assert squares_offered(state) == around and SKIP not in legal(state)
    for sq in sorted(around):
        state = play(state, choose(sq)) if state["pending"] else state
    assert all(at(state, sq) == (A, "common") for sq in around)


def test_nethervoid_demon_of_envy_stops_once_no_opponent_has_more_pieces():
    state = start(ENVY, ENVY_PATTERN + " a5h", "c2c d2c e2c f2c g2c", gate="a5")   # 4 against 5
    state = play(state, summon(ENVY, "e5"), choose("b5"))
    assert state["pending"] is None                           # 5 against 5
    assert sum(1 for p in state["board"].values() if p[1] == A) == 5


def test_nethervoid_demon_of_envy_places_once_even_when_already_level():
    state = start(ENVY, ENVY_PATTERN + " a5h", "c2c", gate="a5")
    state = play(state, summon(ENVY, "e5"))
    assert squares_offered(state) == {"a4", "b4", "b5", "b6", "a6"}
    state = play(state, choose("b4"))
    assert state["pending"] is None and at(state, "b4") == (A, "common")


def test_nethervoid_demon_of_envy_stops_when_the_supply_runs_out():
    # one disc in supply: the piece oversummoned on e5 returns as the Demon takes a disc, one is placed
    state = start(ENVY, ENVY_PATTERN + " a5h", CROWD, gate="a5", supply={"0": {"non_legendary": 1}})
    state = play(state, summon(ENVY, "e5"), choose("a4"))
    assert state["pending"] is None


# --- Possessed Summoner (heroic), on e5: f5 d6 e6 e7 ------------------------------------------------

POSSESSED = "nethervoid-possessed-summoner"
POSSESSED_PATTERN = "f5c d6c e6c e7c"
FLARE = "flares-00"


def test_nethervoid_possessed_summoner_next_summoning_uses_enemy_pieces():
    state = start([POSSESSED, SHADOW_IMP, FLARE], POSSESSED_PATTERN + " a5h", "g2c i3c", gate="a5")
    assert summon(SHADOW_IMP, "h3") not in legal(state) and summon(SHADOW_IMP, "e6") in legal(state)
    state = play(state, summon(POSSESSED, "e5"))
    offered = squares_offered(state)
    assert "h3" in offered and "f2" in offered and "c5" not in offered   # next to an enemy piece
    state = play(state, choose("h2"))
    assert at(state, "h2") == (B, "common")
    assert SKIP in legal(state)
    state = play(state, {"type": "choose", "card": FLARE})
    assert state["turn"]["actions"] == 2 and FLARE in state["flares"]["discard"]
    summons = {c["square"] for c in legal(state) if c["type"] == "summon"}
    assert "h3" in summons and "e6" not in summons           # own pieces no longer form patterns
    state = play(state, summon(SHADOW_IMP, "h3"), SKIP)
    assert at(state, "h3") == (A, "common") and state["turn"]["modifiers"] == []


def test_nethervoid_possessed_summoner_without_enemy_supply_possesses_nothing():
    state = start([POSSESSED, FLARE], POSSESSED_PATTERN + " a5h", "g2c", gate="a5",
                  supply={"1": {"non_legendary": 0}})
    state = play(state, summon(POSSESSED, "e5"))
    assert state["turn"]["modifiers"] == []
    state = play(state, SKIP)                                 # the flare is kept
    assert state["turn"]["actions"] == 1 and FLARE in state["hands"][A]


def test_nethervoid_possessed_summoner_without_a_flare_gains_no_action():
    state = start(POSSESSED, POSSESSED_PATTERN + " a5h", "g2c", gate="a5")
    state = play(state, summon(POSSESSED, "e5"), choose("g3"))
    assert state["pending"] is None and state["turn"]["actions"] == 1
    assert state["turn"]["modifiers"][0]["color"] == B


def test_nethervoid_possessed_summoner_may_place_an_enemy_piece_destroyed_this_turn():
    """RULES 16.3 (UNCERTAIN, engine.state.supply): a destroyed piece is back in supply at once."""
    state = start(POSSESSED, POSSESSED_PATTERN + " a5h", "e5c g2c", gate="a5", supply={"1": {"non_legendary": 0}})
    state = play(state, summon(POSSESSED, "e5"))          # the enemy common on e5 is summoned over
    assert "g3" in squares_offered(state)
    state = play(state, choose("g3"))
    assert at(state, "g3") == (B, "common") and destroyed(state) == [[B, 1]]

