"""Etherweave deck: one or more tests per card, each played on a real position through the engine;
every card with a warp effect is tested both summoned and warped. Then the warp command, the
pending being and its causality penalty (RULES.md 13.3).

Seat 0 plays Etherweave (colour 0), seat 1 Northern (colour 1); in a melee seat 2 plays Highland.
Squares: letter = column x (a..i), digit = row y (1..9, top to bottom); a pattern offset (dx, dy)
from a being on e5 with dy growing downward, so (1, 1) is f6 and (0, -1) is e4. Red squares d2 e5
h6 c8, green c3 g3 i4 a5 f8. Warps are refused in the first round, so positions start on turn 5.
"""
from __future__ import annotations

import pytest

import engine
from engine import gateway
from engine.errors import RuleError
from engine.etherweave import pending_being, stored_piece
from engine.state import active_seat, score, supply
from tests.engine.helpers import SKIP, at, choose, legal, move, play, position

A, B, C = 0, 1, 2
DUEL = ["etherweave", "northern"]
MELEE = ["etherweave", "northern", "highland"]

DOPPELGANGER = "etherweave-doppelganger"
WORM = "etherweave-paradox-worm"
LESSER = "etherweave-lesser-shadow-twin"
TRANSLOCATIONIST = "etherweave-translocationist"
ANTIMATTER = "etherweave-antimatter-spirit"
MERCHANT = "etherweave-merchant-of-time"
GATE = "etherweave-gate-of-oblivion"
TRAVELER = "etherweave-time-traveler"
GREATER = "etherweave-greater-shadow-twin"
WARPMASTER = "etherweave-warpmaster"
SPHERE = "etherweave-dark-sphere"
VOID = "etherweave-void-summoner"
EMPEROR = "etherweave-eternal-emperor"
PATCH = "etherweave-reality-patch"
QUEEN = "etherweave-polarity-queen"
SINGULARITY = "etherweave-singularity"
ZIGGURAT = "etherweave-ziggurat-sentinel"
IRIS = "etherweave-iris-of-eternity"
LEGEND_1, LEGEND_2 = "legends-leviathan", "legends-time-elemental"
FLARE = "flares-00"


def pc(square: str, seat: int = A, rank: str = "common") -> dict:
    return {"square": square, "seat": seat, "rank": rank}


def table(pieces: list[dict], hand: list[str], actions: int = 2, form: str = "duel", number: int = 5,
          **extra) -> dict:
    """Seat 0 (Etherweave) to act on turn `number` with `hand` and `actions` actions left."""
    return position(board=pieces, form=form, schools=MELEE if form == "melee" else DUEL, hands={"0": hand},
                    turn={"seat": A, "actions_left": actions, "number": number}, **extra)


def summon(card: str, square: str) -> dict:
    return {"type": "summon", "card": card, "square": square}


def warp(card: str) -> dict:
    return {"type": "warp", "card": card}


def option(label: str) -> dict:
    return {"type": "choose", "option": label}


def card(card_id: str) -> dict:
    return {"type": "choose", "card": card_id}


def squares(state: dict) -> set[str]:
    return {c["square"] for c in legal(state) if c["type"] == "choose" and "square" in c}


def moves(state: dict) -> set[tuple[str, str]]:
    return {(c["from"], c["to"]) for c in legal(state) if c["type"] == "move"}


def options(state: dict) -> set[str]:
    return {c["option"] for c in legal(state) if c["type"] == "choose" and "option" in c}


def cards(state: dict) -> set[str]:
    return {c["card"] for c in legal(state) if c["type"] == "choose" and "card" in c}


def assert_all_legal_accepted(state: dict) -> None:
    """Every command legal() lists is accepted by engine.decide as it is."""
    commands = legal(state)
    assert commands
    for command in commands:
        engine.decide(state, {"seat": active_seat(state), **command})


def refused(state: dict, command: dict) -> str:
    """The code of the RuleError `command` raises; fails when it is accepted."""
    with pytest.raises(RuleError) as info:
        play(state, command)
    return info.value.code


def event_types(state: dict, *commands: dict) -> list[str]:
    """The types of the events the commands cause, in order."""
    out = []
    for command in commands:
        events = engine.decide(state, {"seat": active_seat(state), **command})
        out += [e["type"] for e in events]
        state = engine.replay(events, state)
    return out


# --- Doppelganger (common): pattern (-1,0) (-1,1): d5 d6 for e5 -----------------------------------------

def test_etherweave_doppelganger_resolves_the_pending_beings_warp_as_its_own_effect():
    state = table([pc("d5"), pc("d6"), pc("i5")], [DOPPELGANGER, LESSER])
    state = play(state, warp(LESSER))
    assert squares(state) == {"d5", "d6", "i5"}               # the Lesser Twin's warp: upgrade a common
    state = play(state, choose("i5"))
    assert at(state, "i5") == (A, "heroic") and pending_being(state, A) == LESSER
    types = event_types(state, summon(DOPPELGANGER, "e5"))
    assert "WarpCopied" in types and "WarpPlayed" not in types
    state = play(state, summon(DOPPELGANGER, "e5"))
    assert squares(state) == {"d5", "d6", "e5"}               # the same warp again, the Doppelganger included
    state = play(state, choose("d6"))
    assert at(state, "d6") == (A, "heroic")
    assert pending_being(state, A) == LESSER                  # the pending being stays pending
    assert state["discards"][A] == [DOPPELGANGER] and LESSER in state["hands"][A]
    assert state["turn"]["warps"] == [LESSER]


def test_etherweave_doppelganger_without_a_pending_being_does_nothing():
    state = table([pc("d5"), pc("d6")], [DOPPELGANGER, LESSER])
    state = play(state, summon(DOPPELGANGER, "e5"))
    assert state["pending"] is None
    assert at(state, "d5") == (A, "common") and at(state, "e5") == (A, "common")
    assert state["discards"][A] == [DOPPELGANGER]


def test_etherweave_doppelganger_never_copies_the_merchant_of_time():
    state = table([pc("d5"), pc("d6"), pc("g7", B)], [DOPPELGANGER, MERCHANT])
    state = play(state, warp(MERCHANT), choose("g7"))
    assert stored_piece(state, A)[1:3] == [B, 1]
    state = play(state, summon(DOPPELGANGER, "e5"))
    assert state["pending"] is None                           # no second stasis asked for
    assert pending_being(state, A) == MERCHANT


# --- Paradox Worm (common): pattern (-1,0) (-3,1) (-2,1): d5 b6 c6 for e5 ---------------------------

def test_etherweave_paradox_worm_swaps_an_own_piece_with_an_enemy_piece_of_equal_rank():
    state = table([pc("d5"), pc("b6"), pc("c6"), pc("g7", A, "heroic"), pc("c2", B, "heroic"),
                   pc("h8", B), pc("a4", B, "legendary"), pc("i4", A, "legendary")], [WORM])
    state = play(state, summon(WORM, "e5"))
    assert squares(state) == {"d5", "b6", "c6", "e5", "g7"}   # legendary pieces never swap
    assert SKIP in legal(state)
    state = play(state, choose("g7"))                         # its only partner, c2, is taken at once
    assert at(state, "g7") == (B, "heroic") and at(state, "c2") == (A, "heroic")
    assert state["pending"] is None and state["turn"]["destroyed"] == []


def test_etherweave_paradox_worm_asks_for_the_partner_when_several_fit():
    state = table([pc("d5"), pc("b6"), pc("c6"), pc("h8", B), pc("a4", B)], [WORM])
    state = play(state, summon(WORM, "e5"), choose("d5"))
    assert squares(state) == {"h8", "a4"} and SKIP not in legal(state)
    state = play(state, choose("a4"))
    assert at(state, "a4") == (A, "common") and at(state, "d5") == (B, "common")


def test_etherweave_paradox_worm_with_no_enemy_of_equal_rank_swaps_nothing():
    state = table([pc("d5"), pc("b6"), pc("c6"), pc("h8", B, "heroic")], [WORM])
    state = play(state, summon(WORM, "e5"))
    assert state["pending"] is None and at(state, "h8") == (B, "heroic")


def test_etherweave_paradox_worm_warp_upgrades_an_enemy_common_then_may_discard_itself():
    state = table([pc("h8", B), pc("b2", B, "heroic")], [WORM])
    state = play(state, warp(WORM))
    assert at(state, "h8") == (B, "heroic")                   # mandatory, only one target: done at once
    assert options(state) == {"discard"} and SKIP in legal(state)
    state = play(state, option("discard"))
    assert pending_being(state, A) is None
    assert state["discards"][A] == [WORM] and WORM not in state["hands"][A]


def test_etherweave_paradox_worm_warp_may_keep_the_worm_pending_and_without_enemy_common():
    state = table([pc("b2", B, "heroic")], [WORM])
    state = play(state, warp(WORM), SKIP)
    assert at(state, "b2") == (B, "heroic")
    assert pending_being(state, A) == WORM and WORM in state["hands"][A]
    assert state["turn"]["actions"] == 2                      # warping costs no action


# --- Lesser Shadow Twin (common): pattern (0,1) (1,1) (2,1): e6 f6 g6 for e5 --------------------------

def test_etherweave_lesser_shadow_twin_destroys_two_commons_touching_the_same_own_piece():
    state = table([pc("e6"), pc("f6"), pc("g6"), pc("d7", B), pc("h3", B), pc("a7", B)], [LESSER],
                  discards={"0": [GREATER]})
    state = play(state, summon(LESSER, "e5"))
    first = squares(state)
    assert "d7" in first and "h3" not in first and "a7" not in first
    state = play(state, choose("d7"))
    second = squares(state)
    assert "f6" in second and "e5" in second                   # own commons touch e6 too: any colour
    assert "h3" not in second and "d7" not in second
    assert SKIP in legal(state)
    state = play(state, choose("f6"))
    assert at(state, "d7") is None and at(state, "f6") is None
    assert state["turn"]["destroyed"] == [[B, 1]]              # the own common is not credited


def test_etherweave_lesser_shadow_twin_needs_the_greater_twin_discarded():
    state = table([pc("e6"), pc("f6"), pc("g6"), pc("d7", B)], [LESSER], discards={"0": [MERCHANT]})
    state = play(state, summon(LESSER, "e5"))
    assert state["pending"] is None and at(state, "d7") == (B, "common")


def test_etherweave_lesser_shadow_twin_warp_upgrades_one_own_common():
    state = table([pc("a5"), pc("b2", A, "heroic"), pc("c7", B)], [LESSER])
    state = play(state, warp(LESSER))
    assert at(state, "a5") == (A, "heroic") and at(state, "c7") == (B, "common")
    assert pending_being(state, A) == LESSER


def test_etherweave_lesser_shadow_twin_warp_with_no_own_common_changes_nothing():
    state = table([pc("b2", A, "heroic")], [LESSER])
    state = play(state, warp(LESSER))
    assert at(state, "b2") == (A, "heroic") and state["pending"] is None
    assert pending_being(state, A) == LESSER


# --- Translocationist (common): pattern (1,-1) (-1,0) (-1,1) (0,1): f4 d5 d6 e6 for e5 -----------------

def test_etherweave_translocationist_swaps_own_heroic_and_common_up_to_twice():
    state = table([pc("f4"), pc("d5"), pc("d6"), pc("e6"), pc("c3", A, "heroic"), pc("g7", B)], [TRANSLOCATIONIST])
    state = play(state, summon(TRANSLOCATIONIST, "e5"))
    assert squares(state) == {"c3"}
    state = play(state, choose("c3"))
    assert squares(state) == {"f4", "d5", "d6", "e6", "e5"}   # own commons only, never g7
    state = play(state, choose("d5"))
    assert at(state, "c3") == (A, "common") and at(state, "d5") == (A, "heroic")
    assert SKIP in legal(state)                               # a second swap is optional
    state = play(state, choose("d5"), choose("f4"))
    assert at(state, "d5") == (A, "common") and at(state, "f4") == (A, "heroic")
    assert state["pending"] is None                           # two swaps at most


def test_etherweave_translocationist_without_heroic_swaps_nothing():
    state = table([pc("f4"), pc("d5"), pc("d6"), pc("e6")], [TRANSLOCATIONIST])
    state = play(state, summon(TRANSLOCATIONIST, "e5"))
    assert state["pending"] is None and state["discards"][A] == [TRANSLOCATIONIST]


def test_etherweave_translocationist_warp_gains_an_action_even_with_none_left():
    state = table([], [TRANSLOCATIONIST, FLARE], actions=0)
    assert warp(TRANSLOCATIONIST) in legal(state)
    state = play(state, warp(TRANSLOCATIONIST))
    assert state["turn"]["actions"] == 1 and state["turn"]["seat"] == A
    assert pending_being(state, A) == TRANSLOCATIONIST


# --- Antimatter Spirit (common): pattern (1,-1) (-1,1): f4 d6 for e5 -----------------------------------

def test_etherweave_antimatter_spirit_summoned_has_no_effect():
    state = table([pc("f4"), pc("d6"), pc("e4", B)], [ANTIMATTER])
    state = play(state, summon(ANTIMATTER, "e5"))
    assert state["pending"] is None and at(state, "e4") == (B, "common")
    assert state["discards"][A] == [ANTIMATTER]


def test_etherweave_antimatter_spirit_warp_offers_only_moves_both_pieces_can_make():
    state = table([pc("e4", B), pc("g5", B, "heroic"), pc("g4", B, "heroic")], [ANTIMATTER])
    state = play(state, warp(ANTIMATTER))
    assert "e5" not in squares(state) and "e4" not in squares(state)     # red; occupied
    assert SKIP not in legal(state)                           # the linked warp is mandatory once possible
    state = play(state, choose("f5"))
    offered = moves(state)
    assert ("f5", "f4") in offered and ("f5", "e4") in offered
    assert ("f5", "g5") not in offered and ("f5", "g4") not in offered   # heroics: no combat move onto them
    assert ("f5", "e5") not in offered and ("f5", "e6") not in offered   # the way back is blocked by a heroic
    assert_all_legal_accepted(state)


def test_etherweave_antimatter_spirit_warp_moves_own_then_enemy_piece_opposite_ways():
    state = table([pc("e4", B), pc("d4", B, "heroic")], [ANTIMATTER])
    state = play(state, warp(ANTIMATTER), choose("e3"))
    offered = moves(state)
    assert ("e3", "e4") in offered                            # capture; the enemy piece then goes e3 -> e2
    assert ("e3", "d4") not in offered                        # a heroic: no combat move onto it
    assert ("e3", "f2") not in offered                        # the enemy piece could not go e3 -> d4 (heroic)
    state = play(state, move("e3", "e4"))
    assert at(state, "e4") == (A, "common") and at(state, "e3") is None and at(state, "e2") == (B, "common")
    assert state["turn"]["destroyed"] == [[B, 1]] and state["pending"] is None


def test_etherweave_antimatter_spirit_warp_needs_a_common_of_the_enemy_or_one_to_capture():
    state = table([pc("e4", B)], [ANTIMATTER], supply={"1": {"non_legendary": 0}})
    state = play(state, warp(ANTIMATTER))
    offered = squares(state)
    assert offered and offered <= {"d3", "e3", "f3", "d4", "f4", "d5", "f5"}   # next to e4 (e5 is red)
    state = play(state, choose("f3"))                         # its one complete way is played out at once
    assert at(state, "e4") == (A, "common") and at(state, "f3") is None and at(state, "g2") == (B, "common")
    assert state["pending"] is None


def test_etherweave_antimatter_spirit_warp_does_nothing_unless_every_part_can_be_done():
    state = table([pc("a5", A)], [ANTIMATTER], supply={"1": {"non_legendary": 0}})
    before = dict(state["board"])
    state = play(state, warp(ANTIMATTER))
    assert state["pending"] is None and state["board"] == before
    assert pending_being(state, A) == ANTIMATTER


# --- Merchant of Time (heroic): pattern (-1,1) (1,1) (-2,2) (0,2): d6 f6 c7 e7 for e5 ------------------

MERCHANT_PATTERN = [pc("d6"), pc("f6"), pc("c7"), pc("e7")]


def test_etherweave_merchant_of_time_warp_lifts_a_piece_off_an_uncoloured_square():
    state = table([pc("g7", B, "heroic"), pc("h6", B, "legendary"), pc("b3", B)], [MERCHANT])
    before = supply(state, B)
    state = play(state, warp(MERCHANT))
    assert squares(state) == {"g7", "b3"} and SKIP not in legal(state)     # h6 is red
    state = play(state, choose("g7"))
    assert at(state, "g7") is None
    assert stored_piece(state, A)[1:3] == [B, 2]
    assert supply(state, B) == before                          # in stasis: neither on the board nor in supply
    assert state["turn"]["destroyed"] == []                    # not a destruction
    assert engine.player_view(state, B)["seats"][A]["stasis"] == {"color": B, "rank": "heroic"}


def test_etherweave_merchant_of_time_summoned_releases_the_stored_piece_with_a_standard_leap():
    state = table(MERCHANT_PATTERN + [pc("g7", B, "heroic"), pc("b3", B), pc("a4", B, "heroic")], [MERCHANT])
    state = play(state, warp(MERCHANT), choose("g7"), summon(MERCHANT, "e5"))
    offered = squares(state)
    assert "b3" in offered and "g7" in offered                 # a common below the heroic; an empty square
    assert "a4" not in offered and "h6" not in offered and "c8" not in offered   # equal rank; red squares
    assert SKIP not in legal(state)
    state = play(state, choose("b3"))
    assert at(state, "b3") == (B, "heroic") and stored_piece(state, A) is None
    assert state["turn"]["destroyed"] == [[B, 1]]
    assert pending_being(state, A) is None and state["discards"][A] == [MERCHANT]


def test_etherweave_merchant_of_time_summoned_without_a_stored_piece_does_nothing():
    state = table(MERCHANT_PATTERN, [MERCHANT])
    state = play(state, summon(MERCHANT, "e5"))
    assert state["pending"] is None and at(state, "e5") == (A, "heroic")


def test_etherweave_merchant_of_time_piece_with_nowhere_to_land_goes_back_to_its_supply():
    from engine.geometry import COLOURED, SQUARES
    mine = {"a3", "d6", "f6", "c7", "e7"}
    crowd = [pc(sq, B) for sq in SQUARES if sq not in COLOURED and sq not in mine]
    state = table(MERCHANT_PATTERN + [pc("a3")] + crowd, [MERCHANT], supply={"1": {"non_legendary": 0}})
    state = play(state, warp(MERCHANT), choose("a3"), {"type": "place", "square": "a3"})
    spare = supply(state, A)[0]
    state = play(state, summon(MERCHANT, "e5"))              # every uncoloured square holds a common
    assert state["pending"] is None and stored_piece(state, A) is None
    assert state["removed"][A] == [0, 0]
    assert supply(state, A)[0] == spare                       # one piece for the Merchant, the stored one back


def test_etherweave_merchant_of_time_legend_in_stasis_scores_nothing_in_high_form():
    state = table([pc("g7", B, "legendary")], [MERCHANT], form="high_form")
    assert score(state, B) == 1
    state = play(state, warp(MERCHANT))
    assert score(state, B) == 0 and supply(state, B)[1] == 2


def test_etherweave_merchant_of_time_pending_can_be_neither_discarded_nor_returned():
    state = table([pc("g7", B), pc("d3"), pc("c5"), pc("d6")], [MERCHANT, WARPMASTER, LESSER])
    state = play(state, warp(MERCHANT), choose("g7"))
    assert not any(c["type"] == "discard" and (c["card"] == MERCHANT or MERCHANT in c["returns"])
                   for c in legal(state))
    assert refused(state, {"type": "discard", "card": MERCHANT}) == "pending_being"
    state = play(state, summon(WARPMASTER, "e5"))
    assert options(state) == {"move"}                          # no 'return pending' for the Merchant


# --- Gate of Oblivion (heroic): pattern d5 f5 d6 f6 for e5; purple e6; others d4 e4 f4 c5 g5 c6 g6 ---------

GATE_PATTERN = [pc("d5"), pc("f5"), pc("d6"), pc("f6")]


def test_etherweave_gate_of_oblivion_destroys_the_purple_square_then_may_destroy_a_marked_one():
    state = table(GATE_PATTERN + [pc("e6", B, "heroic"), pc("e4", B), pc("g5", B, "legendary"), pc("c6"),
                                  pc("h5", B)], [GATE])
    state = play(state, summon(GATE, "e5"))
    assert at(state, "e6") is None                             # compulsory, one target: done at once
    assert squares(state) == {"e4", "c6"}                      # non-legendary, on the other marked squares
    assert SKIP in legal(state)
    state = play(state, choose("e4"))
    assert at(state, "e4") is None and state["turn"]["destroyed"] == [[B, 2], [B, 1]]


def test_etherweave_gate_of_oblivion_with_an_empty_purple_square_and_own_piece_there():
    state = table(GATE_PATTERN + [pc("g6", B)], [GATE])
    state = play(state, summon(GATE, "e5"))
    assert squares(state) == {"g6"}
    state = play(state, SKIP)
    own = table(GATE_PATTERN + [pc("e6")], [GATE])
    own = play(own, summon(GATE, "e5"))
    assert at(own, "e6") is None and own["turn"]["destroyed"] == []    # own piece: destroyed, not credited


def test_etherweave_gate_of_oblivion_marked_squares_follow_the_orientation_chosen():
    pattern = GATE_PATTERN + [pc("d4"), pc("f4")]             # fits both ways up: purple e6 or e4
    state = table(pattern + [pc("e6", B, "heroic"), pc("e4", B, "heroic")], [GATE])
    state = play(state, summon(GATE, "e5"))
    turns = [c for c in legal(state) if "orientation" in c]
    assert len(turns) == 2
    after = {next(sq for sq in ("e4", "e6") if at(s, sq) is None): s for s in (play(state, t) for t in turns)}
    assert after.keys() == {"e4", "e6"}
    assert squares(after["e4"]) == {"e6", "d6", "f6"}          # the other purple square is now a plain one
    assert squares(after["e6"]) == {"e4", "d4", "f4"}


def test_etherweave_gate_of_oblivion_warp_makes_every_destruction_count_twice_this_turn():
    state = table(GATE_PATTERN + [pc("e6", B, "heroic")], [GATE])
    state = play(state, warp(GATE))
    assert state["turn"]["destruction_bonus"] == 1
    events = engine.decide(state, {"seat": A, **summon(GATE, "e5")})
    assert [e.get("weight") for e in events if e["type"] == "PieceDestroyed"] == [2]
    state = play(state, summon(GATE, "e5"))                   # the pending Gate summoned: only its normal effect
    assert state["turn"]["destroyed"] == [[B, 2], [B, 2]] and pending_being(state, A) is None
    state = play(state, {"type": "place", "square": "a5"})    # last action: the turn ends and scores
    assert state["points"][A] == 2


def test_etherweave_gate_of_oblivion_warps_stack():
    state = table(GATE_PATTERN + [pc("e6", B, "heroic"), pc("a5"), pc("a6")], [GATE, DOPPELGANGER], actions=3)
    state = play(state, warp(GATE), summon(DOPPELGANGER, "b5"))
    assert state["turn"]["destruction_bonus"] == 2             # the copied warp adds one more
    state = play(state, summon(GATE, "e5"))
    assert state["turn"]["destroyed"] == [[B, 2]] * 3


def test_etherweave_gate_of_oblivion_warp_counts_a_conversion_twice():
    state = table([pc(sq, B) for sq in ("a5", "b5", "c5", "d5", "f5")], [GATE, "flares-03"])
    state = play(state, warp(GATE), {"type": "flare", "card": "flares-03"}, option("convert"), choose("a5"))
    assert at(state, "a5") == (A, "common") and state["turn"]["destroyed"] == [[B, 1], [B, 1]]


# --- Time Traveler (heroic): a diagonal of three own commons anywhere; the being on an empty uncoloured square

def test_etherweave_time_traveler_is_summoned_on_any_empty_uncoloured_square():
    state = table([pc("b4"), pc("c5"), pc("d6"), pc("g8", B)], [TRAVELER])
    targets = {c["square"] for c in legal(state) if c["type"] == "summon"}
    assert {"h8", "e1", "i3"} <= targets
    assert not targets & {"e5", "h6", "c3", "g8", "c5"}        # red, green, occupied
    assert refused(state, summon(TRAVELER, "h6")) == "pattern_not_matched"


def test_etherweave_time_traveler_destroys_a_common_and_puts_the_last_discard_back_on_the_deck():
    state = table([pc("b4"), pc("c5"), pc("d6"), pc("g8", B), pc("h7", B, "heroic")], [TRAVELER],
                  discards={"0": [LESSER, WORM]})
    state = play(state, summon(TRAVELER, "h8"))
    assert squares(state) == {"g8"} and SKIP in legal(state)
    state = play(state, choose("g8"))
    assert at(state, "g8") is None and at(state, "h8") == (A, "heroic")
    assert state["decks"][A][0] == WORM and state["discards"][A] == [LESSER, TRAVELER]


def test_etherweave_time_traveler_declining_or_with_empty_discard_moves_no_card():
    state = table([pc("b4"), pc("c5"), pc("d6"), pc("g8", B)], [TRAVELER], discards={"0": [LESSER]})
    state = play(state, summon(TRAVELER, "h8"), SKIP)
    assert state["discards"][A] == [LESSER, TRAVELER] and at(state, "g8") == (B, "common")
    empty = table([pc("b4"), pc("c5"), pc("d6"), pc("g8", B)], [TRAVELER])
    empty = play(empty, summon(TRAVELER, "h8"), choose("g8"))
    assert empty["discards"][A] == [TRAVELER] and at(empty, "g8") is None


def test_etherweave_time_traveler_needs_three_commons_in_a_diagonal_line():
    state = table([pc("b4"), pc("c5"), pc("d7")], [TRAVELER])
    assert not any(c["type"] == "summon" for c in legal(state))
    assert refused(state, summon(TRAVELER, "h8")) == "pattern_not_matched"


# --- Greater Shadow Twin (heroic): pattern (1,0) (2,0) (3,0): f5 g5 h5 for e5 ----------------------------

def test_etherweave_greater_shadow_twin_destroys_a_heroic_touching_two_own_pieces():
    state = table([pc("f5"), pc("g5"), pc("h5"), pc("f4", B, "heroic"), pc("b2", B, "heroic"),
                   pc("g6", A, "heroic"), pc("d4", B, "heroic")], [GREATER], discards={"0": [LESSER]})
    state = play(state, summon(GREATER, "e5"))
    assert squares(state) == {"f4", "g6"}                      # d4 touches only the Twin itself
    state = play(state, choose("f4"))
    assert at(state, "f4") is None and state["turn"]["destroyed"] == [[B, 2]]


def test_etherweave_greater_shadow_twin_needs_the_lesser_twin_discarded():
    state = table([pc("f5"), pc("g5"), pc("h5"), pc("f4", B, "heroic")], [GREATER])
    state = play(state, summon(GREATER, "e5"))
    assert state["pending"] is None and at(state, "f4") == (B, "heroic")


def test_etherweave_greater_shadow_twin_warp_upgrades_an_own_common():
    state = table([pc("a5"), pc("b5"), pc("c5", B)], [GREATER])
    state = play(state, warp(GREATER))
    assert squares(state) == {"a5", "b5"} and SKIP not in legal(state)
    state = play(state, choose("b5"))
    assert at(state, "b5") == (A, "heroic") and pending_being(state, A) == GREATER


# --- Warpmaster (heroic): pattern (-1,-2) (-2,0) (-1,1): d3 c5 d6 for e5 -----------------------------------

WARPMASTER_PATTERN = [pc("d3"), pc("c5"), pc("d6")]


def test_etherweave_warpmaster_takes_the_pending_being_back_into_the_hand():
    state = table(WARPMASTER_PATTERN, [WARPMASTER, WORM, LESSER])
    state = play(state, warp(WORM), SKIP, summon(WARPMASTER, "e5"))
    assert options(state) == {"return pending", "move"} and SKIP in legal(state)
    state = play(state, option("return pending"))
    assert pending_being(state, A) is None and WORM in state["hands"][A]
    assert {"type": "discard", "card": WORM, "returns": []} in legal(state)     # an ordinary card again


def test_etherweave_warpmaster_moves_itself_when_nothing_is_pending():
    state = table(WARPMASTER_PATTERN + [pc("e4", B), pc("f5", B, "heroic")], [WARPMASTER])
    state = play(state, summon(WARPMASTER, "e5"))
    assert options(state) == {"move"}
    state = play(state, option("move"))
    offered = moves(state)
    assert ("e5", "e4") in offered and ("e5", "f5") not in offered   # standard: only lower ranks
    state = play(state, move("e5", "e4"))
    assert at(state, "e4") == (A, "heroic") and state["turn"]["destroyed"] == [[B, 1]]


# --- Dark Sphere (heroic): own common on e5 and d5 d6 e6 ---------------------------------------------------

SPHERE_PATTERN = [pc("e5"), pc("d5"), pc("d6"), pc("e6")]


def test_etherweave_dark_sphere_moves_up_to_three_pieces_two_squares_away_two_per_colour():
    state = table(SPHERE_PATTERN + [pc("e3", B), pc("e7", B), pc("g5", B), pc("c4")], [SPHERE])
    state = play(state, summon(SPHERE, "e5"))
    assert at(state, "e5") == (A, "heroic")
    first = moves(state)
    assert ("e3", "f3") in first and ("e3", "d3") in first and ("e3", "e4") not in first   # distance 2 only
    state = play(state, move("e3", "f3"), move("e7", "f7"))
    third = moves(state)
    assert not any(src in ("g5", "f3", "f7") for src, _ in third)    # two of one colour; moved pieces
    assert ("c4", "c3") in third and SKIP in legal(state)
    state = play(state, move("c4", "c3"))
    assert state["pending"] is None and at(state, "c3") == (A, "common")


def test_etherweave_dark_sphere_needs_an_own_piece_on_its_square():
    state = table([pc("d5"), pc("d6"), pc("e6")], [SPHERE])
    assert refused(state, summon(SPHERE, "e5")) == "pattern_not_matched"


def test_etherweave_dark_sphere_never_moves_a_piece_that_cannot_end_two_squares_away():
    state = table(SPHERE_PATTERN + [pc("i5", B), pc("f5", B, "legendary")], [SPHERE])
    state = play(state, summon(SPHERE, "e5"))
    assert {src for src, _ in moves(state)} == {"d5", "d6", "e6"}   # i5 is too far, f5 legendary


# --- Void Summoner (heroic): pattern (1,0) (0,1) (-1,2) (1,2): f5 e6 d7 f7 for e5 --------------------------

VOID_PATTERN = [pc("f5"), pc("e6"), pc("d7"), pc("f7")]


def test_etherweave_void_summoner_lets_two_empty_squares_fill_the_next_pattern():
    state = table(VOID_PATTERN + [pc("b4"), pc("b5")], [VOID, TRANSLOCATIONIST])
    assert summon(TRANSLOCATIONIST, "c4") not in legal(state)         # d3 and c5 are empty
    state = play(state, summon(VOID, "e5"))
    assert summon(TRANSLOCATIONIST, "c4") in legal(state)
    state = play(state, summon(TRANSLOCATIONIST, "c4"))
    assert at(state, "c4") == (A, "common") and state["turn"]["modifiers"] == []


def test_etherweave_void_summoner_allows_no_more_than_two_empty_squares():
    state = table(VOID_PATTERN + [pc("b4")], [VOID, TRANSLOCATIONIST])
    state = play(state, summon(VOID, "e5"))
    assert summon(TRANSLOCATIONIST, "c4") not in legal(state)         # three empty squares needed
    assert refused(state, summon(TRANSLOCATIONIST, "c4")) == "pattern_not_matched"


def test_etherweave_void_summoner_warp_makes_one_standard_move_with_an_own_piece():
    state = table([pc("a5"), pc("i5", A, "legendary"), pc("b5", B)], [VOID])
    state = play(state, warp(VOID))
    assert {src for src, _ in moves(state)} == {"a5"} and SKIP not in legal(state)
    assert ("a5", "b5") not in moves(state)                           # standard: no equal-rank capture
    state = play(state, move("a5", "a4"))
    assert at(state, "a4") == (A, "common") and pending_being(state, A) == VOID


def test_etherweave_void_summoner_warp_with_only_legends_moves_nothing():
    state = table([pc("i5", A, "legendary")], [VOID])
    state = play(state, warp(VOID))
    assert state["pending"] is None and at(state, "i5") == (A, "legendary")


# --- Eternal Emperor (heroic): pattern (-1,-1) (-1,0) (-1,1) (0,1): d4 d5 d6 e6 for e5 ---------------------

EMPEROR_PATTERN = [pc("d4"), pc("d5"), pc("d6"), pc("e6")]


def test_etherweave_eternal_emperor_may_resolve_its_warp_as_its_effect():
    state = table(EMPEROR_PATTERN + [pc("f5", B)], [EMPEROR])
    state = play(state, summon(EMPEROR, "e5"))
    assert options(state) == {"warp"} and SKIP in legal(state)
    state = play(state, option("warp"))
    assert options(state) == {"place", "move common", "move upgraded"}
    state = play(state, option("move common"))
    assert ("d5", "d4") in moves(state)                       # combat: onto an equal-rank piece
    state = play(state, move("e6", "f5"))
    assert at(state, "f5") == (A, "common") and pending_being(state, A) is None
    assert "warps" not in state["turn"] and state["discards"][A] == [EMPEROR]


def test_etherweave_eternal_emperor_warp_is_a_choice_of_the_branches_that_can_act():
    state = table([], [EMPEROR])
    state = play(state, warp(EMPEROR))                        # nothing to move: 'place' is chosen at once
    assert state["pending"]["ask"] == "square" and SKIP not in legal(state)
    state = play(state, choose("a5"))
    assert at(state, "a5") == (A, "common") and pending_being(state, A) == EMPEROR


def test_etherweave_eternal_emperor_summoned_after_its_warp_this_turn_does_nothing():
    state = table(EMPEROR_PATTERN, [EMPEROR])
    state = play(state, warp(EMPEROR), option("place"), choose("a5"))
    state = play(state, summon(EMPEROR, "e5"))
    assert state["pending"] is None and pending_being(state, A) is None
    assert state["board"].keys() == {"a5", "d4", "d5", "d6", "e6", "e5"}


# --- Reality Patch (heroic): pattern e4 d5 f5 e6 around e5 --------------------------------------------------

PATCH_PATTERN = [pc("e4"), pc("d5"), pc("f5"), pc("e6")]


def test_etherweave_reality_patch_destroys_a_heroic_and_discards_the_pending_being_and_a_card():
    state = table(PATCH_PATTERN + [pc("a5", B, "heroic"), pc("i5", B, "heroic")], [PATCH, WORM, LEGEND_1, FLARE])
    state = play(state, warp(WORM), SKIP, summon(PATCH, "e5"))
    assert squares(state) == {"a5", "i5"}
    state = play(state, choose("a5"))                         # one heroic per enemy colour: done
    assert options(state) == {"discard"}
    state = play(state, option("discard"))
    assert pending_being(state, A) is None and WORM in state["discards"][A]
    assert cards(state) == {LEGEND_1, FLARE}
    state = play(state, card(LEGEND_1))
    assert state["legends"]["discard"] == [LEGEND_1] and at(state, "i5") == (B, "heroic")


def test_etherweave_reality_patch_takes_one_heroic_of_each_enemy_colour_in_a_melee():
    state = table(PATCH_PATTERN + [pc("a5", B, "heroic"), pc("i5", B, "heroic"), pc("b2", C, "heroic")],
                  [PATCH], form="melee")
    state = play(state, summon(PATCH, "e5"), choose("a5"))
    assert squares(state) == {"b2"}
    state = play(state, choose("b2"))
    assert at(state, "i5") == (B, "heroic") and at(state, "b2") is None


def test_etherweave_reality_patch_never_discards_a_pending_merchant():
    state = table(PATCH_PATTERN + [pc("g7", B)], [PATCH, MERCHANT, FLARE])
    state = play(state, warp(MERCHANT), choose("g7"), summon(PATCH, "e5"))
    assert cards(state) == {FLARE}                             # the discard_pending step was passed over
    state = play(state, SKIP)
    assert pending_being(state, A) == MERCHANT


# --- Polarity Queen (heroic): pattern (-1,1) (1,1) (0,2) (0,3): d6 f6 e7 e8 for e5 --------------------------

QUEEN_PATTERN = [pc("d6"), pc("f6"), pc("e7"), pc("e8")]


def test_etherweave_polarity_queen_moves_two_pieces_in_opposite_directions():
    state = table(QUEEN_PATTERN + [pc("g7", B, "heroic"), pc("f8", B, "heroic"), pc("f9", B, "heroic")], [QUEEN])
    state = play(state, summon(QUEEN, "e5"))
    first = moves(state)
    assert ("d6", "c6") in first and SKIP not in legal(state)
    assert ("d6", "c5") not in first                          # nobody else can then move south-east
    assert not any(src == "e5" for src, _ in first)           # not the Queen
    state = play(state, move("d6", "c6"))
    assert moves(state) == {("f6", "g6"), ("e7", "f7")}       # east, by another piece
    state = play(state, move("e7", "f7"))
    assert at(state, "c6") == (A, "common") and at(state, "f7") == (A, "common") and state["pending"] is None


def test_etherweave_polarity_queen_warp_places_a_common_next_to_an_enemy_piece():
    state = table([pc("a5", B), pc("a4")], [QUEEN])
    state = play(state, warp(QUEEN))
    assert squares(state) == {"b4", "b5", "b6", "a6"} and SKIP not in legal(state)
    state = play(state, choose("b5"))
    assert at(state, "b5") == (A, "common") and pending_being(state, A) == QUEEN


def test_etherweave_polarity_queen_warp_with_no_enemy_piece_places_nothing():
    state = table([pc("a4")], [QUEEN])
    state = play(state, warp(QUEEN))
    assert state["pending"] is None and len(state["board"]) == 1


# --- Singularity (heroic): pattern d4 f4 d6 f6 around e5 --------------------------------------------------

SINGULARITY_PATTERN = [pc("d4"), pc("f4"), pc("d6"), pc("f6")]


def test_etherweave_singularity_pulls_every_adjacent_common_onto_the_chosen_square():
    state = table(SINGULARITY_PATTERN + [pc("e3", B), pc("d3", B, "heroic")], [SINGULARITY])
    state = play(state, summon(SINGULARITY, "e5"))
    offered = squares(state)
    assert "e4" in offered and SKIP not in legal(state)
    assert not offered & {"h6", "c3", "d4", "e5"}             # red, green, occupied
    state = play(state, choose("e4"))
    assert moves(state) == {("d4", "e4"), ("f4", "e4"), ("e3", "e4")} and SKIP not in legal(state)
    state = play(state, move("e3", "e4"), move("d4", "e4"))  # the last one, f4, follows by itself
    assert at(state, "e4") == (A, "common")
    assert at(state, "d4") is None and at(state, "f4") is None and at(state, "e3") is None
    assert at(state, "d3") == (B, "heroic") and state["turn"]["destroyed"] == [[B, 1]]
    assert state["pending"] is None


def test_etherweave_singularity_on_a_square_without_adjacent_commons_moves_nothing():
    state = table(SINGULARITY_PATTERN, [SINGULARITY])
    state = play(state, summon(SINGULARITY, "e5"), choose("i6"))
    assert state["pending"] is None and len(state["board"]) == 5


# --- Ziggurat Sentinel (heroic): pattern e6 d7 e7 c8 d8 for e5; arrow toward d6 (south-west) ----------------

ZIGGURAT_PATTERN = [pc("e6"), pc("d7"), pc("e7"), pc("c8"), pc("d8")]


def test_etherweave_ziggurat_sentinel_resolves_a_discarded_cards_warp():
    state = table(ZIGGURAT_PATTERN, [ZIGGURAT], discards={"0": [TRANSLOCATIONIST, LESSER, MERCHANT]})
    state = play(state, summon(ZIGGURAT, "e5"))
    assert options(state) == {"copy warp", "charge"}
    state = play(state, option("copy warp"))
    assert cards(state) == {TRANSLOCATIONIST, LESSER}          # never the Merchant's warp
    state = play(state, card(TRANSLOCATIONIST))
    assert state["turn"]["actions"] == 2                      # 2 - 1 for the summoning + 1 gained
    assert pending_being(state, A) is None and TRANSLOCATIONIST in state["discards"][A]


def test_etherweave_ziggurat_sentinel_charges_up_to_three_squares_along_its_arrow():
    state = table(ZIGGURAT_PATTERN + [pc("c7", B, "heroic")], [ZIGGURAT])
    state = play(state, summon(ZIGGURAT, "e5"))
    assert options(state) == {"charge"}                       # an empty discard pile: nothing to copy
    state = play(state, option("charge"))
    assert moves(state) == {("e5", "d6")}
    state = play(state, move("e5", "d6"), move("d6", "c7"))
    assert moves(state) == {("c7", "b8")} and SKIP in legal(state)
    state = play(state, move("c7", "b8"))
    assert at(state, "b8") == (A, "heroic") and state["turn"]["destroyed"] == [[B, 2]]


def test_etherweave_ziggurat_sentinel_warp_combat_capture_ends_it():
    state = table([pc("d4"), pc("d3", B)], [ZIGGURAT])
    state = play(state, warp(ZIGGURAT), move("d4", "d3"))
    assert at(state, "d3") == (A, "common") and state["pending"] is None


def test_etherweave_ziggurat_sentinel_warp_or_two_standard_moves_with_one_piece():
    state = table([pc("d4"), pc("d3", B), pc("a5")], [ZIGGURAT])
    state = play(state, warp(ZIGGURAT))
    assert SKIP in legal(state)
    state = play(state, move("d4", "e4"))
    second = moves(state)
    assert {src for src, _ in second} == {"e4"}               # the same piece
    assert ("e4", "d3") not in second and ("e4", "e3") in second   # the second move is a standard one
    state = play(state, move("e4", "e3"))
    assert at(state, "e3") == (A, "common") and state["pending"] is None


# --- Iris of Eternity (heroic): pattern c4 d4 b5 c6 d6 for e5 --------------------------------------------

IRIS_PATTERN = [pc("c4"), pc("d4"), pc("b5"), pc("c6"), pc("d6")]


def test_etherweave_iris_of_eternity_becomes_a_legend_summoned_and_discards_legend_cards():
    state = table(IRIS_PATTERN, [IRIS, LEGEND_1, LEGEND_2])
    state = play(state, summon(IRIS, "e5"))
    assert options(state) == {"upgrade self"} and SKIP in legal(state)
    state = play(state, option("upgrade self"))
    assert at(state, "e5") == (A, "legendary")
    assert state["points"][A] == 1 and state["turn"]["summons"] == [["e5", 3]]
    assert sorted(state["legends"]["discard"]) == sorted([LEGEND_1, LEGEND_2])
    assert not any(c.startswith("legends-") for c in state["hands"][A])


def test_etherweave_iris_of_eternity_destroys_an_adjacent_legend():
    state = table(IRIS_PATTERN + [pc("f5", B, "legendary")], [IRIS], supply={"0": {"legendary": 0}})
    state = play(state, summon(IRIS, "e5"))
    assert options(state) == {"destroy legend"}               # no legendary piece left to upgrade with
    state = play(state, option("destroy legend"))
    assert at(state, "f5") is None and state["turn"]["destroyed"] == [[B, 3]]
    assert at(state, "e5") == (A, "heroic")


def test_etherweave_iris_of_eternity_with_no_legend_around_and_none_in_supply_does_nothing():
    state = table(IRIS_PATTERN, [IRIS], supply={"0": {"legendary": 0}})
    state = play(state, summon(IRIS, "e5"))
    assert state["pending"] is None and at(state, "e5") == (A, "heroic")


# --- the warp command ----------------------------------------------------------------------------------

def test_warp_is_listed_for_each_warp_card_and_costs_no_action():
    state = table([], [WORM, DOPPELGANGER, GATE, LEGEND_1, FLARE])
    listed = [c for c in legal(state) if c["type"] == "warp"]
    assert listed == [warp(WORM), warp(GATE)]                 # the Doppelganger has no warp effect
    assert refused(state, warp(DOPPELGANGER)) == "no_warp_effect"
    assert refused(state, warp(LESSER)) == "card_not_in_hand"
    state = play(state, warp(GATE))
    assert state["turn"]["actions"] == 2 and GATE in state["hands"][A]


def test_warp_is_refused_in_the_first_round():
    for number in (1, 2):
        state = table([], [GATE], number=number)
        assert warp(GATE) not in legal(state)
        assert refused(state, warp(GATE)) == "warp_first_round"
    assert warp(GATE) in legal(table([], [GATE], number=3))


def test_only_one_pending_being_at_a_time():
    state = table([], [GATE, WORM])
    state = play(state, warp(GATE))
    assert not any(c["type"] == "warp" for c in legal(state))
    assert refused(state, warp(WORM)) == "pending_being_exists"


def test_a_possible_warp_keeps_the_turn_open_like_a_flare():
    state = table([], [GATE], actions=1)
    state = play(state, {"type": "place", "square": "a5"})
    assert state["turn"]["seat"] == A and state["turn"]["actions"] == 0
    assert {c["type"] for c in legal(state)} == {"warp", "end_turn"}
    state = play(state, warp(GATE))                            # no free option is left: the turn ends
    assert state["turn"]["seat"] == B and pending_being(state, A) == GATE


def test_a_pending_being_can_be_neither_discarded_nor_returned_under_the_deck():
    state = table([], [GATE, WORM, LEGEND_1])
    state = play(state, warp(GATE))
    discards = [c for c in legal(state) if c["type"] == "discard"]
    assert discards and all(c["card"] != GATE and GATE not in c["returns"] for c in discards)
    assert refused(state, {"type": "discard", "card": GATE}) == "pending_being"
    assert refused(state, {"type": "discard", "card": WORM, "returns": [GATE]}) == "pending_being"
    state = play(state, {"type": "discard", "card": WORM, "returns": [LEGEND_1]})
    assert pending_being(state, A) == GATE


def test_a_pending_being_still_counts_as_one_of_the_three_beings_in_hand():
    state = table([], [GATE], actions=0, decks={"0": [WORM, LESSER, DOPPELGANGER, MERCHANT]})
    state = play(state, warp(GATE))                           # the turn ends; the hand is refilled
    school = [c for c in state["hands"][A] if c.startswith("etherweave-")]
    assert school == [GATE, WORM, LESSER]


def test_views_show_every_seats_pending_being_and_it_is_no_secret():
    state = table([pc("h8", B)], [WORM, GATE])
    state = play(state, warp(WORM), SKIP)
    for seat in (A, B, None):
        assert engine.player_view(state, seat)["seats"][A]["pending_being"] == WORM
    assert WORM not in engine.views.hidden_cards(state, B) and GATE in engine.views.hidden_cards(state, B)
    events = engine.decide(table([], [WORM]), {"seat": A, **warp(WORM)})
    assert {"type": "WarpPlayed", "seat": A, "card": WORM} in [engine.redact(e, B) for e in events]


# --- the causality penalty --------------------------------------------------------------------------------

def finish_game(state: dict) -> dict:
    """Play on with place actions (ending turns when none is left) until the game is over."""
    while state["phase"] != "over":
        commands = legal(state)
        places = [c for c in commands if c["type"] == "place"]
        state = play(state, places[0] if places else next((c for c in commands if c["type"] == "end_turn"),
                                                          commands[0]))
    return state


def last_round(form: str = "duel", **extra) -> dict:
    """Seat 0 warps the Gate of Oblivion on the turn that empties every deck: the final round starts."""
    seats = 3 if form == "melee" else 2
    state = table([], [GATE], actions=0, form=form, decks={str(s): [] for s in range(seats)}, **extra)
    return play(state, warp(GATE))


def test_a_pending_being_at_the_end_costs_two_points_in_a_duel():
    state = finish_game(last_round(scores={"0": 5, "1": 5}))
    assert state["points"] == [3, 5]
    assert state["result"]["winners"] == [B] and state["result"]["standings"][1]["score"] == 3


def test_a_pending_being_at_the_end_costs_two_points_in_every_colour_in_a_melee():
    state = finish_game(last_round("melee", scores={"0": {"1": 4, "2": 3}}))
    assert state["points"][A] == [0, 2, 1]


def test_a_pending_being_at_the_end_costs_two_points_in_high_form():
    state = finish_game(last_round("high_form"))
    assert state["points"][A] == -2 and state["result"]["standings"][-1]["score"] <= -2


def test_a_pending_being_summoned_before_the_end_costs_nothing():
    state = table(GATE_PATTERN, [GATE], actions=1, decks={"0": [], "1": []})
    state = play(state, warp(GATE), summon(GATE, "e5"))
    assert state["final"] is not None and pending_being(state, A) is None
    assert finish_game(state)["points"] == [0, 0]


def test_the_threshold_trigger_counts_the_penalty_uncertain_bga_rule():
    near = table([], [WORM], actions=0, scores={"0": 19})
    state = play(near, warp(WORM), SKIP)                       # 19 - 2 < 18: no trigger
    assert state["final"] is None and state["turn"]["seat"] == B
    enough = table([], [WORM], actions=0, scores={"0": 20})
    state = play(enough, warp(WORM), SKIP)                     # 20 - 2 = 18
    assert state["final"]["reason"] == "threshold"


def test_the_trigger_penalty_is_one_named_switch(monkeypatch):
    from engine import etherweave
    monkeypatch.setattr(etherweave, "PENALTY_COUNTS_FOR_TRIGGERS", False)
    state = play(table([], [WORM], actions=0, scores={"0": 19}), warp(WORM), SKIP)
    assert state["final"]["reason"] == "threshold"


def test_etherweave_merchant_of_time_gateway_in_stasis_is_the_gateway_again_once_released():
    state = position(board=MERCHANT_PATTERN + [pc("g7", B)], schools=["etherweave", "nethervoid"],
                     hands={"0": [MERCHANT]}, gateways={"1": "g7"}, turn={"seat": A, "actions_left": 2, "number": 5})
    state = play(state, warp(MERCHANT), choose("g7"))
    assert gateway.square(state, B) is None                    # off the board: no Gateway meanwhile
    state = play(state, summon(MERCHANT, "e5"), choose("a3"))
    assert gateway.square(state, B) == "a3"


def test_etherweave_eternal_emperor_pending_from_an_earlier_turn_may_still_resolve_its_warp():
    state = table(EMPEROR_PATTERN + [pc("a5"), pc("a6")], [EMPEROR, DOPPELGANGER], actions=0)
    state = play(state, warp(EMPEROR), option("place"), choose("i5"))
    state = play(state, {"type": "place", "square": "h2"}, {"type": "place", "square": "h3"})   # seat 1's turn
    assert state["turn"]["seat"] == A and pending_being(state, A) == EMPEROR
    state = play(state, summon(DOPPELGANGER, "b5"), option("place"), choose("i6"))   # a copy: does not count
    state = play(state, summon(EMPEROR, "e5"))
    assert options(state) == {"warp"}
