"""How good a position is for a seat, as a winning chance between 0 and 1.

A side's strength adds its score, the points its summonings this turn will score when the turn
ends, its pieces by rank, its legends on the board and in hand, and (High Form) the tasks it could
claim now; a seat's chance is a logistic of its strength ahead of the strongest other side. A
finished game is worth 1 to its winners and 0 to the others (shared wins are split). The weights
are plain numbers in `Weights`, tuned by self-play (bench/bots.py --tune).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .. import tasks, turns
from ..cards import CARDS
from ..state import COMMON, HEROIC, State, color_of, colors, melee_scores, score, seats_of, two_sided


@dataclass(frozen=True)
class Weights:
    score: float = 6.0              # a point of score (a melee seat: its weakest track)
    tracks: float = 1.5             # melee: a point on any track
    common: float = 1.0
    heroic: float = 2.6
    legendary: float = 4.5
    legend_card: float = 0.6        # a legend in hand (potential)
    task: float = 3.0               # High Form: a task claimable now, by its points
    scale: float = 9.0              # strength ahead that makes a 73% chance


DEFAULT = Weights()


def chance(state: State, seat: int, w: Weights = DEFAULT) -> float:
    """`seat`'s winning chance in `state`, between 0 and 1."""
    if state["phase"] == "over":
        result = state["result"]
        winners = result["winners"] if result else []
        if seat not in winners:
            return 0.0
        sides = {color_of(state, s) for s in winners} if two_sided(state) else set(winners)
        return 1.0 / len(sides)
    if two_sided(state):
        mine = color_of(state, seat)
        own = strength(state, mine, w)
        best = max(strength(state, c, w) for c in colors(state) if c != mine)
    else:
        own = melee_strength(state, seat, w)
        best = max(melee_strength(state, s, w) for s in range(len(state["seats"])) if s != seat)
    return 1.0 / (1.0 + math.exp(-(own - best) / w.scale))


def _board(state: State, color: int, w: Weights) -> float:
    value = 0.0
    for _, col, rank in state["board"].values():
        if col == color:
            value += w.common if rank == COMMON else w.heroic if rank == HEROIC else w.legendary
    return value


def _turn_points(state: State, color: int) -> int:
    """Destruction points the turn in play will score its side when it ends (not High Form)."""
    turn = state["turn"]
    if not turn or state["form"] == "high_form" or color_of(state, turn["seat"]) != color:
        return 0
    return sum(turns.destruction_points(turn["destroyed"])[0].values())


def _legends_in_hand(state: State, seats: list[int]) -> int:
    return sum(1 for s in seats for c in state["hands"][s] if c in CARDS.beings and CARDS.beings[c].is_legend)


def strength(state: State, color: int, w: Weights = DEFAULT) -> float:
    """A side's strength in a two-sided form (High Form, duel, teams)."""
    value = w.score * (score(state, color) + _turn_points(state, color)) + _board(state, color, w)
    value += w.legend_card * _legends_in_hand(state, seats_of(state, color))
    if state["tasks"] and state["phase"] == "play":
        value += w.task * sum(CARDS.tasks[t].points for t in tasks.claimable(state, color))
    return value


def melee_strength(state: State, seat: int, w: Weights = DEFAULT) -> float:
    """A melee seat's strength: its weakest track counts most, as the result is ranked by it."""
    tracks = melee_scores(state, seat)
    turn = state["turn"]
    pending = 0
    if turn and turn["seat"] == seat:
        pending = sum(turns.destruction_points(turn["destroyed"])[0].values())
    color = color_of(state, seat)
    value = w.score * (tracks[0] if tracks else 0) + w.tracks * (sum(tracks) + pending)
    return value + _board(state, color, w) + w.legend_card * _legends_in_hand(state, [seat])

