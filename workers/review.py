"""Game review jobs: every move of a finished game judged by engine/ai/review.py, on the bot queue.

The review reads the game's whole record (public once the game is over) and judges each move from
what its seat knew then; its budget is ARENA_REVIEW_SIMULATIONS simulations per move and its seed
is derived from the server secret with the game, so a review is the same every time it is made.
It runs on the computer players' queue, in their niced processes, so it never delays a person's
move or a deadline. A job that fails leaves the review `failed`, and asking again runs it again.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
from typing import Any

from engine.ai.review import review
from events import reviews
from events.email_prefs import server_secret
from events.redaction import engine_event

from . import queues
from events.settings import Settings

log = logging.getLogger(__name__)
REVIEW_JOB_TIMEOUT = 3600


def seed(secret: str, game_id: str) -> str:
    return hmac.new(secret.encode(), f"review:{game_id}".encode(), hashlib.sha256).hexdigest()


def ask(redis: Any, game_id: str, settings: Settings, now: float) -> dict[str, Any]:
    """The game's review; asked for (pending, and its job queued) when there was none, and queued
    again when it is pending with no job queued or running (a job lost with its Redis or worker)."""
    found, asked = reviews.ask(redis, game_id, settings.review_simulations, now)
    job = queues.job_id("review", game_id)
    if asked or (found["status"] == reviews.PENDING and not queues.waiting(redis, [job])):   # its job was lost
        queues.enqueue(queues.bot_queue(redis, settings), "workers.jobs.review_game", game_id,
                       job_id=job, job_timeout=REVIEW_JOB_TIMEOUT)
    return found


def run(redis: Any, service: Any, game_id: str) -> dict[str, Any]:
    """Judge every move of the finished game and store the review."""
    stored = reviews.load(redis, game_id)
    if stored is None or stored["status"] == reviews.DONE:
        return stored or {}
    try:
        envelopes = service.store.read(game_id)
        judged = review([engine_event(env) for env in envelopes], stored["simulations"],
                        seed(server_secret(redis), game_id))
    except Exception:
        log.exception("the review of game %s failed", game_id)
        reviews.save(redis, game_id, {**stored, "status": reviews.FAILED})
        raise
    moves = [{"version": envelopes[j.first].version, "upto": envelopes[j.last].version, "seat": j.seat,
              "chance": j.chance, "best": j.best, "mark": j.mark,
              "better": {k: v for k, v in j.better.items() if k != "seat"} if j.better else None} for j in judged]
    done = {**stored, "status": reviews.DONE, "moves": moves}
    reviews.save(redis, game_id, done)
    return done
