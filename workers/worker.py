"""The worker process: an RQ SimpleWorker (jobs are short and trusted, so no fork per job) with a
deadline loop beside it (workers/deadline_loop.py), and no RQ scheduler.

    arena worker --queue arena              game jobs, and the deadline loop applies the deadlines
    arena worker --queue arena-notify       webhook deliveries only: a process of their own, so a
                                            slow or dead receiver never holds up anything else
    arena worker --queue arena-bots --nice 10   the computer players' moves: niced processes of
                                            their own, so bot thinking never delays a deadline
    python -m workers --queue arena         the same as `arena worker`, without the web app's imports
    rq worker -w workers.worker.ArenaWorker -c workers.rq_settings arena     (the same, with RQ's CLI)

The loop tends the deadline index and sweeps the lobby only in a worker of the game queue; in every worker it renews the
process's pulse, hands back jobs of dead workers and moves due scheduled jobs (webhook retries).
If RQ's work loop ends by itself (it quits on an unexpected error, e.g. Redis going away at the
wrong moment), the worker starts it again under a fresh name instead of exiting; only a stop
request (SIGTERM, Ctrl-C) ends it. A burst worker (tests) deals with what is due before and after
working its queues, in its own thread.
"""
from __future__ import annotations

import logging
import threading
from typing import Any

from rq import Queue
from rq.worker import SimpleWorker

from events import layout, lobby

from . import runtime
from .deadline_loop import DeadlineLoop
from events.settings import Settings

log = logging.getLogger(__name__)
MAINTENANCE_SECONDS = 60
RESTART_PAUSE = 0.5


class ArenaWorker(SimpleWorker):
    max_connection_wait_time = 2.0      # RQ's retries while Redis is away: back within 2 s of it, not 60

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("maintenance_interval", MAINTENANCE_SECONDS)
        super().__init__(*args, **kwargs)
        self.stopping = False
        self._base_name, self._restarts = self.name, 0

    def deadline_loop(self) -> DeadlineLoop:
        settings = runtime.settings()
        loop_client = type(self.connection)(connection_pool=self.connection.connection_pool)    # its own service
        return DeadlineLoop(runtime.data_for(loop_client), settings, self.queues, name=lambda: self.name,
                            tend=settings.queue in self.queue_names())

    def work(self, *args: Any, **kwargs: Any) -> bool:
        kwargs["with_scheduler"] = False            # the deadline loop does the scheduler's work
        self._burst = bool(kwargs.get("burst"))
        loop = self.deadline_loop()
        layout.ensure_quietly(loop.redis, runtime.now(), lobby.table_ttl())    # data an older version left in old keys
        if self._burst:
            try:
                loop.drain()
                worked = super().work(*args, **kwargs)
                loop.drain()
                return worked
            finally:
                loop.stop()
        loop.start()
        try:
            return self._work_until_stopped(*args, **kwargs)
        finally:
            loop.stop()

    def _work_until_stopped(self, *args: Any, **kwargs: Any) -> bool:
        pause = threading.Event()
        while True:
            try:
                worked = super().work(*args, **kwargs)
            except Exception:                       # noqa: BLE001 - e.g. Redis down while registering
                log.exception("worker %s: its loop failed", self.name)
                worked = False
            if self.stopping:
                return worked
            self._restarts += 1
            self.name = f"{self._base_name}-{self._restarts}"
            log.warning("worker: RQ's loop ended by itself; starting again as %s", self.name)
            pause.wait(RESTART_PAUSE)

    def request_stop(self, signum: Any, frame: Any) -> None:
        self.stopping = True
        super().request_stop(signum, frame)

    def request_force_stop(self, signum: Any, frame: Any) -> None:
        self.stopping = True
        super().request_force_stop(signum, frame)

    def subscribe(self) -> None:
        """Listen for RQ's commands (stop, kill) unless in burst mode: a burst ends by itself, and
        leaving the channel costs a second."""
        if not getattr(self, "_burst", False):
            super().subscribe()


def run(queue_names: list[str] | None = None, burst: bool = False) -> bool:
    """Work the queues (default: all three) on REDIS_URL (or the embedded Redis) until stopped; game data
    on REDIS_CLUSTER_URL's Cluster when it is set."""
    from events.connection import connect_queue
    return make_worker(connect_queue(), runtime.settings(), queue_names).work(burst=burst, logging_level="INFO")


def make_worker(redis: Any, settings: Settings, queue_names: list[str] | None = None,
                name: str | None = None) -> ArenaWorker:
    names = queue_names or [settings.queue, settings.notify_queue, settings.bot_queue]
    return ArenaWorker([Queue(n, connection=redis) for n in names], connection=redis, name=name)
