"""Timeouts: autoplay finishes the turn, streaks abandon a seat, the other side may claim the win."""
import pytest

import engine
from engine.narrate import describe
from engine.state import active_seat
from tests.engine.helpers import play, position


def _timeout(state, seat=None):
    seat = active_seat(state) if seat is None else seat
    return engine.replay(engine.decide(state, {"seat": seat, "type": "timeout"}), state)


def test_a_timeout_finishes_the_turn_with_legal_commands_and_is_logged():
    state = position(hands={"0": ["northern-bomb"], "1": []})
    after = _timeout(state)
    assert after["turn"]["seat"] == 1
    events = engine.decide(state, {"seat": 0, "type": "timeout"})
    assert [e["type"] for e in events][:2] == ["CommandAccepted", "TurnTimedOut"]
    assert any(e["type"] == "CommandAccepted" and e.get("auto") for e in events)
    assert describe(events[1], {0: "Ann"}) == "Ann ran out of time; the turn is played automatically."


def test_only_the_seat_the_game_waits_for_can_time_out():
    with pytest.raises(engine.RuleError) as err:
        engine.decide(position(), {"seat": 1, "type": "timeout"})
    assert err.value.code == "not_timed_out"


def test_a_timeout_answers_a_pending_decision_too():
    board = [{"square": "e4", "seat": 0, "rank": "common"}, {"square": "e6", "seat": 0, "rank": "common"},
             {"square": "f4", "seat": 1, "rank": "common"}]
    state = play(position(board=board, hands={"0": ["northern-swordmaster"]}),
                 {"type": "summon", "card": "northern-swordmaster", "square": "e5"})
    assert state["pending"]
    after = _timeout(state)
    assert after["pending"] is None and after["turn"]["seat"] == 1


def test_consecutive_timeouts_abandon_a_seat_which_is_then_played_automatically():
    state = engine.replay(engine.new_game({"form": "duel", "seed": "z", "zombie_after": 2,
                                           "seats": [{"school": "northern"}, {"school": "sylvan"}]}))
    state = play(state, {"type": "choose", "square": "c5"})          # seat 1 places the start pieces
    state = _timeout(state)                                          # seat 0, first timeout
    state = _timeout(state)                                          # seat 1 (its streak: 1)
    state = _timeout(state)                                          # seat 0, second in a row: abandoned
    assert state["zombies"] == [0] and state["timeouts"][0] == 2
    assert active_seat(state) == 1
    state = play(state, {"type": "place", "square": "a5"}, {"type": "place", "square": "b5"})
    assert active_seat(state) == 1                                   # seat 0 was played at once
    assert {"type": "claim_win", "seat": 1} in engine.legal_commands(state, 1)
    won = play(state, {"type": "claim_win"})
    assert won["phase"] == "over" and won["result"]["winners"] == [1] and won["result"]["reason"] == "abandonment"


def test_playing_for_yourself_ends_a_streak():
    state = engine.replay(engine.new_game({"form": "duel", "seed": "z", "seats": [{"school": "northern"},
                                                                                   {"school": "sylvan"}]}))
    state = play(state, {"type": "choose", "square": "c5"})
    state = _timeout(state)
    state = play(state, {"type": "place", "square": "a5"}, {"type": "place", "square": "b5"})
    assert state["timeouts"] == [1, 0]
    state = play(state, {"type": "place", "square": "c4"})
    assert state["timeouts"] == [0, 0]


def test_claiming_the_win_needs_an_abandoned_opponent():
    with pytest.raises(engine.RuleError) as err:
        engine.decide(position(), {"seat": 0, "type": "claim_win"})
    assert err.value.code == "no_abandoned_opponent"
