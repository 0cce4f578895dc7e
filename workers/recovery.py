"""No job is lost with its worker, and no job waits on RQ's scheduler lock.

- Pulse: every worker process keeps its pulse (events/pulses.py) alive, renewed by its deadline
  loop's thread, which runs beside the job being worked on.
- Abandoned jobs: RQ records each running job as an execution (in the queue's StartedJobRegistry)
  with the name of its worker. An execution whose worker has no pulse belongs to a dead process:
  its registry entry is made due, and RQ's own abandoned-job handling (`StartedJobRegistry.cleanup`)
  takes it from there: the job's Retry re-enqueues it (at once for game jobs, after the next
  interval for webhooks), or it is recorded as failed when it has no retries left. RQ alone would
  notice only when the entry expires (the job's timeout plus a minute).
- Scheduled jobs (webhook retries): moved to their queue when due by one loop at a time, under a
  redis-py Lock on the queue's promotion key that lapses within a second if its holder was killed.
  This replaces `rq worker --with-scheduler`, whose lock outlives a killed scheduler by minutes.
"""
from __future__ import annotations

import contextlib
import logging
from typing import Any, Iterable

from redis.exceptions import LockError
from rq import Queue
from rq.executions import Execution
from rq.job import Job
from rq.registry import ScheduledJobRegistry, StartedJobRegistry
from rq.utils import parse_composite_key

from events import keys
from events.pulses import alive
from events.replies import text

log = logging.getLogger(__name__)
PROMOTION_SECONDS = 0.9           # a killed promoter holds the others up this long at most


def rescue_abandoned(redis: Any, queues: Iterable[Queue]) -> list[str]:
    """Hand the jobs whose worker is dead to RQ's abandoned-job handling; their ids."""
    rescued = []
    for queue in queues:
        registry = StartedJobRegistry(queue=queue)
        dead = {}
        for raw in redis.zrange(registry.key, 0, -1):
            entry = text(raw)
            job_id, execution_id = parse_composite_key(entry)
            try:
                worker = Execution.fetch(execution_id, job_id, connection=redis).worker_name
            except ValueError:
                continue                # no execution record: RQ's own expiry deals with the entry
            if worker and not alive(redis, worker):
                dead[entry] = 0
        if dead:
            redis.zadd(registry.key, dead, xx=True)
            registry.cleanup(timestamp=1)
            rescued += [parse_composite_key(entry)[0] for entry in dead]
            log.warning("jobs of dead workers handed back to RQ: %s", ", ".join(sorted(dead)))
    return rescued


def promote_scheduled(redis: Any, queue: Queue, now: float) -> int:
    """Move the queue's scheduled jobs that are due into the queue, unless another loop is doing it
    (one at a time, so none is moved twice); how many."""
    lock = redis.lock(keys.promotion(queue.name), timeout=PROMOTION_SECONDS, blocking=False)
    if not lock.acquire():
        return 0
    try:
        registry = ScheduledJobRegistry(queue=queue)
        ids = registry.get_jobs_to_schedule(int(now))
        if not ids:
            return 0
        jobs = Job.fetch_many(ids, connection=redis, serializer=queue.serializer)
        with redis.pipeline() as pipe:
            for job_id, job in zip(ids, jobs):
                if job is not None:
                    queue.enqueue_job(job, pipeline=pipe, at_front=job.should_enqueue_at_front())
                registry.remove(job_id, pipeline=pipe)
            pipe.execute()
        return sum(1 for job in jobs if job is not None)
    finally:
        with contextlib.suppress(LockError):
            lock.release()
