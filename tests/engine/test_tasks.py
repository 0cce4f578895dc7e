"""Every High Form task (RULES.md 12.2): met on a real position and claimed at the end of the turn,
and a near miss that is not met. Destruction and summoning tasks read what this turn did."""
import pytest

import engine
from engine.tasks import met
from tests.engine.helpers import play, position


def p(square, seat=0, rank="common"):
    return {"square": square, "seat": seat, "rank": rank}


def hf(task, board, destroyed=(), summons=()):
    """A High Form position with `task` current, seat 0 out of actions, and this turn's record."""
    others = [t for t in ("tasks-isolation", "tasks-envelopment", "tasks-red-legends") if t != task][:2]
    state = position(form="high_form", board=board, actions=0, hands={"0": [], "1": []},
                     tasks={"current": [task] + others, "next": "tasks-diagonals" if task != "tasks-diagonals"
                            else "tasks-side-chain", "deck": []})
    state["turn"]["destroyed"] = [list(d) for d in destroyed]
    state["turn"]["summons"] = [list(s) for s in summons]
    return state


def claimed(state, task):
    assert {"type": "claim_task", "task": task} in [{k: v for k, v in c.items() if k != "seat"}
                                                    for c in engine.legal_commands(state, 0)]
    after = play(state, {"type": "claim_task", "task": task})
    return after["tasks"]["claimed"][0] == [task]


CROSS = [p(sq) for sq in ("e4", "d5", "e5", "f5", "e6")]
CENTRE9 = [p(sq, rank="heroic" if i < 2 else "common") for i, sq in enumerate(("d4", "e4", "f4", "d5", "e5"))]
ROW5 = [p(f"{c}5") for c in "abcdefg"]
LEFT_RIGHT = [p(f"{c}5") for c in "abcdefghi"]
CORNERS = [p(sq) for sq in ("b2", "c3", "d4", "e5", "f6", "g7", "h8")]
RING = [p(sq) for sq in ("d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6")]

CASES = {
    "tasks-destruction": (dict(board=[], destroyed=[[1, 1]] * 3), dict(board=[], destroyed=[[1, 1]] * 2)),
    "tasks-devastation": (dict(board=[], destroyed=[[1, 1]] * 4), dict(board=[], destroyed=[[1, 2]] * 3)),
    "tasks-heroic-destruction": (dict(board=[], destroyed=[[1, 1], [1, 1], [1, 2]]),
                                 dict(board=[], destroyed=[[1, 1]] * 3)),
    "tasks-heroic-devastation": (dict(board=[], destroyed=[[1, 1], [1, 1], [1, 2], [1, 3]]),
                                 dict(board=[], destroyed=[[1, 1], [1, 1], [1, 1], [1, 2]])),
    "tasks-end-of-legends": (dict(board=[], destroyed=[[1, 3]]), dict(board=[], destroyed=[[1, 2], [1, 1]])),
    "tasks-red-conquest": (dict(board=[p("d2", rank="heroic"), p("e5", rank="heroic"), p("h6")]),
                           dict(board=[p("d2", rank="heroic"), p("e5"), p("h6")])),
    "tasks-green-conquest": (dict(board=[p("c3", rank="heroic"), p("g3", rank="legendary"), p("a5")]),
                             dict(board=[p("c3", rank="heroic"), p("g3", rank="legendary")])),
    "tasks-color-conquest": (dict(board=[p("d2", rank="heroic"), p("e5", rank="heroic"), p("c3", rank="heroic"),
                                         p("g3"), p("a5")]),
                             dict(board=[p("d2", rank="heroic"), p("e5", rank="heroic"), p("c3"), p("g3"), p("a5")])),
    "tasks-red-legends": (dict(board=[p("d2", rank="legendary"), p("e5", rank="heroic")]),
                          dict(board=[p("d2", rank="heroic"), p("e5", rank="heroic")])),
    "tasks-green-legends": (dict(board=[p("f8", rank="legendary"), p("i4", rank="heroic")]),
                            dict(board=[p("f8", rank="legendary"), p("i4")])),
    "tasks-rainbow-dominance": (dict(board=[p("d2", rank="heroic"), p("c3", rank="heroic"), p("h6", 1)]),
                                dict(board=[p("d2", rank="heroic"), p("c3", rank="heroic"), p("g3", 1, "heroic")])),
    "tasks-red-summoning": (dict(board=[], summons=[["d2", 1], ["b5", 2]]),
                            dict(board=[], summons=[["d2", 1]])),
    "tasks-green-summoning": (dict(board=[], summons=[["f8", 2], ["b5", 2]]), dict(board=[], summons=[["b5", 2], ["d2", 1]])),
    "tasks-colored-summoning": (dict(board=[], summons=[["e5", 2], ["e5", 1]]), dict(board=[], summons=[["e5", 2], ["b5", 1]])),
    "tasks-legendary-summoning": (dict(board=[], summons=[["b5", 3], ["c5", 1]]), dict(board=[], summons=[["b5", 3]])),
    "tasks-central-dominance": (dict(board=CENTRE9), dict(board=CENTRE9[:4])),
    "tasks-center-cross": (dict(board=CROSS), dict(board=CROSS[:4] + [p("d4")])),
    "tasks-line-dominance": (dict(board=ROW5[:6]), dict(board=ROW5[:6] + [p("h5", 1)])),
    "tasks-diagonals": (dict(board=[p(sq, rank="heroic" if sq in ("b2", "h2") else "common")
                                    for sq in ("b2", "c3", "d4", "f6", "h2", "g3", "f4", "d6")]),
                        dict(board=[p(sq) for sq in ("b2", "c3", "d4", "f6", "h2", "g3", "f4", "d6")])),
    "tasks-side-chain": (dict(board=LEFT_RIGHT), dict(board=LEFT_RIGHT[:8])),
    "tasks-corner-chain": (dict(board=CORNERS), dict(board=CORNERS[:6])),
    "tasks-imprisonment": (dict(board=RING[:6] + [p("e5", 1)]), dict(board=RING[:5] + [p("e5", 1)])),
    "tasks-envelopment": (dict(board=RING[:7] + [p("e5", 1)]), dict(board=RING[:6] + [p("e5", 1)])),
    "tasks-isolation": (dict(board=RING + [p("e5", 1), p("e7", 1)]), dict(board=RING[:7] + [p("e5", 1), p("e7", 1)])),
}


def test_every_task_has_a_case():
    assert set(CASES) == set(engine.CARDS.decks["tasks"])


@pytest.mark.parametrize("task", sorted(CASES))
def test_task_is_met_and_claimed_on_a_real_position_and_a_near_miss_is_not(task):
    meeting, missing = CASES[task]
    state = hf(task, **meeting)
    assert met(state, 0, task)
    assert claimed(state, task)
    near = hf(task, **missing)
    assert not met(near, 0, task)
    with pytest.raises(engine.RuleError) as err:
        engine.decide(near, {"seat": 0, "type": "claim_task", "task": task})
    assert err.value.code == "task_not_met"


def test_only_one_task_is_claimed_per_turn_and_the_turn_then_ends():
    state = hf("tasks-center-cross", board=CROSS)
    state["tasks"]["current"][1] = "tasks-central-dominance"
    state = play(state, {"type": "claim_task", "task": "tasks-center-cross"})
    assert state["turn"]["seat"] == 1 and state["tasks"]["claimed"][0] == ["tasks-center-cross"]
