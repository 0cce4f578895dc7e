"""Bots: seats played by the computer (engine/ai), on a queue and worker processes of their own.

A bot thinks only about what its seat has seen: its knowledge is folded from the game's events as
the service redacts them for that seat, the same feed a person's client reads, and its options
are the seat's own legal commands. Its seed is derived from the server secret with the game, the
seat and the version (never from the game's own seed, which decides the shuffles), so a bot game
replays identically and nobody can work out the bot's choices from the game. It never resigns.
"""
from __future__ import annotations

from typing import Any

from engine.ai import Knowledge
from events import SYSTEM, ConflictError, game_clock, roster
from events.bot_choice import choose
from events.email_prefs import server_secret

from . import turns
from events.settings import Settings

MAX_COMMANDS = 200                  # commands one job plays, at most (a wait needs a handful)


def play_wait(redis: Any, service: Any, game_id: str, wait: int, settings: Settings) -> int:
    """Play the bot's commands while the game waits for the bot in wait `wait`; how many it played."""
    played = 0
    seating = roster.seating_of(redis, game_id)
    clock = game_clock.current(redis, service, game_id, seating.tc)
    secret = server_secret(redis)
    known: dict[int, Knowledge] = {}
    for _ in range(MAX_COMMANDS):
        if clock is None or clock.over or clock.wait != wait or clock.seat not in seating.bots:
            break
        seat = clock.seat
        level = roster.bot_level(seating.seats[seat]) or 1
        command, known[seat] = choose(service, game_id, seat, clock.version, level, secret, known.get(seat))
        try:
            service.execute(game_id, seat, command, expected_version=clock.version, actor=SYSTEM)
        except ConflictError:
            clock = game_clock.current(redis, service, game_id, seating.tc)
            continue
        played += 1                     # the service's hook did the command's follow-up
        clock = game_clock.current(redis, service, game_id, seating.tc)
    if played == 0:
        turns.after_change(redis, service, game_id, settings=settings)
    return played
