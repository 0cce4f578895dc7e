"""End-of-game statistics and the explained result: a pure fold over events (issue 13 point 3)."""
from __future__ import annotations

import engine
from engine.state import active_seat
from engine.stats import explain_result, game_stats


MELEE_TIE = {"form": "melee", "seats": [{"school": "northern"}, {"school": "sylvan"}, {"school": "highland"}],
             "seed": "t", "board": "5/7/9/9/9/9/9/7/5", "decks": {"0": [], "1": [], "2": []},
             "scores": {"0": {"1": 5, "2": 7}, "1": {"0": 5, "2": 6}, "2": {"0": 4, "1": 9}},
             "turn": {"seat": 0, "actions_left": 1}}


def played_out(events: list[dict]) -> tuple[list[dict], dict]:
    """Place pieces until the game ends (the empty decks trigger the end at once)."""
    state = engine.replay(events)
    while state["phase"] != "over":
        seat = active_seat(state)
        command = next(c for c in engine.legal_commands(state, seat) if c["type"] == "place")
        new = engine.decide(state, command)
        events, state = events + new, engine.replay(new, state)
    return events, state


def test_a_melee_decided_on_the_second_lowest_colour_says_so_with_each_players_colours():
    events, state = played_out(engine.from_position(MELEE_TIE))
    result = explain_result(state, game_stats(events))
    assert result["winners"] == [0] and result["target"] == 12
    assert result["tiebreak"]["tied_on"] == "lowest colour"
    assert result["tiebreak"]["decided_by"] == "second-lowest colour"
    first = result["standings"][0]
    assert first["breakdown"]["by_color"] == {"1": 5, "2": 7} and first["breakdown"]["weakest"] == 1
    stats = game_stats(events)["players"]
    assert [p["pieces_placed"] for p in stats] == [3, 2, 2]


def test_stats_count_what_each_seat_did_and_not_what_was_undone():
    pieces = [{"square": s, "seat": 0, "rank": "common"} for s in ("d2", "c3", "b4", "h4", "g3", "f2")]
    pieces += [{"square": "d4", "seat": 1, "rank": "common"}, {"square": "f4", "seat": 1, "rank": "heroic"}]
    desc = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": "s", "board": pieces,
            "hands": {"0": ["northern-assassin"]}, "turn": {"seat": 0, "actions_left": 2}}
    events = engine.from_position(desc)
    state = engine.replay(events)
    for command in ({"type": "place", "square": "a5"}, {"type": "undo"}, {"type": "place", "square": "a6"},
                    {"type": "summon", "card": "northern-assassin", "square": "e5"},
                    {"type": "choose", "orientation": 1}):
        new = engine.decide(state, {"seat": 0, **command})
        events, state = events + new, engine.replay(new, state)
    me = game_stats(events)["players"][0]
    assert me["pieces_placed"] == 1 and me["undos"] == 1
    assert me["beings_summoned"] == 1 and sum(me["destroyed"].values()) == 1
    assert explain_result(state, game_stats(events)) is None         # still playing


def test_a_resignation_has_no_tie_break_and_a_duel_breakdown_names_its_points():
    events = engine.from_position({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}],
                                   "seed": "r", "scores": {"0": 3}, "turn": {"seat": 0, "actions_left": 2}})
    state = engine.replay(events)
    new = engine.decide(state, {"seat": 1, "type": "resign"})
    events, state = events + new, engine.replay(new, state)
    result = explain_result(state, game_stats(events))
    assert result["tiebreak"] is None and result["winners"] == [0]
    assert result["standings"][0]["breakdown"]["points"] == 3
