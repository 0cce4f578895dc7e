"""What a job needs from its process: the Redis connection, the time, settings.

Jobs receive only JSON-able arguments; they find the connection through RQ (the worker's); their
GameService, one per connection with its follow-up hook, is workers/followup.py's `service`.
`now()` (events/clocks.py) reads the wall clock through `datetime.now`, which tests freeze with
freezegun; `lua` and `run_script` (events/scripts.py) run the scripts under events/lua/.
"""
from __future__ import annotations

import threading
from typing import Any

from rq import get_current_job

from events.clocks import now
from events.scripts import lua, run_script

from events.settings import Settings, current

__all__ = ["connection", "data_for", "lua", "now", "run_script", "settings"]
_lock = threading.Lock()


def settings() -> Settings:
    """The process's settings (events/settings.py): `python -m workers` installs them at start."""
    return current()


_clusters: dict[str, Any] = {}


def data_for(queue_redis: Any) -> Any:
    """The game data's connection next to RQ's `queue_redis`: the process's Cluster client when
    REDIS_CLUSTER_URL is set, else `queue_redis` itself (it then holds everything)."""
    from events import connection as connections
    url = connections.cluster_url()
    if not url:
        return queue_redis
    with _lock:
        if url not in _clusters:
            _clusters[url] = connections.connect()
        return _clusters[url]


def connection() -> Any:
    """The game data's connection for the running job (see data_for); outside a job, the one
    events.connect() makes. The queues beside it: `events.connection.queue_for(connection())`."""
    job = get_current_job()
    if job is not None:
        return data_for(job.connection)
    from events import connect
    return data_for(None) or connect()
