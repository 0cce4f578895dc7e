"""The game state: one JSON-able dict, and the read-only questions rules ask of it.

Why a plain dict: it snapshots to JSON and back unchanged (the store keeps snapshots), compares
with `==` (replay equals live state), and copies fast with `marshal`. Only reducers in evolve.py
write to it. Its layout is the TypedDict `GameState` of engine/shapes.py, and `State` is that type:
every rule is checked against it by mypy. The parts that may be None (the turn before play, the
tasks outside High Form, the effect and pending decision between rules, impro outside melee) are
read through `current_turn`, `dealt_tasks`, `current_effect`, `current_pending`, `improvisations`
by rules that run only once the part exists.
"""
from __future__ import annotations

import marshal
from typing import Any, Iterator, TypeVar, cast

from .cards import CARDS
from .shapes import GameState, Pending, Tasks, Turn

State = GameState
T = TypeVar("T")

COMMON, HEROIC, LEGENDARY = 1, 2, 3
HAND_LIMITS = {"school": 3, "legends": 2, "flares": 1}
END_THRESHOLDS = {"high_form": 9, "duel": 18, "melee3": 12, "melee4": 10}


def clone(value: T) -> T:
    """A deep copy of plain data (a state, an event, a frame); marshal does it quickly."""
    return cast("T", marshal.loads(marshal.dumps(value)))   # type: ignore[arg-type]  # a TypedDict is a dict


def color_of(state: State, seat: int) -> int:
    return state["seats"][seat]["color"]


def seats_of(state: State, color: int) -> list[int]:
    return [i for i, s in enumerate(state["seats"]) if s["color"] == color]


def colors(state: State) -> range:
    return range(len(state["capacity"]))


def enemy_colors(state: State, color: int) -> list[int]:
    return [c for c in colors(state) if c != color]


def two_sided(state: State) -> bool:
    return state["form"] != "melee"


def pieces(state: State, color: int | None = None) -> Iterator[tuple[str, int, int, int]]:
    """(square, piece id, colour, rank) of every piece on the board, optionally of one colour."""
    for sq, (pid, col, rank) in state["board"].items():
        if color is None or col == color:
            yield sq, pid, col, rank


def square_of(state: State, pid: int) -> str | None:
    for sq, piece in state["board"].items():
        if piece[0] == pid:
            return sq
    return None


def supply(state: State, color: int) -> tuple[int, int]:
    """(non-legendary, legendary) pieces of `color` off the board and still in the game.

    UNCERTAIN (RULES 7.12, 15.4, 16.3): an enemy piece destroyed this turn is back in its owner's
    supply at once, as BGA has it, though the printed Deathmatch tally keeps it aside until the end
    of the turn; it matters only to effects that place enemy pieces (Possessed Summoner).
    """
    ranks = _ranks(state, color)
    legendary = ranks.count(LEGENDARY)
    cap, removed = state["capacity"][color], state["removed"][color]
    return cap[0] - (len(ranks) - legendary) - removed[0], cap[1] - legendary - removed[1]


def has_supply(state: State, color: int, rank: int) -> bool:
    return supply(state, color)[rank == LEGENDARY] > 0


def counts(state: State, color: int) -> tuple[int, int]:
    """(all pieces, upgraded pieces) of `color` on the board."""
    ranks = _ranks(state, color)
    return len(ranks), len(ranks) - ranks.count(COMMON)


def _ranks(state: State, color: int) -> list[int]:
    """The ranks of `color`'s pieces on the board (`supply` and `counts` ask on every listing)."""
    return [piece[2] for piece in state["board"].values() if piece[1] == color]


def threshold(state: State) -> int:
    if state["form"] == "melee":
        return END_THRESHOLDS["melee3" if len(state["seats"]) == 3 else "melee4"]
    return END_THRESHOLDS[state["form"]]


def task_points(state: State, color: int) -> int:
    claimed = state["tasks"]["claimed"][color] if state["tasks"] else []     # none dealt while schools are drafted
    return sum(CARDS.tasks[t].points for t in claimed)


def score(state: State, color: int) -> int:
    """A side's score now (two-sided forms): High Form tasks + legends on board (+ points, which
    only the Etherweave causality penalty writes there), duel points."""
    if state["form"] == "high_form":
        legends = sum(1 for _, _, _, r in pieces(state, color) if r == LEGENDARY)
        return cast("int", task_points(state, color) + legends + state["points"][color])
    return cast("int", state["points"][color])


def melee_scores(state: State, seat: int) -> list[int]:
    """A melee player's points in each opponent colour (own colour left out), lowest first."""
    own = color_of(state, seat)
    return sorted(p for c, p in enumerate(state["points"][seat]) if c != own)


def piles(state: State, deck: str, seat: int | None = None) -> tuple[list[str], list[str]]:
    """The (draw pile, discard pile) named by a deck: 'school' (a seat's), 'legends' or 'flares'."""
    if deck == "school":
        assert seat is not None, "a school deck is a seat's"
        return state["decks"][seat], state["discards"][seat]
    pile = state["legends"] if deck == "legends" else state["flares"]
    return pile["deck"], pile["discard"]


# The parts of the state that may be None, read by rules that run only once the part exists
# (each accessor asserts it in its own body: rules and reducers call them on every step).

def current_turn(state: State) -> Turn:
    """The turn in play, for rules that run only once play began."""
    turn = state["turn"]
    assert turn is not None, "no turn before play began"
    return turn


def dealt_tasks(state: State) -> Tasks:
    """The High Form tasks, for rules that run only once they are dealt."""
    tasks = state["tasks"]
    assert tasks is not None, "no tasks before they are dealt (High Form only)"
    return tasks


def current_effect(state: State) -> dict[str, Any]:
    """The frame of the effect being resolved, for rules that run only inside one (engine/effects)."""
    effect = state["effect"]
    assert effect is not None, "no effect is being resolved"
    return effect


def current_pending(state: State) -> Pending:
    """The decision the game waits for, for rules that run only while there is one."""
    pending = state["pending"]
    assert pending is not None, "no decision is pending"
    return pending


def improvisations(state: State, seat: int) -> list[bool]:
    """By colour, whether the melee seat may still borrow a piece of it (RULES 5.8; melee only)."""
    impro = state["impro"]
    assert impro is not None, "improvised summoning is melee's"
    return impro[seat]


def turn_actor(state: State) -> int:
    """Who acts on the turn: the teammate it was handed to while actions remain (RULES 11), else
    the turn's own seat."""
    turn = current_turn(state)
    control = turn.get("control")
    return control if control is not None and turn["actions"] > 0 else turn["seat"]


def active_seat(state: State) -> int | None:
    """Whose input the game waits for: the pending decision's seat, else whoever acts on the turn."""
    if state["phase"] == "over":
        return None
    if state["pending"]:
        return state["pending"]["seat"]
    return turn_actor(state) if state["turn"] else None


def reset(state: State, new: State) -> None:
    """Make `state` hold exactly `new`, in place (a fold that starts over: GameCreated, PositionSet,
    an undo); the TypedDict has no `clear`, since a state is never left empty."""
    plain = cast("dict[str, object]", state)
    plain.clear()
    plain.update(new)
