"""Durable acknowledgement: a write is answered only once a replica of its master holds it.

Redis replicates asynchronously, so a move acknowledged by a master that dies a moment later could
vanish with it when its replica takes over. Writes that must outlive their master therefore go
through `Replication.execute`: the commands and a `WAIT <replicas> <ms>` are pipelined on one
connection to the master that owns the key (WAIT counts the replicas that have everything that
connection wrote, and the replication stream is in order, so also every earlier write there).

    ARENA_WAIT_REPLICAS   replicas that must confirm a write (default 1; 0 turns waiting off)
    ARENA_WAIT_MS         how long to wait for them, in milliseconds (default 1000)

A master with no replica connected cannot confirm anything: writes to it are then answered as
before (in its AOF, fsynced when `appendfsync always`) and `status()` says durability is degraded,
which /health reports. When replicas are connected but none confirms in time, NotReplicated is
raised: the write may or may not survive a failover, so the caller is told to retry, and a retry
with the same idempotency key gets the original answer if the write survived.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from redis.exceptions import (AskError, ClusterDownError, ConnectionError, MovedError, NoScriptError, TimeoutError,
                              TryAgainError)

from .connection import is_cluster
from .errors import NotReplicated
from .settings import Settings, current

CACHE_SECONDS = 2.0             # how long a master's replica count is trusted
MAX_ATTEMPTS = 4                # a MOVED/ASK/NOSCRIPT answer means nothing ran: try again

Call = Callable[[Any], Any]     # one command, given the client (or pipeline) to run it on


@dataclass
class Replication:
    replicas: int = 1
    timeout_ms: int = 1000
    _counts: dict[str, tuple[float, int]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def of(cls, settings: Settings) -> "Replication":
        """ARENA_WAIT_REPLICAS and ARENA_WAIT_MS."""
        return cls(settings.wait_replicas, settings.wait_ms)

    def execute(self, redis: Any, key: str, *calls: Call, scripts: Sequence[str] = ()) -> list[Any]:
        """Run `calls` (all on `key`'s slot) in one pipeline on the master that owns `key`, and
        return their results once a replica has them. `scripts`: the Lua the calls run by SHA
        (loaded when that master does not know them yet)."""
        for attempt in range(MAX_ATTEMPTS):
            node = _node_client(redis, key)
            try:
                waiting = self.replicas > 0 and self.replicas_of(node) > 0     # none: degraded, as before
                pipe = node.pipeline(transaction=False)
                for call in calls:
                    call(pipe)
                if waiting:
                    pipe.execute_command("WAIT", self.replicas, self.timeout_ms)
                results = pipe.execute()
            except NoScriptError:
                for text in scripts:
                    node.script_load(text)                      # nothing ran: load, then run
                continue
            except (MovedError, AskError, TryAgainError, ClusterDownError):
                _refresh(redis)                                 # nothing ran: ask the slot's new owner
                if attempt + 1 == MAX_ATTEMPTS:
                    raise
                continue
            except (ConnectionError, TimeoutError):
                _refresh(redis)                                 # it may have run: the caller decides
                raise
            if not waiting:
                return results
            *results, confirmed = results
            if int(confirmed) < self.replicas and self.replicas_of(node, fresh=True) > 0:
                raise NotReplicated(key, self.replicas, int(confirmed), self.timeout_ms)
            return results
        raise ClusterDownError(f"no master took the write of {key!r} after {MAX_ATTEMPTS} attempts")

    def replicas_of(self, node: Any, fresh: bool = False) -> int:
        """How many replicas the master behind `node` has connected (cached for a moment)."""
        name = _name(node)
        now = time.monotonic()
        with self._lock:
            known = self._counts.get(name)
        if known is not None and not fresh and now - known[0] < CACHE_SECONDS:
            return known[1]
        count = int(node.info("replication").get("connected_slaves", 0))
        with self._lock:
            self._counts[name] = (now, count)
        return count

    def status(self, redis: Any) -> dict[str, Any]:
        """For /health: whether every master can confirm writes, and which cannot."""
        masters = _masters(redis)
        alone = sorted(name for name, client in masters.items() if self.replicas_of(client, fresh=True) < self.replicas)
        if self.replicas <= 0:
            mode = "off"
        else:
            mode = "replicated" if not alone else "degraded"
        return {"mode": mode, "wait_replicas": self.replicas, "wait_ms": self.timeout_ms,
                "masters": len(masters), "masters_without_replica": alone if self.replicas > 0 else []}


def _node_client(redis: Any, key: str) -> Any:
    """A plain client for the master that owns `key` (the client itself on a single Redis)."""
    if not is_cluster(redis):
        return redis
    return redis.get_redis_connection(redis.get_node_from_key(key))


def _masters(redis: Any) -> dict[str, Any]:
    if not is_cluster(redis):
        return {_name(redis): redis}
    return {node.name: redis.get_redis_connection(node) for node in redis.get_primaries()}


def _name(client: Any) -> str:
    kwargs = client.connection_pool.connection_kwargs
    return kwargs.get("path") or f"{kwargs.get('host')}:{kwargs.get('port')}"


def _refresh(redis: Any) -> None:
    """Ask the Cluster who owns what now; a failure here leaves it to the next command."""
    if is_cluster(redis):
        try:
            redis.nodes_manager.initialize()
        except Exception:               # noqa: BLE001 - the Cluster is mid-failover; try again later
            pass


_default: list[Replication] = []


def default() -> Replication:
    """The process's Replication, from its settings."""
    if not _default:
        _default.append(Replication.of(current()))
    return _default[0]


def durable(redis: Any, key: str, *calls: Call) -> list[Any]:
    """`default().execute`: for writes beside the log that must outlive their master too."""
    return default().execute(redis, key, *calls)
