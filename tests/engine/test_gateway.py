"""The Nethervoid Gateway (RULES.md 13.1, the leaflet): one test per rule of the mark."""
import pytest

import engine
from engine.narrate import describe
from tests.engine.helpers import SKIP, at, choose, events_of, legal, move, play
from tests.engine.nether import A, B, gate, moves_offered, of_type, pcs, squares_offered, start, summon

SHADOW_IMP, FLAME_IMP = "nethervoid-shadow-imp", "nethervoid-flame-imp"        # common
HELL_HOUND, POWER_SEEKER = "nethervoid-hell-hound", "nethervoid-power-seeker"  # heroic
HELL_HOUND_PATTERN = "c5c d5c b6c e6c"          # for the being on e5
POWER_SEEKER_FROM_B2 = "c2c e2c d3c f3c"        # for the being on b2
POWER_SEEKER_FROM_B5 = "c5c e5c d6c f6c"        # for the being on b5
GATE_EVENTS = ("BeingSummoned", "PieceDestroyed", "PiecePickedUp", "GatewayMarked", "GatewayLost")


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in of_type(events, *GATE_EVENTS)]


def test_gateway_first_nethervoid_being_is_marked_before_its_effect_resolves():
    state = start(FLAME_IMP, "c5c d6c", "e4c")
    events = events_of(state, summon(FLAME_IMP, "e5"))
    assert kinds(events) == ["BeingSummoned", "GatewayMarked"]
    marked = of_type(events, "GatewayMarked")[0]
    assert (marked["square"], marked["reason"], marked["previous"]) == ("e5", "no_gateway", None)
    state = engine.replay(events, state)
    assert gate(state) == "e5"
    assert squares_offered(state) == {"e4", "d6"}          # commons next to the Imp, already the Gateway


def test_gateway_summoning_a_nethervoid_being_onto_the_gateway_moves_the_mark_to_it():
    state = start(SHADOW_IMP, "d4c f5c e5c", gate="e5")
    old = state["board"]["e5"][0]
    events = events_of(state, summon(SHADOW_IMP, "e5"))
    assert kinds(events) == ["PieceDestroyed", "GatewayLost", "BeingSummoned", "GatewayMarked"]
    assert of_type(events, "GatewayMarked")[0]["reason"] == "summoned_on_gateway"
    state = engine.replay(events, state)
    assert gate(state) == "e5" and state["board"]["e5"][0] != old


def test_gateway_heroic_being_takes_the_mark_from_a_common_gateway():
    state = start(HELL_HOUND, HELL_HOUND_PATTERN + " a5c", gate="a5")
    events = events_of(state, summon(HELL_HOUND, "e5"))
    marked = of_type(events, "GatewayMarked")[0]
    assert (marked["square"], marked["reason"], marked["previous"]) == ("e5", "higher_rank", "a5")
    assert gate(engine.replay(events, state)) == "e5"


def test_gateway_heroic_gateway_keeps_the_mark_when_another_heroic_being_arrives():
    state = start(HELL_HOUND, HELL_HOUND_PATTERN + " a5h", gate="a5")
    events = events_of(state, summon(HELL_HOUND, "e5"))
    assert of_type(events, "GatewayMarked", "GatewayLost") == []
    assert gate(engine.replay(events, state)) == "a5"


def test_gateway_common_gateway_keeps_the_mark_when_a_common_being_arrives_elsewhere():
    state = start(FLAME_IMP, "c5c d6c a5c", gate="a5")
    state = play(state, summon(FLAME_IMP, "e5"))
    assert gate(state) == "a5"


def test_gateway_legends_never_take_the_mark_and_an_oversummoned_gateway_is_lost():
    dragon = "legends-fire-dragon"
    state = start(dragon, "d2h f2h e3c e4h")
    state = play(state, summon(dragon, "e5"))
    assert gate(state) is None and "gateways" not in state       # no Gateway ever existed
    state = start(dragon, "d2h f2h e3c e4h e5c", gate="e5")
    events = events_of(state, summon(dragon, "e5"))
    assert of_type(events, "GatewayLost")[0]["reason"] == "destroyed"
    assert of_type(events, "GatewayMarked") == []
    assert gate(engine.replay(events, state)) is None


def test_gateway_destroyed_by_an_enemy_effect_is_lost():
    sword = "northern-swordmaster"
    state = start([], "f4c", "e4c e6c", gate="f4", seat=B, their_hand=[sword])
    state = play(state, summon(sword, "e5"))
    events = events_of(state, choose("f4"))
    lost = of_type(events, "GatewayLost")[0]
    assert (lost["square"], lost["reason"], lost["color"]) == ("f4", "destroyed", A)
    assert gate(engine.replay(events, state)) is None


def test_gateway_converted_by_an_enemy_is_lost():
    dryad = "sylvan-dryad"
    state = start([], "f5c", "d4c e5c e6c", gate="f5", seat=B, their_hand=[dryad], schools=["nethervoid", "sylvan"])
    state = play(state, summon(dryad, "e5"))
    events = events_of(state, choose("f5"))
    assert of_type(events, "GatewayLost")[0]["reason"] == "converted"
    state = engine.replay(events, state)
    assert at(state, "f5") == (B, "common") and gate(state) is None


def test_gateway_upgraded_from_common_to_heroic_keeps_the_mark():
    gluttony = "nethervoid-demon-of-gluttony"      # first Nethervoid being: it is the Gateway, then upgrades
    state = start(gluttony, "d6c e6c f6c", "e4c")
    state = play(state, summon(gluttony, "e5"))
    events = events_of(state, move("e5", "e4"))
    assert of_type(events, "PieceRankChanged")[0]["to_rank"] == "heroic"
    assert of_type(events, "GatewayLost") == []
    state = engine.replay(events, state)
    assert gate(state) == "e4" and at(state, "e4") == (A, "heroic")


def test_gateway_upgraded_to_legendary_loses_the_mark():
    master = "nethervoid-gate-master"
    state = start(master, "e4c f4c d5c f5c g5c a5h", gate="a5")
    events = events_of(state, summon(master, "e5"))
    assert of_type(events, "GatewayLost")[0]["reason"] == "became_legendary"
    state = engine.replay(events, state)
    assert at(state, "a5") == (A, "legendary")
    assert "a5" not in squares_offered(state)            # a legendary piece is never named the Gateway


def test_gateway_picked_up_for_a_summoning_is_lost_and_the_new_being_takes_the_mark():
    state = start(SHADOW_IMP, "d4c f5c a5c", gate="a5", supply={"0": {"non_legendary": 0}})
    state = play(state, summon(SHADOW_IMP, "e5"))
    assert state["pending"]["kind"] == "pickup" and "a5" in squares_offered(state)
    events = events_of(state, choose("a5"))
    assert kinds(events) == ["PiecePickedUp", "GatewayLost", "BeingSummoned", "GatewayMarked"]
    assert of_type(events, "GatewayLost")[0]["reason"] == "picked_up"
    assert gate(engine.replay(events, state)) == "e5"


def test_gateway_picked_up_for_a_place_action_is_lost():
    state = start([], "a5c", gate="a5", supply={"0": {"non_legendary": 0}})
    state = play(state, {"type": "place", "square": "e5"})
    events = events_of(state, choose("a5"))
    assert of_type(events, "GatewayLost")[0]["reason"] == "picked_up"
    state = engine.replay(events, state)
    assert at(state, "e5") == (A, "common") and gate(state) is None


def test_gateway_downgraded_from_heroic_to_common_keeps_the_mark():
    leviathan = "legends-leviathan"
    state = start([], "b3h", "c6h d6h a7h b7c", gate="b3", seat=B, their_hand=[leviathan])
    state = play(state, summon(leviathan, "e5"), {"type": "choose", "option": "downgrade group"}, choose("b3"))
    assert state["pending"] is None                        # nothing upgraded touches b3
    assert at(state, "b3") == (A, "common") and gate(state) == "b3"


def test_gateway_toward_it_means_nearer_so_a_diagonal_piece_keeps_to_its_diagonal():
    state = start(POWER_SEEKER, POWER_SEEKER_FROM_B2 + " e5h", gate="e5")
    state = play(state, summon(POWER_SEEKER, "b2"))
    assert moves_offered(state) == {("b2", "c3")}          # distance 3 -> 2: only along the diagonal
    state = play(state, move("b2", "c3"))
    assert moves_offered(state) == {("c3", "d4")}


def test_gateway_toward_it_from_its_row_offers_three_squares():
    state = start(POWER_SEEKER, POWER_SEEKER_FROM_B5 + " h5h", gate="h5")
    state = play(state, summon(POWER_SEEKER, "b5"))
    assert moves_offered(state) == {("b5", "c4"), ("b5", "c5"), ("b5", "c6")}


def test_gateway_moving_onto_it_destroys_it_and_ends_the_moves_toward_it():
    state = start(POWER_SEEKER, POWER_SEEKER_FROM_B2 + " e5h", gate="e5")
    state = play(state, summon(POWER_SEEKER, "b2"), move("b2", "c3"), move("c3", "d4"))
    events = events_of(state, move("d4", "e5"))
    assert of_type(events, "GatewayLost")[0]["reason"] == "destroyed"
    state = engine.replay(events, state)
    assert at(state, "e5") == (A, "heroic") and gate(state) is None
    assert state["pending"] is None                        # nothing left to move toward


def test_gateway_cannot_be_entered_when_the_card_forbids_it():
    lust = "nethervoid-demon-of-lust"
    state = start(lust, "e6c f6c f7c g7c a5h b5c", "c7c", gate="a5")
    state = play(state, summon(lust, "e5"))
    offered = moves_offered(state)
    assert not any(dst == "a5" for _, dst in offered)      # b5, next to the Gateway, cannot move at all
    assert {m for m in offered if m[0] in ("b5", "c7")} == {("c7", "b6")}


def test_gateway_gone_mid_effect_leaves_the_steps_that_need_it_nothing_to_act_on():
    state = start(SHADOW_IMP, "d4c f5c e6c", gate="e6")
    state = play(state, summon(SHADOW_IMP, "e5"), move("e5", "e6"))   # the Imp captures its own Gateway
    assert gate(state) is None
    assert state["pending"] is None                        # no Gateway to follow the Imp


def test_gateway_shows_in_views_and_in_the_log():
    state = start(FLAME_IMP, "c5c d6c")
    events = events_of(state, summon(FLAME_IMP, "e5"))
    state = engine.replay(events, state)
    for seat in (A, B, None):
        view = engine.player_view(state, seat)
        assert view["gateways"] == {"0": "e5"} and view["gateway"] == "e5"
    marked = of_type(events, "GatewayMarked")[0]
    assert engine.redact(marked, B) == marked
    assert describe(marked) == ("The piece on e5 becomes Seat 1's Gateway "
                                "(a Nethervoid being summoned while there was none).")
    lost = {"type": "GatewayLost", "color": 0, "piece": 3, "square": "e5", "reason": "converted"}
    assert describe(lost) == "Seat 1 loses the Gateway on e5 (converted)."
    assert engine.player_view(start(FLAME_IMP, "c5c"), A)["gateway"] is None


@pytest.mark.parametrize("gateways", [{"0": "e4"}, {"0": "c5"}, {"1": "e4"}, {"2": "c5"}, ["c5"]])
def test_gateway_of_a_position_must_be_a_non_legendary_piece_of_the_nethervoid_colour(gateways):
    desc = {"form": "duel", "seats": [{"school": "nethervoid"}, {"school": "northern"}], "seed": "g",
            "board": pcs(A, "c5l d5c") + pcs(B, "e4c"), "gateways": gateways}
    with pytest.raises(engine.RuleError) as err:
        engine.from_position(desc)
    assert err.value.code == "malformed_command"


def test_gateway_belongs_to_its_colour_in_a_melee():
    state = start(FLAME_IMP, "c5c d6c", form="melee", schools=["nethervoid", "northern", "sylvan"], actions=1)
    state = play(state, summon(FLAME_IMP, "e5"))
    assert state["gateways"] == [state["board"]["e5"][0], None, None]
    assert squares_offered(state) == {"d6"}
