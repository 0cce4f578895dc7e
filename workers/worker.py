"""The worker process: an RQ SimpleWorker (jobs are short and trusted, so no fork per job) that
makes sure the sweeper runs when it starts and at each of its maintenance rounds.

    rq worker --with-scheduler -c workers.rq_settings -w workers.worker.ArenaWorker arena arena-notify
    arena worker                          # the same, from the `arena` command line
"""
from __future__ import annotations

from typing import Any

from rq import Queue
from rq.worker import SimpleWorker

from . import jobs, runtime
from .settings import Settings

MAINTENANCE_SECONDS = 60


class ArenaWorker(SimpleWorker):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("maintenance_interval", MAINTENANCE_SECONDS)
        super().__init__(*args, **kwargs)

    def work(self, *args: Any, **kwargs: Any) -> bool:
        self._burst = bool(kwargs.get("burst"))
        if not self._burst:
            jobs.ensure_sweeper(self.connection, runtime.settings())
        return super().work(*args, **kwargs)

    def subscribe(self) -> None:
        """Listen for RQ's commands (stop, kill) unless in burst mode: a burst ends by itself, and
        leaving the channel costs a second."""
        if not getattr(self, "_burst", False):
            super().subscribe()

    def run_maintenance_tasks(self) -> None:
        super().run_maintenance_tasks()
        jobs.ensure_sweeper(self.connection, runtime.settings())


def make_worker(redis: Any, settings: Settings, queue_names: list[str] | None = None,
                name: str | None = None) -> ArenaWorker:
    names = queue_names or [settings.queue, settings.notify_queue]
    return ArenaWorker([Queue(n, connection=redis) for n in names], connection=redis, name=name)
