"""Game review: what each move of a finished game cost its player in winning chances.

A move is a seat's stretch of commands within one turn. It is judged from what its seat knew
then (the seat's redacted events up to it, folded into its `Knowledge`), so a review never blames
a player for cards they could not see: the search (engine/ai/search.py) finds the best first
command from that knowledge; then, on the same deals of the hidden cards, the move as played and
the best one (continued by the move policy to the end of the stretch) are each played out and
evaluated (engine/ai/evaluate.py). The drop from the best chance to the played one marks the move:
an inaccuracy, a mistake or a blunder (DROPS). A stretch with an undo in it is not judged.

Budgets count simulations and the caller gives the seed, so a review is a pure function:

    judged = review(events, simulations=24, seed="...")     # the game's events, in order
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Sequence

from ..shapes import Command, GameEvent
from ..state import State, active_seat, clone
from ..views import redact
from . import _same
from .knowledge import Knowledge
from .policy import SKIPPED
from .search import Budget, finish_turn, playout, search, turn_number

# The least drop in winning chance (0 to 1) that earns each mark, worst first.
DROPS: tuple[tuple[float, str], ...] = ((0.30, "blunder"), (0.20, "mistake"), (0.10, "inaccuracy"))
MARKS = tuple(mark for _, mark in reversed(DROPS))


@dataclass
class Move:
    """One seat's stretch of commands, and the events it spans (indexes into the game's events)."""
    seat: int
    first: int
    last: int
    commands: list[Command] = field(default_factory=list)
    known: Knowledge | None = None        # the seat's knowledge just before the stretch


@dataclass(frozen=True)
class Judged:
    seat: int
    first: int                          # index of the stretch's first event in the game's events
    last: int                           # index of its last event
    chance: float                       # the seat's winning chance after the move as played
    best: float                         # after the best move found (never below `chance`)
    mark: str | None                    # inaccuracy, mistake or blunder; None for a good move
    better: Command | None              # the best move's first command (with the seat), when the move was marked


def mark_of(drop: float) -> str | None:
    return next((mark for least, mark in DROPS if drop >= least), None)


def _copy(known: Knowledge) -> Knowledge:
    copy = Knowledge(known.seat)
    copy.state, copy.anchor, copy.tail = clone(known.state), clone(known.anchor), clone(known.tail)
    return copy


def moves(events: Sequence[GameEvent]) -> list[Move]:
    """The game's moves, each with its seat's knowledge just before it."""
    movers = sorted({e["seat"] for e in events if e["type"] == "CommandAccepted"})
    knowledge = {seat: Knowledge(seat) for seat in movers}
    found: list[Move] = []
    current: Move | None = None
    number: int | None = None
    for i, event in enumerate(events):
        if event["type"] == "CommandAccepted":
            seat, auto = event["seat"], bool(event.get("auto"))
            known = knowledge[seat]
            if auto or current is None or current.seat != seat or turn_number(known.state) != number:
                current = None if auto else Move(seat, i, i, known=_copy(known))
                number = turn_number(known.state)
                if current is not None:
                    found.append(current)
            if current is not None:
                current.commands.append({**event["command"], "seat": seat})
        if current is not None:
            current.last = i
        for known in knowledge.values():
            known.observe([redact(event, known.seat)])
    return found


def judge(move: Move, simulations: int, seed: str) -> Judged | None:
    """The move's winning chances as played and at best; None when it cannot be judged (an undo in
    it, a forced reply, no deal of the seat's knowledge)."""
    if move.known is None or any(c["type"] in SKIPPED for c in move.commands):
        return None
    rng = random.Random(f"{seed}:{move.first}")
    budget = Budget(simulations)
    best_first, _ = search(move.known, rng, budget)
    if best_first is None:
        return None
    agreed = _same(best_first, move.commands[0])
    played: list[float] = []
    best: list[float] = []
    for _ in range(simulations):
        deal = move.known.sample(rng)
        if deal is None or active_seat(deal) != move.seat:
            continue
        same_luck = rng.getstate()          # both moves are played out with the same draws of chance
        value = playout(finish_turn(deal, move.seat, move.commands, rng, budget.style)[0], move.seat, rng, budget)
        played.append(value)
        if not agreed:
            rng.setstate(same_luck)
            value = playout(finish_turn(deal, move.seat, [best_first], rng, budget.style)[0], move.seat, rng, budget)
        best.append(value)
    if not played:
        return None
    chance = sum(played) / len(played)
    top = max(chance, sum(best) / len(best))
    mark = mark_of(top - chance)
    return Judged(move.seat, move.first, move.last, round(chance, 4), round(top, 4), mark, best_first if mark else None)


def review(events: Sequence[GameEvent], simulations: int, seed: str) -> list[Judged]:
    """Every move of the game that can be judged, in order."""
    judged = (judge(move, simulations, seed) for move in moves(events))
    return [j for j in judged if j is not None]
