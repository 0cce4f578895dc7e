"""Information-set Monte Carlo tree search over whole turns, with progressive widening.

Each simulation deals one position from the seat's knowledge (engine/ai/knowledge.py), so the
search averages over what the other seats might hold and how the decks might lie. The root's
children are whole turns of the seat (every command until the game waits for someone else),
built by the move policy (engine/ai/policy.py); a new child is admitted while the children
number fewer than `WIDEN * simulations ** ALPHA` (progressive widening), the first one being the
policy's own turn, later ones drawn with more noise. Otherwise the child with the best upper
confidence bound is played again, on the new deal. After the seat's turn the other seats each
play a turn by a cheaper policy, and the playout is cut off there: the evaluation
(engine/ai/evaluate.py) of that position is the simulation's reward. The answer is the first
command of the child simulated most.

Budgets count simulations and the caller gives the generator, so a search is a pure function.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from ..decide import advance
from ..errors import RuleError
from ..shapes import Command
from ..state import State, active_seat
from .evaluate import chance
from .knowledge import Knowledge
from .policy import Style, choose

WIDEN, ALPHA = 2.0, 0.5
EXPLORE = 0.35
MAX_TURN_COMMANDS = 16              # a turn is a handful of commands; a guard against a loop
Key = tuple[tuple[tuple[str, object], ...], ...]


@dataclass(frozen=True)
class Budget:
    simulations: int
    style: Style = field(default_factory=Style)              # builds the candidate turns
    reply: Style = field(default_factory=lambda: Style(width=2, places=2, ready=False))   # the others' turns in playouts
    variety: Style = field(default_factory=lambda: Style(noise=0.2, blur=0.05))  # later candidates
    depth: int = 3                  # other seats' turns played before the cut-off, at most


@dataclass
class Child:
    commands: list[Command]
    visits: int = 0
    total: float = 0.0

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def _key(commands: list[Command]) -> Key:
    return tuple(tuple(sorted((k, v if not isinstance(v, list) else tuple(v)) for k, v in c.items())) for c in commands)


def turn_number(state: State) -> int | None:
    return state["turn"]["number"] if state["turn"] else None


def segment_over(state: State, seat: int, number: int | None) -> bool:
    """Whether the seat's stretch of play ended: the game waits for someone else, or a new turn began."""
    return state["phase"] == "over" or active_seat(state) != seat or turn_number(state) != number


def play_turn(state: State, seat: int, rng: random.Random, style: Style) -> tuple[list[Command], State]:
    """The policy's commands for `seat` until its stretch of play ends, and the position after."""
    number = turn_number(state)
    played: list[Command] = []
    while not segment_over(state, seat, number) and len(played) < MAX_TURN_COMMANDS:
        command = choose(state, seat, rng, style)
        state = advance(state, command)
        played.append(command)
    return played, state


def _replay_turn(state: State, commands: list[Command]) -> State | None:
    """The child's turn played again on another deal; None if this deal refuses it."""
    try:
        for command in commands:
            state = advance(state, command)
    except RuleError:
        return None
    return state


def _playout(state: State, seat: int, rng: random.Random, budget: Budget) -> float:
    """The other seats' turns by the reply policy, then the position's value for `seat`."""
    for _ in range(budget.depth):
        mover = active_seat(state)
        if mover is None or mover == seat:
            break
        _, state = play_turn(state, mover, rng, budget.reply)
    return chance(state, seat, budget.style.weights)


def search(knowledge: Knowledge, rng: random.Random, budget: Budget) -> tuple[Command | None, int]:
    """(the first command of the best turn found, simulations run); None when no position can be dealt."""
    seat = knowledge.seat
    children: dict[Key, Child] = {}
    done = 0
    for n in range(1, budget.simulations + 1):
        deal = knowledge.sample(rng)
        if deal is None or active_seat(deal) != seat:
            continue
        done += 1
        after: State | None = None
        child: Child | None = None
        if len(children) < max(1, math.ceil(WIDEN * n ** ALPHA)):
            commands, after = play_turn(deal, seat, rng, budget.style if not children else budget.variety)
            if not commands:
                break
            child = children.setdefault(_key(commands), Child(commands))
        else:
            for candidate in sorted(children.values(), key=lambda c: _bound(c, n), reverse=True):
                after = _replay_turn(deal, candidate.commands)
                if after is not None:
                    child = candidate
                    break
        if child is None or after is None:
            continue
        child.visits += 1
        child.total += _playout(after, seat, rng, budget)
    if not children:
        return None, done
    best = max(children.values(), key=lambda c: (c.visits, c.mean()))
    return best.commands[0], done


def _bound(child: Child, n: int) -> float:
    if not child.visits:
        return float("inf")
    return child.mean() + EXPLORE * math.sqrt(math.log(n) / child.visits)
