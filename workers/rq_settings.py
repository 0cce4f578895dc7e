"""Settings module for RQ's own command line (`rq worker -c workers.rq_settings ...`, see Procfile).

REDIS_URL as the application uses it: the environment's, else the embedded redis-server under
ARENA_DATA_DIR (started if need be) by its Unix socket.
"""
from __future__ import annotations

import os


def redis_url() -> str:
    url = os.environ.get("REDIS_URL")
    if url:
        return url
    from events.embedded import EmbeddedRedis, data_dir
    server = EmbeddedRedis(data_dir())
    server.ensure_running()
    return f"unix://{server.socket_path}"


REDIS_URL = redis_url()
