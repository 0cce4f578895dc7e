"""RQ plumbing in one place: job ids, queues, enqueueing, cancelling, and "is a job pending?".

Job ids are deterministic and use only letters, digits, '_' and '-' (game ids already do):

    bot-<game>-<wait>                   a bot plays the wait that began at version <wait>
    finish-<game>                       end-of-game work
    review-<game>                       the game's review (on the bot queue)
    hook-<notification id>              a webhook delivery (the notification id is its delivery id)
    push-<notification id>-<browser>    a Web Push to one subscription of the player (workers/push.py)

Timeouts and reminders are not RQ jobs: the deadline loop applies them (workers/deadline_loop.py).
Game jobs carry a Retry without interval, so a job whose worker died (workers/recovery.py hands it
to RQ's abandoned-job handling) or that failed on a lost connection runs again at once.

Jobs are named by dotted path, so importing this module imports no job code.
"""
from __future__ import annotations

from typing import Any, Iterable

from rq import Queue, Retry
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

from events.connection import queue_for

from . import runtime
from events.settings import Settings

GAME_JOB_TIMEOUT = 120
RESULT_TTL = 0                      # a finished job leaves nothing behind
FAILURE_TTL = 7 * 24 * 3600
GAME_RETRY = Retry(max=3)           # at once: a game job is idempotent, and its worker may have died


def job_id(kind: str, game_id: str, wait: int | None = None) -> str:
    return "-".join([kind, game_id] + ([str(wait)] if wait is not None else []))


def game_queue(redis: Any, settings: Settings) -> Queue:
    return Queue(settings.queue, connection=queue_for(redis))


def bot_queue(redis: Any, settings: Settings) -> Queue:
    """The computer players' moves: worked by niced processes of their own (workers/bots.py)."""
    return Queue(settings.bot_queue, connection=queue_for(redis))


def notify_queue(redis: Any, settings: Settings) -> Queue:
    return Queue(settings.notify_queue, connection=queue_for(redis))


def pipelines(redis: Any) -> tuple[Any, Any]:
    """(jobs, index) for a change of a game's plan: a transaction on the queues' Redis for RQ's
    writes, and where the deadline index's writes go. On one Redis that is the same transaction;
    with game data on a Cluster the index gets a pipeline there, which `execute` runs first (a crash
    in between leaves the index ahead of the jobs, and the deadline loop enqueues what is missing)."""
    queue_redis = queue_for(redis)
    jobs = queue_redis.pipeline()
    jobs.multi()                        # one transaction (RQ's enqueue needs one it need not open)
    return jobs, jobs if queue_redis is redis else redis.pipeline(transaction=False)


def execute(jobs: Any, index: Any) -> None:
    if index is not jobs:
        index.execute()
    jobs.execute()


def enqueue(queue: Queue, func: str, *args: Any, job_id: str, pipeline: Any = None,
            retry: Retry | None = GAME_RETRY, job_timeout: int = GAME_JOB_TIMEOUT) -> Job:
    """Enqueue `func(*args)` now (retried as `retry` says; None: never)."""
    return queue.enqueue(func, *args, job_id=job_id, result_ttl=RESULT_TTL, failure_ttl=FAILURE_TTL,
                         job_timeout=job_timeout, retry=retry, pipeline=pipeline)


_CANCEL = runtime.lua("cancel_jobs.lua")


def cancel(pipeline: Any, queue: Queue, ids: Iterable[str]) -> None:
    """Take jobs that have not started off the schedule and the queue, and drop their data."""
    ids = list(ids)
    runtime.run_script(queue.connection, _CANCEL,
                       [ScheduledJobRegistry(queue=queue).key, queue.key, *(Job.key_for(j) for j in ids)], ids,
                       client=pipeline)


def waiting(redis: Any, ids: list[str]) -> bool:
    """Whether one of the jobs is queued or running (a job whose worker died counts as running
    until workers/recovery.py hands it back to its queue)."""
    for job in Job.fetch_many(ids, connection=queue_for(redis)):
        if job is None:
            continue
        try:
            status = job.get_status(refresh=False)
        except Exception:               # noqa: BLE001 - a half-written job counts as not waiting
            continue
        if status in (JobStatus.QUEUED, JobStatus.STARTED):
            return True
    return False
