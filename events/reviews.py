"""Reviews of finished games in Redis: asked for once, then written by the review job.

A review is one JSON value per game: `status` (pending while the job runs, done, or failed),
`simulations` (its budget) and, once done, `moves`: each judged move with the versions it spans,
its seat, the winning chances as played and at best, its mark and the better first command
(engine/ai/review.py). Asking again for a review that exists changes nothing.
"""
from __future__ import annotations

import json
from typing import Any

from . import keys

PENDING, DONE, FAILED = "pending", "done", "failed"
Review = dict[str, Any]                 # the stored JSON: status, simulations, requested, moves


def ask(redis: Any, game_id: str, simulations: int, now: float) -> tuple[Review, bool]:
    """(the game's review, True when this call asked for it): a new one is pending. A failed one is asked again."""
    pending: Review = {"status": PENDING, "simulations": simulations, "requested": now, "moves": []}
    if redis.set(keys.review(game_id), json.dumps(pending), nx=True):
        return pending, True
    found = load(redis, game_id) or pending
    if found["status"] == FAILED:
        redis.set(keys.review(game_id), json.dumps(pending))
        return pending, True
    return found, False


def load(redis: Any, game_id: str) -> Review | None:
    raw = redis.get(keys.review(game_id))
    found: Review | None = json.loads(raw) if raw else None
    return found


def save(redis: Any, game_id: str, review: Review) -> None:
    redis.set(keys.review(game_id), json.dumps(review))
