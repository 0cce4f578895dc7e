"""Which game is a finished game's rematch offer: one at a time, however many players click at once.

A rematch is offered as a game waiting for every human seat to accept (events/invitations.py holds
its answers). The finished game keeps the id of its current offer (keys.rematch); making an offer
holds a short lock (keys.rematch_lock), so two players clicking together make one offer and the
second one's click is an acceptance of it. A cancelled offer (declined, withdrawn, expired) may be
replaced by a new one.

    with rematches.making(redis, game_id) as current:     # the offer in force, or None
        if current is None: ...make it, then rematches.point(redis, game_id, new_id)...
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Any, Iterator

from . import keys
from .replies import text_or_none

LOCK_SECONDS = 10           # a maker that died frees the lock after this
WAIT_SECONDS = 5.0          # how long another maker waits for the lock


class Busy(Exception):
    """Another caller is making this game's offer and did not finish in time."""


def current(redis: Any, game_id: str) -> str | None:
    """The id of the game's latest rematch offer (open or not), None when none was made."""
    return text_or_none(redis.get(keys.rematch(game_id)))


def point(redis: Any, game_id: str, offer_id: str) -> None:
    redis.set(keys.rematch(game_id), offer_id)


@contextmanager
def making(redis: Any, game_id: str) -> Iterator[str | None]:
    """Hold the game's offer-making lock; yields the offer then in force (its id) or None."""
    token = str(time.monotonic_ns())
    deadline = time.monotonic() + WAIT_SECONDS
    while not redis.set(keys.rematch_lock(game_id), token, nx=True, ex=LOCK_SECONDS):
        if time.monotonic() > deadline:
            raise Busy(game_id)
        time.sleep(0.02)
    try:
        yield current(redis, game_id)
    finally:
        if text_or_none(redis.get(keys.rematch_lock(game_id))) == token:
            redis.delete(keys.rematch_lock(game_id))
