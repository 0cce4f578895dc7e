"""School choice at game creation (engine/setup.py, engine/schools.py): a seat names its school, asks
for a random one, or drafts one in seat order; random outcomes are events, never re-rolled."""
from __future__ import annotations

import pytest

import engine
from engine import setup
from engine.cards import BASE_SCHOOLS, CARDS
from engine.state import active_seat
from tests.engine.helpers import legal, play

ALL = list(setup.SUPPORTED_SCHOOLS)


def created(form: str, asks: list[str], seed: str = "choice", **options) -> tuple[list[dict], dict]:
    events = engine.new_game({"form": form, "seats": [{"school": a} for a in asks], "seed": seed, **options})
    return events, engine.replay(events)


def schools(state: dict) -> list[str]:
    return [s["school"] for s in state["seats"]]


def pick(school: str) -> dict:
    return {"type": "choose", "school": school}


# --- random ------------------------------------------------------------------------------------------

def test_a_random_school_is_drawn_from_those_no_seat_named_and_recorded_as_an_event():
    events, state = created("duel", ["random", "northern"])
    drawn = [e for e in events if e["type"] == "SchoolDrawn"]
    assert drawn == [{"type": "SchoolDrawn", "seat": 0, "school": schools(state)[0]}]
    assert schools(state)[0] in set(ALL) - {"northern"}
    beings = state["decks"][0] + [c for c in state["hands"][0] if c in CARDS.beings and not CARDS.beings[c].is_legend]
    assert sorted(beings) == sorted(CARDS.decks[schools(state)[0]])


def test_random_seats_get_different_schools_and_the_seed_decides_which():
    seen = set()
    for seed in range(12):
        _, state = created("melee", ["random"] * 4, seed=str(seed))
        assert len(set(schools(state))) == 4 and set(schools(state)) <= set(ALL)
        seen.add(tuple(schools(state)))
        assert created("melee", ["random"] * 4, seed=str(seed))[1] == state
    assert len(seen) > 1


def test_replay_reads_the_drawn_school_and_never_rolls_again(monkeypatch):
    events, state = created("duel", ["random", "random"])
    monkeypatch.setattr(setup, "SUPPORTED_SCHOOLS", tuple(reversed(ALL)))
    assert engine.replay(events) == state
    assert created("duel", ["random", "random"])[1]["seats"] != state["seats"]   # a new game would differ


# --- draft -------------------------------------------------------------------------------------------

def test_drafting_seats_pick_in_seat_order_before_any_card_is_dealt():
    _, state = created("duel", ["draft", "draft"])
    assert state["phase"] == "setup" and state["turn"] is None and state["hands"] == [[], []]
    assert active_seat(state) == 0
    assert legal(state) == [pick(s) for s in ALL]
    with pytest.raises(engine.RuleError) as err:
        engine.decide(state, {"seat": 1, **pick("sylvan")})
    assert err.value.code == "not_your_decision"
    state = play(state, pick("sylvan"))
    assert schools(state) == ["sylvan", "draft"] and active_seat(state) == 1
    assert legal(state) == [pick(s) for s in ALL if s != "sylvan"]
    state = play(state, pick("highland"))
    assert schools(state) == ["sylvan", "highland"]
    assert all(len(h) == 6 for h in state["hands"])
    assert state["pending"]["kind"] == "start_pieces" and active_seat(state) == 1


def test_a_draft_pick_must_be_a_school_still_left():
    _, state = created("duel", ["draft", "northern"])
    assert legal(state) == [pick(s) for s in ALL if s != "northern"]
    for school in ("northern", "wizards"):
        with pytest.raises(engine.RuleError) as err:
            engine.decide(state, {"seat": 0, **pick(school)})
        assert err.value.code == "not_an_option"


def test_random_seats_draw_first_then_drafters_pick_from_what_is_left():
    _, state = created("melee", ["draft", "northern", "random"])
    drawn = schools(state)[2]
    assert drawn not in ("northern", "draft")
    assert legal(state) == [pick(s) for s in ALL if s not in ("northern", drawn)]


def test_the_last_school_left_goes_to_the_last_drafter_without_asking(monkeypatch):
    monkeypatch.setattr(setup, "SUPPORTED_SCHOOLS", BASE_SCHOOLS)          # four schools for four seats
    _, state = created("high_form", ["draft"] * 4, teams=True)
    for seat in range(3):
        assert active_seat(state) == seat
        state = play(state, pick(legal(state)[-1]["school"]))
    assert sorted(schools(state)) == sorted(BASE_SCHOOLS)
    assert state["phase"] == "play" and state["turn"]["seat"] == 0 and state["tasks"]["current"]
    assert [len(h) for h in state["hands"]] == [6, 6, 4, 4]


def test_replaying_a_drafted_game_equals_the_live_state_and_views_work_during_the_draft():
    events, state = created("high_form", ["draft", "random"])
    view = engine.player_view(state, 0)
    assert view["status"] == "setup" and view["pending"]["options"] == legal(state)
    assert "options" not in engine.player_view(state, 1)["pending"]
    new = engine.decide(state, {"seat": 0, **legal(state)[0]})
    assert engine.replay(events + new) == engine.replay(new, state)


def test_a_player_may_resign_during_the_draft():
    _, state = created("high_form", ["draft", "draft"])
    state = play(state, {"type": "resign"}, seat=1)
    assert state["phase"] == "over" and state["result"]["winners"] == [0]


def test_positions_take_named_schools_only():
    with pytest.raises(engine.RuleError) as err:
        engine.from_position({"form": "duel", "seats": [{"school": "random"}, {"school": "sylvan"}]})
    assert err.value.code == "unknown_school"


# --- bans and mutual selection (the whole table) -----------------------------------------------------

def test_each_seat_bans_a_school_in_seat_order_then_every_seat_draws_from_the_rest():
    events, state = created("melee", ["bans"] * 3)
    for seat, banned in enumerate(("everfrost", "sylvan", "northern")):
        assert active_seat(state) == seat and state["pending"]["kind"] == "ban" and state["hands"][seat] == []
        assert legal(state) == [pick(s) for s in ALL if s not in ("everfrost", "sylvan", "northern")[:seat]]
        new = engine.decide(state, {"seat": seat, **pick(banned)})
        events, state = events + new, engine.replay(new, state)
    assert [s["banned"] for s in state["seats"]] == ["everfrost", "sylvan", "northern"]
    assert len(set(schools(state))) == 3 and not set(schools(state)) & {"everfrost", "sylvan", "northern"}
    assert [e["seat"] for e in events if e["type"] == "SchoolDrawn"] == [0, 1, 2]
    assert all(state["hands"]) and state["pending"]["kind"] == "start_pieces"             # dealt: the game begins
    assert engine.replay(events) == state


def test_a_banned_school_is_never_drawn_whatever_the_seed():
    for seed in range(10):
        _, state = created("duel", ["bans"] * 2, seed=str(seed))
        state = play(state, pick(ALL[seed % 7]), pick(ALL[(seed + 3) % 7]))
        assert not set(schools(state)) & {ALL[seed % 7], ALL[(seed + 3) % 7]} and len(set(schools(state))) == 2


def test_with_mutual_selection_each_seat_chooses_the_next_seats_school_seeing_the_earlier_choices():
    events, state = created("melee", ["mutual"] * 3)
    for chooser, school in enumerate(("everfrost", "sylvan", "northern")):
        assert active_seat(state) == chooser and state["pending"]["kind"] == "mutual"
        chosen = ("everfrost", "sylvan")[:chooser]
        assert [s["school"] for s in engine.player_view(state, chooser)["seats"]][1:chooser + 1] == list(chosen)
        assert legal(state) == [pick(s) for s in ALL if s not in chosen]
        new = engine.decide(state, {"seat": chooser, **pick(school)})
        events, state = events + new, engine.replay(new, state)
    assert schools(state) == ["northern", "everfrost", "sylvan"]
    assert [s["chosen_by"] for s in engine.player_view(state, None)["seats"]] == [2, 0, 1]
    assert engine.replay(events) == state


def test_bans_and_mutual_selection_are_for_every_seat_and_bans_leave_a_school_for_each():
    for asks, code in ((["bans", "random"], "mixed_school_choice"), (["bans", "mutual"], "mixed_school_choice"),
                       (["bans"] * 4, "too_many_players_for_bans")):
        with pytest.raises(engine.RuleError) as err:
            created("melee" if len(asks) == 4 else "duel", asks)
        assert err.value.code == code
