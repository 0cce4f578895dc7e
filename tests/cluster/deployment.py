"""A small production-like deployment for tests: a local Redis Cluster, a queue Redis, and `arena web`
and `arena worker` processes started as the README's cluster section says, on free loopback ports.

Every process is a child of the test (and dies with it, PR_SET_PDEATHSIG); `stop()` ends exactly
those, by pid.
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from events.redis_process import RedisCluster, RedisProcess, _die_with_parent, free_port, start_cluster, start_redis

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 90                  # four Python processes on a loaded 2-core machine start slowly


class Http:
    """One keep-alive connection to a web process. A kept connection the server has closed meanwhile
    is opened again once (the callers' POSTs carry an Idempotency-Key, so a resend is safe)."""

    def __init__(self, port: int, timeout: float = 15.0) -> None:
        self.port, self.timeout, self.conn = port, timeout, None

    def call(self, method: str, path: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, Any]:
        reused = self.conn is not None
        try:
            return self._call(method, path, body, headers)
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            if not reused:
                raise
            return self._call(method, path, body, headers)

    def _call(self, method: str, path: str, body: dict | None, headers: dict | None) -> tuple[int, Any]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            self.conn.request(method, path, body=json.dumps(body) if body is not None else None,
                              headers={"Content-Type": "application/json", **(headers or {})})
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise
        try:
            return response.status, json.loads(data) if data else {}
        except ValueError:
            return response.status, {"raw": data[:200].decode(errors="replace")}


@dataclass
class Deployment:
    cluster: RedisCluster
    queue: RedisProcess
    data_dir: Path
    web_ports: list[int]
    processes: list[subprocess.Popen] = field(default_factory=list)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.cluster.stop()
        self.queue.stop()

    def master_of(self, key: str) -> RedisProcess:
        client = self.cluster.client()
        port = client.get_node_from_key(key).port
        client.close()
        return next(p for p in self.cluster.processes if p.port == port)

    def kill(self, node: RedisProcess) -> None:
        """kill -9 one of the Cluster's own redis-server processes."""
        os.kill(node.process.pid, signal.SIGKILL)
        node.process.wait()


def environment(cluster: RedisCluster, queue: RedisProcess, data_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of every Arena process, as the README's cluster deployment sets it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REDIS_", "ARENA_"))}
    env.update(REDIS_CLUSTER_URL=cluster.url, REDIS_URL=queue.url, ARENA_DATA_DIR=str(data_dir),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **extra)
    return env


def start(workdir: Path, webs: int = 2, workers: int = 2, threads: int = 6, node_timeout: int = 1000,
          **extra: str) -> Deployment:
    """The Cluster (3 masters, a replica each), the queue Redis, then `webs` web and `workers` worker
    processes; returns once every web process answers /health."""
    cluster = start_cluster(workdir / "cluster", masters=3, replicas=1, node_timeout=node_timeout)
    queue = start_redis(workdir / "queue")
    data_dir = workdir / "data"
    deployment = Deployment(cluster, queue, data_dir, [free_port() for _ in range(webs)])
    env = environment(cluster, queue, data_dir, **extra)
    cli = [sys.executable, "-m", "server.cli"]
    try:
        for port in deployment.web_ports:
            deployment.processes.append(_spawn(cli + ["web", "--port", str(port), "--web-workers", "1",
                                                      "--threads", str(threads)], env))
        for _ in range(workers):
            deployment.processes.append(_spawn(cli + ["worker"], env))
        for port in deployment.web_ports:
            _await_health(port, deployment.processes)
        return deployment
    except BaseException:
        deployment.stop()
        raise


def _spawn(argv: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=_die_with_parent)


def _await_health(port: int, processes: list[subprocess.Popen]) -> None:
    deadline = time.monotonic() + START_SECONDS
    pause = threading.Event()
    while time.monotonic() < deadline:
        assert all(p.poll() is None for p in processes), "an Arena process exited while starting"
        try:
            if Http(port, timeout=2).call("GET", "/health")[0] == 200:
                return
        except OSError:
            pass
        pause.wait(0.1)
    raise AssertionError(f"the web process on port {port} did not become healthy")
