"""Northern Imperial deck: one or more tests per card, each summoning the card on a real position.

Squares: letter = column x (a..i, left to right), digit = row y (1..9, top to bottom). Pattern
offsets of cards.json are (dx, dy) from the being square with dy growing downward, so for a being
on e5 the offset (1, 1) is f6 and (0, -1) is e4.
"""
from __future__ import annotations

import pytest

import engine
from engine.errors import RuleError
from engine.state import active_seat
from tests.engine.helpers import SKIP, at, choose, legal, move, play, position

A, B = 0, 1        # seat 0 plays the northern deck (colour 0), seat 1 is the opponent (colour 1)


def pc(square: str, seat: int = A, rank: str = "common") -> dict:
    return {"square": square, "seat": seat, "rank": rank}


def summon(card: str, square: str) -> dict:
    return {"type": "summon", "card": card, "square": square}


def setup(card: str, pieces: list[dict], **extra) -> dict:
    """Seat 0 to act with `card` in hand and the given pieces on the board."""
    return position(board=pieces, hands={"0": [card]}, **extra)


def assert_legal_accepted(state: dict) -> None:
    """Every command legal() lists is accepted by engine.decide as it is."""
    commands = legal(state)
    assert commands
    for command in commands:
        engine.decide(state, {"seat": active_seat(state), **command})


def squares_offered(state: dict) -> set[str]:
    return {c["square"] for c in legal(state) if c["type"] == "choose" and "square" in c}


def moves_offered(state: dict) -> set[tuple[str, str]]:
    return {(c["from"], c["to"]) for c in legal(state) if c["type"] == "move"}


def destroyed(state: dict) -> list[list[int]]:
    return sorted(state["turn"]["destroyed"])


# --- Swordmaster (common): pattern e4 + e6 around e5 (or d5 + f5) --------------------------------------

SWORD = "northern-swordmaster"


def test_northern_swordmaster_destroys_diagonal_enemy_common():
    state = setup(SWORD, [pc("e4"), pc("e6"), pc("f4", B), pc("d6", B), pc("d5", B)])
    state = play(state, summon(SWORD, "e5"))
    assert state["pending"]["kind"] == "effect"
    assert squares_offered(state) == {"f4", "d6"}          # d5 is orthogonal: not offered
    assert SKIP in legal(state)
    assert_legal_accepted(state)
    state = play(state, choose("f4"))
    assert at(state, "f4") is None
    assert at(state, "d6") == (B, "common")                 # only one piece
    assert at(state, "e5") == (A, "heroic")
    assert destroyed(state) == [[B, 1]]
    assert state["pending"] is None and state["turn"]["actions"] == 1


def test_northern_swordmaster_declined_stays_common():
    state = setup(SWORD, [pc("e4"), pc("e6"), pc("f4", B)])
    state = play(state, summon(SWORD, "e5"), SKIP)
    assert at(state, "f4") == (B, "common")
    assert at(state, "e5") == (A, "common")
    assert destroyed(state) == []


def test_northern_swordmaster_no_legal_target_stays_common():
    # diagonal squares hold an enemy heroic and an own common: nothing to destroy, nothing asked
    state = setup(SWORD, [pc("e4"), pc("e6"), pc("d4", B, "heroic"), pc("f6"), pc("f5", B)])
    state = play(state, summon(SWORD, "e5"))
    assert state["pending"] is None
    assert at(state, "e5") == (A, "common")
    assert at(state, "d4") == (B, "heroic") and at(state, "f6") == (A, "common")


def test_northern_swordmaster_oversummons_enemy_common():
    # the being square holds an enemy common: it is destroyed by the summoning and credited
    state = setup(SWORD, [pc("e4"), pc("e6"), pc("e5", B)])
    state = play(state, summon(SWORD, "e5"))
    assert at(state, "e5") == (A, "common")
    assert destroyed(state) == [[B, 1]]


def test_northern_swordmaster_cannot_oversummon_heroic():
    state = setup(SWORD, [pc("e4"), pc("e6"), pc("e5", B, "heroic")])
    assert summon(SWORD, "e5") not in legal(state)
    with pytest.raises(RuleError):
        play(state, summon(SWORD, "e5"))


# --- Messenger (common): pattern (1,1) (2,2) -> for e5: f6, g7 ------------------------------------------

MESSENGER = "northern-messenger"


def test_northern_messenger_heroic_ploughs_through_commons():
    # own heroic d2 goes south: d3 and d4 enemy commons are taken, d5 empty, d6 heroic stops it
    state = setup(MESSENGER, [pc("f6"), pc("g7"), pc("d2", A, "heroic"), pc("d3", B), pc("d4", B),
                              pc("d6", B, "heroic"), pc("b2", A, "legendary")])
    state = play(state, summon(MESSENGER, "e5"))
    offered = moves_offered(state)
    assert ("d2", "d3") in offered and ("e5", "e4") in offered and ("f6", "e5") not in offered
    assert not any(src == "b2" for src, _ in offered)        # legendary pieces cannot be chosen
    state = play(state, move("d2", "d3"))
    assert moves_offered(state) == {("d3", "d4")}             # same piece, same direction
    assert SKIP in legal(state)
    state = play(state, move("d3", "d4"), move("d4", "d5"))
    assert state["pending"] is None                           # d6 heroic cannot be entered
    assert at(state, "d5") == (A, "heroic") and at(state, "d6") == (B, "heroic")
    assert at(state, "d3") is None and at(state, "d4") is None
    assert destroyed(state) == [[B, 1], [B, 1]]


def test_northern_messenger_itself_stops_when_player_wishes():
    state = setup(MESSENGER, [pc("f6"), pc("g7"), pc("b5", B)])
    state = play(state, summon(MESSENGER, "e5"), move("e5", "d5"))
    assert moves_offered(state) == {("d5", "c5")}
    state = play(state, SKIP)
    assert at(state, "d5") == (A, "common") and at(state, "e5") is None
    assert at(state, "b5") == (B, "common")


def test_northern_messenger_common_blocked_by_common():
    # the common Messenger heading west: c5 then b5 holds an enemy common, which it may not take
    state = setup(MESSENGER, [pc("f6"), pc("g7"), pc("b5", B)])
    state = play(state, summon(MESSENGER, "e5"), move("e5", "d5"), move("d5", "c5"))
    assert state["pending"] is None
    assert at(state, "c5") == (A, "common") and at(state, "b5") == (B, "common")


def test_northern_messenger_declined():
    state = setup(MESSENGER, [pc("f6"), pc("g7")])
    state = play(state, summon(MESSENGER, "e5"), SKIP)
    assert at(state, "e5") == (A, "common") and state["pending"] is None


# --- Herald (common): pattern (1,1) (2,1) (1,2) -> for e5: f6, g6, f7 -----------------------------------

HERALD = "northern-herald"


def test_northern_herald_two_moves_with_different_pieces_onto_empty_squares():
    state = setup(HERALD, [pc("f6"), pc("g6"), pc("f7"), pc("b2", A, "legendary"), pc("e4", B), pc("d4", B)])
    state = play(state, summon(HERALD, "e5"))
    offered = moves_offered(state)
    assert ("e5", "e4") not in offered and ("e5", "d4") not in offered    # occupied: never
    assert ("e5", "f5") in offered and ("b2", "c2") in offered              # any own piece, legend too
    assert_legal_accepted(state)
    state = play(state, move("b2", "c2"), move("e5", "f5"))
    assert state["pending"] is None
    assert at(state, "c2") == (A, "legendary") and at(state, "f5") == (A, "common")
    assert destroyed(state) == []


def test_northern_herald_same_piece_twice_and_partial():
    state = setup(HERALD, [pc("f6"), pc("g6"), pc("f7")])
    state = play(state, summon(HERALD, "e5"), move("e5", "e4"), move("e4", "e3"))
    assert at(state, "e3") == (A, "common") and state["pending"] is None
    state = setup(HERALD, [pc("f6"), pc("g6"), pc("f7")])
    state = play(state, summon(HERALD, "e5"), move("f7", "f8"), SKIP)
    assert at(state, "f8") == (A, "common") and at(state, "e5") == (A, "common")


def test_northern_herald_boxed_in_nothing_to_do():
    # Herald on c1 with d2, e2, d3: every square next to an own piece is held by an enemy piece
    walls = ("d1", "e1", "f1", "b2", "c2", "f2", "c3", "e3", "f3", "c4", "d4", "e4")
    state = setup(HERALD, [pc("d2"), pc("e2"), pc("d3")] + [pc(sq, B) for sq in walls])
    state = play(state, summon(HERALD, "c1"))
    assert at(state, "c1") == (A, "common")
    assert state["pending"] is None and state["turn"]["actions"] == 1
    assert destroyed(state) == []


# --- Bomb (common): pattern (1,1) (1,2) -> for e5: f6, f7 ------------------------------------------------

BOMB = "northern-bomb"
TIME_MAGE = "northern-time-mage"


def bomb_board() -> list[dict]:
    return [pc("f6"), pc("f7"), pc("e4", B), pc("d6", B), pc("f4", B, "heroic"), pc("d5"),
            pc("g5", B), pc("e6", B, "legendary")]


def test_northern_bomb_explodes_when_not_last_action():
    state = setup(BOMB, bomb_board())
    state = play(state, summon(BOMB, "e5"))
    assert state["pending"] is None
    assert at(state, "e5") is None                                   # the Bomb itself
    for sq in ("e4", "d6", "d5", "f6"):                              # adjacent commons, own ones too
        assert at(state, sq) is None, sq
    assert at(state, "f4") == (B, "heroic") and at(state, "e6") == (B, "legendary")
    assert at(state, "f7") == (A, "common") and at(state, "g5") == (B, "common")
    assert destroyed(state) == [[B, 1], [B, 1]]                      # own pieces are not credited
    assert state["turn"]["actions"] == 1


def test_northern_bomb_on_last_action_does_nothing():
    state = setup(BOMB, bomb_board(), actions=1)
    state = play(state, summon(BOMB, "e5"))
    # the turn is over: seat 1 now plays, and the board is untouched
    assert state["turn"]["seat"] == B
    assert at(state, "e5") == (A, "common")
    for sq in ("e4", "d6", "d5", "f6", "g5"):
        assert at(state, sq) is not None, sq


def test_northern_bomb_counts_actions_gained_earlier():
    # Time Mage (d5, c6, e6, d7 around e5... here on c4: b4, a5, c5, b6) gains an action first,
    # so the Bomb, summoned with what would have been the last action, still explodes
    board = [pc("b4"), pc("a5"), pc("c5"), pc("b6"), pc("f6"), pc("f7"), pc("e4", B), pc("d6", B)]
    state = position(board=board, hands={"0": [TIME_MAGE, BOMB]}, actions=2)
    state = play(state, summon(TIME_MAGE, "c4"))
    assert state["turn"]["actions"] == 2
    state = play(state, summon(BOMB, "e5"))
    assert at(state, "e5") is None and at(state, "e4") is None and at(state, "d6") is None
    assert state["turn"]["actions"] == 1


def test_northern_bomb_in_a_corner_scores_pairs_at_end_of_turn():
    # Deathmatch scoring: the pair of enemy commons scores 1 point at the end of the turn
    state = setup(BOMB, [pc("f6"), pc("f7"), pc("e4", B), pc("d6", B)], actions=2)
    state = play(state, summon(BOMB, "e5"), {"type": "place", "square": "a5"})
    assert state["turn"]["seat"] == B
    assert state["points"][A] == 1


# --- Chronicler (common): pattern (0,-1) (-1,0) (1,0) -> for e5: e4, d5, f5 -----------------------------

CHRONICLER = "northern-chronicler"


def test_northern_chronicler_upgrades_then_moves_upgraded_piece():
    state = setup(CHRONICLER, [pc("e4"), pc("d5"), pc("f5"), pc("c6", B), pc("c5", B, "heroic")])
    state = play(state, summon(CHRONICLER, "e5"))
    assert squares_offered(state) == {"e4", "d5", "f5"}         # never the Chronicler itself
    assert SKIP not in legal(state)                               # the upgrade is mandatory
    state = play(state, choose("d5"))
    assert at(state, "d5") == (A, "heroic")
    offered = moves_offered(state)
    assert {src for src, _ in offered} == {"d5"}                  # only the upgraded piece moves
    assert ("d5", "c6") in offered and ("d5", "c5") not in offered   # standard: lower rank only
    assert SKIP in legal(state)
    assert_legal_accepted(state)
    state = play(state, move("d5", "c6"))
    assert at(state, "c6") == (A, "heroic") and at(state, "d5") is None
    assert destroyed(state) == [[B, 1]]
    assert at(state, "e5") == (A, "common")


def test_northern_chronicler_single_common_is_upgraded_automatically_move_declined():
    # heroic pattern pieces are not eligible (common only): a5 is the only choice
    state = setup(CHRONICLER, [pc("e4", A, "heroic"), pc("d5", A, "heroic"), pc("f5", A, "heroic"), pc("a5")])
    state = play(state, summon(CHRONICLER, "e5"))
    assert at(state, "a5") == (A, "heroic")
    assert moves_offered(state) and {src for src, _ in moves_offered(state)} == {"a5"}
    state = play(state, SKIP)
    assert at(state, "a5") == (A, "heroic") and state["pending"] is None


def test_northern_chronicler_no_other_common_does_nothing():
    state = setup(CHRONICLER, [pc("e4", A, "heroic"), pc("d5", A, "heroic"), pc("f5", A, "legendary"),
                               pc("a5", B)])
    state = play(state, summon(CHRONICLER, "e5"))
    assert state["pending"] is None
    assert at(state, "e5") == (A, "common") and at(state, "a5") == (B, "common")


# --- Assassin (heroic): pattern (-1,-3) (-2,-2) (-3,-1), marked (-1,-1) -> for e5: d2, c3, b4; d4 -------

ASSASSIN = "northern-assassin"
ASSASSIN_PATTERN = [pc("d2"), pc("c3"), pc("b4")]


def test_northern_assassin_destroys_legend_on_marked_square():
    state = setup(ASSASSIN, ASSASSIN_PATTERN + [pc("d4", B, "legendary"), pc("f4", B)], actions=1)
    state = play(state, summon(ASSASSIN, "e5"))
    # the destruction is mandatory and had one target: done without asking, no move (square was full)
    assert at(state, "d4") is None and at(state, "f4") == (B, "common")
    assert at(state, "e5") == (A, "heroic")
    assert state["turn"]["seat"] == B                             # the turn ended and was scored
    assert state["points"][A] == 2                                # a legendary piece is worth 2


def test_northern_assassin_destroys_own_piece_on_marked_square():
    state = setup(ASSASSIN, ASSASSIN_PATTERN + [pc("d4", A, "heroic")])
    state = play(state, summon(ASSASSIN, "e5"))
    assert at(state, "d4") is None and state["pending"] is None
    assert destroyed(state) == []                                 # own pieces are not credited


def test_northern_assassin_steps_onto_empty_marked_square_or_declines():
    state = setup(ASSASSIN, ASSASSIN_PATTERN + [pc("e4", B)])
    state = play(state, summon(ASSASSIN, "e5"))
    assert moves_offered(state) == {("e5", "d4")}                # only onto the marked square
    assert SKIP in legal(state)
    assert_legal_accepted(state)
    moved = play(state, move("e5", "d4"))
    assert at(moved, "d4") == (A, "heroic") and at(moved, "e5") is None
    stayed = play(state, SKIP)
    assert at(stayed, "e5") == (A, "heroic") and at(stayed, "d4") is None


def test_northern_assassin_player_chooses_orientation_and_thus_marked_square():
    # mirrored pattern f2, g3, h4 fits too: its marked square is f4
    state = setup(ASSASSIN, ASSASSIN_PATTERN + [pc("f2"), pc("g3"), pc("h4"), pc("d4", B), pc("f4", B)])
    state = play(state, summon(ASSASSIN, "e5"))
    assert state["pending"]["kind"] == "orientation"
    options = [c for c in legal(state) if "orientation" in c]
    assert len(options) == 2 and SKIP not in legal(state)
    results = set()
    for option in options:
        after = play(state, option)
        assert after["pending"] is None
        results.add((at(after, "d4"), at(after, "f4")))
    assert results == {(None, (B, "common")), ((B, "common"), None)}


# --- Time Mage (heroic): pattern (-1,0) (-2,1) (0,1) (-1,2), marked (-1,1) -> e5: d5, c6, e6, d7; d6 ---

TIME_MAGE_PATTERN = [pc("d5"), pc("c6"), pc("e6"), pc("d7")]


def test_northern_time_mage_gains_action_and_destroys_enemy_on_marked_square():
    state = setup(TIME_MAGE, TIME_MAGE_PATTERN + [pc("d6", B, "heroic"), pc("f5", B)])
    state = play(state, summon(TIME_MAGE, "e5"))
    assert at(state, "d6") is None and at(state, "f5") == (B, "common")
    assert state["turn"]["actions"] == 2                           # 2 - 1 for the summon + 1 gained
    assert destroyed(state) == [[B, 2]]


def test_northern_time_mage_spares_own_piece_and_on_last_action_keeps_turn():
    state = setup(TIME_MAGE, TIME_MAGE_PATTERN + [pc("d6", A)], actions=1)
    state = play(state, summon(TIME_MAGE, "e5"))
    assert at(state, "d6") == (A, "common")
    assert state["turn"]["seat"] == A and state["turn"]["actions"] == 1


def test_northern_time_mage_destroys_legend_on_marked_square():
    state = setup(TIME_MAGE, TIME_MAGE_PATTERN + [pc("d6", B, "legendary")])
    state = play(state, summon(TIME_MAGE, "e5"))
    assert at(state, "d6") is None and destroyed(state) == [[B, 3]]


# --- Summoner (heroic): pattern (-1,1) (0,1) (1,1) -> for e5: d6, e6, f6 ----------------------------------
# marked squares for e5: c3 e3 g3 / d4 e4 f4 / c5 d5 f5 g5

SUMMONER = "northern-summoner"
SUMMONER_MARKED = {"c3", "e3", "g3", "d4", "e4", "f4", "c5", "d5", "f5", "g5"}


def test_northern_summoner_places_two_commons_on_empty_marked_squares():
    state = setup(SUMMONER, [pc("d6"), pc("e6"), pc("f6"), pc("e4", B), pc("c5")])
    state = play(state, summon(SUMMONER, "e5"))
    assert squares_offered(state) == SUMMONER_MARKED - {"e4", "c5"}
    assert_legal_accepted(state)
    state = play(state, choose("c3"))
    assert squares_offered(state) == SUMMONER_MARKED - {"e4", "c5", "c3"}
    state = play(state, choose("g5"))
    assert state["pending"] is None
    assert at(state, "c3") == (A, "common") and at(state, "g5") == (A, "common")


def test_northern_summoner_one_placement_then_stop_or_none():
    state = setup(SUMMONER, [pc("d6"), pc("e6"), pc("f6")])
    state = play(state, summon(SUMMONER, "e5"), choose("d4"))
    assert SKIP in legal(state)
    state = play(state, SKIP)
    assert at(state, "d4") == (A, "common") and state["pending"] is None
    state = setup(SUMMONER, [pc("d6"), pc("e6"), pc("f6")])
    state = play(state, summon(SUMMONER, "e5"), SKIP)
    assert not any(at(state, sq) for sq in SUMMONER_MARKED)


def test_northern_summoner_supply_limits_placements():
    # 2 pieces in supply: one becomes the Summoner, one is placed, then the supply is empty
    state = setup(SUMMONER, [pc("d6"), pc("e6"), pc("f6")], supply={"0": {"non_legendary": 2}})
    state = play(state, summon(SUMMONER, "e5"), choose("e3"))
    assert state["pending"] is None and at(state, "e3") == (A, "common")
    # 1 piece: it becomes the Summoner, nothing can be placed and nothing is asked
    state = setup(SUMMONER, [pc("d6"), pc("e6"), pc("f6")], supply={"0": {"non_legendary": 1}})
    state = play(state, summon(SUMMONER, "e5"))
    assert state["pending"] is None and at(state, "e5") == (A, "heroic")


def test_northern_summoner_both_placements_follow_the_chosen_orientation():
    # rows d6-f6 and d4-f4 both fit: the player picks one, and only its marked squares are used
    state = setup(SUMMONER, [pc("d6"), pc("e6"), pc("f6"), pc("d4"), pc("e4"), pc("f4")])
    state = play(state, summon(SUMMONER, "e5"))
    assert state["pending"]["kind"] == "orientation"
    offered = []
    for option in [c for c in legal(state) if "orientation" in c]:
        offered.append(squares_offered(play(state, option)))
    down = {"c7", "e7", "g7", "c5", "d5", "f5", "g5"}            # mirrored: marks on rows 5-7
    assert sorted(offered, key=len) == sorted([SUMMONER_MARKED - {"d4", "e4", "f4"}, down], key=len)


def test_northern_summoner_piece_shortage_pick_up():
    # no piece in supply: one own piece not needed by the pattern is picked up and becomes the being
    state = setup(SUMMONER, [pc("d6"), pc("e6"), pc("f6"), pc("a5")], supply={"0": {"non_legendary": 0}})
    state = play(state, summon(SUMMONER, "e5"))
    assert state["pending"]["kind"] == "pickup"
    assert squares_offered(state) == {"a5"}
    state = play(state, choose("a5"))
    assert at(state, "a5") is None and at(state, "e5") == (A, "heroic")
    assert state["pending"] is None                                # still no supply for placements


# --- Hypnotist (heroic): pattern (1,-1) (-1,0) (1,0) (-1,1) -> for e5: f4, d5, f5, d6 --------------------

HYPNOTIST = "northern-hypnotist"
HYPNOTIST_PATTERN = [pc("f4"), pc("d5"), pc("f5"), pc("d6")]


def test_northern_hypnotist_moves_three_enemy_commons():
    state = setup(HYPNOTIST, HYPNOTIST_PATTERN + [pc("c2", B), pc("d2", B), pc("c3", B), pc("h7", B),
                                                  pc("h8"), pc("a6", B, "heroic"), pc("b8", B, "legendary")])
    state = play(state, summon(HYPNOTIST, "e5"))
    movers = {src for src, _ in moves_offered(state)}
    assert movers == {"c2", "d2", "c3", "h7", "a6"}               # enemy non-legendary pieces only
    assert_legal_accepted(state)
    state = play(state, move("c2", "d2"))                          # captures a piece of its own colour
    movers = {src for src, _ in moves_offered(state)}
    assert movers == {"c3", "h7"}                                  # same colour and rank, not again
    state = play(state, move("c3", "c4"))
    assert {src for src, _ in moves_offered(state)} == {"h7"}
    state = play(state, move("h7", "h8"))                          # captures my own common
    assert state["pending"] is None
    assert at(state, "d2") == (B, "common") and at(state, "c4") == (B, "common") and at(state, "h8") == (B, "common")
    assert destroyed(state) == [[B, 1]]                            # the capture credited to me; my loss not


def test_northern_hypnotist_two_heroics_then_stops():
    state = setup(HYPNOTIST, HYPNOTIST_PATTERN + [pc("b2", B, "heroic"), pc("b3", B, "heroic"),
                                                  pc("h5", B, "heroic"), pc("a5", B), pc("b4", B, "heroic")])
    state = play(state, summon(HYPNOTIST, "e5"), move("b3", "b4"))   # heroic takes heroic (combat)
    assert {src for src, _ in moves_offered(state)} == {"b2", "h5"}
    state = play(state, move("h5", "g5"))
    assert state["pending"] is None                                # no third move for heroics
    assert at(state, "a5") == (B, "common") and destroyed(state) == [[B, 2]]


def test_northern_hypnotist_being_destroyed_mid_effect():
    # an enemy heroic is made to take the Hypnotist itself; the effect goes on without it
    state = setup(HYPNOTIST, HYPNOTIST_PATTERN + [pc("e4", B, "heroic"), pc("b2", B, "heroic")])
    state = play(state, summon(HYPNOTIST, "e5"), move("e4", "e5"))
    assert at(state, "e5") == (B, "heroic")
    assert destroyed(state) == []                                  # my own piece: nobody scores it
    assert {src for src, _ in moves_offered(state)} == {"b2"}
    state = play(state, move("b2", "b3"))
    assert state["pending"] is None and at(state, "b3") == (B, "heroic")


def test_northern_hypnotist_partial_and_declined():
    board = HYPNOTIST_PATTERN + [pc("b2", B), pc("b3", B)]
    state = play(setup(HYPNOTIST, board), summon(HYPNOTIST, "e5"), move("b2", "a3"), SKIP)
    assert at(state, "a3") == (B, "common") and at(state, "b3") == (B, "common")
    state = play(setup(HYPNOTIST, board), summon(HYPNOTIST, "e5"), SKIP)
    assert at(state, "b2") == (B, "common") and state["pending"] is None


def test_northern_hypnotist_no_enemy_non_legendary_piece():
    state = setup(HYPNOTIST, HYPNOTIST_PATTERN + [pc("b2", B, "legendary")])
    state = play(state, summon(HYPNOTIST, "e5"))
    assert state["pending"] is None and at(state, "b2") == (B, "legendary")


def test_northern_hypnotist_melee_pieces_share_one_colour():
    C = 2
    board = HYPNOTIST_PATTERN + [pc("b2", B), pc("b3", B), pc("h2", C), pc("h3", C)]
    state = position(board=board, form="melee", hands={"0": [HYPNOTIST]})
    state = play(state, summon(HYPNOTIST, "e5"))
    assert {src for src, _ in moves_offered(state)} == {"b2", "b3", "h2", "h3"}
    state = play(state, move("h2", "g2"))
    assert {src for src, _ in moves_offered(state)} == {"h3"}


# --- Cannon (heroic): pattern (-1,0) (0,0) (-2,1), own piece on the being square -> e5: d5, e5, c6 --------
# arrows: every direction but the one toward d5 (west)

CANNON = "northern-cannon"
CANNON_PATTERN = [pc("d5"), pc("e5"), pc("c6")]


def directions_offered(state: dict) -> set[str]:
    return {c["direction"] for c in legal(state) if "direction" in c}


def test_northern_cannon_shoots_every_common_to_the_edge():
    state = setup(CANNON, CANNON_PATTERN + [pc("f5", B), pc("g5", B, "heroic"), pc("h5"), pc("i5", B),
                                            pc("e3", B)])
    state = play(state, summon(CANNON, "e5"))
    assert directions_offered(state) == {"n", "ne", "e", "se", "s", "sw", "nw"}
    assert SKIP in legal(state)
    assert_legal_accepted(state)
    state = play(state, {"type": "choose", "direction": "e"})
    assert at(state, "f5") is None and at(state, "h5") is None and at(state, "i5") is None
    assert at(state, "g5") == (B, "heroic")                       # skipped, does not stop the shot
    assert at(state, "e3") == (B, "common")
    assert destroyed(state) == [[B, 1], [B, 1]]
    assert at(state, "e5") == (A, "heroic")


def test_northern_cannon_declined():
    state = setup(CANNON, CANNON_PATTERN + [pc("f5", B)])
    state = play(state, summon(CANNON, "e5"), SKIP)
    assert at(state, "f5") == (B, "common") and at(state, "e5") == (A, "heroic")


def test_northern_cannon_needs_own_piece_on_being_square():
    state = setup(CANNON, [pc("d5"), pc("c6"), pc("e5", B)])
    assert not any(c["type"] == "summon" for c in legal(state))
    with pytest.raises(RuleError) as err:
        play(state, summon(CANNON, "e5"))
    assert err.value.code == "pattern_not_matched"


def test_northern_cannon_supply_empty_reuses_the_piece_on_its_square():
    state = setup(CANNON, CANNON_PATTERN + [pc("e7", B)], supply={"0": {"non_legendary": 0}})
    pid = state["board"]["e5"][0]
    state = play(state, summon(CANNON, "e5"))
    assert state["board"]["e5"][0] == pid and at(state, "e5") == (A, "heroic")
    state = play(state, {"type": "choose", "direction": "s"})
    assert at(state, "e7") is None and at(state, "e6") is None


def test_northern_cannon_mirrored_fits_with_same_arrows_ask_nothing_more():
    # c6 and c4 both complete the pattern; both orientations have the same seven arrows
    state = setup(CANNON, CANNON_PATTERN + [pc("c4"), pc("f5", B)])
    state = play(state, summon(CANNON, "e5"))
    assert state["pending"]["ask"] == "direction"
    assert directions_offered(state) == {"n", "ne", "e", "se", "s", "sw", "nw"}


def test_northern_cannon_orientation_changes_arrows():
    # d5 + c6 (arrows all but west) or f5 + g4 (arrows all but east): the player chooses
    state = setup(CANNON, CANNON_PATTERN + [pc("f5"), pc("g4")])
    state = play(state, summon(CANNON, "e5"))
    assert state["pending"]["kind"] == "orientation"
    seen = []
    for option in [c for c in legal(state) if "orientation" in c]:
        seen.append(frozenset(directions_offered(play(state, option))))
    assert set(seen) == {frozenset({"n", "ne", "e", "se", "s", "sw", "nw"}),
                         frozenset({"n", "ne", "w", "se", "s", "sw", "nw"})}


# --- Champion (heroic): pattern (-1,0) (-1,1) (0,1) (0,2) -> for e5: d5, d6, e6, e7 ----------------------

CHAMPION = "northern-champion"
CHAMPION_PATTERN = [pc("d5"), pc("d6"), pc("e6"), pc("e7")]


def test_northern_champion_destroys_adjacent_enemy_heroic():
    state = setup(CHAMPION, CHAMPION_PATTERN + [pc("f4", B, "heroic"), pc("e4", B), pc("g5", B), pc("f5")])
    state = play(state, summon(CHAMPION, "e5"))
    assert squares_offered(state) == {"f4", "e4"}                  # enemy pieces next to it only
    assert_legal_accepted(state)
    state = play(state, choose("f4"))
    assert at(state, "f4") is None and at(state, "e5") == (A, "heroic")
    assert state["turn"]["actions"] == 1 and destroyed(state) == [[B, 2]]


def test_northern_champion_killing_a_legend_costs_the_champion_and_gains_an_action():
    state = setup(CHAMPION, CHAMPION_PATTERN + [pc("f6", B, "legendary")])
    state = play(state, summon(CHAMPION, "e5"), choose("f6"))
    assert at(state, "f6") is None and at(state, "e5") is None
    assert state["turn"]["actions"] == 2
    assert destroyed(state) == [[B, 3]]                            # the Champion itself is own: not credited


def test_northern_champion_declined_or_nothing_adjacent():
    state = setup(CHAMPION, CHAMPION_PATTERN + [pc("f6", B, "legendary")])
    state = play(state, summon(CHAMPION, "e5"), SKIP)
    assert at(state, "f6") == (B, "legendary") and at(state, "e5") == (A, "heroic")
    assert state["turn"]["actions"] == 1
    state = setup(CHAMPION, CHAMPION_PATTERN + [pc("g6", B, "legendary")])
    state = play(state, summon(CHAMPION, "e5"))
    assert state["pending"] is None and at(state, "g6") == (B, "legendary")


# --- Infantry Captain (heroic): pattern (-2,1) (-1,1) (1,1) (2,1) -> for e5: c6, d6, f6, g6 --------------

INFANTRY = "northern-infantry-captain"
INFANTRY_PATTERN = [pc("c6"), pc("d6"), pc("f6"), pc("g6")]


def test_northern_infantry_captain_two_combat_moves_by_two_pieces():
    state = setup(INFANTRY, INFANTRY_PATTERN + [pc("b3", A, "heroic"), pc("b2", B, "heroic"), pc("c7", B),
                                                pc("d7", B, "heroic"), pc("e4", B)])
    state = play(state, summon(INFANTRY, "e5"))
    offered = moves_offered(state)
    assert not any(src == "e5" for src, _ in offered)             # the Captain does not move
    assert ("b3", "b2") in offered and ("c6", "c7") in offered   # equal rank: combat allows it
    assert ("c6", "d7") not in offered                             # a common cannot take a heroic
    assert_legal_accepted(state)
    state = play(state, move("b3", "b2"), move("c6", "c7"))
    assert state["pending"] is None
    assert at(state, "b2") == (A, "heroic") and at(state, "c7") == (A, "common")
    assert destroyed(state) == [[B, 1], [B, 2]]


def test_northern_infantry_captain_one_piece_twice_or_partial():
    state = setup(INFANTRY, INFANTRY_PATTERN + [pc("c8", B)])
    state = play(state, summon(INFANTRY, "e5"), move("c6", "c7"), move("c7", "c8"))
    assert at(state, "c8") == (A, "common") and destroyed(state) == [[B, 1]]
    state = setup(INFANTRY, INFANTRY_PATTERN)
    state = play(state, summon(INFANTRY, "e5"), move("g6", "h6"), SKIP)
    assert at(state, "h6") == (A, "common") and state["pending"] is None


def test_northern_infantry_captain_declined():
    state = setup(INFANTRY, INFANTRY_PATTERN + [pc("c7", B)])
    state = play(state, summon(INFANTRY, "e5"), SKIP)
    assert at(state, "c7") == (B, "common") and at(state, "c6") == (A, "common")


# --- Cavalry Captain (heroic): pattern (-1,1) (1,1) (-1,2) (1,2) -> for e5: d6, f6, d7, f7 ---------------

CAVALRY = "northern-cavalry-captain"
CAVALRY_PATTERN = [pc("d6"), pc("f6"), pc("d7"), pc("f7")]


def test_northern_cavalry_captain_one_combat_and_two_standard_moves():
    state = setup(CAVALRY, CAVALRY_PATTERN + [pc("b3", A, "heroic"), pc("b4", B, "heroic"),
                                              pc("a5", B, "heroic"), pc("b5", B)])
    state = play(state, summon(CAVALRY, "e5"))
    assert not any(src == "e5" for src, _ in moves_offered(state))
    state = play(state, move("b3", "b4"))                          # the combat move: takes a heroic
    offered = moves_offered(state)
    assert {src for src, _ in offered} == {"b4"}                   # the same piece only
    assert ("b4", "a5") not in offered and ("b4", "b5") in offered  # no second combat move
    state = play(state, move("b4", "b5"), move("b5", "b6"))
    assert state["pending"] is None                                # three moves at most
    assert at(state, "b6") == (A, "heroic") and at(state, "a5") == (B, "heroic")
    assert destroyed(state) == [[B, 1], [B, 2]]


def test_northern_cavalry_captain_combat_move_may_come_last():
    state = setup(CAVALRY, CAVALRY_PATTERN + [pc("b3", A, "heroic"), pc("b6", B, "heroic")])
    state = play(state, summon(CAVALRY, "e5"), move("b3", "b4"), move("b4", "b5"))
    assert ("b5", "b6") in moves_offered(state)                     # the combat allowance is unused
    assert_legal_accepted(state)
    state = play(state, move("b5", "b6"))
    assert at(state, "b6") == (A, "heroic") and state["pending"] is None


def test_northern_cavalry_captain_partial_and_declined():
    state = setup(CAVALRY, CAVALRY_PATTERN)
    state = play(state, summon(CAVALRY, "e5"), move("d6", "c6"), SKIP)
    assert at(state, "c6") == (A, "common") and at(state, "d6") is None
    state = play(setup(CAVALRY, CAVALRY_PATTERN), summon(CAVALRY, "e5"), SKIP)
    assert at(state, "d6") == (A, "common") and state["pending"] is None


# --- Gryphon Rider (heroic): pattern (-1,0) (-2,1) (0,1) (1,2) -> for e5: d5, c6, e6, f7 -----------------

GRYPHON = "northern-gryphon-rider"
GRYPHON_PATTERN = [pc("d5"), pc("c6"), pc("e6"), pc("f7")]


def test_northern_gryphon_rider_leaps_downgrades_and_places():
    state = setup(GRYPHON, GRYPHON_PATTERN + [pc("h2", B, "heroic"), pc("b8", B, "legendary"), pc("g3", B)])
    state = play(state, summon(GRYPHON, "e5"))
    targets = {dst for src, dst in moves_offered(state)}
    assert "h2" in targets and "g3" in targets and "d5" in targets     # any square, own pieces too
    assert "b8" not in targets and "e5" not in targets                 # not a legend, not its own square
    state = play(state, move("e5", "h2"))
    assert at(state, "h2") == (A, "heroic") and destroyed(state) == [[B, 2]]
    assert SKIP in legal(state)                                        # the downgrade is optional
    state = play(state, choose("h2"))
    assert at(state, "h2") == (A, "common")
    assert squares_offered(state) == {"g1", "g2", "h3", "i3"}         # empty squares next to her
    assert SKIP not in legal(state)                                    # the placement is not
    assert_legal_accepted(state)
    state = play(state, choose("g2"))
    assert at(state, "g2") == (A, "common") and state["pending"] is None


def test_northern_gryphon_rider_leaps_but_stays_heroic():
    state = setup(GRYPHON, GRYPHON_PATTERN)
    state = play(state, summon(GRYPHON, "e5"), move("e5", "a5"), SKIP)
    assert at(state, "a5") == (A, "heroic") and state["pending"] is None
    assert sum(1 for p in state["board"].values() if p[1] == A) == 5


def test_northern_gryphon_rider_no_leap_no_downgrade():
    state = setup(GRYPHON, GRYPHON_PATTERN)
    state = play(state, summon(GRYPHON, "e5"), SKIP)
    assert at(state, "e5") == (A, "heroic") and state["pending"] is None


def test_northern_gryphon_rider_downgrade_with_empty_supply_places_nothing():
    state = setup(GRYPHON, GRYPHON_PATTERN, supply={"0": {"non_legendary": 1}})
    state = play(state, summon(GRYPHON, "e5"), move("e5", "a5"), choose("a5"))
    assert at(state, "a5") == (A, "common") and state["pending"] is None
    assert at(state, "a4") is None and at(state, "b5") is None and at(state, "a6") is None


# --- Knight (heroic): pattern (-1,1) (0,1) (1,1) (-1,2) -> for e5: d6, e6, f6, d7 ------------------------

KNIGHT = "northern-knight"
KNIGHT_PATTERN = [pc("d6"), pc("e6"), pc("f6"), pc("d7")]


def test_northern_knight_three_combat_moves_never_onto_commons():
    state = setup(KNIGHT, KNIGHT_PATTERN + [pc("e4", B), pc("f4", B, "heroic"), pc("d4", B, "legendary"),
                                            pc("g3", B, "heroic")])
    state = play(state, summon(KNIGHT, "e5"))
    offered = moves_offered(state)
    assert ("e5", "f4") in offered and ("e5", "f5") in offered
    assert ("e5", "e4") not in offered and ("e5", "d4") not in offered and ("e5", "e6") not in offered
    assert {src for src, _ in offered} == {"e5"}                   # only the Knight moves
    assert_legal_accepted(state)
    state = play(state, move("e5", "f4"), move("f4", "g3"), move("g3", "h3"))
    assert state["pending"] is None
    assert at(state, "h3") == (A, "heroic") and destroyed(state) == [[B, 2], [B, 2]]


def test_northern_knight_partial_and_declined():
    state = play(setup(KNIGHT, KNIGHT_PATTERN), summon(KNIGHT, "e5"), move("e5", "e4"), SKIP)
    assert at(state, "e4") == (A, "heroic") and state["pending"] is None
    state = play(setup(KNIGHT, KNIGHT_PATTERN), summon(KNIGHT, "e5"), SKIP)
    assert at(state, "e5") == (A, "heroic")


def test_northern_knight_surrounded_by_commons_cannot_move():
    ring = ("d4", "e4", "f4", "d5", "f5")
    state = setup(KNIGHT, KNIGHT_PATTERN + [pc(sq, B) for sq in ring])
    state = play(state, summon(KNIGHT, "e5"))
    assert state["pending"] is None and at(state, "e5") == (A, "heroic")


# --- High Priestess (heroic): pattern (0,0) (-1,2) (1,2), own piece on e5 -> e5, d7, f7 ------------------

PRIESTESS = "northern-high-priestess"
PRIESTESS_PATTERN = [pc("e5"), pc("d7"), pc("f7")]


def test_northern_high_priestess_moves_then_upgrades_enemy_common():
    state = setup(PRIESTESS, PRIESTESS_PATTERN + [pc("e4", B), pc("e3", B), pc("d4", B, "heroic")])
    state = play(state, summon(PRIESTESS, "e5"))
    offered = moves_offered(state)
    assert ("e5", "e4") in offered and ("e5", "d4") not in offered   # standard: lower rank only
    state = play(state, move("e5", "e4"))
    assert destroyed(state) == [[B, 1]]
    assert squares_offered(state) == {"e3"}                        # adjacent commons, any colour
    assert SKIP in legal(state)
    state = play(state, choose("e3"))
    assert at(state, "e3") == (B, "heroic") and at(state, "e4") == (A, "heroic")


def test_northern_high_priestess_stays_and_upgrades_own_common():
    state = setup(PRIESTESS, PRIESTESS_PATTERN + [pc("f5"), pc("d5", B)])
    state = play(state, summon(PRIESTESS, "e5"), SKIP)
    assert squares_offered(state) == {"f5", "d5"}
    assert_legal_accepted(state)
    state = play(state, choose("f5"))
    assert at(state, "f5") == (A, "heroic") and at(state, "d5") == (B, "common")


def test_northern_high_priestess_declines_both_and_needs_own_piece_on_its_square():
    state = setup(PRIESTESS, PRIESTESS_PATTERN + [pc("f5")])
    state = play(state, summon(PRIESTESS, "e5"), SKIP, SKIP)
    assert at(state, "f5") == (A, "common") and at(state, "e5") == (A, "heroic")
    state = setup(PRIESTESS, [pc("d7"), pc("f7")])
    with pytest.raises(RuleError):
        play(state, summon(PRIESTESS, "e5"))


def test_northern_high_priestess_moved_away_from_commons_upgrades_nothing():
    state = setup(PRIESTESS, PRIESTESS_PATTERN + [pc("f5", B)])
    state = play(state, summon(PRIESTESS, "e5"), move("e5", "d4"))
    assert state["pending"] is None                               # nothing adjacent to d4 is common
    assert at(state, "f5") == (B, "common")


# --- Master of Intrigue (heroic): pattern d4, f4, d6, f6 around e5 ---------------------------------------

INTRIGUE = "northern-master-of-intrigue"
INTRIGUE_PATTERN = [pc("d4"), pc("f4"), pc("d6"), pc("f6")]


def test_northern_master_of_intrigue_moves_self_and_pattern_pieces():
    state = setup(INTRIGUE, INTRIGUE_PATTERN + [pc("e4", B, "heroic"), pc("c3", B), pc("b7"), pc("e6", B)])
    state = play(state, summon(INTRIGUE, "e5"))
    offered = moves_offered(state)
    assert {src for src, _ in offered} == {"e5", "d4", "f4", "d6", "f6"}    # b7 was not in the pattern
    assert ("e5", "e4") not in offered and ("e5", "e6") in offered          # the Master: standard
    assert ("d4", "c3") in offered                                          # pattern pieces: combat
    assert_legal_accepted(state)
    state = play(state, move("d4", "c3"), move("c3", "b3"))               # a pattern piece moves twice
    assert ("b3", "a3") in moves_offered(state)
    state = play(state, move("e5", "e6"))
    assert state["pending"] is None
    assert at(state, "b3") == (A, "common") and at(state, "e6") == (A, "heroic")
    assert destroyed(state) == [[B, 1], [B, 1]]


def test_northern_master_of_intrigue_legendary_pattern_piece_stays():
    state = setup(INTRIGUE, [pc("d4", A, "legendary"), pc("f4"), pc("d6"), pc("f6")])
    state = play(state, summon(INTRIGUE, "e5"))
    assert "d4" not in {src for src, _ in moves_offered(state)}
    state = play(state, move("f4", "f3"), SKIP)
    assert at(state, "f3") == (A, "common") and state["pending"] is None


def test_northern_master_of_intrigue_declined():
    state = play(setup(INTRIGUE, INTRIGUE_PATTERN), summon(INTRIGUE, "e5"), SKIP)
    assert all(at(state, sq) == (A, "common") for sq in ("d4", "f4", "d6", "f6"))


def test_northern_master_of_intrigue_pattern_piece_destroyed_midway_cannot_move():
    # a pattern piece takes another pattern piece: the taken one is gone and cannot move any more
    state = setup(INTRIGUE, INTRIGUE_PATTERN + [pc("e6", B)])
    state = play(state, summon(INTRIGUE, "e5"), move("d6", "e6"), move("e6", "f6"))
    assert at(state, "f6") == (A, "common") and at(state, "d6") is None
    assert {src for src, _ in moves_offered(state)} == {"e5", "d4", "f4", "f6"}


def test_northern_master_of_intrigue_moves_an_improvised_enemy_pattern_piece():
    # melee: colour 1's common on f6 completes the pattern through improvised summoning
    state = position(board=[pc("d4"), pc("f4"), pc("d6"), pc("f6", B), pc("g7", 2)], form="melee",
                     hands={"0": [INTRIGUE]})
    state = play(state, {**summon(INTRIGUE, "e5"), "improvise": B})
    assert "f6" in {src for src, _ in moves_offered(state)}
    state = play(state, move("f6", "g7"), SKIP)
    assert at(state, "g7") == (B, "common")
    assert destroyed(state) == [[2, 1]]
    assert state["impro"][A][B] is False


# --- Gun Tower (heroic): pattern (0,1) (1,1) (0,2) (1,2) -> for e5: e6, f6, e7, f7; arrows d5 (w), f5 (e)

GUN_TOWER = "northern-gun-tower"
GUN_PATTERN = [pc("e6"), pc("f6"), pc("e7"), pc("f7")]


def test_northern_gun_tower_destroys_first_two_non_legendary_pieces():
    state = setup(GUN_TOWER, GUN_PATTERN + [pc("g5", B), pc("h5", A, "heroic"), pc("i5", B), pc("d5", B)])
    state = play(state, summon(GUN_TOWER, "e5"))
    assert directions_offered(state) == {"e", "w"}
    assert SKIP in legal(state)
    assert_legal_accepted(state)
    state = play(state, {"type": "choose", "direction": "e"})
    assert at(state, "g5") is None and at(state, "h5") is None         # f5 empty is passed over
    assert at(state, "i5") == (B, "common") and at(state, "d5") == (B, "common")
    assert destroyed(state) == [[B, 1]]


def test_northern_gun_tower_legend_stops_the_shot():
    state = setup(GUN_TOWER, GUN_PATTERN + [pc("d5", B, "heroic"), pc("c5", B, "legendary"), pc("b5", B)])
    state = play(state, summon(GUN_TOWER, "e5"), {"type": "choose", "direction": "w"})
    assert at(state, "d5") is None
    assert at(state, "c5") == (B, "legendary") and at(state, "b5") == (B, "common")


def test_northern_gun_tower_declined():
    state = setup(GUN_TOWER, GUN_PATTERN + [pc("d5", B)])
    state = play(state, summon(GUN_TOWER, "e5"), SKIP)
    assert at(state, "d5") == (B, "common")


def test_northern_gun_tower_orientation_decides_the_arrows():
    # block e6 f6 e7 f7 gives arrows w/e; block c5 d5 c6 d6 gives arrows n/s
    state = setup(GUN_TOWER, GUN_PATTERN + [pc("c5"), pc("d5"), pc("c6"), pc("d6"), pc("e3", B)])
    state = play(state, summon(GUN_TOWER, "e5"))
    assert state["pending"]["kind"] == "orientation"
    options = [c for c in legal(state) if "orientation" in c]
    arrows = {frozenset(directions_offered(play(state, o))): o for o in options}
    assert set(arrows) == {frozenset({"w", "e"}), frozenset({"n", "s"})}
    state = play(state, arrows[frozenset({"n", "s"})], {"type": "choose", "direction": "n"})
    assert at(state, "e3") is None


# --- Southern Imperial: the same cards as the Northern deck ----------------------------------------------

def test_southern_cards_are_identical_to_their_northern_twins():
    northern = [c for c in engine.CARDS.decks["northern"]]
    southern = [c for c in engine.CARDS.decks["southern"]]
    assert len(northern) == len(southern) == 18
    assert [c.split("-", 1)[1] for c in northern] == [c.split("-", 1)[1] for c in southern]
    for n_id, s_id in zip(northern, southern):
        n, s = engine.CARDS.beings[n_id], engine.CARDS.beings[s_id]
        assert (s.name, s.rank, s.anchor, s.own_square) == (n.name, n.rank, n.anchor, n.own_square), s_id
        assert s.orientations == n.orientations, s_id        # pattern and marked squares, every turn
        assert s.steps == n.steps, s_id
        assert s.deck == "southern" and n.deck == "northern"


def test_southern_swordmaster_summoned_by_a_southern_player():
    card = "southern-swordmaster"
    state = position(board=[pc("e4"), pc("e6"), pc("f4", B)], hands={"0": [card]},
                     schools=["southern", "sylvan"])
    state = play(state, summon(card, "e5"), choose("f4"))
    assert at(state, "e5") == (A, "heroic") and at(state, "f4") is None
    assert card in state["discards"][A]


def test_southern_gun_tower_fires_like_the_northern_one():
    card = "southern-gun-tower"
    state = position(board=GUN_PATTERN + [pc("g5", B), pc("h5", B), pc("i5", B)], hands={"0": [card]},
                     schools=["southern", "northern"])
    state = play(state, summon(card, "e5"), {"type": "choose", "direction": "e"})
    assert at(state, "g5") is None and at(state, "h5") is None and at(state, "i5") == (B, "common")
