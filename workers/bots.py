"""Bots: seats created with "bot": true are played by a worker job through the same GameService.

The policy is a one-step greedy player, better than engine/autoplay.py's (which only finishes a
turn quickly): it claims a win when it may, otherwise tries each of a sample of its legal
commands on a copy of the state and keeps the one that leaves the best position for its side
(points ahead of the best opponent, then pieces and upgraded pieces on the board). Ties are
broken by a generator seeded with the game and version, so a bot game replays identically.
It never resigns.
"""
from __future__ import annotations

import random
from typing import Any

import engine
from engine.state import State, color_of, colors, counts, melee_scores, score, two_sided
from engine.vocabulary import STEP_COMMANDS
from events import SYSTEM, ConflictError, game_clock, roster

from . import turns
from .settings import Settings

SAMPLE = 40                         # commands tried per decision, at most
MAX_COMMANDS = 200                  # commands one job plays, at most (a wait needs a handful)


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


def play_wait(redis: Any, service: Any, game_id: str, wait: int, settings: Settings) -> int:
    """Play the bot's commands while the game waits for the bot in wait `wait`; how many it played."""
    played = 0
    seating = roster.seating_of(redis, game_id)
    clock = game_clock.current(redis, service, game_id, seating.tc)
    for _ in range(MAX_COMMANDS):
        if clock is None or clock.over or clock.wait != wait or clock.seat not in seating.bots:
            break
        loaded = service.load(game_id)
        if loaded.version != clock.version:
            clock = game_clock.current(redis, service, game_id, seating.tc)
            continue
        command = choose(loaded.state, clock.seat, random.Random(f"{game_id}:{loaded.version}"))
        try:
            service.execute(game_id, clock.seat, command, expected_version=loaded.version, actor=SYSTEM)
        except ConflictError:
            clock = game_clock.current(redis, service, game_id, seating.tc)
            continue
        played += 1                     # the service's hook did the command's follow-up
        clock = game_clock.current(redis, service, game_id, seating.tc)
    if played == 0:
        turns.after_change(redis, service, game_id, settings=settings)
    return played
