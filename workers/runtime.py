"""What a job needs from its process: the Redis connection, a GameService on it, the time, settings.

Jobs receive only JSON-able arguments; they find the connection through RQ (the worker's) and
keep one GameService per connection, so the service's cache of recent states serves every job.
`now()` reads the wall clock through `datetime.now`, which tests freeze with freezegun.
"""
from __future__ import annotations

import threading
from importlib import resources
from datetime import datetime, timezone
from typing import Any

from rq import get_current_job

from events import GameService

from .settings import Settings

_services: dict[int, tuple[Any, GameService]] = {}
_lock = threading.Lock()


def now() -> float:
    """Epoch seconds (UTC): judged against deadlines computed from recorded times."""
    return datetime.now(timezone.utc).timestamp()


def settings() -> Settings:
    return Settings.from_env()


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


def service(redis: Any) -> GameService:
    """One GameService per connection (its cache of latest states is per process)."""
    with _lock:
        known = _services.get(id(redis))
        if known is None or known[0] is not redis:
            known = (redis, GameService(redis))
            _services[id(redis)] = known
        return known[1]


_scripts: dict[str, Any] = {}


def lua(name: str) -> str:
    """The text of a script under events/lua/ (every Lua script of the project lives there)."""
    return resources.files("events").joinpath(f"lua/{name}").read_text()


def run_script(redis: Any, text: str, keys: list, args: list, client: Any = None) -> Any:
    """Run a Lua script by its SHA (loaded on first use), on `client` (a pipeline) or `redis`."""
    script = _scripts.get(text)
    if script is None:
        script = _scripts[text] = redis.register_script(text)
    return script(keys=keys, args=args, client=client if client is not None else redis)
