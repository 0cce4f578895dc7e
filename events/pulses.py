"""Worker pulses: a key per worker process, alive while the process is.

Each worker's deadline loop renews its pulse (keys.worker_pulse) every PULSE_SECONDS, beside the
job being worked on; the key lapses PULSE_TTL_MS after the last renewal, so a killed worker is
known dead within seconds. Read by /health (how many workers are alive) and by the workers'
rescue of jobs whose worker died (workers/recovery.py). The key lives on the queue Redis (RQ's).
"""
from __future__ import annotations

from typing import Any

from . import keys

PULSE_SECONDS = 1.0
PULSE_TTL_MS = 3000


def pulse(redis: Any, worker_name: str) -> None:
    """The worker is alive for PULSE_TTL_MS more."""
    redis.set(keys.worker_pulse(worker_name), "1", px=PULSE_TTL_MS)


def alive(redis: Any, worker_name: str) -> bool:
    return bool(redis.exists(keys.worker_pulse(worker_name)))
