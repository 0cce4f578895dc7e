"""What a job needs from its process: the Redis connection, a GameService on it, the time, settings.

Jobs receive only JSON-able arguments; they find the connection through RQ (the worker's) and
keep one GameService per connection, so the service's cache of recent states serves every job.
`now()` reads the wall clock through `datetime.now`, which tests freeze with freezegun.
"""
from __future__ import annotations

import threading
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


def connection() -> Any:
    """The running job's connection; outside a job, REDIS_URL's (or the embedded server's)."""
    job = get_current_job()
    if job is not None:
        return job.connection
    from events import connect
    return connect()


def service(redis: Any) -> GameService:
    """One GameService per connection (its cache of latest states is per process)."""
    with _lock:
        known = _services.get(id(redis))
        if known is None or known[0] is not redis:
            known = (redis, GameService(redis))
            _services[id(redis)] = known
        return known[1]


_scripts: dict[str, Any] = {}


def run_script(redis: Any, text: str, keys: list, args: list, client: Any = None) -> Any:
    """Run a Lua script by its SHA (loaded on first use), on `client` (a pipeline) or `redis`."""
    script = _scripts.get(text)
    if script is None:
        script = _scripts[text] = redis.register_script(text)
    return script(keys=keys, args=args, client=client if client is not None else redis)
