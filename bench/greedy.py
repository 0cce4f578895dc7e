"""The bot the server had before engine/ai: a one-step greedy player that reads the TRUE state
(the other seats' hands and the deck order included). Kept here only as the baseline the ladder
(bench/bots.py) measures the levels against; no seat is played by it any more.

It claims a win when it may, otherwise tries each of a sample of its legal commands on a copy of
the state and keeps the one that leaves the best position for its side (points ahead of the best
opponent, then pieces and upgraded pieces on the board).
"""
from __future__ import annotations

import random

import engine
from engine.state import State, color_of, colors, counts, melee_scores, score, two_sided
from engine.vocabulary import STEP_COMMANDS

SAMPLE = 40                         # commands tried per decision, at most


def evaluate(state: State, seat: int) -> float:
    """How good `state` is for `seat`'s side: a won game is best, a lost one worst."""
    if state["phase"] == "over":
        return 1e6 if seat in state["result"]["winners"] else -1e6
    mine = color_of(state, seat)
    if two_sided(state):
        own = score(state, mine)
        best_other = max((score(state, c) for c in colors(state) if c != mine), default=0)
    else:
        own = sum(melee_scores(state, seat))
        best_other = max((sum(melee_scores(state, s)) for s in range(len(state["seats"])) if s != seat), default=0)
    pieces, upgraded = counts(state, mine)
    enemy = sum(counts(state, c)[0] for c in colors(state) if c != mine)
    return 10.0 * (own - best_other) + pieces + 2.0 * upgraded - 0.5 * enemy


def choose(state: State, seat: int, rng: random.Random) -> dict:
    """The bot's command for `seat` (complete, with the seat)."""
    options = [c for c in engine.legal_commands(state, seat) if c["type"] != "resign" and c["type"] not in STEP_COMMANDS]
    for command in options:
        if command["type"] == "claim_win":
            return command
    if not options:
        raise ValueError("the bot found no command to play")
    if len(options) > SAMPLE:
        options = rng.sample(options, SAMPLE)
    best, best_value = options[0], float("-inf")
    for command in options:
        try:
            after = engine.replay(engine.decide(state, command), state)
        except engine.RuleError:
            continue
        value = evaluate(after, seat) + rng.random() * 1e-3
        if value > best_value:
            best, best_value = command, value
    return best
