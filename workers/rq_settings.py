"""Settings module for RQ's own command line (`rq worker -c workers.rq_settings ...`, see Procfile).

REDIS_URL as the application uses it for RQ (events/connection.py): the environment's, else the
embedded redis-server under ARENA_DATA_DIR (started if need be) by its Unix socket. Game data may
be elsewhere (REDIS_CLUSTER_URL); jobs find it through workers/runtime.py.
"""
from __future__ import annotations

from events.connection import queue_url

REDIS_URL = queue_url()
