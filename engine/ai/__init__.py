"""Computer players: they think only about what their seat has seen.

    knowledge = Knowledge(seat).observe(redact(e, seat) for e in events)   # or the seat's event feed
    command = play(knowledge, options, level=3, seed="...")                # options: the seat's legal commands

`play` returns one of `options` (the seat's own legal commands, as /legal lists them), so a bot
never sends an illegal command. Levels (engine/ai/levels.py) count their budgets in simulations and
the caller gives the seed: the same knowledge, options, level and seed give the same command.
Standard library only; no clock, no global random.
"""
from __future__ import annotations

import random

from ..shapes import Command
from .knowledge import Knowledge
from .levels import CHEAPEST, LEVELS, STRONGEST, Level
from .policy import SKIPPED, choose, forced
from .search import search

__all__ = ["CHEAPEST", "LEVELS", "STRONGEST", "Knowledge", "Level", "play", "play_as"]


def _same(a: Command, b: Command) -> bool:
    return all(a.get(k) == b.get(k) for k in set(a) | set(b) if k not in ("seat", "squares"))


def play(knowledge: Knowledge, options: list[Command], level: int, seed: str) -> Command:
    """The level's command for the knowledge's seat, one of `options`."""
    return play_as(knowledge, options, LEVELS[level], f"{seed}:{level}")


def play_as(knowledge: Knowledge, options: list[Command], chosen: Level, seed: str) -> Command:
    """`play` for any level, listed or not (bench/tune.py tries levels with other weights)."""
    rng = random.Random(seed)
    usable = [c for c in options if c["type"] not in SKIPPED] or list(options)
    if not usable:
        raise ValueError("the seat has no command to play")
    plain = forced(usable)
    if plain is not None:
        return plain
    if chosen.budget is not None:
        found, _ = search(knowledge, rng, chosen.budget)
        match = next((c for c in usable if found is not None and _same(c, found)), None)
        if match is not None:
            return match
    deal = knowledge.sample(rng)
    if deal is None:
        return usable[0]
    return choose(deal, knowledge.seat, rng, chosen.style, options=usable)
