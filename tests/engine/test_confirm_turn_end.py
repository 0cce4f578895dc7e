"""The per-seat option confirm_turn_end (engine/confirm.py): off by default (the turn ends by itself,
as API clients expect); on, the turn waits for the seat's end_turn with undo open, and the clock's
deadline ends it without counting a timeout."""
from __future__ import annotations

import pytest

import engine
from engine.audit import redecide
from engine.confirm import confirms
from engine.narrate import Narrator
from engine.views import player_view
from tests.engine.helpers import play, position

CONFIRM = {"type": "seat_options", "confirm_turn_end": True}


def test_off_by_default_the_last_action_ends_the_turn_at_once():
    state = play(position("", actions=1), {"type": "place", "square": "e5"})
    assert state["turn"]["seat"] == 1
    assert player_view(state, 0)["seats"][0]["confirm_turn_end"] is False


def test_on_the_turn_waits_for_end_turn_with_undo_open_and_the_option_survives_an_undo():
    state = play(position("", actions=1), CONFIRM, seat=0)
    assert player_view(state, 1)["seats"][0]["confirm_turn_end"] is True
    state = play(state, {"type": "place", "square": "e5"})
    assert state["turn"]["seat"] == 0 and state["turn"]["actions"] == 0
    kinds = {c["type"] for c in engine.legal_commands(state, 0)}
    assert {"end_turn", "undo"} <= kinds
    state = play(state, {"type": "undo"})
    assert "e5" not in state["board"] and confirms(state, 0)
    state = play(state, {"type": "place", "square": "d4"}, {"type": "end_turn"})
    assert state["turn"]["seat"] == 1


def test_another_seat_may_set_its_option_during_the_turn_without_touching_the_undo():
    state = play(position(""), {"type": "place", "square": "e5"})
    state = play(state, CONFIRM, seat=1)
    assert [c["type"] for c in engine.legal_commands(state, 0) if c["type"] == "undo"] == ["undo"]
    assert confirms(state, 1) and not confirms(state, 0)


def test_the_deadline_ends_an_unconfirmed_turn_without_a_timeout():
    state = play(position("", actions=1), CONFIRM, {"type": "place", "square": "e5"}, seat=0)
    events = engine.decide(state, {"seat": 0, "type": "timeout"})
    kinds = [e["type"] for e in events]
    assert "TurnEnded" in kinds and "TurnTimedOut" not in kinds
    assert engine.replay(events, state)["turn"]["seat"] == 1


def test_the_option_is_no_move_and_a_turn_already_waiting_keeps_waiting_when_it_is_turned_off():
    events = engine.decide(position(""), {"seat": 0, **CONFIRM})
    assert [e["type"] for e in events] == ["SeatOptionsSet"]                  # no CommandAccepted: no move
    state = play(position("", actions=1), CONFIRM, {"type": "place", "square": "e5"}, seat=0)
    assert engine.decide(state, {"seat": 0, **CONFIRM}) == []                # already on: nothing to record
    state = play(state, {"type": "seat_options", "confirm_turn_end": False}, seat=0)
    assert state["turn"]["seat"] == 0
    state = play(state, {"type": "end_turn"}, {"type": "place", "square": "a5"}, {"type": "place", "square": "b5"})
    state = play(state, {"type": "place", "square": "d4"}, {"type": "place", "square": "d6"})
    assert state["turn"]["seat"] == 1                                       # off: the next turn ended by itself


@pytest.mark.parametrize("command", [{"type": "seat_options", "confirm_turn_end": "yes"},
                                     {"type": "seat_options", "colour": True}, {"type": "seat_options"}])
def test_a_malformed_option_is_refused(command):
    with pytest.raises(engine.RuleError) as refused:
        engine.decide(position(""), {"seat": 0, **command})
    assert refused.value.code == "malformed_command"


def test_the_log_says_what_an_undo_took_back_in_words():
    before = position("", actions=2)
    state = play(before, {"type": "place", "square": "e5"}, {"type": "undo"})
    events = engine.decide(before, {"seat": 0, "type": "place", "square": "e5"})
    after = engine.replay(events, before)
    undo = engine.decide(after, {"seat": 0, "type": "undo"})
    narrator = Narrator({0: "Ann", 1: "Bob"})
    lines = [narrator.line(before["version"] + 1 + i, e) for i, e in enumerate(events + undo)]
    said = [line for line in lines if line]
    assert said[-1] == "Ann takes back a step: places on e5."
    assert "version" not in " ".join(said)
    assert "e5" not in state["board"]


def test_the_audit_decides_every_move_again_around_the_options_set_between_them():
    description = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": "audit",
                   "turn": {"seat": 0, "actions_left": 1}}
    events = engine.from_position(description)
    state = engine.replay(events)
    for seat, command in ((0, CONFIRM), (0, {"type": "place", "square": "e5"}), (0, {"type": "end_turn"}),
                          (1, CONFIRM), (1, {"type": "place", "square": "a5"})):
        new = engine.decide(state, {"seat": seat, **command})
        events, state = events + new, engine.replay(new, state)
    assert state["turn"]["seat"] == 1 and "a5" in state["board"]
    assert redecide(events, description) is None
