"""Real processes for the crash tests: a redis-server that can be killed and started again on the
same port and files, and `arena worker` processes. Every process is started here, on 127.0.0.1,
and ended by its own pid (kill -9 where the crash is the point)."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import redis

from events import keys
from events.redis_process import RedisProcess, free_port, start_redis

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60                  # a loaded 2-core machine starts Python processes slowly
_pause = threading.Event()


def wait_for(condition: Callable[[], object], seconds: float, what: str, step: float = 0.05):
    """Poll `condition` until it is true or `seconds` have passed (then fail, naming `what`)."""
    end = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"not within {seconds} s: {what}")
        _pause.wait(step)


class DurableRedis:
    """A redis-server with the append-only file flushed on every write (as the embedded one)."""

    def __init__(self, workdir: Path) -> None:
        self.workdir, self.port = workdir, free_port()
        self.server: RedisProcess | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self):
        return redis.Redis.from_url(self.url)

    def start(self) -> None:
        self.server = start_redis(self.workdir, {"port": self.port, "appendonly": "yes", "appendfsync": "always"})

    def kill9(self) -> None:
        os.kill(self.server.process.pid, signal.SIGKILL)
        self.server.process.wait()

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()


class Worker:
    """`python -m workers --queue <queue>` (the worker of `arena worker` and the Procfile) as its own process."""

    def __init__(self, redis_url: str, data_dir: Path, queue: str = "arena", **env: str) -> None:
        environ = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_PAUSE")}
        environ.update(REDIS_URL=redis_url, ARENA_DATA_DIR=str(data_dir), **env,
                       PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.started = time.time()
        self.process = subprocess.Popen([sys.executable, "-m", "workers", "--queue", queue], cwd=ROOT,
                                        env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def kill9(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """SIGTERM (a warm shut-down), then kill -9 after 10 s."""
        if self.process.poll() is None:
            self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        if self.process.poll() is None:
            self.kill9()


def pulses(redis) -> set[bytes]:
    """The pulse keys of the worker processes alive (each renews its own every second)."""
    return set(redis.keys(keys.worker_pulse("*")))
