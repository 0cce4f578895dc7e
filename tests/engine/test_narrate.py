"""The log in words names the owner and rank of every piece, keeps names as typed, and follows undo."""
from __future__ import annotations

import engine
from engine.narrate import Narrator


def test_moves_and_swaps_name_owner_and_rank_and_names_keep_their_capitals():
    events = engine.from_position({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": "n",
                                   "board": [{"square": "c2", "seat": 1, "rank": "heroic"}],
                                   "turn": {"seat": 0, "actions_left": 2}})
    events += [{"type": "PieceMoved", "from": "c2", "to": "b3", "piece": 1, "leap": False},
               {"type": "PieceDestroyed", "square": "b3", "piece": 1, "color": 1, "rank": "heroic"},
               {"type": "PieceConverted", "square": "b3", "piece": 2, "from_color": 1, "from_rank": "heroic",
                "to_color": 0, "to_rank": "common"},
               {"type": "PieceRankChanged", "square": "b3", "piece": 2, "color": 0, "from_rank": "common",
                "to_rank": "heroic", "cause": "upgrade"}]
    narrator = Narrator({0: "Ann", 1: "Bot C"})
    lines = [narrator.line(v, e) for v, e in enumerate(events, start=1)]
    assert "Bot C's heroic piece on c2 moves to b3." in lines
    assert "Bot C's heroic piece on b3 is destroyed." in lines
    assert "Bot C's heroic piece on b3 is converted to Ann's common piece." in lines
    assert "Ann's common piece on b3 is upgraded to heroic." in lines


def test_after_an_undo_the_narrator_knows_the_board_that_was_put_back():
    state_events = engine.from_position({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}],
                                         "seed": "n", "turn": {"seat": 0, "actions_left": 2}})
    state = engine.replay(state_events)
    events = list(state_events)
    for command in ({"type": "place", "square": "e5"}, {"type": "undo"}, {"type": "place", "square": "d5"}):
        new = engine.decide(state, {"seat": 0, **command})
        events, state = events + new, engine.replay(new, state)
    narrator = Narrator({0: "Ann", 1: "Bob"})
    for v, e in enumerate(events, start=1):
        narrator.line(v, e)
    assert narrator.board == {"d5": (0, "common")}
