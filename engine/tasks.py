"""High Form tasks (RULES.md 12): dealing the face-up tasks and checking whether one is met.

A task's checks are frozen dataclasses (engine/task_checks.py); RULES says, per kind of check, how it
is decided and which words of its fields the rule interprets, so a task using any other word fails
when this module is imported, naming the card.
"""
from __future__ import annotations

import random
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterable, Mapping

from .card_steps import UnknownCardWord
from .cards import CARDS, Task
from .context import Context
from .geometry import ADJACENT, CENTRAL, COORD, GREEN, RED, SQUARES, distance
from .shapes import Board
from .state import HEROIC, LEGENDARY, State, current_turn, dealt_tasks, enemy_colors
from .task_checks import (AnyOf, AroundEnemyPiece, Chain, CompareUpgradedOn, DestroyedThisTurn, EachOf, Isolation,
                          LineDifference, PiecesOn, SummonedThisTurn, TaskCheck, all_checks)

DIAGONAL_A = frozenset(f"{'abcdefghi'[i - 1]}{i}" for i in range(2, 9))
DIAGONAL_B = frozenset(f"{'abcdefghi'[i - 1]}{10 - i}" for i in range(2, 9))
SQUARE_SETS = {
    "red": RED, "green": GREEN, "red-or-green": RED | GREEN, "central-3x3": CENTRAL,
    "central-plus": frozenset({"e4", "d5", "e5", "f5", "e6"}),
    "central-x": frozenset({"d4", "f4", "e5", "d6", "f6"}),
    "diagonal-a": DIAGONAL_A, "diagonal-b": DIAGONAL_B,
}
LINE_SETS = {"rows-and-columns-through-central-3x3":
             [frozenset(sq for sq in SQUARES if COORD[sq][axis] == k) for axis in (0, 1) for k in (4, 5, 6)]}
SIDES = {
    "left": {sq for sq in SQUARES if COORD[sq][0] == 1}, "right": {sq for sq in SQUARES if COORD[sq][0] == 9},
    "top": {sq for sq in SQUARES if COORD[sq][1] == 1}, "bottom": {sq for sq in SQUARES if COORD[sq][1] == 9},
}
CORNERS = {"nw": {"a3", "b2", "c1"}, "ne": {"g1", "h2", "i3"}, "sw": {"a7", "b8", "c9"}, "se": {"g9", "h8", "i7"}}
ENDS = {   # a chain's `between`: the pairs of ends it may link
    "opposite-sides": [(SIDES["left"], SIDES["right"]), (SIDES["top"], SIDES["bottom"])],
    "opposite-corners": [(CORNERS["nw"], CORNERS["se"]), (CORNERS["ne"], CORNERS["sw"])],
}


# --- dealing ---------------------------------------------------------------------------------------

def _three_alike(types: list[str]) -> bool:
    return any(n >= 3 for n in Counter(types).values())


def _settle_next(current: list[str], deck: list[str]) -> tuple[str | None, list[str]]:
    """Turn up the next task, sending it under the deck while it would make three of a type."""
    for _ in range(len(deck)):
        if not _three_alike([CARDS.tasks[t].type for t in current + deck[:1]]):
            break
        deck = deck[1:] + deck[:1]
    return (deck[0] if deck else None), deck[1:]


def opening_layout(rng: random.Random, deck: list[str]) -> tuple[list[str], str | None, list[str]]:
    """RULES 4.2 on a shuffled `deck`: three non-advanced current tasks not all of one type, the
    tasks put aside shuffled back, then the next task."""
    deck = list(deck)
    current: list[str] = []
    aside: list[str] = []
    while len(current) < 3 and deck:
        task = CARDS.tasks[deck.pop(0)]
        types = [CARDS.tasks[t].type for t in current]
        if task.advanced or (len(current) == 2 and types[0] == types[1] == task.type):
            aside.append(task.id)
        else:
            current.append(task.id)
    if aside:
        deck = deck + aside
        rng.shuffle(deck)
    nxt, deck = _settle_next(current, deck)
    return current, nxt, deck


def deal_opening(ctx: Context) -> None:
    rng = ctx.rng()
    deck = list(CARDS.decks["tasks"])
    rng.shuffle(deck)
    current, nxt, deck = opening_layout(rng, deck)
    ctx.emit("TasksDealt", current=current, next=nxt, deck=deck, shuffled=True)


def replace_claimed(ctx: Context) -> None:
    """RULES 12.1: the next task fills the gap; a new next task is turned up."""
    tasks = dealt_tasks(ctx.state)
    current = list(tasks["current"])
    deck = list(tasks["deck"])
    if tasks["next"]:
        current.append(tasks["next"])
    nxt, deck = _settle_next(current, deck)
    ctx.emit("TasksDealt", current=current, next=nxt, deck=deck)


# --- checks ----------------------------------------------------------------------------------------

def met(state: State, color: int, task_id: str) -> bool:
    return all(_holds(state, color, c) for c in CARDS.tasks[task_id].checks)


def claimable(state: State, color: int) -> list[str]:
    return [t for t in dealt_tasks(state)["current"] if met(state, color, t)]


def _own(state: State, color: int) -> dict[str, int]:
    return {sq: p[2] for sq, p in state["board"].items() if p[1] == color}


def _holds(state: State, color: int, c: TaskCheck) -> bool:
    return RULES[type(c)].holds(state, color, c)


def _any_of(state: State, color: int, c: AnyOf) -> bool:
    return any(_holds(state, color, x) for x in c.of)


def _each_of(state: State, color: int, c: EachOf) -> bool:
    return all(_holds(state, color, x) for x in c.of)


def _destroyed(state: State, color: int, c: DestroyedThisTurn) -> bool:
    ranks = [r for _, r in current_turn(state)["destroyed"]]
    return (len(ranks) >= c.min_total
            and sum(r >= HEROIC for r in ranks) >= c.min_upgraded
            and ranks.count(HEROIC) >= c.min_heroic
            and ranks.count(LEGENDARY) >= c.min_legendary)


def _pieces_on(state: State, color: int, c: PiecesOn) -> bool:
    ranks = [r for sq, r in _own(state, color).items() if sq in SQUARE_SETS[c.squares]]
    return (len(ranks) >= c.min_total
            and sum(r >= HEROIC for r in ranks) >= c.min_upgraded
            and ranks.count(LEGENDARY) >= c.min_legendary)


def _compare_upgraded(state: State, color: int, c: CompareUpgradedOn) -> bool:
    squares = SQUARE_SETS[c.squares]

    def upgraded(col: int) -> int:
        return sum(1 for sq, r in _own(state, col).items() if sq in squares and r >= HEROIC)
    mine = upgraded(color)
    return all(mine > upgraded(e) for e in enemy_colors(state, color))


def _summoned(state: State, color: int, c: SummonedThisTurn) -> bool:
    summons = current_turn(state)["summons"]
    squares = [sq for sq, _ in summons]
    return (len(summons) >= c.min_beings
            and sum(sq in RED for sq in squares) >= c.min_on_red
            and sum(sq in GREEN for sq in squares) >= c.min_on_green
            and sum(sq in RED or sq in GREEN for sq in squares) >= c.min_on_red_or_green
            and sum(r == LEGENDARY for _, r in summons) >= c.min_legendary)


def _line_difference(state: State, color: int, c: LineDifference) -> bool:
    board = state["board"]
    for line in LINE_SETS[c.lines]:
        mine = sum(1 for sq in line if sq in board and board[sq][1] == color)
        theirs = sum(1 for sq in line if sq in board and board[sq][1] != color)
        if mine - theirs >= c.min_difference:
            return True
    return False


def _connected(own: set[str], start: set[str], goal: set[str]) -> bool:
    seen = own & start
    queue = deque(seen)
    while queue:
        sq = queue.popleft()
        if sq in goal:
            return True
        for n in ADJACENT[sq]:
            if n in own and n not in seen:
                seen.add(n)
                queue.append(n)
    return False


def _chain(state: State, color: int, c: Chain) -> bool:
    own = set(_own(state, color))
    return any(_connected(own, a, b) for a, b in ENDS[c.between])


def _around_enemy(state: State, color: int, c: AroundEnemyPiece) -> bool:
    own = set(_own(state, color))
    return any(p[1] != color and len(own.intersection(ADJACENT[sq])) >= c.min_adjacent
               for sq, p in state["board"].items())


def _isolated(state: State, color: int, c: Isolation) -> bool:
    """Some enemy piece has a fellow at `partner_at_distance` yet cannot reach one in `max_moves`
    moves through empty squares."""
    board = state["board"]
    for sq, p in board.items():
        if p[1] == color:
            continue
        fellows = [o for o, q in board.items() if o != sq and q[1] == p[1]]
        if not any(distance(sq, o) == c.partner_at_distance for o in fellows):
            continue
        if not _can_join(board, sq, set(fellows), c.max_moves):
            return True
    return False


def _can_join(board: Board, start: str, fellows: set[str], moves: int) -> bool:
    frontier, seen = [start], {start}
    for _ in range(moves + 1):
        nxt = []
        for sq in frontier:
            if fellows.intersection(ADJACENT[sq]) - {start}:
                return True
            for n in ADJACENT[sq]:
                if n not in seen and n not in board:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return False


@dataclass(frozen=True)
class Rule:
    """How one kind of check is decided, and the words of its fields that the rule interprets."""

    holds: Callable[[State, int, Any], bool]
    words: Mapping[str, Collection[str]] = field(default_factory=dict)


# `squares`, `lines` and `between` are the keys of the tables above. A `who`, `relation`, `adjacency`
# or `path` names the one way its rule works: the player's own pieces or its enemies', more upgraded
# pieces than each opponent, the 8 neighbours of a square, moves through empty squares only.
OWN, ENEMY = frozenset({"own"}), frozenset({"enemy"})
RULES: Mapping[type[TaskCheck], Rule] = {
    DestroyedThisTurn: Rule(_destroyed, {"who": ENEMY}),
    PiecesOn: Rule(_pieces_on, {"squares": SQUARE_SETS, "who": OWN}),
    CompareUpgradedOn: Rule(_compare_upgraded, {"squares": SQUARE_SETS, "relation": {"more-than-opponent"}}),
    SummonedThisTurn: Rule(_summoned),
    LineDifference: Rule(_line_difference, {"lines": LINE_SETS}),
    Chain: Rule(_chain, {"who": OWN, "between": ENDS, "adjacency": {"8-neighbour"}}),
    AroundEnemyPiece: Rule(_around_enemy, {"who": OWN}),
    Isolation: Rule(_isolated, {"who": ENEMY, "path": {"empty-squares-only"}}),
    AnyOf: Rule(_any_of),
    EachOf: Rule(_each_of),
}


def unknown_words(tasks: Iterable[Task]) -> list[str]:
    """'card: field 'word'' for every word of a task's checks that its rule does not interpret, and
    for every check of a kind no rule decides."""
    out = []
    for task in tasks:
        for c in all_checks(task.checks):
            rule = RULES.get(type(c))
            if rule is None:
                out.append(f"{task.id}: check {type(c).__name__} (no rule decides it)")
                continue
            out.extend(f"{task.id}: {name} {getattr(c, name)!r}"
                       for name, words in rule.words.items() if getattr(c, name) not in words)
    return out


def _refuse_unknown_words(tasks: Iterable[Task]) -> None:
    unknown = unknown_words(tasks)
    if unknown:
        raise UnknownCardWord("task data uses words the task rules do not know: " + "; ".join(unknown))


_refuse_unknown_words(CARDS.tasks.values())     # a task with a word no rule interprets fails at import
