"""Undo and redo within a turn (RULES.md 15.6): random games with undos interleaved, and the
cases a player meets (a summon with its effect taken back, the shortage pick-up cancelled)."""
from __future__ import annotations

import random

import pytest

import engine
from engine.checkpoints import META_KEYS
from engine.state import active_seat
from tests.engine.helpers import play, position as make_position

HIDDEN_OR_FOREIGN = {"DeckShuffled", "CardsDrawn", "SchoolDrawn", "TasksDealt", "TurnStarted", "TurnEnded",
                     "GameEnded", "TurnTimedOut", "LegendsPassed"}


def bare(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in META_KEYS}


def crossed(events: list[dict], since: int, seat: int) -> list[str]:
    """What lies between version `since` and now that undo must not cross."""
    out = []
    for e in events[since:]:
        if e["type"] in HIDDEN_OR_FOREIGN:
            out.append(e["type"])
        elif e["type"] == "CommandAccepted" and (e["seat"] != seat or e.get("auto")):
            out.append(f"command of seat {e['seat']}")
    return out


def redecide(events: list[dict]) -> None:
    """Every move decided again gives exactly its recorded events (what events/verify does)."""
    starts = [i for i, e in enumerate(events) if e["type"] == "CommandAccepted" and not e.get("auto")]
    state = engine.replay(events[:starts[0]])
    for begin, end in zip(starts, starts[1:] + [len(events)]):
        accepted = events[begin]
        assert engine.decide(state, {"seat": accepted["seat"], **accepted["command"]}) == events[begin:end]
        state = engine.replay(events[begin:end], state)


def pick(rng: random.Random, commands: list[dict]) -> dict:
    steps = [c for c in commands if c["type"] in ("undo", "redo")]
    if steps and rng.random() < 0.35:
        return rng.choice(steps)
    others = [c for c in commands if c["type"] not in ("undo", "redo", "resign")]
    kinds = sorted({c["type"] for c in others})
    kind = rng.choice(kinds)
    return rng.choice([c for c in others if c["type"] == kind])


@pytest.mark.parametrize("form,schools,seed", [
    ("duel", ["northern", "sylvan"], "u1"),
    ("high_form", ["highland", "southern"], "u2"),
    ("melee", ["northern", "sylvan", "highland"], "u3"),
    ("duel", ["everfrost", "nethervoid"], "u4"),
])
def test_random_games_with_undos_replay_redecide_and_never_cross_a_draw_or_another_seat(form, schools, seed):
    rng = random.Random(seed)
    events = engine.new_game({"form": form, "seats": [{"school": s} for s in schools], "seed": seed})
    state = engine.replay(events)
    undos = redos = 0
    for _ in range(260):
        if state["phase"] == "over":
            break
        seat = active_seat(state)
        commands = engine.legal_commands(state, seat)
        for other in range(len(state["seats"])):
            if other != seat:
                assert not [c for c in engine.legal_commands(state, other) if c["type"] in ("undo", "redo")]
        for c in commands:
            if c["type"] == "undo":
                assert crossed(events, c["to_version"], seat) == [], c
        command = pick(rng, commands)
        new = engine.decide(state, command)
        events.extend(new)
        state = engine.replay(new, state)
        assert state["phase"] == "over" or state["version"] == len(events)
        if command["type"] in ("undo", "redo"):
            undos += command["type"] == "undo"
            redos += command["type"] == "redo"
            then = engine.replay(events[:command["to_version"]])
            assert bare(state) == bare(then), "the fold gives the position that stood at that version"
    assert undos >= 5 and redos >= 2
    assert engine.replay(events) == state
    redecide(events)


def piece(square: str, seat: int = 0, rank: str = "common") -> dict:
    return {"square": square, "seat": seat, "rank": rank}


ASSASSIN_POSITION = [piece("d2"), piece("c3"), piece("b4"), piece("h4"), piece("g3"), piece("f2"),
                     piece("d4", 1), piece("f4", 1, "heroic")]


def test_undo_of_a_summon_with_an_effect_puts_back_board_hand_and_actions():
    before = make_position(board=ASSASSIN_POSITION, hands={"0": ["northern-assassin"]})
    state = play(before, {"type": "summon", "card": "northern-assassin", "square": "e5"})
    assert state["pending"]["kind"] == "orientation"
    state = play(state, [c for c in engine.legal_commands(state, 0) if c["type"] == "choose"][0])
    assert "e5" in state["board"] and len([sq for sq in ("d4", "f4") if sq in state["board"]]) == 1
    undo = [c for c in engine.legal_commands(state, 0) if c["type"] == "undo"]
    assert len(undo) == 2 and undo[-1]["to_version"] == before["version"] < undo[0]["to_version"]
    state = play(state, {"type": "undo", "to_version": before["version"]})
    assert bare(state) == bare(before)
    assert state["hands"][0] == ["northern-assassin"] and state["turn"]["actions"] == 2
    redo = [c["to_version"] for c in engine.legal_commands(state, 0) if c["type"] == "redo"]
    assert len(redo) == 2
    state = play(state, {"type": "redo", "to_version": redo[-1]})
    assert "e5" in state["board"] and state["undo"]["at"] is None


def test_the_shortage_pick_up_can_be_cancelled_back_to_before_the_action():
    before = make_position(board=[piece("a5"), piece("b5", rank="heroic"), piece("d5", 1)],
                           supply={"0": {"non_legendary": 0}})
    state = play(before, {"type": "place", "square": "e5"})
    assert state["pending"]["kind"] == "place_pickup"
    state = play(state, {"type": "undo"})
    assert bare(state) == bare(before) and not state["pending"]


def test_no_undo_at_the_start_of_a_turn_or_for_a_seat_not_on_turn():
    state = make_position("")
    assert not [c for c in engine.legal_commands(state, 0) if c["type"] in ("undo", "redo")]
    with pytest.raises(engine.RuleError) as refused:
        engine.decide(state, {"seat": 0, "type": "undo"})
    assert refused.value.code == "no_undo"
    state = play(state, {"type": "place", "square": "e5"})
    assert {c["type"] for c in engine.legal_commands(state, 0)} >= {"undo"}
    assert not [c for c in engine.legal_commands(state, 1) if c["type"] == "undo"]
    with pytest.raises(engine.RuleError):
        engine.decide(state, {"seat": 1, "type": "undo"})
    with pytest.raises(engine.RuleError) as wrong:
        engine.decide(state, {"seat": 0, "type": "undo", "to_version": state["version"]})
    assert wrong.value.code == "no_undo"


def test_a_new_decision_after_an_undo_drops_the_redo_branch():
    state = make_position("")
    state = play(state, {"type": "place", "square": "e5"})
    state = play(state, {"type": "undo"})
    assert "e5" not in state["board"]
    assert [c["type"] for c in engine.legal_commands(state, 0) if c["type"] in ("undo", "redo")] == ["redo"]
    state = play(state, {"type": "redo"})
    assert "e5" in state["board"]
    state = play(state, {"type": "undo"}, {"type": "place", "square": "d4"})
    assert not [c for c in engine.legal_commands(state, 0) if c["type"] == "redo"]
    assert "d4" in state["board"] and "e5" not in state["board"]


def test_the_end_of_the_turn_cannot_be_undone():
    state = make_position("", actions=1)
    state = play(state, {"type": "place", "square": "e5"})
    assert state["turn"]["seat"] == 1
    assert not [c for c in engine.legal_commands(state, 0) + engine.legal_commands(state, 1)
                if c["type"] in ("undo", "redo")]


def test_replay_in_one_go_equals_the_fold_event_by_event_at_every_cut():
    """`replay` skips the checkpoints of turns a later barrier closes; the state must not show it:
    whole logs, prefixes and logs resumed from any cut all equal the plain event-by-event fold."""
    rng = random.Random("cuts")
    events = engine.new_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": "cuts"})
    state = engine.replay(events)
    while state["phase"] != "over" and len(events) < 900:
        new = engine.decide(state, pick(rng, engine.legal_commands(state, active_seat(state))))
        events.extend(new)
        state = engine.replay(new, state)
    assert {"TurnStepUndone", "TurnStepRedone"} <= {e["type"] for e in events[:len(events) // 2]}
    folded: dict = {}
    for cut, event in enumerate(events, start=1):
        engine.apply(folded, event)
        if cut % 7 == 0 or event["type"] in ("TurnStepUndone", "TurnStepRedone", "TurnStarted"):
            assert engine.replay(events[:cut]) == folded, cut
            assert engine.replay(events[cut:], engine.replay(events[:cut])) == engine.replay(events), cut
    assert folded == engine.replay(events) == state
