"""The RQ jobs: thin, idempotent, JSON-able arguments, deterministic ids (see workers/queues.py).

Each finds its connection and GameService through workers/runtime.py and hands over to the module
that knows the work. Running a job twice, or after the player moved, changes nothing more.
"""
from __future__ import annotations

import logging

from rq import get_current_job

from events import keys

from . import bots, deadlines, endgame, queues, runtime, webhooks

log = logging.getLogger(__name__)


def timeout(game_id: str, wait: int, attempt: int = 0) -> str:
    """Time out wait `wait` of the game if its recorded deadline has passed (else re-schedule)."""
    redis = runtime.connection()
    return deadlines.apply_timeout(redis, runtime.service(redis), game_id, wait, attempt, runtime.settings(),
                                   runtime.now)


def remind(game_id: str, wait: int) -> str:
    redis = runtime.connection()
    return deadlines.remind(redis, runtime.service(redis), game_id, wait, runtime.settings(), runtime.now())


def bot_move(game_id: str, wait: int) -> int:
    redis = runtime.connection()
    return bots.play_wait(redis, runtime.service(redis), game_id, wait, runtime.settings())


def finish_game(game_id: str) -> dict | None:
    redis = runtime.connection()
    return endgame.finish(redis, runtime.service(redis), game_id, runtime.settings())


def deliver_webhook(player_id: str, delivery_id: str, body: str) -> int:
    job = get_current_job()
    attempt = 1
    if job is not None and job.retries_left is not None:
        attempt = len(runtime.settings().webhook_retries) - job.retries_left + 1
    return webhooks.deliver(runtime.connection(), player_id, delivery_id, body, attempt,
                            runtime.settings().webhook_timeout)


def sweep() -> list[str]:
    """Rescue overdue games, then schedule the next sweep."""
    redis = runtime.connection()
    settings = runtime.settings()
    try:
        return deadlines.sweep(redis, runtime.service(redis), settings, runtime.now())
    finally:
        schedule_sweeper(redis, settings, runtime.now() + settings.sweep_seconds)


def schedule_sweeper(redis, settings, when: float) -> str:
    """Schedule the sweep at `when`; its id names the second, so it never replaces a running sweep."""
    jid = f"sweeper-{int(when)}"
    queues.schedule(queues.game_queue(redis, settings), when, "workers.jobs.sweep", job_id=jid)
    redis.set(keys.sweeper(), jid, ex=int(3 * settings.sweep_seconds) + 60)
    return jid


def ensure_sweeper(redis, settings) -> str | None:
    """Start the chain of sweeps unless one ran lately (its key expires after three missed runs)."""
    if redis.set(keys.sweeper(), "starting", nx=True, ex=int(3 * settings.sweep_seconds) + 60):
        return schedule_sweeper(redis, settings, runtime.now())
    return None
