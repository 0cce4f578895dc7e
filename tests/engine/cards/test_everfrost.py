"""Everfrost deck: one or more tests per card, each summoning the card on a real position; the seven
frozen cards are also kept in play, thawed and replaced (RULES.md 13.2).

Seat 0 plays Everfrost (colour 0), seat 1 Northern (colour 1). Squares: a-i = column (left to
right), 1-9 = row (top to bottom). Red squares d2 e5 h6 c8; green c3 g3 i4 a5 f8.
"""
from __future__ import annotations

import pytest

import engine
from engine import frost
from engine.narrate import describe
from engine.state import active_seat, supply
from tests.engine.helpers import SKIP, at, choose, legal, move, play, position

THAW = {"type": "thaw"}
SCHOOLS = ["everfrost", "northern"]


def own(*squares: str, rank: str = "common") -> list[dict]:
    return [{"square": sq, "seat": 0, "rank": rank} for sq in squares]


def foe(*squares: str, rank: str = "common") -> list[dict]:
    return [{"square": sq, "seat": 1, "rank": rank} for sq in squares]


def start(board: list[dict], hand: list[str] | None = None, **extra) -> dict:
    """Seat 0 (Everfrost) to act with `hand`."""
    return position(board=board, hands={"0": hand or []}, schools=extra.pop("schools", SCHOOLS), **extra)


def summon(card: str, square: str) -> dict:
    return {"type": "summon", "card": card, "square": square}


def card(choice: str) -> dict:
    return {"type": "choose", "card": choice}


def squares_asked(state: dict) -> list[str]:
    return sorted(c["square"] for c in legal(state) if c["type"] == "choose" and "square" in c)


def moves_asked(state: dict) -> list[tuple[str, str]]:
    return sorted((c["from"], c["to"]) for c in legal(state) if c["type"] == "move")


def all_accepted(state: dict) -> None:
    """Every command legal() lists is accepted by engine.decide as it is."""
    commands = legal(state)
    assert commands
    for command in commands:
        engine.decide(state, {"seat": active_seat(state), **command})


def refused(state: dict, command: dict) -> str:
    with pytest.raises(engine.RuleError) as err:
        play(state, command)
    return err.value.code


def frozen(state: dict, seat: int = 0) -> str | None:
    return frost.frozen_card(state, seat)


def assert_kept_frozen(state: dict, being: str) -> None:
    """The summoned frozen card stayed in play: neither in hand nor discarded, the effect over."""
    assert frozen(state) == being and being not in state["discards"][0] and being not in state["hands"][0]
    assert state["pending"] is None and state["effect"] is None


def assert_thawed(state: dict, being: str) -> None:
    assert frozen(state) is None and state["discards"][0][-1] == being
    assert state["pending"] is None and state["effect"] is None


def replaced(being: str, effect_answers: tuple, board: list[dict], keep: str) -> dict:
    """Summon `being` with Ice Princess frozen already, answer its effect, keep one of the two."""
    state = start(board, [being], frozen={"0": PRINCESS} if being != PRINCESS else {"0": GROWER})
    state = play(state, *effect_answers)
    old = frozen(state)
    assert state["pending"]["kind"] == frost.CHOICE
    assert sorted(c["card"] for c in legal(state)) == sorted([old, being]) and SKIP not in legal(state)
    all_accepted(state)
    state = play(state, card(keep))
    other = being if keep == old else old
    assert frozen(state) == keep and state["discards"][0][-1] == other and state["pending"] is None
    return state


# --- the frozen effect itself: thaw timing, free option, views, one per seat ------------------------------

GROWER = "everfrost-crystal-grower"
PRINCESS = "everfrost-ice-princess"
QUEEN = "everfrost-ice-queen"
FROSTWEAVE = "everfrost-frostweave-summoner"
WHISPERER = "everfrost-winter-whisperer"
WYVERN = "everfrost-ice-wyvern"
ILLUSIONIST = "everfrost-frostweave-illusionist"


def test_thaw_is_a_free_command_listed_only_with_a_frozen_card_on_your_turn():
    state = start(own("c5"), frozen={"0": PRINCESS})
    assert THAW in legal(state)
    assert THAW not in legal(start(own("c5")))
    assert refused(start(own("c5")), THAW) == "nothing_frozen"
    other = position(board=own("c5"), schools=SCHOOLS, seat=1, frozen={"0": PRINCESS})
    assert THAW not in legal(other, seat=0)
    assert refused(other, dict(THAW, seat=0)) == "not_your_turn"


def test_thaw_is_refused_in_the_middle_of_an_effect():
    state = play(start(own("e6", "d7", "f7", "c5"), [PRINCESS], frozen={"0": GROWER}), summon(PRINCESS, "e5"))
    assert state["pending"]["kind"] == "effect" and THAW not in legal(state)
    assert refused(state, THAW) == "decision_pending"


def test_a_possible_thaw_keeps_a_turn_without_actions_open_until_ended():
    state = start(own("c5"), frozen={"0": PRINCESS}, actions=0)
    assert state["turn"]["seat"] == 0 and legal(state) == [THAW, {"type": "end_turn"}]
    state = play(state, THAW, move("c5", "c4"))
    assert at(state, "c4") == (0, "common") and state["turn"]["seat"] == 1     # nothing left: the turn ends


def test_thawing_on_the_freezing_turn_follows_the_uncertain_rule(monkeypatch):
    state = play(start(own("d6", "e6") + foe("h8"), [GROWER]), summon(GROWER, "e5"))
    assert frozen(state) == GROWER and THAW in legal(state)                   # BGA: allowed at once
    monkeypatch.setattr(frost, "THAW_ON_FREEZING_TURN", False)
    assert THAW not in legal(state) and refused(state, THAW) == "thaw_closed"
    state = play(state, {"type": "place", "square": "a5"}, {"type": "place", "square": "i5"},
                 {"type": "place", "square": "i6"})
    assert state["turn"]["seat"] == 0 and THAW in legal(state)               # the owner's next turn


def test_the_frozen_card_is_public_in_every_view():
    state = start(own("c5"), frozen={"0": QUEEN})
    for seat in (0, 1, None):
        view = engine.player_view(state, seat)
        assert view["seats"][0]["frozen"] == QUEEN and view["seats"][1]["frozen"] is None


def test_frozen_events_read_as_sentences():
    state = start(own("d6", "e6") + foe("h8"), [GROWER], frozen={"0": PRINCESS})
    events = engine.decide(state, {"seat": 0, **summon(GROWER, "e5")})
    state = engine.replay(events, state)
    events = engine.decide(state, {"seat": 0, **card(GROWER)})
    lines = [describe(engine.redact(e, 1), {0: "Ann", 1: "Bob"}) for e in events]
    assert "Ann discards the frozen Ice Princess." in lines
    assert "Ann keeps Crystal Grower in play as their frozen effect." in lines


def test_a_position_refuses_a_frozen_card_that_is_not_frozen_everfrost():
    for bad in ({"0": "everfrost-snow-fox"}, {"1": PRINCESS}, {"7": PRINCESS}, {"0": ["x"]}, ["x"]):
        with pytest.raises(engine.RuleError):
            engine.from_position({"form": "duel", "seats": [{"school": s} for s in SCHOOLS], "frozen": bad})


# --- Snow Fox (common): pattern f5 g6 for e5; up to two standard moves ---------------------------------------

FOX = "everfrost-snow-fox"


def test_everfrost_snow_fox_makes_two_standard_moves():
    state = play(start(own("f5", "g6") + foe("e4"), [FOX]), summon(FOX, "e5"))
    assert state["pending"]["can_skip"] and ("e5", "e4") not in moves_asked(state)     # common: empty only
    all_accepted(state)
    state = play(state, move("e5", "d4"), move("d4", "c3"))
    assert at(state, "c3") == (0, "common") and at(state, "e5") is None and state["pending"] is None
    assert state["discards"][0] == [FOX] and frozen(state) is None


def test_everfrost_snow_fox_may_stop_after_one_move():
    state = play(start(own("f5", "g6"), [FOX]), summon(FOX, "e5"), move("e5", "e6"), SKIP)
    assert at(state, "e6") == (0, "common") and state["pending"] is None


def test_everfrost_snow_fox_boxed_in_has_nothing_to_do():
    state = start(own("f5", "g6", "f4", "f6") + foe("d4", "d5", "d6", "e4", "e6"), [FOX])
    state = play(state, summon(FOX, "e5"))
    assert state["pending"] is None and at(state, "e5") == (0, "common")


# --- Royal Reindeer (common): pattern d6 e6 f7 for e5; combat leap to distance 2, heroic if nothing died -------

REINDEER = "everfrost-royal-reindeer"


def test_everfrost_royal_reindeer_leaps_to_an_empty_square_and_turns_heroic():
    state = play(start(own("d6", "e6", "f7"), [REINDEER]), summon(REINDEER, "e5"))
    assert ("e5", "e4") not in moves_asked(state) and ("e5", "g3") in moves_asked(state)
    state = play(state, move("e5", "g3"))
    assert at(state, "g3") == (0, "heroic")


def test_everfrost_royal_reindeer_capture_prevents_the_upgrade():
    state = play(start(own("d6", "e6", "f7") + foe("c3"), [REINDEER]), summon(REINDEER, "e5"), move("e5", "c3"))
    assert at(state, "c3") == (0, "common") and state["turn"]["destroyed"] == [[1, 1]]


def test_everfrost_royal_reindeer_oversummoning_own_piece_prevents_the_upgrade_even_without_leap():
    state = play(start(own("d6", "e6", "f7", "e5"), [REINDEER]), summon(REINDEER, "e5"), SKIP)
    assert at(state, "e5") == (0, "common")
    state = play(start(own("d6", "e6", "f7"), [REINDEER]), summon(REINDEER, "e5"), SKIP)
    assert at(state, "e5") == (0, "heroic")


# --- Crystal Mirror (common): pattern e4 e6 for e5; blocks c4-d6 and f4-g6 -----------------------------------

MIRROR = "everfrost-crystal-mirror"


def test_everfrost_crystal_mirror_copies_one_heroic_from_the_chosen_side():
    board = own("e4", "e6") + foe("d5", rank="heroic") + foe("g4")
    state = play(start(board, [MIRROR]), summon(MIRROR, "e5"))
    assert state["pending"]["ask"] == "direction"                  # no orientation question first
    assert sorted(c["direction"] for c in legal(state)) == ["e", "w"]
    state = play(state, {"type": "choose", "direction": "w"})
    labels = {c["option"] for c in legal(state) if "option" in c}
    assert labels == {"mirror one heroic piece"} and SKIP in legal(state)
    state = play(state, {"type": "choose", "option": "mirror one heroic piece"})
    assert at(state, "f5") == (0, "heroic") and at(state, "d5") == (1, "heroic") and state["pending"] is None


def test_everfrost_crystal_mirror_copies_up_to_two_commons_of_any_colour_onto_empty_squares():
    board = own("e4", "e6", "c4", "d6") + foe("f6", "c5") + foe("d4", rank="legendary")
    state = play(start(board, [MIRROR]), summon(MIRROR, "e5"))
    assert state["effect"]["flags"]["mirror_side"] == "w"           # the east side has nothing to copy
    state = play(state, {"type": "choose", "option": "mirror up to two common pieces"})
    assert squares_asked(state) == ["g4", "g5"]          # f6 (mirroring d6) is taken; d4 is a legend
    state = play(state, choose("g5"), SKIP)
    assert at(state, "g5") == (0, "common") and at(state, "g4") is None and state["pending"] is None


def test_everfrost_crystal_mirror_on_its_side_reflects_across_the_row():
    board = own("d5", "f5") + foe("e3")
    state = play(start(board, [MIRROR]), summon(MIRROR, "e5"))      # only the north side can copy: no question
    assert state["effect"]["flags"]["mirror_side"] == "n" and state["pending"]["ask"] == "option"
    state = play(state, {"type": "choose", "option": "mirror up to two common pieces"})
    assert squares_asked(state) == ["e7"]
    state = play(state, choose("e7"))
    assert at(state, "e7") == (0, "common")


def test_everfrost_crystal_mirror_with_nothing_to_copy_does_nothing():
    state = play(start(own("e4", "e6"), [MIRROR]), summon(MIRROR, "e5"))
    assert state["pending"] is None and state["discards"][0] == [MIRROR]


# --- Crystal Grower (common, frozen): pattern d6 e6 for e5; upgrade an enemy common / thaw: an own common -----

def test_everfrost_crystal_grower_upgrades_an_enemy_common_then_stays_frozen():
    state = play(start(own("d6", "e6") + foe("b2", "h8") + foe("c2", rank="heroic"), [GROWER]), summon(GROWER, "e5"))
    assert squares_asked(state) == ["b2", "h8"] and SKIP not in legal(state)
    state = play(state, choose("h8"))
    assert at(state, "h8") == (1, "heroic")
    assert_kept_frozen(state, GROWER)
    assert state["frozen"][0] == {"card": GROWER, "turn": state["turn"]["number"]}


def test_everfrost_crystal_grower_thawed_upgrades_an_own_common_for_free():
    state = play(start(own("c5", "d5") + foe("h8"), frozen={"0": GROWER}), THAW)
    assert squares_asked(state) == ["c5", "d5"] and SKIP not in legal(state)
    state = play(state, choose("d5"))
    assert at(state, "d5") == (0, "heroic") and state["turn"]["actions"] == 2
    assert_thawed(state, GROWER)


def test_everfrost_crystal_grower_with_no_target_still_freezes_and_thaws():
    state = play(start(own("d6", "e6"), [GROWER]), summon(GROWER, "e5"))
    assert_kept_frozen(state, GROWER)
    state = play(start(own("c5", rank="heroic"), frozen={"0": GROWER}), THAW)
    assert at(state, "c5") == (0, "heroic")
    assert_thawed(state, GROWER)


def test_everfrost_crystal_grower_replaces_the_frozen_princess_or_yields_to_it():
    board = own("d6", "e6")
    state = replaced(GROWER, (summon(GROWER, "e5"),), board, keep=GROWER)
    assert state["discards"][0] == [PRINCESS]
    state = replaced(GROWER, (summon(GROWER, "e5"),), board, keep=PRINCESS)
    assert state["discards"][0] == [GROWER]


# --- Ice Princess (common, frozen): pattern e6 d7 f7 for e5; an own common's combat move / thaw: standard ----

def test_everfrost_ice_princess_lets_another_common_capture_then_stays_frozen():
    state = play(start(own("e6", "d7", "f7") + foe("d8"), [PRINCESS]), summon(PRINCESS, "e5"))
    assert all(src != "e5" for src, _ in moves_asked(state)) and SKIP in legal(state)
    state = play(state, move("d7", "d8"))
    assert at(state, "d8") == (0, "common") and state["turn"]["destroyed"] == [[1, 1]]
    assert_kept_frozen(state, PRINCESS)


def test_everfrost_ice_princess_thawed_makes_a_mandatory_standard_move():
    state = play(start(own("a5") + foe("a4"), frozen={"0": PRINCESS}), THAW)
    assert moves_asked(state) == [("a5", "a6"), ("a5", "b4"), ("a5", "b5"), ("a5", "b6")]
    assert SKIP not in legal(state)                                  # a common cannot take the a4 common
    state = play(state, move("a5", "b5"))
    assert at(state, "b5") == (0, "common")
    assert_thawed(state, PRINCESS)


def test_everfrost_ice_princess_thawed_without_commons_just_goes_to_the_discard():
    state = play(start(own("a5", rank="heroic"), frozen={"0": PRINCESS}), THAW)
    assert at(state, "a5") == (0, "heroic")
    assert_thawed(state, PRINCESS)


def test_everfrost_ice_princess_replaces_the_frozen_grower_or_yields_to_it():
    board = own("e6", "d7", "f7")
    replaced(PRINCESS, (summon(PRINCESS, "e5"), SKIP), board, keep=PRINCESS)
    replaced(PRINCESS, (summon(PRINCESS, "e5"), SKIP), board, keep=GROWER)


# --- Ice Queen (heroic, frozen): own e5 + e6 d7 f7; an own heroic's combat move / thaw: standard -----------------

QUEEN_BOARD = own("e5", "e6", "d7", "f7")


def test_everfrost_ice_queen_lets_another_heroic_take_a_heroic_then_stays_frozen():
    board = QUEEN_BOARD + own("h5", rank="heroic") + foe("h4", rank="heroic")
    state = play(start(board, [QUEEN]), summon(QUEEN, "e5"))
    assert all(src == "h5" for src, _ in moves_asked(state)) and ("h5", "h4") in moves_asked(state)
    state = play(state, move("h5", "h4"))
    assert at(state, "h4") == (0, "heroic") and at(state, "e5") == (0, "heroic")
    assert_kept_frozen(state, QUEEN)


def test_everfrost_ice_queen_thawed_moves_a_heroic_standard():
    board = own("c5", rank="heroic") + foe("c4") + foe("d5", rank="heroic") + own("g5", rank="legendary")
    state = play(start(board, frozen={"0": QUEEN}), THAW)
    moves = moves_asked(state)
    assert ("c5", "c4") in moves and ("c5", "d5") not in moves and all(src == "c5" for src, _ in moves)
    state = play(state, move("c5", "c4"))
    assert at(state, "c4") == (0, "heroic") and state["turn"]["destroyed"] == [[1, 1]]
    assert_thawed(state, QUEEN)


def test_everfrost_ice_queen_with_no_other_heroic_does_nothing_but_freezes():
    state = play(start(QUEEN_BOARD, [QUEEN]), summon(QUEEN, "e5"))
    assert_kept_frozen(state, QUEEN)


def test_everfrost_ice_queen_replaces_the_frozen_princess_or_yields_to_it():
    replaced(QUEEN, (summon(QUEEN, "e5"),), QUEEN_BOARD, keep=QUEEN)
    replaced(QUEEN, (summon(QUEEN, "e5"),), QUEEN_BOARD, keep=PRINCESS)


# --- Frostweave Summoner (heroic, frozen): pattern d4 e6 e7 for e5; thaw: borrow an enemy piece ------------------

def test_everfrost_frostweave_summoner_does_nothing_then_stays_frozen():
    state = play(start(own("d4", "e6", "e7"), [FROSTWEAVE]), summon(FROSTWEAVE, "e5"))
    assert_kept_frozen(state, FROSTWEAVE)
    assert state["turn"]["modifiers"] == []


def test_everfrost_frostweave_summoner_thawed_lends_an_enemy_piece_to_the_next_summoning():
    state = start(own("f5") + foe("g6"), [FOX], frozen={"0": FROSTWEAVE})
    assert refused(state, summon(FOX, "e5")) == "pattern_not_matched"
    state = play(state, THAW)
    assert_thawed(state, FROSTWEAVE)
    assert summon(FOX, "e5") in legal(state) and state["turn"]["actions"] == 2
    state = play(state, summon(FOX, "e5"), SKIP)
    assert at(state, "e5") == (0, "common") and at(state, "g6") == (1, "common") and state["turn"]["modifiers"] == []


def test_everfrost_frostweave_summoner_thawed_after_the_last_action_lapses_with_the_turn():
    state = play(start(own("f5") + foe("g6"), [FOX], frozen={"0": FROSTWEAVE}, actions=0), THAW)
    assert state["turn"]["seat"] == 1 and frozen(state) is None


def test_everfrost_frostweave_summoner_replaces_the_frozen_princess_or_yields_to_it():
    board = own("d4", "e6", "e7")
    replaced(FROSTWEAVE, (summon(FROSTWEAVE, "e5"),), board, keep=FROSTWEAVE)
    replaced(FROSTWEAVE, (summon(FROSTWEAVE, "e5"),), board, keep=PRINCESS)


# --- Winter Whisperer (heroic, frozen): pattern d6 e6 f6 g6 for e5; thaw: sacrifice + flare = an action ----------

def test_everfrost_winter_whisperer_does_nothing_then_stays_frozen():
    state = play(start(own("d6", "e6", "f6", "g6"), [WHISPERER]), summon(WHISPERER, "e5"))
    assert_kept_frozen(state, WHISPERER)


def test_everfrost_winter_whisperer_thawed_sacrifice_and_flare_gain_an_action():
    state = play(start(own("c5", "d5") + own("g5", rank="heroic"), ["flares-00"], frozen={"0": WHISPERER}), THAW)
    assert squares_asked(state) == ["c5", "d5"] and SKIP in legal(state)
    state = play(state, choose("c5"))
    assert legal(state) == [card("flares-00"), SKIP]
    state = play(state, card("flares-00"))
    assert at(state, "c5") is None and state["turn"]["destroyed"] == [] and state["turn"]["actions"] == 3
    assert state["flares"]["discard"] == ["flares-00"] and "flares-00" not in state["hands"][0]
    assert_thawed(state, WHISPERER)


def test_everfrost_winter_whisperer_thawed_one_part_alone_gains_nothing():
    state = play(start(own("c5"), ["flares-00"], frozen={"0": WHISPERER}), THAW, SKIP, card("flares-00"))
    assert at(state, "c5") == (0, "common") and state["turn"]["actions"] == 2
    state = play(start(own("c5"), frozen={"0": WHISPERER}), THAW, choose("c5"))     # no flare to throw away
    assert at(state, "c5") is None and state["turn"]["actions"] == 2
    assert_thawed(state, WHISPERER)


def test_everfrost_winter_whisperer_replaces_the_frozen_princess_or_yields_to_it():
    board = own("d6", "e6", "f6", "g6")
    replaced(WHISPERER, (summon(WHISPERER, "e5"),), board, keep=WHISPERER)
    replaced(WHISPERER, (summon(WHISPERER, "e5"),), board, keep=PRINCESS)


# --- Frozen Chest (heroic): own e5 + d5 f5; a frozen card of the discard pile into play ---------------------------

CHEST = "everfrost-frozen-chest"
CHEST_BOARD = own("d5", "e5", "f5")


def test_everfrost_frozen_chest_revives_a_frozen_card_from_the_discard_pile():
    state = play(start(CHEST_BOARD, [CHEST], discards={"0": [FOX, QUEEN, GROWER]}), summon(CHEST, "e5"))
    assert legal(state) == [card(GROWER), card(QUEEN), SKIP]
    state = play(state, card(QUEEN))
    assert frozen(state) == QUEEN and state["discards"][0] == [FOX, GROWER, CHEST]
    assert THAW in legal(state)


def test_everfrost_frozen_chest_discards_the_frozen_card_in_play_without_asking():
    state = start(CHEST_BOARD, [CHEST], discards={"0": [QUEEN]}, frozen={"0": PRINCESS})
    state = play(state, summon(CHEST, "e5"), card(QUEEN))
    assert frozen(state) == QUEEN and state["pending"] is None
    assert state["discards"][0] == [PRINCESS, CHEST]


def test_everfrost_frozen_chest_with_no_frozen_card_in_the_discard_does_nothing():
    state = play(start(CHEST_BOARD, [CHEST], discards={"0": [FOX]}, frozen={"0": PRINCESS}), summon(CHEST, "e5"))
    assert frozen(state) == PRINCESS and state["discards"][0] == [FOX, CHEST] and state["pending"] is None


# --- Everfrost Sentinel (heroic): pattern e6 e7 f7 f8 for e5; oversummon an enemy: step down, they lose an action -

SENTINEL = "everfrost-everfrost-sentinel"
SENTINEL_BOARD = own("e6", "e7", "f7", "f8")


def test_everfrost_everfrost_sentinel_steps_down_and_the_opponent_loses_an_action():
    state = play(start(SENTINEL_BOARD + foe("e5"), [SENTINEL]), summon(SENTINEL, "e5"))
    assert squares_asked(state) == ["e5"] and SKIP in legal(state)
    state = play(state, choose("e5"))
    assert at(state, "e5") == (0, "common") and state["turn"]["seat"] == 0
    state = play(state, {"type": "place", "square": "a5"})
    assert state["turn"]["seat"] == 1 and state["turn"]["actions"] == 1
    state = play(state, {"type": "place", "square": "i5"})
    assert state["turn"]["seat"] == 0 and state["turn"]["actions"] == 2           # only one turn is shortened


def test_everfrost_everfrost_sentinel_may_stay_heroic():
    state = play(start(SENTINEL_BOARD + foe("e5"), [SENTINEL], actions=1), summon(SENTINEL, "e5"), SKIP)
    assert at(state, "e5") == (0, "heroic") and state["turn"]["seat"] == 1 and state["turn"]["actions"] == 2


def test_everfrost_everfrost_sentinel_needs_an_enemy_under_it():
    for board in (SENTINEL_BOARD, SENTINEL_BOARD + own("e5")):
        state = play(start(board, [SENTINEL]), summon(SENTINEL, "e5"))
        assert state["pending"] is None and at(state, "e5") == (0, "heroic")


def test_everfrost_everfrost_sentinel_in_a_melee_costs_every_opponent_an_action():
    schools = ["everfrost", "northern", "sylvan"]
    state = play(start(SENTINEL_BOARD + foe("e5"), [SENTINEL], form="melee", schools=schools, actions=1),
                 summon(SENTINEL, "e5"), choose("e5"))
    assert state["turn"]["seat"] == 1 and state["turn"]["actions"] == 1
    state = play(state, {"type": "place", "square": "a5"})
    assert state["turn"]["seat"] == 2 and state["turn"]["actions"] == 1


# --- Glacier Giant (heroic): pattern e4 d5 e5 f5 for e3; arrows d4 and f4; charge, then push a legend ------------

GIANT = "everfrost-glacier-giant"
GIANT_BOARD = own("e4", "d5", "e5", "f5")


def test_everfrost_glacier_giant_charges_along_an_arrow_and_crushes_a_legend_with_itself():
    board = GIANT_BOARD + foe("g5") + foe("h6", rank="legendary")
    state = play(start(board, [GIANT]), summon(GIANT, "e3"))
    assert moves_asked(state) == [("e3", "d4"), ("e3", "f4")]
    state = play(state, move("e3", "f4"))
    assert moves_asked(state) == [("f4", "g5")] and SKIP in legal(state)
    state = play(state, move("f4", "g5"))
    assert moves_asked(state) == [] and squares_asked(state) == ["h6"]      # a legend blocks the charge
    state = play(state, choose("h6"))
    assert at(state, "h6") is None and at(state, "g5") is None
    assert sorted(state["turn"]["destroyed"]) == [[1, 1], [1, 3]]


def test_everfrost_glacier_giant_may_stop_and_spare_the_legend():
    board = GIANT_BOARD + foe("g5", rank="legendary")
    state = play(start(board, [GIANT]), summon(GIANT, "e3"), move("e3", "f4"))
    assert squares_asked(state) == ["g5"] and SKIP in legal(state)
    state = play(state, SKIP)
    assert at(state, "f4") == (0, "heroic") and at(state, "g5") == (1, "legendary")


def test_everfrost_glacier_giant_that_does_not_move_cannot_push():
    board = GIANT_BOARD + foe("f4", rank="legendary")
    state = play(start(board, [GIANT]), summon(GIANT, "e3"))
    assert moves_asked(state) == [("e3", "d4")]
    state = play(state, SKIP)
    assert state["pending"] is None and at(state, "f4") == (1, "legendary")


# --- Polar Bear (heroic): pattern f5 g5 f6 h6 for e5; combat, then standard after a capture, then empty-only -----

BEAR = "everfrost-polar-bear"
BEAR_BOARD = own("f5", "g5", "f6", "h6")


def test_everfrost_polar_bear_two_captures_earn_a_last_move_to_an_empty_square():
    board = BEAR_BOARD + foe("e4", rank="heroic") + foe("e3") + foe("d2")
    state = play(start(board, [BEAR]), summon(BEAR, "e5"), move("e5", "e4"))
    assert ("e4", "e3") in moves_asked(state)                         # standard: a common can be taken
    state = play(state, move("e4", "e3"))
    assert ("e3", "d2") not in moves_asked(state) and ("e3", "f2") in moves_asked(state)
    state = play(state, move("e3", "f2"))
    assert at(state, "f2") == (0, "heroic") and len(state["turn"]["destroyed"]) == 2


def test_everfrost_polar_bear_without_a_capture_stops_after_one_move():
    state = play(start(BEAR_BOARD, [BEAR]), summon(BEAR, "e5"), move("e5", "e4"))
    assert state["pending"] is None and at(state, "e4") == (0, "heroic")


def test_everfrost_polar_bear_standard_move_cannot_take_a_heroic():
    board = BEAR_BOARD + foe("e4") + foe("e3", rank="heroic")
    state = play(start(board, [BEAR]), summon(BEAR, "e5"), move("e5", "e4"))
    assert ("e4", "e3") not in moves_asked(state) and state["pending"]["can_skip"]


# --- War Sled (heroic): pattern c5 c6 d6 e6 for e5; arrows f4 f5 f6; three combat moves, 45-degree turns --------

SLED = "everfrost-war-sled"
SLED_BOARD = own("c5", "c6", "d6", "e6")


def test_everfrost_war_sled_turns_at_most_45_degrees_per_move():
    board = SLED_BOARD + foe("g4", rank="heroic")
    state = play(start(board, [SLED]), summon(SLED, "e5"))
    assert moves_asked(state) == [("e5", "f4"), ("e5", "f5"), ("e5", "f6")]
    state = play(state, move("e5", "f5"))
    assert moves_asked(state) == [("f5", "g4"), ("f5", "g5"), ("f5", "g6")]
    state = play(state, move("f5", "g4"))
    assert moves_asked(state) == [("g4", "g3"), ("g4", "h3"), ("g4", "h4")]
    state = play(state, move("g4", "h4"))
    assert at(state, "h4") == (0, "heroic") and state["turn"]["destroyed"] == [[1, 2]] and state["pending"] is None


def test_everfrost_war_sled_may_stop_early_and_is_blocked_by_a_legend():
    board = SLED_BOARD + foe("f5", "f6", rank="legendary")
    state = play(start(board, [SLED]), summon(SLED, "e5"))
    assert moves_asked(state) == [("e5", "f4")]
    state = play(state, move("e5", "f4"), SKIP)
    assert at(state, "f4") == (0, "heroic") and state["pending"] is None


# --- Snow Monster (heroic): own e5 + f5 d6 g6; enemy commons within 2 that touch one of yours -----------------

MONSTER = "everfrost-snow-monster"


def test_everfrost_snow_monster_destroys_enemy_commons_near_it_touching_your_pieces():
    board = own("e5", "f5", "d6", "g6", "b3") + foe("d4", "c3", "h7", "c7") + foe("e4", rank="heroic")
    state = play(start(board, [MONSTER]), summon(MONSTER, "e5"))
    # d4 touches e5; c3 (distance 2) touches b3; c7 touches d6; h7 touches g6 but is 3 away
    assert at(state, "d4") is None and at(state, "c3") is None and at(state, "c7") is None
    assert at(state, "h7") == (1, "common") and at(state, "e4") == (1, "heroic")
    assert state["turn"]["destroyed"] == [[1, 1]] * 3 and state["pending"] is None


def test_everfrost_snow_monster_with_no_enemy_near_destroys_nothing():
    state = play(start(own("e5", "f5", "d6", "g6") + foe("a5"), [MONSTER]), summon(MONSTER, "e5"))
    assert at(state, "a5") == (1, "common") and state["turn"]["destroyed"] == []


# --- Frost Imp (heroic): pattern d5 e6 f7 for e5; a common beside it slides in a line until blocked -------------

IMP = "everfrost-frost-imp"
IMP_BOARD = own("d5", "e6", "f7")


def test_everfrost_frost_imp_slides_an_enemy_common_until_blocked():
    board = IMP_BOARD + foe("f4") + foe("e4", rank="heroic") + own("i4")
    state = play(start(board, [IMP]), summon(IMP, "e5"))
    movers = {src for src, _ in moves_asked(state)}
    assert movers == {"d5", "e6", "f4"} and SKIP in legal(state)    # commons beside the Imp, any colour
    state = play(state, move("f4", "g4"))                          # the rest of the slide is compulsory
    assert at(state, "h4") == (1, "common") and at(state, "g4") is None and state["pending"] is None  # i4 stops it


def test_everfrost_frost_imp_slide_runs_to_the_board_edge():
    state = play(start(IMP_BOARD, [IMP]), summon(IMP, "e5"), move("d5", "c5"))
    assert at(state, "a5") == (0, "common") and at(state, "d5") is None and state["pending"] is None


def test_everfrost_frost_imp_with_no_common_beside_it_does_nothing():
    board = own("d5", "e6", "f7", rank="heroic")
    state = play(start(board, [IMP]), summon(IMP, "e5"))
    assert state["pending"] is None


# --- Ice Wyvern (heroic, frozen): pattern f5 e6 f7 g7 for e5; combat leap, dies if it kills / thaw: place --------

WYVERN_BOARD = own("f5", "e6", "f7", "g7")


def test_everfrost_ice_wyvern_killing_leap_destroys_it_yet_the_card_stays_frozen():
    state = play(start(WYVERN_BOARD + foe("b2", rank="heroic"), [WYVERN]), summon(WYVERN, "e5"))
    assert ("e5", "b2") in moves_asked(state) and SKIP in legal(state)
    state = play(state, move("e5", "b2"))
    assert at(state, "b2") is None and at(state, "e5") is None and state["turn"]["destroyed"] == [[1, 2]]
    assert_kept_frozen(state, WYVERN)


def test_everfrost_ice_wyvern_leap_to_an_empty_square_survives():
    state = play(start(WYVERN_BOARD, [WYVERN]), summon(WYVERN, "e5"), move("e5", "a5"))
    assert at(state, "a5") == (0, "heroic")


def test_everfrost_ice_wyvern_thawed_places_a_common_beside_an_own_heroic():
    board = own("b5", rank="heroic") + own("h5", rank="legendary") + foe("a5", "c5", "b4", "b6", "a4", "c6")
    state = play(start(board, frozen={"0": WYVERN}), THAW)
    assert squares_asked(state) == ["a6", "c4"] and SKIP not in legal(state)
    state = play(state, choose("c4"))
    assert at(state, "c4") == (0, "common")
    assert_thawed(state, WYVERN)


def test_everfrost_ice_wyvern_thawed_with_an_empty_supply_places_nothing():
    state = play(start(own("b5", rank="heroic"), frozen={"0": WYVERN}, supply={"0": {"non_legendary": 0}}), THAW)
    assert len(state["board"]) == 1
    assert_thawed(state, WYVERN)


def test_everfrost_ice_wyvern_replaces_the_frozen_princess_or_yields_to_it():
    replaced(WYVERN, (summon(WYVERN, "e5"), SKIP), WYVERN_BOARD, keep=WYVERN)
    replaced(WYVERN, (summon(WYVERN, "e5"), SKIP), WYVERN_BOARD, keep=PRINCESS)


# --- Deathbringer (heroic): pattern d5 c7 d7 e7 for e5; an adjacent victim counts twice and leaves the game ------

DEATH = "everfrost-deathbringer"
DEATH_BOARD = own("d5", "c7", "d7", "e7")


def test_everfrost_deathbringer_kill_counts_twice_and_leaves_the_game():
    board = DEATH_BOARD + foe("e4", rank="heroic") + foe("f6") + foe("f4", rank="legendary")
    state = start(board, [DEATH])
    before = supply(state, 1)
    state = play(state, summon(DEATH, "e5"))
    # e4 heroic touches d5 (another of yours); f6 common always; f4 legend has no other own piece beside it
    assert squares_asked(state) == ["d5", "e4", "f6"] and SKIP in legal(state)
    state = play(state, choose("e4"))
    assert at(state, "e4") is None and state["turn"]["destroyed"] == [[1, 2], [1, 2]]
    assert state["removed"][1] == [1, 0] and supply(state, 1) == before
    state = play(state, {"type": "place", "square": "a5"})
    assert state["points"][0] == 2


def test_everfrost_deathbringer_legend_needs_three_of_your_other_pieces_beside_it():
    board = DEATH_BOARD + foe("f4", rank="legendary") + own("f3", "g4", "g5")
    state = play(start(board, [DEATH]), summon(DEATH, "e5"))
    assert "f4" in squares_asked(state)
    state = play(state, choose("f4"))
    assert state["removed"][1] == [0, 1] and state["turn"]["destroyed"] == [[1, 3], [1, 3]]


def test_everfrost_deathbringer_own_victim_is_removed_but_scores_nothing():
    state = play(start(DEATH_BOARD, [DEATH]), summon(DEATH, "e5"), choose("d5"))
    assert at(state, "d5") is None and state["removed"][0] == [1, 0] and state["turn"]["destroyed"] == []


def test_everfrost_deathbringer_may_spare_everyone():
    state = play(start(DEATH_BOARD + foe("f6"), [DEATH]), summon(DEATH, "e5"), SKIP)
    assert at(state, "f6") == (1, "common") and state["removed"] == [[0, 0], [0, 0]]


# --- Frostweave Illusionist (heroic, frozen): pattern d5 f5 e7 for e5; turns into an enemy common / thaw: convert -

ILLUSION_BOARD = own("d5", "f5", "e7")


def test_everfrost_frostweave_illusionist_becomes_an_enemy_common_then_stays_frozen():
    state = play(start(ILLUSION_BOARD + foe("e5"), [ILLUSIONIST]), summon(ILLUSIONIST, "e5"))
    assert at(state, "e5") == (1, "common")
    assert state["turn"]["destroyed"] == [[1, 1]]                     # only the oversummoned enemy counts
    assert_kept_frozen(state, ILLUSIONIST)


def test_everfrost_frostweave_illusionist_stays_yours_when_no_enemy_common_is_in_supply():
    state = play(start(ILLUSION_BOARD, [ILLUSIONIST], supply={"1": {"non_legendary": 0}}), summon(ILLUSIONIST, "e5"))
    assert at(state, "e5") == (0, "heroic")
    assert_kept_frozen(state, ILLUSIONIST)


def test_everfrost_frostweave_illusionist_in_a_melee_chooses_the_enemy_colour():
    schools = ["everfrost", "northern", "sylvan"]
    state = play(start(ILLUSION_BOARD, [ILLUSIONIST], form="melee", schools=schools), summon(ILLUSIONIST, "e5"))
    assert legal(state) == [{"type": "choose", "color": 1}, {"type": "choose", "color": 2}]
    state = play(state, {"type": "choose", "color": 2})
    assert at(state, "e5") == (2, "common") and state["turn"]["destroyed"] == []


def test_everfrost_frostweave_illusionist_thawed_converts_an_enemy_common():
    board = foe("b2", "h8") + foe("c2", rank="heroic")
    state = play(start(board, frozen={"0": ILLUSIONIST}), THAW)
    assert squares_asked(state) == ["b2", "h8"] and SKIP not in legal(state)
    state = play(state, choose("b2"))
    assert at(state, "b2") == (0, "common") and state["turn"]["destroyed"] == [[1, 1]]
    assert_thawed(state, ILLUSIONIST)


def test_everfrost_frostweave_illusionist_replaces_the_frozen_princess_or_yields_to_it():
    replaced(ILLUSIONIST, (summon(ILLUSIONIST, "e5"),), ILLUSION_BOARD, keep=ILLUSIONIST)
    replaced(ILLUSIONIST, (summon(ILLUSIONIST, "e5"),), ILLUSION_BOARD, keep=PRINCESS)
