"""Which game is a finished game's rematch offer: one at a time, however many players click at once.

A rematch is offered as a game waiting for every human seat to accept (events/invitations.py holds
its answers). The finished game keeps the id of its current offer (keys.rematch); making an offer
holds a short lock (keys.rematch_lock), so two players clicking together make one offer and the
second one's click is an acceptance of it. A cancelled offer (declined, withdrawn, expired) may be
replaced by a new one.

    with rematches.making(redis, game_id) as current:     # the offer in force, or None
        if current is None: ...make it, then rematches.point(redis, game_id, new_id)...

Each change of the offer (made, accepted, declined, withdrawn, started, expired) is told on the
finished game's news stream (keys.rematch_news) as its `standing`, the same for everyone and
without any seat's token; the game's stream carries it to the page, which then asks for its own
view of the offer.
"""
from __future__ import annotations

import json
import time
from contextlib import contextmanager
from typing import Any, Iterator

from . import keys
from .clocks import format_epoch
from .invitations import CANCELLED, STARTED, STARTING, Pending
from .replies import text_or_none

NEWS_KEPT = 100             # entries of a game's rematch news kept (a few offers' worth)
STATUS = {"invitation_declined": "declined", "rematch_withdrawn": "withdrawn", "invitation_expired": "expired"}

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


def standing(game_id: str, pending: Pending) -> dict[str, Any]:
    """How the offer `pending` of the finished game stands, as every player may see it: its status,
    each seat of the new game and whether it has accepted, until when (no seat token)."""
    spec = pending.spec
    status = {STARTING: "starting", STARTED: "started"}.get(pending.status, "offered")
    if pending.status == CANCELLED:
        status = STATUS.get(pending.reason, "expired")
    seats = [{"seat": i, "previous_seat": (i + 1) % len(spec["seats"]), "name": s["name"], "player": s.get("player"),
              "bot": s.get("bot", False), "accepted": s.get("bot", False) or pending.answers.get(i) == "accepted"}
             for i, s in enumerate(spec["seats"])]
    return {"game_id": game_id, "status": status, "rematch_id": pending.game_id,
            "offered_by": spec["info"].get("offered_by"), "expires": format_epoch(pending.deadline), "seats": seats}


def tell(redis: Any, game_id: str, pending: Pending) -> None:
    """Append how the offer stands now to the finished game's rematch news."""
    redis.xadd(keys.rematch_news(game_id), {"data": json.dumps(standing(game_id, pending))},
               maxlen=NEWS_KEPT, approximate=True)
