"""The RQ jobs: thin, idempotent, JSON-able arguments, deterministic ids (see workers/queues.py).

Each finds its connection and GameService through workers/runtime.py and hands over to the module
that knows the work. Running a job twice, or after the player moved, changes nothing more: a job
whose worker died is run again (workers/recovery.py). Timeouts and reminders are no jobs: the
deadline loop applies them (workers/deadline_loop.py); the `timeout` and `remind` jobs that earlier
versions scheduled in RQ hand their wait over to it.
"""
from __future__ import annotations

from typing import Any

from rq import get_current_job

from events import due

from . import bots, endgame, followup, push, review, runtime, webhooks

def bot_move(game_id: str, wait: int) -> int:
    redis = runtime.connection()
    return bots.play_wait(redis, followup.service(redis), game_id, wait, runtime.settings())


def finish_game(game_id: str) -> dict[str, Any] | None:
    redis = runtime.connection()
    return endgame.finish(redis, followup.service(redis), game_id, runtime.settings())


def review_game(game_id: str) -> dict[str, Any]:
    redis = runtime.connection()
    return review.run(redis, followup.service(redis), game_id)


def deliver_webhook(player_id: str, delivery_id: str, body: str) -> int:
    job = get_current_job()
    attempt = 1
    if job is not None and job.retries_left is not None:
        attempt = len(runtime.settings().webhook_retries) - job.retries_left + 1
    return webhooks.deliver(runtime.connection(), player_id, delivery_id, body, attempt,
                            runtime.settings().webhook_timeout)


def deliver_push(player_id: str, subscription_id: str, body: str) -> int:
    return push.deliver(runtime.connection(), player_id, subscription_id, body, runtime.settings().webhook_timeout)


# --- jobs that versions before the deadline loop scheduled in RQ: handed over to the loop -----------

def timeout(game_id: str, wait: int, attempt: int = 0) -> None:
    """Time out the wait when due: the deadline loop judges it at once (and again at the deadline)."""
    _hand_over("timeout", game_id, wait)


def remind(game_id: str, wait: int) -> None:
    _hand_over("remind", game_id, wait)


def _hand_over(kind: str, game_id: str, wait: int) -> None:
    due.add(runtime.connection(), {due.member(kind, game_id, wait): runtime.now()})
