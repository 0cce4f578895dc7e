"""The game state: one JSON-able dict, and the read-only questions rules ask of it.

Why a plain dict: it snapshots to JSON and back unchanged (the store keeps snapshots), compares
with `==` (replay equals live state), and copies fast with `marshal`. Only reducers in evolve.py
write to it. Layout (lists are indexed by seat, or by colour where noted):

    form, teams, seats [{school, color}] (school "draft" until drafted),
    capacity [[non-legendary, legendary]] by colour,
    removed [[non-legendary, legendary]] by colour, board {square: [piece id, colour, rank]},
    next_piece, hands, decks (index 0 = top), discards, legends {deck, discard},
    flares {deck, discard}, tasks {current, next, deck, claimed by colour} or None,
    points (by colour; melee: by seat then colour), impro (melee: by seat then colour),
    phase (setup | play | over), turn (with "control": the teammate it was handed to, team play),
    effect, pending, final, result, rng {seed, draws},
    gateways (by colour: the Nethervoid Gateway's piece id or None; only once a Gateway event
    happened, engine/gateway.py),
    frozen (by seat: the Everfrost frozen card {card, turn} or None) and lost_actions (by colour),
    each only once its first event happened (engine/frost.py)
"""
from __future__ import annotations

import marshal
from typing import Any, Iterator, cast

from .cards import CARDS

State = dict[str, Any]

COMMON, HEROIC, LEGENDARY = 1, 2, 3
HAND_LIMITS = {"school": 3, "legends": 2, "flares": 1}
END_THRESHOLDS = {"high_form": 9, "duel": 18, "melee3": 12, "melee4": 10}


def clone(state: State) -> State:
    """A deep copy; marshal handles the plain data a state is made of, quickly."""
    return cast("dict[str, Any]", marshal.loads(marshal.dumps(state)))


def color_of(state: State, seat: int) -> int:
    return cast("int", state["seats"][seat]["color"])


def seats_of(state: State, color: int) -> list[int]:
    return [i for i, s in enumerate(state["seats"]) if s["color"] == color]


def colors(state: State) -> range:
    return range(len(state["capacity"]))


def enemy_colors(state: State, color: int) -> list[int]:
    return [c for c in colors(state) if c != color]


def two_sided(state: State) -> bool:
    return cast("bool", state["form"] != "melee")


def pieces(state: State, color: int | None = None) -> Iterator[tuple[str, int, int, int]]:
    """(square, piece id, colour, rank) of every piece on the board, optionally of one colour."""
    for sq, (pid, col, rank) in state["board"].items():
        if color is None or col == color:
            yield sq, pid, col, rank


def square_of(state: State, pid: int) -> str | None:
    for sq, piece in state["board"].items():
        if piece[0] == pid:
            return cast("str | None", sq)
    return None


def supply(state: State, color: int) -> tuple[int, int]:
    """(non-legendary, legendary) pieces of `color` off the board and still in the game.

    UNCERTAIN (RULES 7.12, 15.4, 16.3): an enemy piece destroyed this turn is back in its owner's
    supply at once, as BGA has it, though the printed Deathmatch tally keeps it aside until the end
    of the turn; it matters only to effects that place enemy pieces (Possessed Summoner).
    """
    on_board = [0, 0]
    for _, _, col, rank in pieces(state, color):
        on_board[rank == LEGENDARY] += 1
    cap, removed = state["capacity"][color], state["removed"][color]
    return cap[0] - on_board[0] - removed[0], cap[1] - on_board[1] - removed[1]


def has_supply(state: State, color: int, rank: int) -> bool:
    return supply(state, color)[rank == LEGENDARY] > 0


def counts(state: State, color: int) -> tuple[int, int]:
    """(all pieces, upgraded pieces) of `color` on the board."""
    total = upgraded = 0
    for _, _, _, rank in pieces(state, color):
        total += 1
        upgraded += rank > COMMON
    return total, upgraded


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


def turn_actor(state: State) -> int:
    """Who acts on the turn: the teammate it was handed to while actions remain (RULES 11), else
    the turn's own seat."""
    turn = state["turn"]
    control = turn.get("control")
    return cast("int", control if control is not None and turn["actions"] > 0 else turn["seat"])


def active_seat(state: State) -> int | None:
    """Whose input the game waits for: the pending decision's seat, else whoever acts on the turn."""
    if state["phase"] == "over":
        return None
    if state["pending"]:
        return cast("int | None", state["pending"]["seat"])
    return turn_actor(state) if state["turn"] else None
