"""One or more tests per Highland card: summon it on a real position, resolve its effect, check the board.

Seat 0 plays Highland (colour 0), seat 1 Sylvan (colour 1). Red squares d2 e5 h6 c8; green c3 g3 i4 a5 f8.
"""
import pytest

import engine
from engine.geometry import ADJACENT, GREEN
from engine.state import active_seat
from tests.engine.helpers import SKIP, at, choose, legal, move, play, position


def own(*squares, rank="common"):
    return [{"square": sq, "seat": 0, "rank": rank} for sq in squares]


def foe(*squares, rank="common"):
    return [{"square": sq, "seat": 1, "rank": rank} for sq in squares]


def start(card, board, **extra):
    """Seat 0 (Highland) to act with `card` in hand."""
    hands = extra.pop("hands", {"0": [card]})
    return position(board=board, hands=hands, schools=["highland", "sylvan"], **extra)


def summon(card, square):
    return {"type": "summon", "card": card, "square": square}


def option(label):
    return {"type": "choose", "option": label}


def asked_squares(state):
    return sorted(c["square"] for c in legal(state) if c["type"] == "choose")


def asked_moves(state):
    return sorted((c["from"], c["to"]) for c in legal(state) if c["type"] == "move")


def all_accepted(state):
    """Every command legal() lists is accepted by engine.decide."""
    seat = active_seat(state)
    commands = legal(state)
    assert commands
    for command in commands:
        assert engine.decide(state, {"seat": seat, **command})


def refused(state, command):
    with pytest.raises(engine.RuleError) as err:
        play(state, command)
    return err.value.code


# --- Wild Eagle (common): optional combat leap anywhere ---------------------------------------------

def test_highland_wild_eagle_leaps_onto_enemy_common():
    state = start("highland-wild-eagle", own("d6", "f6", "h8") + foe("c2") + foe("g2", rank="heroic"))
    state = play(state, summon("highland-wild-eagle", "e5"))
    assert state["pending"]["ask"] == "move" and state["pending"]["can_skip"]
    moves = asked_moves(state)
    assert ("e5", "c2") in moves and ("e5", "h8") in moves          # own common is a legal landing too
    assert ("e5", "g2") not in moves                                 # a common cannot take a heroic
    assert all(src == "e5" for src, _ in moves) and len(moves) == 69 - 1 - 1
    all_accepted(state)
    state = play(state, move("e5", "c2"))
    assert at(state, "c2") == (0, "common") and at(state, "e5") is None
    assert state["turn"]["destroyed"] == [[1, 1]]
    assert state["pending"] is None and state["turn"]["actions"] == 1


def test_highland_wild_eagle_declines_and_oversummon_scores_pair():
    state = start("highland-wild-eagle", own("d6", "f6") + foe("e5", "c2"), actions=1)
    state = play(state, summon("highland-wild-eagle", "e5"), SKIP)
    # turn over: only the oversummoned e5 common was destroyed -> an odd common scores nothing
    assert at(state, "e5") == (0, "common") and at(state, "c2") == (1, "common")
    assert state["points"][0] == 0 and state["turn"]["seat"] == 1
    state = start("highland-wild-eagle", own("d6", "f6") + foe("e5", "c2"), actions=1)
    state = play(state, summon("highland-wild-eagle", "e5"), move("e5", "c2"))
    assert state["points"][0] == 1                                   # a pair of enemy commons


# --- Clan Axeman (common): may destroy a non-legendary piece orthogonally adjacent -----------------

def test_highland_clan_axeman_destroys_orthogonal_heroic():
    board = own("f4", "d6", "e6") + foe("e4", "d3") + foe("f5", rank="heroic") + foe("d5", rank="legendary")
    state = start("highland-clan-axeman", board)
    state = play(state, summon("highland-clan-axeman", "e5"))
    assert asked_squares(state) == ["e4", "e6", "f5"]                # own e6 too; not diagonal d3, not legend d5
    assert SKIP in legal(state)
    all_accepted(state)
    state = play(state, choose("f5"))
    assert at(state, "f5") is None and at(state, "e4") == (1, "common")
    assert state["turn"]["destroyed"] == [[1, 2]] and state["pending"] is None


def test_highland_clan_axeman_may_destroy_own_piece_or_decline():
    board = own("f4", "d6", "e6") + foe("e4")
    state = play(start("highland-clan-axeman", board), summon("highland-clan-axeman", "e5"), choose("e6"))
    assert at(state, "e6") is None and state["turn"]["destroyed"] == []
    state = play(start("highland-clan-axeman", board), summon("highland-clan-axeman", "e5"), SKIP)
    assert at(state, "e6") == (0, "common") and at(state, "e4") == (1, "common")


def test_highland_clan_axeman_without_target_asks_nothing():
    board = own("f4", "d6") + foe("d5", rank="legendary") + foe("d4", "f6")
    state = play(start("highland-clan-axeman", board), summon("highland-clan-axeman", "e5"))
    assert state["pending"] is None and state["turn"]["actions"] == 1
    assert "highland-clan-axeman" in state["discards"][0]


# --- Clan Healer (common): place 0-2 own commons next to green squares -------------------------------

def test_highland_clan_healer_places_two_commons_next_to_green_squares():
    state = start("highland-clan-healer", own("f6", "d7", "f7"))
    state = play(state, summon("highland-clan-healer", "e7"))
    expected = sorted({sq for g in GREEN for sq in ADJACENT[g] if sq not in GREEN and sq not in state["board"]})
    assert asked_squares(state) == expected
    assert "f8" not in expected and "g7" in expected and "f7" not in expected
    assert state["pending"]["can_skip"]
    all_accepted(state)
    state = play(state, choose("g7"), choose("b4"))
    assert at(state, "g7") == (0, "common") and at(state, "b4") == (0, "common")
    assert state["pending"] is None


def test_highland_clan_healer_partial_and_declined():
    state = play(start("highland-clan-healer", own("f6", "d7", "f7")), summon("highland-clan-healer", "e7"),
                 choose("h3"), SKIP)
    assert at(state, "h3") == (0, "common") and len(state["board"]) == 5
    state = play(start("highland-clan-healer", own("f6", "d7", "f7")), summon("highland-clan-healer", "e7"), SKIP)
    assert len(state["board"]) == 4


def test_highland_clan_healer_stops_when_supply_runs_out():
    # two pieces off the board: one becomes the Healer, one can be placed
    state = start("highland-clan-healer", own("f6", "d7", "f7"), supply={"0": {"non_legendary": 2}})
    state = play(state, summon("highland-clan-healer", "e7"), choose("g7"))
    assert at(state, "g7") == (0, "common") and state["pending"] is None
    # one piece off the board: the Healer takes it, nothing can be placed
    state = start("highland-clan-healer", own("f6", "d7", "f7"), supply={"0": {"non_legendary": 1}})
    state = play(state, summon("highland-clan-healer", "e7"))
    assert state["pending"] is None and len(state["board"]) == 4


def test_highland_clan_healer_piece_shortage_picks_up_a_spare_piece():
    state = start("highland-clan-healer", own("f6", "d7", "f7", "a7"), supply={"0": {"non_legendary": 0}})
    state = play(state, summon("highland-clan-healer", "e7"))
    assert state["pending"]["kind"] == "pickup"
    assert asked_squares(state) == ["a7"]                            # pattern pieces are locked
    state = play(state, choose("a7"))
    assert at(state, "a7") is None and at(state, "e7") == (0, "common")
    assert state["pending"] is None                                  # empty supply: nothing to place


# --- Dire Wolf (common): up to two combat moves ------------------------------------------------------

def test_highland_dire_wolf_two_combat_moves():
    board = own("d6", "e6", "c7") + foe("e4", "e3") + foe("f4", rank="heroic")
    state = start("highland-dire-wolf", board, actions=1)
    state = play(state, summon("highland-dire-wolf", "e5"))
    moves = asked_moves(state)
    assert ("e5", "e4") in moves and ("e5", "d6") in moves and ("e5", "f4") not in moves
    all_accepted(state)
    state = play(state, move("e5", "e4"))
    assert state["pending"]["can_skip"] and asked_moves(state)[0][0] == "e4"
    state = play(state, move("e4", "e3"))
    assert at(state, "e3") == (0, "common") and at(state, "e4") is None and at(state, "e5") is None
    assert state["points"][0] == 1                                   # two enemy commons: one point


def test_highland_dire_wolf_one_move_then_stops():
    board = own("d6", "e6", "c7") + foe("e4", "e3")
    state = play(start("highland-dire-wolf", board), summon("highland-dire-wolf", "e5"), move("e5", "f5"), SKIP)
    assert at(state, "f5") == (0, "common") and state["pending"] is None
    state = play(start("highland-dire-wolf", board), summon("highland-dire-wolf", "e5"), SKIP)
    assert at(state, "e5") == (0, "common")


# --- Ritual Keeper (common): green upgrade / red combat move / uncoloured nothing --------------------

def test_highland_ritual_keeper_on_green_must_upgrade_an_own_common():
    board = own("g2", "f3") + own("b8", rank="heroic") + foe("h3")
    state = play(start("highland-ritual-keeper", board), summon("highland-ritual-keeper", "g3"))
    assert asked_squares(state) == ["f3", "g2", "g3"]                # the Keeper itself too; no enemy piece
    assert SKIP not in legal(state)
    all_accepted(state)
    state = play(state, choose("g2"))
    assert at(state, "g2") == (0, "heroic") and at(state, "g3") == (0, "common")
    assert state["pending"] is None                                  # no move: g3 is not red


def test_highland_ritual_keeper_on_green_upgrades_itself_when_alone():
    board = own("g2", "f3", rank="heroic")
    state = play(start("highland-ritual-keeper", board), summon("highland-ritual-keeper", "g3"))
    assert at(state, "g3") == (0, "heroic") and state["pending"] is None


def test_highland_ritual_keeper_on_red_gives_one_combat_move():
    board = own("e4", "d5") + own("f6", rank="heroic") + foe("f7", rank="heroic")
    state = play(start("highland-ritual-keeper", board), summon("highland-ritual-keeper", "e5"))
    assert state["pending"]["ask"] == "move" and SKIP in legal(state)
    assert {src for src, _ in asked_moves(state)} == {"d5", "e4", "e5", "f6"}
    state = play(state, move("f6", "f7"))
    assert at(state, "f7") == (0, "heroic") and state["turn"]["destroyed"] == [[1, 2]]
    assert at(state, "e4") == (0, "common") and state["pending"] is None   # no upgrade on red


def test_highland_ritual_keeper_on_red_may_decline():
    board = own("e4", "d5") + foe("f6")
    state = play(start("highland-ritual-keeper", board), summon("highland-ritual-keeper", "e5"), SKIP)
    assert at(state, "f6") == (1, "common") and state["pending"] is None


def test_highland_ritual_keeper_on_uncoloured_square_does_nothing():
    board = own("f6", "e7") + foe("g7")
    state = play(start("highland-ritual-keeper", board), summon("highland-ritual-keeper", "f7"))
    assert state["pending"] is None and state["turn"]["actions"] == 1
    assert [at(state, sq) for sq in ("f6", "e7", "f7", "g7")] == [(0, "common")] * 3 + [(1, "common")]


# --- Eagle Lord (heroic): optional combat leap anywhere ----------------------------------------------

def test_highland_eagle_lord_leaps_onto_enemy_heroic():
    board = own("c5", "g5", "d6", "f6") + foe("c2", rank="heroic") + foe("g2", rank="legendary") + foe("h8")
    state = start("highland-eagle-lord", board, actions=1)
    state = play(state, summon("highland-eagle-lord", "e5"))
    moves = asked_moves(state)
    assert ("e5", "c2") in moves and ("e5", "h8") in moves and ("e5", "g2") not in moves
    state = play(state, move("e5", "c2"))
    assert at(state, "c2") == (0, "heroic") and at(state, "e5") is None
    assert state["points"][0] == 1                                   # one enemy heroic


def test_highland_eagle_lord_declines():
    board = own("c5", "g5", "d6", "f6") + foe("c2", rank="heroic")
    state = play(start("highland-eagle-lord", board), summon("highland-eagle-lord", "e5"), SKIP)
    assert at(state, "e5") == (0, "heroic") and at(state, "c2") == (1, "heroic")


# --- Wolf Rider (heroic): up to two combat moves -----------------------------------------------------

def test_highland_wolf_rider_two_combat_moves():
    board = own("e5", "f5", "g5", "e6") + foe("e3", rank="heroic") + foe("f2") + foe("d3", rank="legendary")
    state = start("highland-wolf-rider", board, actions=1)
    state = play(state, summon("highland-wolf-rider", "e4"))
    assert ("e4", "e3") in asked_moves(state) and ("e4", "d3") not in asked_moves(state)
    state = play(state, move("e4", "e3"))
    assert ("e3", "d3") not in asked_moves(state)
    state = play(state, move("e3", "f2"))
    assert at(state, "f2") == (0, "heroic") and at(state, "d3") == (1, "legendary")
    assert state["points"][0] == 1                                   # heroic 1, lone common 0


def test_highland_wolf_rider_partial_move():
    board = own("e5", "f5", "g5", "e6") + foe("e3", rank="heroic")
    state = play(start("highland-wolf-rider", board), summon("highland-wolf-rider", "e4"), move("e4", "e3"), SKIP)
    assert at(state, "e3") == (0, "heroic") and state["pending"] is None


# --- Blood Shaman (heroic): must destroy one; on red, the commons around go too -----------------------

BLOOD = own("f4", "f5", "d6", "e6", "g6") + foe("h6", "g5", "i5", "b2") + foe("i7", rank="heroic") \
    + foe("h7", rank="legendary")


def test_highland_blood_shaman_on_red_square_clears_commons_around_it():
    state = start("highland-blood-shaman", BLOOD, actions=1)
    state = play(state, summon("highland-blood-shaman", "e5"))
    options = asked_squares(state)
    assert SKIP not in legal(state)
    assert "h6" in options and "i7" in options and "g6" in options and "h7" not in options
    all_accepted(state)
    state = play(state, choose("h6"))
    for sq in ("h6", "g5", "i5", "g6"):                              # own common g6 as well
        assert at(state, sq) is None
    assert at(state, "i7") == (1, "heroic") and at(state, "h7") == (1, "legendary")
    assert at(state, "b2") == (1, "common")
    assert state["points"][0] == 1                                   # three enemy commons: one pair


def test_highland_blood_shaman_off_red_destroys_only_its_target():
    state = play(start("highland-blood-shaman", BLOOD), summon("highland-blood-shaman", "e5"), choose("b2"))
    assert at(state, "b2") is None
    assert at(state, "g5") == (1, "common") and at(state, "g6") == (0, "common")


def test_highland_blood_shaman_heroic_target_on_red():
    board = own("f4", "f5", "d6", "e6") + foe("h6", rank="heroic") + foe("g7", "h5")
    state = play(start("highland-blood-shaman", board), summon("highland-blood-shaman", "e5"), choose("h6"))
    assert at(state, "h6") is None and at(state, "g7") is None and at(state, "h5") is None
    assert sorted(state["turn"]["destroyed"]) == [[1, 1], [1, 1], [1, 2]]


def test_highland_blood_shaman_mandatory_even_with_only_own_pieces():
    state = play(start("highland-blood-shaman", own("f4", "f5", "d6", "e6")), summon("highland-blood-shaman", "e5"))
    assert SKIP not in legal(state)
    assert {"f4", "f5", "d6", "e6"} <= set(asked_squares(state))
    state = play(state, choose("d6"))
    assert at(state, "d6") is None and state["turn"]["destroyed"] == []


# --- War Drummer (heroic): one combat move or up to two standard moves for the other own pieces ------

DRUM = own("e5", "f5", "e6", "f6") + foe("f4", "d5") + foe("d4", rank="heroic")


def test_highland_war_drummer_one_combat_move():
    state = play(start("highland-war-drummer", DRUM), summon("highland-war-drummer", "e5"))
    assert at(state, "e5") == (0, "heroic") and state["turn"]["destroyed"] == []   # own piece oversummoned
    assert sorted(c["option"] for c in legal(state) if c["type"] == "choose") == \
        ["one combat move", "up to two standard moves"]
    assert SKIP in legal(state)
    state = play(state, option("one combat move"))
    assert SKIP not in legal(state)
    assert "e5" not in {src for src, _ in asked_moves(state)}        # not the Drummer itself
    assert ("f5", "f4") in asked_moves(state)
    state = play(state, move("f5", "f4"))
    assert at(state, "f4") == (0, "common") and state["pending"] is None
    assert state["turn"]["destroyed"] == [[1, 1]]


def test_highland_war_drummer_two_standard_moves_with_different_pieces():
    state = play(start("highland-war-drummer", DRUM), summon("highland-war-drummer", "e5"),
                 option("up to two standard moves"))
    moves = asked_moves(state)
    assert ("e6", "d5") not in moves and ("f5", "f4") not in moves    # standard: no common takes a common
    assert ("e6", "d7") in moves and "e5" not in {src for src, _ in moves}
    all_accepted(state)
    state = play(state, move("e6", "d7"), move("f6", "g7"))
    assert at(state, "d7") == (0, "common") and at(state, "g7") == (0, "common") and state["pending"] is None


def test_highland_war_drummer_partial_and_declined():
    state = play(start("highland-war-drummer", DRUM), summon("highland-war-drummer", "e5"),
                 option("up to two standard moves"), move("e6", "d7"), SKIP)
    assert at(state, "d7") == (0, "common") and at(state, "f6") == (0, "common") and state["pending"] is None
    state = play(start("highland-war-drummer", DRUM), summon("highland-war-drummer", "e5"), SKIP)
    assert state["pending"] is None and sorted(state["board"]) == sorted(p["square"] for p in DRUM)


def test_highland_war_drummer_needs_own_piece_on_its_square():
    state = start("highland-war-drummer", own("f5", "e6", "f6") + foe("e5"))
    assert refused(state, summon("highland-war-drummer", "e5")) == "pattern_not_matched"


def test_highland_war_drummer_piece_shortage_reuses_the_piece_on_its_square():
    state = start("highland-war-drummer", DRUM, supply={"0": {"non_legendary": 0}})
    piece = state["board"]["e5"][0]
    state = play(state, summon("highland-war-drummer", "e5"), SKIP)
    assert state["board"]["e5"] == [piece, 0, 2]                    # flipped to heroic, nothing destroyed
    assert len(state["board"]) == len(DRUM)


# --- Hill Giant (heroic): destroys every non-legendary piece orthogonally adjacent -------------------

def test_highland_hill_giant_flattens_orthogonal_neighbours():
    board = own("e5", "d6", "e6", "f6") + foe("e3", "d3") + foe("d4", rank="heroic") + foe("f4", rank="legendary")
    state = play(start("highland-hill-giant", board, actions=1), summon("highland-hill-giant", "e4"))
    assert at(state, "e3") is None and at(state, "d4") is None and at(state, "e5") is None   # own e5 too
    assert at(state, "f4") == (1, "legendary") and at(state, "d3") == (1, "common")
    assert at(state, "e4") == (0, "heroic")
    assert state["points"][0] == 1                                   # the heroic; a lone common scores nothing


def test_highland_hill_giant_spares_legends_even_its_own_pattern_piece():
    # the pattern piece just below the Giant is always orthogonally adjacent: a legend there survives
    board = own("d6", "e6", "f6") + own("e5", rank="legendary") + foe("d3") + foe("f4", rank="legendary")
    state = play(start("highland-hill-giant", board), summon("highland-hill-giant", "e4"))
    assert at(state, "e5") == (0, "legendary") and at(state, "f4") == (1, "legendary")
    assert at(state, "d3") == (1, "common") and state["pending"] is None and state["turn"]["destroyed"] == []


# --- Warlord (heroic): up to three combat moves, the Warlord making one if three are made ------------

WAR = own("d5", "e5", "f5", "c6", "g6") + foe("d3", "e3")


def test_highland_warlord_third_move_must_be_the_warlord():
    state = play(start("highland-warlord", WAR), summon("highland-warlord", "e4"))
    all_accepted(state)
    state = play(state, move("c6", "c5"), move("g6", "g5"))
    assert {src for src, _ in asked_moves(state)} == {"e4"}
    state = play(state, move("e4", "d3"))
    assert at(state, "d3") == (0, "heroic") and state["pending"] is None
    assert state["turn"]["destroyed"] == [[1, 1]]


def test_highland_warlord_moving_early_frees_other_pieces():
    state = play(start("highland-warlord", WAR), summon("highland-warlord", "e4"), move("e4", "e3"),
                 move("d5", "d4"))
    assert {src for src, _ in asked_moves(state)} > {"e3"}
    state = play(state, move("d4", "d3"))
    assert at(state, "d3") == (0, "common") and at(state, "e3") == (0, "heroic")
    assert state["pending"] is None and len(state["turn"]["destroyed"]) == 2


def test_highland_warlord_destroyed_mid_effect_ends_the_moves():
    board = WAR + own("f4", rank="heroic")
    state = play(start("highland-warlord", board), summon("highland-warlord", "e4"), move("f4", "e4"))
    assert at(state, "e4") == (0, "heroic") and state["turn"]["destroyed"] == []   # own Warlord gone
    state = play(state, move("c6", "c5"))
    assert state["pending"] is None                                  # third move was the Warlord's, gone


def test_highland_warlord_declined():
    state = play(start("highland-warlord", WAR), summon("highland-warlord", "e4"), SKIP)
    assert state["pending"] is None and at(state, "e4") == (0, "heroic")


# --- War Summoner (heroic): gain an action; next summoning may borrow one enemy piece -----------------

SUMMONER = own("d4", "f4", "e5", "e6") + own("c6", "c7", "d7") + foe("b6", "b4")


def test_highland_war_summoner_lends_enemy_piece_to_next_summoning():
    state = start("highland-war-summoner", SUMMONER, hands={"0": ["highland-war-summoner", "highland-mountain-troll"]})
    assert refused(state, summon("highland-mountain-troll", "c5")) == "pattern_not_matched"
    state = play(state, summon("highland-war-summoner", "e4"))
    assert state["turn"]["actions"] == 2 and state["pending"] is None
    assert state["turn"]["modifiers"] == [{"modifier": "borrow-enemy-piece", "count": 1,
                                           "scope": "next-summoning-this-turn"}]
    assert summon("highland-mountain-troll", "c5") in legal(state)
    all_accepted(state)
    state = play(state, summon("highland-mountain-troll", "c5"))
    # the borrowed b6 is still an enemy piece: the Troll destroys it with b4, and gains an action
    assert at(state, "c5") == (0, "heroic") and at(state, "b6") is None and at(state, "b4") is None
    assert state["turn"]["destroyed"] == [[1, 1], [1, 1]]
    assert state["turn"]["modifiers"] == [] and state["turn"]["actions"] == 2


def test_highland_war_summoner_bonus_is_spent_by_the_next_summoning_even_unused():
    board = SUMMONER + own("c2", "e2")
    hands = {"0": ["highland-war-summoner", "highland-wild-eagle", "highland-mountain-troll"]}
    state = play(start("highland-war-summoner", board, hands=hands), summon("highland-war-summoner", "e4"),
                 summon("highland-wild-eagle", "d1"), SKIP)
    assert state["turn"]["modifiers"] == [] and state["turn"]["actions"] == 1
    assert refused(state, summon("highland-mountain-troll", "c5")) == "pattern_not_matched"


def test_highland_war_summoner_bonus_lapses_at_end_of_turn():
    hands = {"0": ["highland-war-summoner", "highland-mountain-troll"]}
    state = play(start("highland-war-summoner", SUMMONER, hands=hands, actions=1), summon("highland-war-summoner", "e4"))
    state = play(state, {"type": "place", "square": "a4"})          # the gained action
    assert state["turn"]["seat"] == 1 and state["turn"]["modifiers"] == []
    state = play(state, {"type": "place", "square": "i5"}, {"type": "place", "square": "i6"})
    assert state["turn"]["seat"] == 0
    assert refused(state, summon("highland-mountain-troll", "c5")) == "pattern_not_matched"


def test_highland_war_summoner_borrowing_with_piece_shortage():
    hands = {"0": ["highland-war-summoner", "highland-mountain-troll"]}
    state = start("highland-war-summoner", SUMMONER, hands=hands, supply={"0": {"non_legendary": 1}})
    state = play(state, summon("highland-war-summoner", "e4"), summon("highland-mountain-troll", "c5"))
    assert state["pending"]["kind"] == "pickup"
    assert asked_squares(state) == ["d4", "e4", "e5", "e6", "f4"]    # c6 c7 d7 carry the pattern
    all_accepted(state)
    state = play(state, choose("d4"))
    assert at(state, "d4") is None and at(state, "c5") == (0, "heroic")
    assert at(state, "b6") is None and at(state, "b4") is None and state["turn"]["actions"] == 2


def test_highland_war_summoner_in_melee_borrows_without_spending_improvisation():
    board = own("d4", "f4", "e5", "e6", "c6", "c7", "d7") + [{"square": "b6", "seat": 2, "rank": "common"}] + foe("b4")
    hands = {"0": ["highland-war-summoner", "highland-mountain-troll"]}
    state = position(board=board, form="melee", hands=hands, schools=["highland", "sylvan", "northern"])
    state = play(state, summon("highland-war-summoner", "e4"), summon("highland-mountain-troll", "c5"))
    assert state["impro"][0] == [False, True, True]                  # improvisations untouched
    assert at(state, "b6") is None and at(state, "b4") is None
    assert sorted(state["turn"]["destroyed"]) == [[1, 1], [2, 1]] and state["turn"]["actions"] == 2


# --- Ritual Master (heroic): green two actions / red remove a heroic and/or a common -----------------

def test_highland_ritual_master_on_green_gains_two_actions():
    state = play(start("highland-ritual-master", own("f2", "f4", "h4")), summon("highland-ritual-master", "g3"))
    assert state["turn"]["actions"] == 3 and state["pending"] is None


def test_highland_ritual_master_on_red_removes_a_heroic_and_a_common():
    board = own("d4", "d6", "f6") + foe("b5", rank="heroic") + foe("h2") + foe("c2", rank="legendary")
    state = play(start("highland-ritual-master", board, actions=1), summon("highland-ritual-master", "e5"))
    assert state["turn"]["actions"] == 0
    assert asked_squares(state) == ["b5", "e5"] and SKIP in legal(state)    # any heroic, the Master too
    all_accepted(state)
    state = play(state, choose("b5"))
    assert "h2" in asked_squares(state) and "d4" in asked_squares(state) and "c2" not in asked_squares(state)
    state = play(state, choose("h2"))
    assert at(state, "b5") is None and at(state, "h2") is None and at(state, "c2") == (1, "legendary")
    assert state["points"][0] == 1                                   # heroic 1 + lone common 0


def test_highland_ritual_master_on_red_partial_choices():
    board = own("g5", "g7", "i7") + foe("b5", rank="heroic") + foe("h2")
    state = play(start("highland-ritual-master", board), summon("highland-ritual-master", "h6"), SKIP, choose("h2"))
    assert at(state, "b5") == (1, "heroic") and at(state, "h2") is None
    state = play(start("highland-ritual-master", board), summon("highland-ritual-master", "h6"), choose("b5"), SKIP)
    assert at(state, "b5") is None and at(state, "h2") == (1, "common") and state["pending"] is None
    assert state["turn"]["actions"] == 1                             # red gives no action


def test_highland_ritual_master_on_uncoloured_square_gives_nothing():
    board = own("d5", "d7", "f7") + foe("b5", rank="heroic")
    state = play(start("highland-ritual-master", board), summon("highland-ritual-master", "e6"))
    assert state["pending"] is None and state["turn"]["actions"] == 1 and at(state, "b5") == (1, "heroic")


# --- Legend Slayer (heroic): one diagonal legend, or up to two diagonal non-legendary pieces ---------

SLAYER = own("e5", "f5", "e6", "g6") + foe("d3", rank="legendary") + foe("f3", rank="heroic") + foe("d5", "e3")


def test_highland_legend_slayer_destroys_a_legend():
    state = play(start("highland-legend-slayer", SLAYER, actions=1), summon("highland-legend-slayer", "e4"))
    assert state["pending"]["ask"] == "option" and SKIP in legal(state)
    all_accepted(state)
    state = play(state, option("one legendary piece"))              # single target: applied at once
    assert at(state, "d3") is None and at(state, "f3") == (1, "heroic")
    assert state["points"][0] == 2


def test_highland_legend_slayer_destroys_two_non_legendary():
    state = play(start("highland-legend-slayer", SLAYER), summon("highland-legend-slayer", "e4"),
                 option("up to two non-legendary pieces"))
    assert asked_squares(state) == ["d5", "f3", "f5"] and SKIP in legal(state)   # diagonal only, own f5 too
    state = play(state, choose("f3"), choose("d5"))
    assert at(state, "f3") is None and at(state, "d5") is None and at(state, "d3") == (1, "legendary")
    assert at(state, "e3") == (1, "common") and state["pending"] is None


def test_highland_legend_slayer_partial_and_declined():
    state = play(start("highland-legend-slayer", SLAYER), summon("highland-legend-slayer", "e4"),
                 option("up to two non-legendary pieces"), choose("d5"), SKIP)
    assert at(state, "d5") is None and at(state, "f3") == (1, "heroic") and state["pending"] is None
    state = play(start("highland-legend-slayer", SLAYER), summon("highland-legend-slayer", "e4"), SKIP)
    assert len(state["board"]) == len(SLAYER) + 1


def test_highland_legend_slayer_legend_branch_is_not_offered_without_a_legend():
    board = own("e5", "f5", "e6", "g6") + foe("f3", rank="heroic")
    state = play(start("highland-legend-slayer", board), summon("highland-legend-slayer", "e4"))
    assert legal(state) == [option("up to two non-legendary pieces"), SKIP]
    state = play(state, option("up to two non-legendary pieces"), choose("f3"), SKIP)
    assert state["pending"] is None and at(state, "f3") is None


# --- Mountain Troll (heroic): destroys adjacent enemy commons; two or more give an action ------------

def test_highland_mountain_troll_clears_enemy_commons_and_gains_action():
    board = own("d5", "e5", "e6", "f6", "f5") + foe("e3", "f4") + foe("d3", rank="heroic") + foe("c4")
    state = play(start("highland-mountain-troll", board), summon("highland-mountain-troll", "e4"))
    assert at(state, "e3") is None and at(state, "f4") is None
    assert at(state, "d3") == (1, "heroic") and at(state, "c4") == (1, "common") and at(state, "f5") == (0, "common")
    assert state["turn"]["actions"] == 2 and state["pending"] is None


def test_highland_mountain_troll_oversummoned_piece_does_not_count_toward_two():
    board = own("d5", "e5", "e6", "f6") + foe("e4", "e3")
    state = play(start("highland-mountain-troll", board), summon("highland-mountain-troll", "e4"))
    assert at(state, "e3") is None and len(state["turn"]["destroyed"]) == 2
    assert state["turn"]["actions"] == 1


# --- Hungry Bear (heroic): up to two standard moves, stopping after a move onto an empty square -----

BEAR = own("f5", "e6", "f6") + foe("e4", "e3") + foe("d4", rank="heroic")


def test_highland_hungry_bear_eats_twice():
    state = play(start("highland-hungry-bear", BEAR, actions=1), summon("highland-hungry-bear", "e5"))
    assert ("e5", "e4") in asked_moves(state) and ("e5", "d4") not in asked_moves(state)
    all_accepted(state)
    state = play(state, move("e5", "e4"))
    assert asked_moves(state) and SKIP in legal(state)
    state = play(state, move("e4", "e3"))
    assert at(state, "e3") == (0, "heroic") and state["points"][0] == 1


def test_highland_hungry_bear_stops_after_an_empty_square():
    state = play(start("highland-hungry-bear", BEAR), summon("highland-hungry-bear", "e5"), move("e5", "d5"))
    assert at(state, "d5") == (0, "heroic") and state["pending"] is None


def test_highland_hungry_bear_eats_then_may_stop_or_walk():
    state = play(start("highland-hungry-bear", BEAR), summon("highland-hungry-bear", "e5"), move("e5", "e4"), SKIP)
    assert at(state, "e4") == (0, "heroic") and at(state, "e3") == (1, "common")
    state = play(start("highland-hungry-bear", BEAR), summon("highland-hungry-bear", "e5"), move("e5", "e4"),
                 move("e4", "f3"))
    assert at(state, "f3") == (0, "heroic") and state["pending"] is None
    state = play(start("highland-hungry-bear", BEAR), summon("highland-hungry-bear", "e5"), SKIP)
    assert at(state, "e5") == (0, "heroic")


# --- Werewolf (heroic): non-central coloured square: 3 combat moves; else one standard move ----------

def test_highland_werewolf_on_red_makes_three_combat_moves():
    board = own("f5", "e6", "f7") + foe("h5", rank="heroic") + foe("i3")
    state = play(start("highland-werewolf", board, actions=1), summon("highland-werewolf", "h6"))
    assert ("h6", "h5") in asked_moves(state)
    state = play(state, move("h6", "h5"), move("h5", "h4"), move("h4", "i3"))
    assert at(state, "i3") == (0, "heroic") and state["pending"] is None
    assert state["points"][0] == 1


def test_highland_werewolf_on_green_partial_moves():
    board = own("e2", "d3", "e4") + foe("g2", rank="heroic")
    state = play(start("highland-werewolf", board), summon("highland-werewolf", "g3"), move("g3", "g2"),
                 move("g2", "f1"), SKIP)
    assert at(state, "f1") == (0, "heroic") and at(state, "g2") is None and state["pending"] is None


@pytest.mark.parametrize("square, pattern", [("e5", ("c4", "b5", "c6")), ("e7", ("c6", "b7", "c8"))])
def test_highland_werewolf_on_centre_or_uncoloured_one_standard_move(square, pattern):
    x, y = ord(square[0]), int(square[1])
    heroic = f"{chr(x)}{y - 1}"
    common = f"{chr(x + 1)}{y}"
    board = own(*pattern) + foe(heroic, rank="heroic") + foe(common)
    state = play(start("highland-werewolf", board), summon("highland-werewolf", square))
    moves = asked_moves(state)
    assert (square, heroic) not in moves and (square, common) in moves   # standard: commons only
    state = play(state, move(square, common))
    assert at(state, common) == (0, "heroic") and state["pending"] is None


# --- Clan Guardian (heroic): may upgrade one common pattern piece ------------------------------------

def test_highland_clan_guardian_upgrades_a_pattern_piece():
    state = play(start("highland-clan-guardian", own("c5", "d5", "f5", "e6")), summon("highland-clan-guardian", "e5"))
    assert asked_squares(state) == ["c5", "d5", "f5"] and SKIP in legal(state)   # not e6
    all_accepted(state)
    state = play(state, choose("d5"))
    assert at(state, "d5") == (0, "heroic") and at(state, "e6") == (0, "common") and state["pending"] is None


def test_highland_clan_guardian_heroic_pattern_piece_is_not_upgraded():
    board = own("d5", "f5") + own("c5", rank="heroic")
    state = play(start("highland-clan-guardian", board), summon("highland-clan-guardian", "e5"))
    assert asked_squares(state) == ["d5", "f5"]


def test_highland_clan_guardian_shortage_pickup_settles_the_orientation():
    board = own("c5", "d5", "f5", "g5")
    state = start("highland-clan-guardian", board, supply={"0": {"non_legendary": 0}})
    state = play(state, summon("highland-clan-guardian", "e5"))
    assert state["pending"]["kind"] == "pickup"
    assert asked_squares(state) == ["c5", "g5"]                      # d5 and f5 serve both orientations
    state = play(state, choose("c5"))
    assert state["pending"]["kind"] == "effect"                      # only the d5-f5-g5 orientation is left
    assert asked_squares(state) == ["d5", "f5", "g5"]


def test_highland_clan_guardian_declined():
    state = play(start("highland-clan-guardian", own("c5", "d5", "f5")), summon("highland-clan-guardian", "e5"), SKIP)
    assert [at(state, sq) for sq in ("c5", "d5", "f5")] == [(0, "common")] * 3


def test_highland_clan_guardian_orientation_decides_pattern_pieces():
    state = play(start("highland-clan-guardian", own("c5", "d5", "f5", "g5")), summon("highland-clan-guardian", "e5"))
    assert state["pending"]["kind"] == "orientation"
    seen = set()
    for command in legal(state):
        after = play(state, command)
        seen.add(tuple(asked_squares(after)))
    assert seen == {("c5", "d5", "f5"), ("d5", "f5", "g5")}


def test_highland_clan_guardian_may_upgrade_borrowed_enemy_piece():
    board = own("d4", "f4", "e5", "e6", "e7", "f7") + foe("h7")
    hands = {"0": ["highland-war-summoner", "highland-clan-guardian"]}
    state = play(start("highland-war-summoner", board, hands=hands), summon("highland-war-summoner", "e4"),
                 summon("highland-clan-guardian", "g7"))
    assert asked_squares(state) == ["e7", "f7", "h7"]
    state = play(state, choose("h7"))
    assert at(state, "h7") == (1, "heroic") and state["turn"]["destroyed"] == []
