"""Information-set Monte Carlo tree search over whole turns, with progressive widening.

Each simulation deals one position from the seat's knowledge (engine/ai/knowledge.py), so the
search averages over what the other seats might hold and how the decks might lie. The root's
children are whole turns of the seat (every command until the game waits for someone else),
built by the move policy (engine/ai/policy.py); a new child is admitted while the children
number fewer than `WIDEN * simulations ** ALPHA` (progressive widening), the first one being the
policy's own turn, later ones drawn with more noise. Otherwise the child with the best upper
confidence bound is played again, on the new deal. After the seat's turn the other seats each
play a turn by a cheaper policy, and the playout is cut off there: the evaluation
(engine/ai/evaluate.py) of that position is the simulation's reward. A child played again on
a deal that refuses one of its later commands (a card drawn on another deal) keeps what the deal
accepts and the policy finishes the turn, so turns that depend on hidden cards are not starved of
visits. The answer is the first command of the child simulated most.

Budgets count simulations, and the positions judged (`Work`) cap the dearest decisions: a search
stops early once it has judged `steps` positions, whatever its simulations. The caller gives the
generator, so a search is a pure function.
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
from .policy import Style, Work, choose

WIDEN, ALPHA = 2.0, 0.5
EXPLORE = 0.12                      # turns' chances differ by a few hundredths: a wider bonus spreads visits evenly
MAX_TURN_COMMANDS = 16              # a turn is a handful of commands; a guard against a loop
Key = tuple[tuple[tuple[str, object], ...], ...]


@dataclass(frozen=True)
class Budget:
    simulations: int
    steps: int | None = None        # positions judged per decision, at most (None: no cap)
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


def play_turn(state: State, seat: int, rng: random.Random, style: Style,
              work: Work | None = None) -> tuple[list[Command], State]:
    """The policy's commands for `seat` until its stretch of play ends, and the position after."""
    number = turn_number(state)
    played: list[Command] = []
    while not segment_over(state, seat, number) and len(played) < MAX_TURN_COMMANDS:
        command = choose(state, seat, rng, style, work=work)
        state = advance(state, command)
        played.append(command)
    return played, state


def finish_turn(state: State, seat: int, commands: list[Command], rng: random.Random, style: Style,
                work: Work | None = None) -> tuple[State, int]:
    """(the position after the seat's stretch, how many of `commands` were played): `commands` as
    far as this deal accepts them, then the policy to the stretch's end (a deal may not hold a card
    the seat drew and then played)."""
    number = turn_number(state)
    accepted = 0
    for command in commands:
        if segment_over(state, seat, number):
            return state, accepted
        try:
            state = advance(state, command)
        except RuleError:
            break
        accepted += 1
    if work is not None:
        work.steps += accepted
    if not segment_over(state, seat, number):
        _, state = play_turn(state, seat, rng, style, work)
    return state, accepted


def playout(state: State, seat: int, rng: random.Random, budget: Budget, work: Work | None = None) -> float:
    """The other seats' turns by the reply policy, then the position's value for `seat`."""
    for _ in range(budget.depth):
        mover = active_seat(state)
        if mover is None or mover == seat:
            break
        _, state = play_turn(state, mover, rng, budget.reply, work)
    return chance(state, seat, budget.style.weights)


def search(knowledge: Knowledge, rng: random.Random, budget: Budget) -> tuple[Command | None, int]:
    """(the first command of the best turn found, simulations run); None when no position can be dealt."""
    seat = knowledge.seat
    children: dict[Key, Child] = {}
    work = Work()
    done = 0
    for n in range(1, budget.simulations + 1):
        if budget.steps is not None and work.steps >= budget.steps and children:
            break
        deal = knowledge.sample(rng)
        if deal is None or active_seat(deal) != seat:
            continue
        done += 1
        after: State | None = None
        child: Child | None = None
        if len(children) < max(1, math.ceil(WIDEN * n ** ALPHA)):
            commands, after = play_turn(deal, seat, rng, budget.style if not children else budget.variety, work)
            if not commands:
                break
            child = children.setdefault(_key(commands), Child(commands))
        else:
            for candidate in sorted(children.values(), key=lambda c: _bound(c, n), reverse=True):
                after, accepted = finish_turn(deal, seat, candidate.commands, rng, budget.style, work)
                if accepted:
                    child = candidate
                    break
        if child is None or after is None:
            continue
        child.visits += 1
        child.total += playout(after, seat, rng, budget, work)
    if not children:
        return None, done
    best = max(children.values(), key=lambda c: (c.visits, c.mean()))
    return best.commands[0], done


def _bound(child: Child, n: int) -> float:
    if not child.visits:
        return float("inf")
    return child.mean() + EXPLORE * math.sqrt(math.log(n) / child.visits)
