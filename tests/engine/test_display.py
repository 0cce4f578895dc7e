"""Squares on listed commands (issue 13 point 2): what each orientation, direction and branch uses
and affects, so a client needs no geometry; decide ignores them."""
from __future__ import annotations

import engine
from engine.display import annotated_commands

from .cards.test_legends import DRAGON, DRAGON_PATTERN, start as dragon_start, summon
from .helpers import play, position


def p(square, seat=0, rank="common"):
    return {"square": square, "seat": seat, "rank": rank}


ASSASSIN = [p("d2"), p("c3"), p("b4"), p("h4"), p("g3"), p("f2"), p("d4", 1), p("f4", 1, "heroic")]


def test_a_summon_and_each_orientation_carry_their_pattern_and_marked_squares():
    state = position(board=ASSASSIN, hands={"0": ["northern-assassin"]})
    summons = [c for c in annotated_commands(state, 0) if c["type"] == "summon" and c["square"] == "e5"]
    assert summons[0]["squares"] == {"being": "e5", "pattern": ["b4", "c3", "d2", "f2", "g3", "h4"],
                                     "affects": ["d4", "f4"], "marks": [["d4", "target"], ["f4", "target"]]}
    state = play(state, {"type": "summon", "card": "northern-assassin", "square": "e5"})
    options = {c["orientation"]: c["squares"] for c in annotated_commands(state, 0) if c["type"] == "choose"}
    assert sorted(s["affects"] for s in options.values()) == [["d4"], ["f4"]]
    assert sorted(s["pattern"] for s in options.values()) == [["b4", "c3", "d2"], ["f2", "g3", "h4"]]
    chosen = next(c for c in annotated_commands(state, 0) if c.get("squares", {}).get("affects") == ["f4"])
    after = play(state, chosen)                           # accepted with the display-only field
    assert "f4" not in after["board"] and "d4" in after["board"]
    bare = {k: v for k, v in chosen.items() if k != "squares"}
    assert engine.decide(state, chosen) == engine.decide(state, bare)


def test_each_shooting_direction_carries_its_path_and_the_pieces_it_destroys():
    state = play(dragon_start(DRAGON, DRAGON_PATTERN + " c7c", "e6l e7c d6h f6c d5c"), summon(DRAGON, "e5"))
    options = {c["direction"]: c["squares"] for c in annotated_commands(state, 0) if c["type"] == "choose"}
    assert options["s"]["path"] == ["e6", "e7", "e8", "e9"]
    assert options["s"]["affects"] == ["c7", "d6", "e7", "f6"]       # the ray and its two 45-degree fans
    assert "d5" in options["w"]["affects"] and "e7" not in options["w"]["affects"]


def test_a_choice_names_the_squares_whose_piece_it_destroys_whoever_owns_it():
    own_target = [p(sq) for sq in ("d2", "c3", "b4", "h4", "g3", "f2", "d4")] + [p("f4", 1, "heroic")]
    state = play(position(board=own_target, hands={"0": ["northern-assassin"]}),
                 {"type": "summon", "card": "northern-assassin", "square": "e5"})
    options = [c["squares"] for c in annotated_commands(state, 0) if c["type"] == "choose"]
    assert sorted(s["destroys"] for s in options) == [["d4"], ["f4"]]          # Ann's own d4, or Bob's f4
    sword = position(board=[p("d4"), p("d6"), p("c4", 1), p("g5", 1)], hands={"0": ["northern-swordmaster"]})
    state = play(sword, {"type": "summon", "card": "northern-swordmaster", "square": "d5"})
    squares = {c["square"]: c["squares"] for c in annotated_commands(state, 0) if c["type"] == "choose"}
    assert squares["c4"]["destroys"] == ["c4"] and "c4" in squares["c4"]["affects"]     # a piece chosen to destroy
