"""One or more tests per card of the Sylvan school deck (cards.json, deck 'sylvan').

Seat 0 plays Sylvan (colour 0); seat 1 plays Northern (colour 1); in a melee seat 2 plays Highland.
Pattern offsets are (x, y) with y growing downward, so offset (0, 1) from e5 is e6.
"""
from __future__ import annotations

import engine
from engine.state import active_seat, supply
from tests.engine.helpers import SKIP, at, choose, legal, move, play, position

DUEL = ["sylvan", "northern"]
MELEE = ["sylvan", "northern", "highland"]


def pc(square: str, seat: int = 0, rank: str = "common") -> dict:
    return {"square": square, "seat": seat, "rank": rank}


def table(card: str, pieces: list[dict], form: str = "duel", actions: int = 1, **extra) -> dict:
    """Seat 0 (Sylvan) to act with `card` in hand and `actions` actions left."""
    hands = extra.pop("hands", {"0": [card]})
    return position(board=pieces, form=form, schools=MELEE if form == "melee" else DUEL, hands=hands,
                    actions=actions, **extra)


def summon(card: str, square: str) -> dict:
    return {"type": "summon", "card": card, "square": square}


def option(label: str) -> dict:
    return {"type": "choose", "option": label}


def moves(state: dict) -> set[tuple[str, str]]:
    return {(c["from"], c["to"]) for c in legal(state) if c["type"] == "move"}


def squares(state: dict) -> set[str]:
    return {c["square"] for c in legal(state) if c["type"] == "choose" and "square" in c}


def assert_all_legal_accepted(state: dict) -> None:
    """Every command legal_commands lists is accepted by decide."""
    seat = active_seat(state)
    commands = legal(state)
    assert commands
    for command in commands:
        assert engine.decide(state, {"seat": seat, **command}) is not None


def sylvan_turn_over(state: dict) -> bool:
    return state["turn"]["seat"] != 0


# --- Sapling ------------------------------------------------------------------------------------------

SAPLING = "sylvan-sapling"


def test_sylvan_sapling_becomes_heroic():
    state = table(SAPLING, [pc("e6"), pc("e7")], actions=2)
    state = play(state, summon(SAPLING, "e5"))
    assert state["pending"] is None
    assert at(state, "e5") == (0, "heroic")
    assert state["turn"]["summons"] == [["e5", 1]]          # still a common being summoned
    assert state["turn"]["actions"] == 1
    assert state["discards"][0] == [SAPLING]
    assert SAPLING not in state["hands"][0]


def test_sylvan_sapling_oversummons_enemy_common_and_scores():
    state = table(SAPLING, [pc("e6"), pc("e7"), pc("e5", 1), pc("a5", 1)])
    state = play(state, summon(SAPLING, "e5"))
    assert at(state, "e5") == (0, "heroic")
    assert sylvan_turn_over(state)                            # one action: the turn ended by itself
    assert state["points"] == [0, 0]                          # a single common is an odd leftover


def test_sylvan_sapling_cannot_oversummon_a_heroic():
    state = table(SAPLING, [pc("e6"), pc("e7"), pc("e5", 1, "heroic")])
    assert summon(SAPLING, "e5") not in legal(state)
    try:
        play(state, summon(SAPLING, "e5"))
    except engine.RuleError as exc:
        assert exc.code == "being_square_blocked"
    else:
        raise AssertionError("summoning onto a heroic piece must be refused")


def test_sylvan_sapling_with_empty_supply_picks_up_a_piece():
    state = table(SAPLING, [pc("e6"), pc("e7"), pc("c3")], supply={"0": {"non_legendary": 0}})
    state = play(state, summon(SAPLING, "e5"))
    assert state["pending"]["kind"] == "pickup"
    assert legal(state) == [choose("c3")]                     # e6 and e7 hold the pattern
    state = play(state, choose("c3"))
    assert at(state, "c3") is None
    assert at(state, "e5") == (0, "heroic")
    assert supply(state, 0) == (0, 3)


# --- Kiskin Farseeders -------------------------------------------------------------------------------

FARSEEDERS = "sylvan-kiskin-farseeders"


def test_sylvan_kiskin_farseeders_places_a_common_next_to_own_piece():
    state = table(FARSEEDERS, [pc("f5"), pc("d6"), pc("a5", 1)], actions=2)
    before = supply(state, 0)[0]
    state = play(state, summon(FARSEEDERS, "e5"))
    assert state["pending"]["ask"] == "square"
    offered = squares(state)
    assert {"e4", "g5", "c7", "d5"} <= offered                # next to e5, f5 or d6
    assert "a4" not in offered and "b5" not in offered        # next to the enemy piece only
    assert "e5" not in offered and "a5" not in offered        # occupied
    assert SKIP in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, choose("g5"))
    assert at(state, "g5") == (0, "common")
    assert at(state, "e5") == (0, "common")
    assert supply(state, 0)[0] == before - 2
    assert state["pending"] is None


def test_sylvan_kiskin_farseeders_declined():
    state = table(FARSEEDERS, [pc("f5"), pc("d6")], actions=2)
    state = play(state, summon(FARSEEDERS, "e5"), SKIP)
    assert len(state["board"]) == 3
    assert state["turn"]["actions"] == 1


def test_sylvan_kiskin_farseeders_with_last_supply_piece_places_nothing():
    state = table(FARSEEDERS, [pc("f5"), pc("d6")], actions=2, supply={"0": {"non_legendary": 1}})
    state = play(state, summon(FARSEEDERS, "e5"))
    assert state["pending"] is None                           # the being took the last piece
    assert len(state["board"]) == 3
    assert supply(state, 0)[0] == 0


# --- Charging Buck --------------------------------------------------------------------------------------

BUCK = "sylvan-charging-buck"


def test_sylvan_charging_buck_two_combat_leaps():
    board = [pc("d6"), pc("e6"), pc("d7"), pc("g3", 1), pc("c3", 1, "heroic"), pc("e1", 1), pc("f4", 1)]
    state = table(BUCK, board)
    state = play(state, summon(BUCK, "e5"))
    first = moves(state)
    assert all(src == "e5" for src, _ in first)
    assert ("e5", "g3") in first                              # enemy common at distance 2
    assert ("e5", "c3") not in first                          # a common cannot take a heroic
    assert ("e5", "f4") not in first and ("e5", "e4") not in first   # distance 1
    assert ("e5", "d7") in first                              # own common: allowed, destroys it
    assert len(first) == 15                                   # 16 squares at distance 2, minus c3
    assert_all_legal_accepted(state)
    state = play(state, move("e5", "g3"))
    assert {src for src, _ in moves(state)} == {"g3"}
    assert ("g3", "e1") in moves(state)
    state = play(state, move("g3", "e1"))
    assert at(state, "e1") == (0, "common") and at(state, "e5") is None and at(state, "g3") is None
    assert sylvan_turn_over(state)
    assert state["points"] == [1, 0]                          # a pair of enemy commons


def test_sylvan_charging_buck_one_leap_then_stop():
    state = table(BUCK, [pc("d6"), pc("e6"), pc("d7")], actions=2)
    state = play(state, summon(BUCK, "e5"), move("e5", "c5"))
    assert SKIP in legal(state)
    state = play(state, SKIP)
    assert at(state, "c5") == (0, "common")
    assert state["pending"] is None


def test_sylvan_charging_buck_declined():
    state = table(BUCK, [pc("d6"), pc("e6"), pc("d7"), pc("g3", 1)], actions=2)
    state = play(state, summon(BUCK, "e5"), SKIP)
    assert at(state, "e5") == (0, "common") and at(state, "g3") == (1, "common")


# --- Forest Wardens -------------------------------------------------------------------------------------

WARDENS = "sylvan-forest-wardens"


def test_sylvan_forest_wardens_destroys_a_common_and_a_heroic():
    enemy = [pc("b3", 1), pc("c2", 1), pc("h4", 1), pc("h8", 1), pc("d2", 1, "heroic"), pc("g8", 1, "heroic")]
    state = table(WARDENS, [pc("c5"), pc("f5"), *enemy], actions=2)
    state = play(state, summon(WARDENS, "e5"))
    assert squares(state) == {"b3", "c2", "h4", "h8"}        # 4 enemy commons > my 3 (the Wardens too)
    assert SKIP not in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, choose("h8"))
    assert squares(state) == {"d2", "g8"}                     # 2 enemy upgraded > my 0
    assert SKIP not in legal(state)
    state = play(state, choose("g8"))
    assert at(state, "h8") is None and at(state, "g8") is None and at(state, "d2") == (1, "heroic")
    assert state["turn"]["destroyed"] == [[1, 1], [1, 2]]
    assert state["pending"] is None


def test_sylvan_forest_wardens_nothing_when_not_outnumbered():
    # 3 enemy commons = my 3 commons; the enemy's only upgraded piece is a legend (not heroic)
    enemy = [pc("b3", 1), pc("c2", 1), pc("h4", 1), pc("g8", 1, "legendary")]
    state = table(WARDENS, [pc("c5"), pc("f5"), *enemy], actions=2)
    state = play(state, summon(WARDENS, "e5"))
    assert state["pending"] is None
    assert len(state["board"]) == 7
    assert state["turn"]["destroyed"] == []


def test_sylvan_forest_wardens_single_target_is_automatic():
    enemy = [pc("b3", 1), pc("c2", 1), pc("h4", 1), pc("h8", 1), pc("d2", 1, "heroic")]
    state = table(WARDENS, [pc("c5"), pc("f5"), pc("a5", 0, "heroic"), *enemy], actions=2)
    state = play(state, summon(WARDENS, "e5"), choose("b3"))
    assert state["pending"] is None                           # 1 enemy upgraded = my 1: no second half
    assert at(state, "d2") == (1, "heroic")


def test_sylvan_forest_wardens_melee_only_richer_opponents():
    seat1 = [pc("b3", 1), pc("c2", 1), pc("h4", 1), pc("h8", 1)]
    seat2 = [pc("b7", 2), pc("c7", 2), pc("d8", 2), pc("g7", 2, "heroic")]
    state = table(WARDENS, [pc("c5"), pc("f5"), *seat1, *seat2], form="melee", actions=2)
    state = play(state, summon(WARDENS, "e5"))
    assert squares(state) == {"b3", "c2", "h4", "h8"}        # seat 2 has only 3 commons
    state = play(state, choose("c2"))
    assert state["pending"] is None                           # seat 2's heroic went automatically
    assert at(state, "g7") is None and at(state, "c2") is None
    assert state["turn"]["destroyed"] == [[1, 1], [2, 2]]


# --- Naiad ------------------------------------------------------------------------------------------------

NAIAD = "sylvan-naiad"


def test_sylvan_naiad_moves_two_different_adjacent_pieces():
    board = [pc("c6"), pc("d6"), pc("e6"), pc("f4", 0, "heroic"), pc("g3", 1), pc("f3", 1, "heroic"),
             pc("h5", 0)]
    state = table(NAIAD, board, actions=2)
    state = play(state, summon(NAIAD, "e5"))
    first = moves(state)
    assert {src for src, _ in first} == {"d6", "e6", "f4"}    # c6 and h5 are not next to the Naiad
    assert ("f4", "g3") in first                              # standard move onto a lower rank
    assert ("f4", "f3") not in first                          # not onto the same rank
    assert ("d6", "e5") not in first                          # a common cannot take the common Naiad
    assert SKIP in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, move("f4", "g3"))
    assert {src for src, _ in moves(state)} == {"d6", "e6"}
    state = play(state, move("e6", "e7"))
    assert at(state, "g3") == (0, "heroic") and at(state, "e7") == (0, "common") and at(state, "e5") == (0, "common")
    assert state["pending"] is None
    assert state["turn"]["destroyed"] == [[1, 1]]


def test_sylvan_naiad_second_piece_must_be_another_one():
    state = table(NAIAD, [pc("c6"), pc("d6"), pc("e6")], actions=2)
    state = play(state, summon(NAIAD, "e5"), move("d6", "d5"))   # d5 is still next to the Naiad
    assert {src for src, _ in moves(state)} == {"e6"}
    state = play(state, SKIP)
    assert at(state, "d5") == (0, "common") and at(state, "e6") == (0, "common")


def test_sylvan_naiad_declining_the_first_move_ends_the_effect():
    state = table(NAIAD, [pc("c6"), pc("d6"), pc("e6")], actions=2)
    state = play(state, summon(NAIAD, "e5"), SKIP)
    assert state["pending"] is None
    assert {sq for sq in state["board"]} == {"c6", "d6", "e6", "e5"}


def test_sylvan_naiad_no_orientation_question():
    # Two orientations fit (c6-d6-e6 and e6-f6-g6); the Naiad's area is the same either way.
    state = table(NAIAD, [pc("c6"), pc("d6"), pc("e6"), pc("f6"), pc("g6")], actions=2)
    state = play(state, summon(NAIAD, "e5"))
    assert state["pending"]["kind"] == "effect"
    assert state["pending"]["ask"] == "move"


def test_sylvan_naiad_destroyed_by_first_move_second_piece_still_moves():
    # Adjacency is measured from the Naiad's summoning square (card notes): a heroic piece may
    # take the Naiad itself, and another piece next to that square may still move.
    state = table(NAIAD, [pc("c6"), pc("d6"), pc("e6"), pc("f4", 0, "heroic")], actions=2)
    state = play(state, summon(NAIAD, "e5"))
    assert ("f4", "e5") in moves(state)
    state = play(state, move("f4", "e5"))
    assert at(state, "e5") == (0, "heroic")
    assert state["turn"]["destroyed"] == []                   # own piece: not credited
    assert {src for src, _ in moves(state)} == {"d6", "e6"}
    state = play(state, move("d6", "d7"))
    assert at(state, "d7") == (0, "common")


# --- Kiskin Spirit ----------------------------------------------------------------------------------------

SPIRIT = "sylvan-kiskin-spirit"
SPIRIT_BOARD = [pc("c5"), pc("c6"), pc("e6")]


def test_sylvan_kiskin_spirit_returns_a_discarded_card_and_draws_extra():
    state = table(SPIRIT, SPIRIT_BOARD, discards={"0": ["sylvan-sapling", "sylvan-unicorn"]})
    deck = list(state["decks"][0])
    state = play(state, summon(SPIRIT, "e5"))
    assert state["pending"]["ask"] == "card"
    assert {c["card"] for c in legal(state) if c["type"] == "choose"} == {"sylvan-sapling", "sylvan-unicorn"}
    assert SKIP in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, {"type": "choose", "card": "sylvan-unicorn"})
    assert sylvan_turn_over(state)
    # normal refill to 3 (the returned card first), then, after legends and flare, one extra card
    school = [c for c in state["hands"][0] if c.startswith("sylvan-")]
    assert school == ["sylvan-unicorn", *deck[:3]]
    assert state["decks"][0] == deck[3:]
    assert state["discards"][0] == ["sylvan-sapling", SPIRIT]


def test_sylvan_kiskin_spirit_declined_no_extra_card():
    state = table(SPIRIT, SPIRIT_BOARD, discards={"0": ["sylvan-sapling"]})
    deck = list(state["decks"][0])
    state = play(state, summon(SPIRIT, "e5"), SKIP)
    assert sylvan_turn_over(state)
    assert [c for c in state["hands"][0] if c.startswith("sylvan-")] == deck[:3]
    assert state["discards"][0] == ["sylvan-sapling", SPIRIT]


def test_sylvan_kiskin_spirit_empty_discard_still_draws_extra():
    state = table(SPIRIT, SPIRIT_BOARD)
    deck = list(state["decks"][0])
    state = play(state, summon(SPIRIT, "e5"))
    assert sylvan_turn_over(state)                            # nothing to ask
    assert [c for c in state["hands"][0] if c.startswith("sylvan-")] == deck[:4]
    assert state["discards"][0] == [SPIRIT]


def test_sylvan_kiskin_spirit_takes_back_a_card_discarded_this_turn():
    state = table(SPIRIT, SPIRIT_BOARD, actions=2, hands={"0": [SPIRIT, "sylvan-dryad"]})
    state = play(state, {"type": "discard", "card": "sylvan-dryad", "returns": []}, summon(SPIRIT, "e5"))
    assert legal(state) == [{"type": "choose", "card": "sylvan-dryad"}, SKIP]
    state = play(state, {"type": "choose", "card": "sylvan-dryad"})
    assert state["hands"][0][0] == "sylvan-dryad"
    assert state["discards"][0] == [SPIRIT]


# --- Dryad -------------------------------------------------------------------------------------------------

DRYAD = "sylvan-dryad"
DRYAD_BOARD = [pc("d4"), pc("e5"), pc("e6")]


def test_sylvan_dryad_converts_an_adjacent_enemy_heroic_into_a_common():
    board = [*DRYAD_BOARD, pc("f5", 1, "heroic"), pc("d5", 1), pc("f4", 1, "legendary"), pc("g5", 1)]
    state = table(DRYAD, board)
    assert summon(DRYAD, "e5") in legal(state)
    assert summon(DRYAD, "e4") not in legal(state)            # needs one of my pieces on the square
    state = play(state, summon(DRYAD, "e5"))
    assert at(state, "e5") == (0, "heroic")
    assert squares(state) == {"f5", "d5"}                     # not the legend, not g5 (too far)
    assert SKIP in legal(state)
    assert_all_legal_accepted(state)
    supply_before = supply(state, 0)[0]
    state = play(state, choose("f5"))
    assert at(state, "f5") == (0, "common")
    assert supply(state, 0)[0] == supply_before - 1
    assert sylvan_turn_over(state)
    assert state["points"] == [1, 0]                          # the converted heroic counts as destroyed


def test_sylvan_dryad_declined():
    state = table(DRYAD, [*DRYAD_BOARD, pc("f5", 1, "heroic")], actions=2)
    state = play(state, summon(DRYAD, "e5"), SKIP)
    assert at(state, "f5") == (1, "heroic")
    assert state["turn"]["destroyed"] == []


def test_sylvan_dryad_empty_supply_reuses_own_piece_and_cannot_convert():
    state = table(DRYAD, [*DRYAD_BOARD, pc("f5", 1)], actions=2, supply={"0": {"non_legendary": 0}})
    piece = state["board"]["e5"][0]
    state = play(state, summon(DRYAD, "e5"))
    assert state["board"]["e5"] == [piece, 0, 2]               # the same piece, flipped to heroic
    assert state["pending"] is None                           # no common left to convert with
    assert at(state, "f5") == (1, "common")


# --- Centaur Spearman -----------------------------------------------------------------------------------

SPEARMAN = "sylvan-centaur-spearman"
SPEARMAN_BOARD = [pc("e6"), pc("f6"), pc("g6"), pc("g7")]


def test_sylvan_centaur_spearman_moves_and_strikes_along_the_line():
    board = [*SPEARMAN_BOARD, pc("e4", 1, "heroic"), pc("e2", 1, "heroic"), pc("e1", 1)]
    state = table(SPEARMAN, board)
    state = play(state, summon(SPEARMAN, "e5"))
    assert ("e5", "e4") in moves(state)                       # combat: onto an equal rank
    assert SKIP in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, move("e5", "e4"))
    assert at(state, "e4") == (0, "heroic")
    assert at(state, "e2") is None                            # the first piece beyond, two squares away
    assert at(state, "e1") == (1, "common")                   # only the first piece
    assert sylvan_turn_over(state)
    assert state["points"] == [2, 0]


def test_sylvan_centaur_spearman_legend_beyond_shields_the_rest():
    board = [*SPEARMAN_BOARD, pc("c3", 1, "legendary"), pc("b2", 1)]
    state = table(SPEARMAN, board, actions=2)
    state = play(state, summon(SPEARMAN, "e5"), move("e5", "d4"))
    assert state["pending"] is None
    assert at(state, "c3") == (1, "legendary") and at(state, "b2") == (1, "common")


def test_sylvan_centaur_spearman_hits_own_piece_and_nothing_at_the_edge():
    state = table(SPEARMAN, [*SPEARMAN_BOARD, pc("b5")], actions=2)
    state = play(state, summon(SPEARMAN, "e5"), move("e5", "d5"))
    assert at(state, "b5") is None                            # any colour, mine too
    assert state["turn"]["destroyed"] == []                   # own piece: not credited
    state = table(SPEARMAN, SPEARMAN_BOARD, actions=2)
    state = play(state, summon(SPEARMAN, "e5"), move("e5", "e4"))
    assert state["pending"] is None and len(state["board"]) == 5


def test_sylvan_centaur_spearman_declined_strikes_nothing():
    state = table(SPEARMAN, [*SPEARMAN_BOARD, pc("e2", 1)], actions=2)
    state = play(state, summon(SPEARMAN, "e5"), SKIP)
    assert at(state, "e2") == (1, "common") and at(state, "e5") == (0, "heroic")


# --- Centaur Chieftain ---------------------------------------------------------------------------------

CHIEFTAIN = "sylvan-centaur-chieftain"
CHIEFTAIN_BOARD = [pc("c4"), pc("d5"), pc("e6"), pc("f7")]


def test_sylvan_centaur_chieftain_leads_three_moves_the_same_way():
    board = [*CHIEFTAIN_BOARD, pc("c3", 1, "heroic"), pc("d4", 1)]
    state = table(CHIEFTAIN, board)
    state = play(state, summon(CHIEFTAIN, "e5"), move("e5", "e4"))
    follow = moves(state)
    assert follow == {("d5", "d4"), ("e6", "e5"), ("f7", "f6")}   # north only; c4 blocked by a heroic
    assert SKIP in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, move("d5", "d4"), move("d4", "d3"), move("e6", "e5"))
    assert state["pending"] is None
    assert at(state, "d3") == (0, "common") and at(state, "e5") == (0, "common") and at(state, "e4") == (0, "heroic")
    assert at(state, "f7") == (0, "common")
    assert sylvan_turn_over(state)
    assert state["points"] == [0, 0]                          # one enemy common: odd leftover


def test_sylvan_centaur_chieftain_partial_follow_up():
    state = table(CHIEFTAIN, CHIEFTAIN_BOARD, actions=2)
    state = play(state, summon(CHIEFTAIN, "e5"), move("e5", "f5"))
    assert moves(state) == {("c4", "d4"), ("d5", "e5"), ("e6", "f6"), ("f7", "g7")}
    state = play(state, move("f7", "g7"), SKIP)
    assert at(state, "g7") == (0, "common") and at(state, "d5") == (0, "common")
    assert state["pending"] is None


def test_sylvan_centaur_chieftain_no_follow_up_without_its_move():
    state = table(CHIEFTAIN, CHIEFTAIN_BOARD, actions=2)
    state = play(state, summon(CHIEFTAIN, "e5"), SKIP)
    assert state["pending"] is None
    assert set(state["board"]) == {"c4", "d5", "e6", "f7", "e5"}


# --- Unicorn ------------------------------------------------------------------------------------------------

UNICORN = "sylvan-unicorn"
UNICORN_BOARD = [pc("d5"), pc("c6"), pc("d6"), pc("c7")]


def test_sylvan_unicorn_gains_an_action():
    state = table(UNICORN, UNICORN_BOARD)
    state = play(state, summon(UNICORN, "e5"))
    assert legal(state) == [option("combat move"), option("gain action")]   # no skip: pick one
    assert_all_legal_accepted(state)
    state = play(state, option("gain action"))
    assert state["turn"]["seat"] == 0 and state["turn"]["actions"] == 1
    state = play(state, {"type": "place", "square": "a5"})
    assert sylvan_turn_over(state)


def test_sylvan_unicorn_combat_move():
    state = table(UNICORN, [*UNICORN_BOARD, pc("f5", 1, "heroic"), pc("f4", 1, "legendary")])
    state = play(state, summon(UNICORN, "e5"), option("combat move"))
    assert ("e5", "f5") in moves(state) and ("e5", "f4") not in moves(state)
    assert SKIP in legal(state)
    state = play(state, move("e5", "f5"))
    assert at(state, "f5") == (0, "heroic")
    assert sylvan_turn_over(state)                            # no action gained
    assert state["points"] == [1, 0]


def test_sylvan_unicorn_combat_move_declined():
    state = table(UNICORN, UNICORN_BOARD)
    state = play(state, summon(UNICORN, "e5"), option("combat move"), SKIP)
    assert at(state, "e5") == (0, "heroic")
    assert sylvan_turn_over(state)


# --- Sylvan Queen -------------------------------------------------------------------------------------------

QUEEN = "sylvan-sylvan-queen"
QUEEN_BOARD = [pc("e6"), pc("g6"), pc("f7"), pc("f8")]


def test_sylvan_sylvan_queen_converts_a_diagonal_heroic_keeping_its_rank():
    board = [*QUEEN_BOARD, pc("f4", 1, "heroic"), pc("d4", 1, "legendary"), pc("d6", 1), pc("e4", 1)]
    state = table(QUEEN, board)
    state = play(state, summon(QUEEN, "e5"))
    assert squares(state) == {"f4", "d6"}                     # diagonal, non-legendary
    assert SKIP in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, choose("f4"))
    assert at(state, "f4") == (0, "heroic")
    assert sylvan_turn_over(state)
    assert state["points"] == [1, 0]


def test_sylvan_sylvan_queen_declined():
    state = table(QUEEN, [*QUEEN_BOARD, pc("d6", 1)], actions=2)
    state = play(state, summon(QUEEN, "e5"), SKIP)
    assert at(state, "d6") == (1, "common")


def test_sylvan_sylvan_queen_no_supply_left_to_convert():
    state = table(QUEEN, [*QUEEN_BOARD, pc("f4", 1, "heroic")], actions=2, supply={"0": {"non_legendary": 1}})
    state = play(state, summon(QUEEN, "e5"))
    assert state["pending"] is None
    assert at(state, "f4") == (1, "heroic")


# --- Sylvan Princess ---------------------------------------------------------------------------------------

PRINCESS = "sylvan-sylvan-princess"
PRINCESS_BOARD = [pc("e6"), pc("f7"), pc("e8")]


def test_sylvan_sylvan_princess_converts_a_diagonal_common():
    state = table(PRINCESS, [*PRINCESS_BOARD, pc("f6", 1), pc("d4", 1, "heroic"), pc("f5", 1)], actions=2)
    state = play(state, summon(PRINCESS, "e5"))
    assert legal(state) == [choose("f6"), SKIP]               # not the heroic, not the orthogonal f5
    state = play(state, choose("f6"))
    assert at(state, "f6") == (0, "common")
    assert state["turn"]["destroyed"] == [[1, 1]]


def test_sylvan_sylvan_princess_no_target():
    state = table(PRINCESS, [*PRINCESS_BOARD, pc("d4", 1, "heroic"), pc("f5", 1)], actions=2)
    state = play(state, summon(PRINCESS, "e5"))
    assert state["pending"] is None
    assert at(state, "d4") == (1, "heroic")


def test_sylvan_sylvan_princess_declined():
    state = table(PRINCESS, [*PRINCESS_BOARD, pc("f6", 1)], actions=2)
    state = play(state, summon(PRINCESS, "e5"), SKIP)
    assert at(state, "f6") == (1, "common")


# --- Woodland Druid ------------------------------------------------------------------------------------------

DRUID = "sylvan-woodland-druid"
DRUID_BOARD = [pc("d4"), pc("f4"), pc("e6")]


def test_sylvan_woodland_druid_upgrades_one_common_of_each_colour():
    state = table(DRUID, [*DRUID_BOARD, pc("g7", 1), pc("c7", 1), pc("b5", 1, "heroic")], actions=2)
    state = play(state, summon(DRUID, "e5"))
    assert squares(state) == {"d4", "f4", "e6"}               # not the heroic Druid itself
    assert SKIP not in legal(state)
    state = play(state, choose("d4"))
    assert squares(state) == {"g7", "c7"}
    assert SKIP not in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, choose("c7"))
    assert at(state, "d4") == (0, "heroic") and at(state, "c7") == (1, "heroic") and at(state, "g7") == (1, "common")
    assert state["pending"] is None
    assert state["turn"]["destroyed"] == []


def test_sylvan_woodland_druid_melee_one_per_enemy_colour():
    board = [*DRUID_BOARD, pc("g7", 1), pc("c7", 1), pc("b3", 2), pc("h3", 2)]
    state = table(DRUID, board, form="melee", actions=2)
    state = play(state, summon(DRUID, "e5"), choose("e6"))
    assert squares(state) == {"g7", "c7", "b3", "h3"}
    state = play(state, choose("h3"))
    assert squares(state) == {"g7", "c7"}                     # the other colour now
    state = play(state, choose("g7"))
    assert at(state, "h3") == (2, "heroic") and at(state, "g7") == (1, "heroic")
    assert at(state, "b3") == (2, "common") and at(state, "c7") == (1, "common")
    assert state["pending"] is None


def test_sylvan_woodland_druid_colours_without_commons_are_skipped():
    # all my pattern pieces are heroic and the only enemy common is taken automatically
    board = [pc("d4", 0, "heroic"), pc("f4", 0, "heroic"), pc("e6", 0, "heroic"), pc("a5", 1), pc("b5", 1, "heroic")]
    state = table(DRUID, board, actions=2)
    state = play(state, summon(DRUID, "e5"))
    assert state["pending"] is None
    assert at(state, "a5") == (1, "heroic")


# --- Forest Ancient ---------------------------------------------------------------------------------------

ANCIENT = "sylvan-forest-ancient"
ANCIENT_BOARD = [pc("e4"), pc("d5"), pc("f5"), pc("d6")]


def test_sylvan_forest_ancient_places_two_enemy_commons_then_destroys_two():
    state = table(ANCIENT, [*ANCIENT_BOARD, pc("b5", 1), pc("e8", 1, "heroic"), pc("a5", 1)])
    state = play(state, summon(ANCIENT, "e5"))
    offered = squares(state)
    assert "e7" in offered and "c3" in offered
    assert "b5" not in offered and "e8" not in offered and "e4" not in offered   # too far or occupied
    assert all(max(abs(ord(sq[0]) - ord("e")), abs(int(sq[1]) - 5)) <= 2 for sq in offered)
    assert SKIP not in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, choose("e7"), choose("c3"))
    assert at(state, "e7") == (1, "common") and at(state, "c3") == (1, "common")
    assert squares(state) == {"e7", "c3", "b5"}               # enemy commons within 3 (not a5, at 4)
    assert SKIP not in legal(state)
    state = play(state, choose("b5"), choose("e7"))
    assert at(state, "b5") is None and at(state, "e7") is None and at(state, "c3") == (1, "common")
    assert at(state, "e8") == (1, "heroic")
    assert sylvan_turn_over(state)
    assert state["points"] == [1, 0]                          # two enemy commons destroyed


def test_sylvan_forest_ancient_enemy_supply_for_one_piece_only():
    state = table(ANCIENT, ANCIENT_BOARD, actions=2, supply={"1": {"non_legendary": 1}})
    state = play(state, summon(ANCIENT, "e5"), choose("g3"))
    assert state["pending"] is None                           # second placement impossible; the one
    assert at(state, "g3") is None                            # placed piece was destroyed automatically
    assert state["turn"]["destroyed"] == [[1, 1]]


def test_sylvan_forest_ancient_enemy_supply_empty():
    state = table(ANCIENT, [*ANCIENT_BOARD, pc("g5", 1)], actions=2, supply={"1": {"non_legendary": 0}})
    state = play(state, summon(ANCIENT, "e5"))
    assert state["pending"] is None
    assert at(state, "g5") == (1, "common")                   # nothing placed, so nothing destroyed
    assert state["turn"]["destroyed"] == []


def test_sylvan_forest_ancient_melee_two_colours():
    state = table(ANCIENT, [*ANCIENT_BOARD, pc("b5", 2)], form="melee")
    state = play(state, summon(ANCIENT, "e5"))
    offered = legal(state)
    assert {"type": "choose", "square": "e7", "color": 1} in offered
    assert {"type": "choose", "square": "e7", "color": 2} in offered
    assert_all_legal_accepted(state)
    state = play(state, {"type": "choose", "square": "e7", "color": 1},
                 {"type": "choose", "square": "c3", "color": 2})
    # first destruction: colour 1's only common in range (e7) went automatically; then colour 2
    assert at(state, "e7") is None and at(state, "c3") == (2, "common")
    assert state["pending"]["ask"] == "square"
    assert squares(state) == {"c3", "b5"}
    state = play(state, choose("b5"))
    assert at(state, "b5") is None and at(state, "c3") == (2, "common")
    # end of turn: one unpaired common in each of two colours -> one point in a chosen colour
    assert state["pending"]["kind"] == "leftover_color"
    state = play(state, {"type": "choose", "color": 2})
    assert state["points"][0] == [0, 0, 1]
    assert sylvan_turn_over(state)


# --- Forest Mystic -------------------------------------------------------------------------------------------

MYSTIC = "sylvan-forest-mystic"
MYSTIC_BOARD = [pc("e4"), pc("d5"), pc("f6")]


def _count(hand: list[str], deck: str) -> int:
    return sum(1 for c in hand if c in engine.CARDS.decks[deck])


def test_sylvan_forest_mystic_draws_a_school_card_and_a_legend_extra():
    state = table(MYSTIC, MYSTIC_BOARD)
    deck = list(state["decks"][0])
    legends = list(state["legends"]["deck"])
    state = play(state, summon(MYSTIC, "e5"))
    assert sylvan_turn_over(state)
    hand = state["hands"][0]
    assert _count(hand, "sylvan") == 4 and _count(hand, "legends") == 3 and _count(hand, "flares") == 1
    assert [c for c in hand if c in engine.CARDS.decks["sylvan"]] == deck[:4]
    assert [c for c in hand if c in engine.CARDS.decks["legends"]] == legends[:3]
    assert state["decks"][0] == deck[4:]


def test_sylvan_forest_mystic_with_short_deck():
    state = table(MYSTIC, MYSTIC_BOARD, decks={"0": ["sylvan-sapling", "sylvan-naiad", "sylvan-unicorn"]})
    state = play(state, summon(MYSTIC, "e5"))
    hand = state["hands"][0]
    assert _count(hand, "sylvan") == 3 and _count(hand, "legends") == 3
    assert state["decks"][0] == []
    assert state["final"]["reason"] == "deck_exhausted"


# --- Kiskin Leafsplitter -----------------------------------------------------------------------------------

LEAFSPLITTER = "sylvan-kiskin-leafsplitter"
LEAF_BOARD = [pc("e4"), pc("d5"), pc("f5"), pc("e6")]


def test_sylvan_kiskin_leafsplitter_two_shots_on_the_same_diagonal():
    state = table(LEAFSPLITTER, [*LEAF_BOARD, pc("g3", 1, "legendary"), pc("h2", 0)])
    state = play(state, summon(LEAFSPLITTER, "e5"))
    assert {c["direction"] for c in legal(state) if c["type"] == "choose"} == {"ne", "se", "sw", "nw"}
    assert SKIP in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, {"type": "choose", "direction": "ne"})
    assert at(state, "g3") is None and at(state, "h2") == (0, "common")   # only the nearest piece
    state = play(state, {"type": "choose", "direction": "ne"})
    assert at(state, "h2") is None
    assert sylvan_turn_over(state)
    assert state["points"] == [2, 0]                          # an enemy legend; my own piece scores nothing


def test_sylvan_kiskin_leafsplitter_empty_first_shot_second_hits_one_piece():
    state = table(LEAFSPLITTER, [*LEAF_BOARD, pc("f6", 1), pc("g7", 1)], actions=2)
    state = play(state, summon(LEAFSPLITTER, "e5"), {"type": "choose", "direction": "sw"})
    assert len(state["board"]) == 7
    state = play(state, {"type": "choose", "direction": "se"})
    assert at(state, "f6") is None and at(state, "g7") == (1, "common")
    assert state["pending"] is None


def test_sylvan_kiskin_leafsplitter_one_shot_then_stop():
    state = table(LEAFSPLITTER, [*LEAF_BOARD, pc("d4", 1), pc("f4", 1)], actions=2)
    state = play(state, summon(LEAFSPLITTER, "e5"), {"type": "choose", "direction": "nw"}, SKIP)
    assert at(state, "d4") is None and at(state, "f4") == (1, "common")
    state = table(LEAFSPLITTER, [*LEAF_BOARD, pc("d4", 1)], actions=2)
    state = play(state, summon(LEAFSPLITTER, "e5"), SKIP)
    assert at(state, "d4") == (1, "common")


# --- Kiskin Boughrunner ------------------------------------------------------------------------------------

BOUGHRUNNER = "sylvan-kiskin-boughrunner"
BOUGH_BOARD = [pc("d6"), pc("e6"), pc("f6"), pc("e7")]


def test_sylvan_kiskin_boughrunner_moves_stay_next_to_own_pieces():
    state = table(BOUGHRUNNER, [*BOUGH_BOARD, pc("g5", 1, "heroic"), pc("i3", 0), pc("h3", 1, "legendary")])
    state = play(state, summon(BOUGHRUNNER, "e5"))
    first = moves(state)
    assert ("e5", "d5") in first and ("e5", "f5") in first
    assert ("e5", "d4") not in first and ("e5", "e4") not in first and ("e5", "f4") not in first
    assert SKIP in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, move("e5", "f5"))
    assert ("f5", "g5") in moves(state)                       # beside f6; combat takes the heroic
    state = play(state, move("f5", "g5"))
    third = moves(state)
    assert ("g5", "h4") in third                              # beside i3
    assert ("g5", "g4") not in third                          # nothing of mine around g4
    state = play(state, move("g5", "h4"))
    assert at(state, "h4") == (0, "heroic") and at(state, "g5") is None and at(state, "h3") == (1, "legendary")
    assert state["pending"] is None or sylvan_turn_over(state)
    assert state["points"] == [1, 0]


def test_sylvan_kiskin_boughrunner_stops_early():
    state = table(BOUGHRUNNER, BOUGH_BOARD, actions=2)
    state = play(state, summon(BOUGHRUNNER, "e5"), move("e5", "d5"), SKIP)
    assert at(state, "d5") == (0, "heroic")
    assert state["pending"] is None


def test_sylvan_kiskin_boughrunner_hemmed_in_by_legends():
    # every empty-or-enemy neighbour holds an enemy legend, which a heroic cannot take
    around = [pc(sq, 1, "legendary") for sq in ("d4", "e4", "f4")]
    state = table(BOUGHRUNNER, [*BOUGH_BOARD, *around, pc("d5", 1, "legendary"), pc("f5", 1, "legendary")],
                  actions=2, supply={"1": {"legendary": 0, "non_legendary": 14}})
    state = play(state, summon(BOUGHRUNNER, "e5"))
    # the only moves left are onto my own commons (combat allows it) - all beside another own piece
    assert moves(state) == {("e5", "d6"), ("e5", "e6"), ("e5", "f6")}


# --- Tree Shepherd -------------------------------------------------------------------------------------------

SHEPHERD = "sylvan-tree-shepherd"
SHEPHERD_BOARD = [pc("d5"), pc("f5"), pc("e6"), pc("f6")]


def test_sylvan_tree_shepherd_common_piece_is_upgraded():
    state = table(SHEPHERD, [*SHEPHERD_BOARD, pc("b2", 0, "heroic"), pc("h5", 0, "legendary"), pc("a5", 1)],
                  actions=2)
    state = play(state, summon(SHEPHERD, "e5"))
    assert squares(state) == {"d5", "f5", "e6", "f6", "e5", "b2", "h5"}   # my pieces only
    assert SKIP not in legal(state)
    assert_all_legal_accepted(state)
    state = play(state, choose("d5"))
    assert at(state, "d5") == (0, "heroic")
    assert state["pending"] is None


def test_sylvan_tree_shepherd_heroic_piece_takes_a_combat_move():
    state = table(SHEPHERD, [*SHEPHERD_BOARD, pc("e4", 1, "heroic"), pc("b2", 0, "heroic")])
    state = play(state, summon(SHEPHERD, "e5"), choose("e5"))        # the Shepherd itself
    assert {src for src, _ in moves(state)} == {"e5"}
    assert ("e5", "e4") in moves(state)
    assert SKIP in legal(state)
    state = play(state, move("e5", "e4"))
    assert at(state, "e4") == (0, "heroic") and at(state, "e5") is None
    assert sylvan_turn_over(state)
    assert state["points"] == [1, 0]


def test_sylvan_tree_shepherd_heroic_move_declined():
    state = table(SHEPHERD, [*SHEPHERD_BOARD, pc("b2", 0, "heroic")], actions=2)
    state = play(state, summon(SHEPHERD, "e5"), choose("b2"))
    assert {src for src, _ in moves(state)} == {"b2"}
    state = play(state, SKIP)
    assert at(state, "b2") == (0, "heroic")
    assert state["pending"] is None


def test_sylvan_tree_shepherd_legendary_piece_takes_a_standard_move():
    board = [*SHEPHERD_BOARD, pc("h5", 0, "legendary"), pc("h4", 1, "heroic"), pc("i5", 1, "legendary")]
    state = table(SHEPHERD, board, actions=2)
    state = play(state, summon(SHEPHERD, "e5"), choose("h5"))
    options = moves(state)
    assert {src for src, _ in options} == {"h5"}
    assert ("h5", "h4") in options and ("h5", "i5") not in options   # standard: lower ranks only
    state = play(state, move("h5", "h4"))
    assert at(state, "h4") == (0, "legendary") and at(state, "h5") is None
    assert state["turn"]["destroyed"] == [[1, 2]]


def test_sylvan_centaur_chieftain_destroyed_by_its_follower_the_others_still_follow():
    board = [pc("c4"), pc("d5"), pc("e6", 0, "heroic"), pc("f7")]
    state = table(CHIEFTAIN, board, actions=2)
    state = play(state, summon(CHIEFTAIN, "e5"), move("e5", "e4"), move("e6", "e5"))
    assert ("e5", "e4") in moves(state)                       # a heroic follower may take the Chieftain
    state = play(state, move("e5", "e4"))
    assert at(state, "e4") == (0, "heroic")
    assert state["turn"]["destroyed"] == []
    assert moves(state) == {("c4", "c3"), ("d5", "d4"), ("e4", "e3"), ("f7", "f6")}   # still north
    state = play(state, move("d5", "d4"))
    assert state["pending"] is None and at(state, "d4") == (0, "common")


def test_sylvan_woodland_druid_melee_colour_without_commons():
    board = [*DRUID_BOARD, pc("g7", 1), pc("c7", 1), pc("b3", 2, "heroic")]
    state = table(DRUID, board, form="melee", actions=2)
    state = play(state, summon(DRUID, "e5"), choose("f4"))
    assert squares(state) == {"g7", "c7"}
    state = play(state, choose("g7"))
    assert state["pending"] is None
    assert at(state, "b3") == (2, "heroic") and at(state, "c7") == (1, "common")


def test_sylvan_forest_ancient_oversummoned_enemy_piece_is_back_in_supply_at_once():
    # RULES 7.12 / 15.4: a destroyed piece returns to its owner's supply immediately (BGA reading)
    state = table(ANCIENT, [*ANCIENT_BOARD, pc("e5", 1)], actions=2, supply={"1": {"non_legendary": 0}})
    state = play(state, summon(ANCIENT, "e5"))
    assert state["pending"]["ask"] == "square"                # one placement is possible again
    state = play(state, choose("g7"))
    assert state["pending"] is None                           # second placement impossible
    assert at(state, "g7") is None                            # the placed piece was the only target
    assert state["turn"]["destroyed"] == [[1, 1], [1, 1]]
