"""The one place that decides which Redis each kind of data lives on.

    REDIS_CLUSTER_URL   game and player data on a Redis Cluster (any node; the rest is discovered)
    REDIS_URL           without a Cluster: everything; with one: only RQ's queues and scheduler
                        (RQ needs a single Redis); unset: the embedded server under ARENA_DATA_DIR

    redis = connect()               # data: a RedisCluster, or a redis.Redis as before
    queue = queue_for(redis)        # the Redis RQ uses beside it (the same client when no Cluster)

Every caller (the web app, the stream tier, the workers, the command line) goes through here, so
setting REDIS_CLUSTER_URL moves all of them at once and leaving it unset changes nothing.
"""
from __future__ import annotations

import threading
from typing import Any

import redis
from redis.cluster import RedisCluster
from .settings import current

CLUSTER_ENV, QUEUE_ENV = "REDIS_CLUSTER_URL", "REDIS_URL"
CONNECT_TIMEOUT = 2.0           # seconds: a dead node is noticed quickly, so failover is not waited out

_queues: dict[str, redis.Redis] = {}
_lock = threading.Lock()


def cluster_url() -> str | None:
    return current().redis_cluster_url


def is_cluster(client: Any) -> bool:
    return isinstance(client, RedisCluster)


def connect(url: str | None = None, *, decode_responses: bool = False, **kwargs: Any) -> redis.Redis | RedisCluster:
    """The client for game and player data: `url` (a single Redis) if given, else REDIS_CLUSTER_URL's
    Cluster, else the queue Redis (REDIS_URL or the embedded server), which then holds everything."""
    if url:
        return redis.Redis.from_url(url, decode_responses=decode_responses, **kwargs)
    if cluster_url():
        return connect_cluster(cluster_url(), decode_responses=decode_responses, **kwargs)
    return connect_queue(decode_responses=decode_responses, **kwargs)


def connect_cluster(url: str, *, decode_responses: bool = False, **kwargs: Any) -> RedisCluster:
    """A Cluster client from one node's URL; the other nodes come from the Cluster's own answer."""
    return RedisCluster.from_url(url, decode_responses=decode_responses, **_cluster_defaults(kwargs))


def _cluster_defaults(kwargs: dict[str, Any]) -> dict[str, Any]:
    """A Cluster client's settings, sync or asyncio: `kwargs` over these defaults."""
    kwargs.setdefault("socket_connect_timeout", CONNECT_TIMEOUT)
    kwargs.setdefault("require_full_coverage", False)  # while a master fails over, the other slots still work
    return kwargs


def queue_url() -> str:
    """The URL of the Redis for RQ: REDIS_URL, else the embedded server's socket (started if need be)."""
    url = current().redis_url
    if url:
        return url
    from .embedded import EmbeddedRedis, data_dir
    server = EmbeddedRedis(data_dir())
    server.ensure_running()
    return f"unix://{server.socket_path}"


def connect_queue(*, decode_responses: bool = False, **kwargs: Any) -> redis.Redis:
    """A client for RQ's Redis (bytes replies by default, as RQ needs)."""
    return redis.Redis.from_url(queue_url(), decode_responses=decode_responses, **kwargs)


def queue_for(client: Any) -> redis.Redis:
    """The Redis that holds the queues next to data client `client`: the client itself unless it is
    a Cluster (then the process's one client for REDIS_URL)."""
    if not is_cluster(client):
        return client
    url = queue_url()
    with _lock:
        known = _queues.get(url)
        if known is None:
            known = _queues[url] = redis.Redis.from_url(url)
        return known


def connect_async(url: str | None = None, *, decode_responses: bool = False, **kwargs: Any) -> Any:
    """The asyncio twin of `connect()` for the stream tier: the same choice of Redis, same defaults."""
    import redis.asyncio as aioredis
    from redis.asyncio.cluster import RedisCluster as AsyncCluster
    if not url and cluster_url():
        return AsyncCluster.from_url(cluster_url(), decode_responses=decode_responses, **_cluster_defaults(kwargs))
    return aioredis.Redis.from_url(url or queue_url(), decode_responses=decode_responses, **kwargs)
