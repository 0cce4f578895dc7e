from tests.engine.helpers import SKIP, at, choose, legal, play, position


def test_swordmaster_destroys_diagonal_enemy_common_and_becomes_heroic():
    # a's commons on e4 and e6 make the pattern around e5; b's common on f4 is diagonal to e5
    state = position(board=[{"square": "e4", "seat": 0, "rank": "common"},
                            {"square": "e6", "seat": 0, "rank": "common"},
                            {"square": "f4", "seat": 1, "rank": "common"}],
                     hands={"0": ["northern-swordmaster"]})
    state = play(state, {"type": "summon", "card": "northern-swordmaster", "square": "e5"})
    assert state["pending"]["kind"] == "effect"
    assert {"type": "skip"} in legal(state)
    state = play(state, choose("f4"))
    assert at(state, "f4") is None
    assert at(state, "e5") == (0, "heroic")
    assert state["turn"]["destroyed"] == [[1, 1]]


def test_swordmaster_declined_stays_common():
    state = position(board=[{"square": "e4", "seat": 0, "rank": "common"},
                            {"square": "e6", "seat": 0, "rank": "common"},
                            {"square": "f4", "seat": 1, "rank": "common"}],
                     hands={"0": ["northern-swordmaster"]})
    state = play(state, {"type": "summon", "card": "northern-swordmaster", "square": "e5"}, SKIP)
    assert at(state, "f4") == (1, "common")
    assert at(state, "e5") == (0, "common")
