"""Jobs of dead workers go back to their queue: a worker with no pulse has its running jobs handed to
RQ's abandoned-job handling, whose Retry runs them again; a live worker's jobs are left alone."""
from __future__ import annotations

from rq import Queue
from rq.job import JobStatus

from events import pulses
from workers import recovery
from events.settings import Settings
from workers.worker import make_worker

from .helpers import new_game, register, run_worker


def taken_by_a_worker_that_dies(redis, queue: Queue, name: str):
    """Dequeue the queue's first job as worker `name` would when it starts it (then it is killed)."""
    job, _ = Queue.dequeue_any([queue], None, connection=redis)
    make_worker(redis, Settings.load(), [queue.name], name=name).prepare_execution(job)
    job.set_status(JobStatus.STARTED)
    return job


def a_webhook_in_flight(client, redis_db, hook, worker_name: str):
    bob = register(client, "Bob", webhook_url=hook.url)
    new_game(client, creator=bob, players=[{"name": "Ann", "school": "northern"},
                                           {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    queue = Queue("arena-notify", connection=redis_db)
    return queue, taken_by_a_worker_that_dies(redis_db, queue, worker_name)


def test_a_webhook_delivery_whose_worker_died_mid_run_is_delivered_again(client, redis_db, hook):
    queue, job = a_webhook_in_flight(client, redis_db, hook, "gone")
    run_worker(redis_db)                                # its loop sees no pulse of "gone"
    assert [headers["X-Arena-Delivery"] for headers, _ in hook.requests] == [job.id.removeprefix("hook-")]


def test_the_jobs_of_a_worker_with_a_pulse_are_left_alone(client, redis_db, hook):
    queue, job = a_webhook_in_flight(client, redis_db, hook, "busy")
    pulses.pulse(redis_db, "busy")
    assert recovery.rescue_abandoned(redis_db, [queue]) == []
    assert job.get_status() == JobStatus.STARTED and not hook.requests
