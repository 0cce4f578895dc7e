"""GET /health: is the server up, and what is down (Redis, the workers, the stream reader)?

503 when Redis cannot be reached (nothing works without it); otherwise 200, with status
"degraded" and `down` naming what is missing: no RQ worker alive (deadlines wait), no worker of the
computer players' queue (bots wait),
this process's stream reader reconnecting, or a Cluster master without a replica (`replication`
says how acknowledged writes are kept, events/replication.py). Other parts add a check with
`app.extensions["arena_health"][name] = callable -> {"ok": bool, ...}` (the async tier does).

Anyone sees `status`, `redis` and `down`; each check's details (counts, queues, errors that may
name socket paths or hosts) and `replication` only the operator, who sends ARENA_OPERATOR_TOKEN as
'Authorization: Bearer <token>' (unset: nobody).
"""
from __future__ import annotations

import hmac

from flask import current_app, request
from flask_smorest import Blueprint
from redis.exceptions import RedisError
from rq import Queue, Worker

from events import pulses
from events.connection import is_cluster, queue_for

from .context import Arena
from .errors import retry_after_seconds

from .schemas import HealthOut

blp = Blueprint("health", __name__, description="Liveness and what is down")


def _operator() -> bool:
    wanted = Arena.of().settings.operator_token
    scheme, _, sent = request.headers.get("Authorization", "").partition(" ")
    return bool(wanted) and scheme.lower() == "bearer" and hmac.compare_digest(sent.strip().encode(), wanted.encode())


def _redis() -> dict:
    try:
        Arena.of().redis.ping()
        return {"ok": True}
    except RedisError as exc:
        return {"ok": False, "error": str(exc) or type(exc).__name__}


def _workers() -> dict:
    """Registered RQ workers whose pulse is alive (a killed one drops out within seconds)."""
    redis = queue_for(Arena.of().redis)
    live = sum(pulses.alive(redis, worker.name) for worker in Worker.all(connection=redis))
    return {"ok": live > 0, "count": live}


def _bots() -> dict:
    """Live workers of the computer players' queue (ARENA_BOT_QUEUE): without one, bots never move."""
    redis = queue_for(Arena.of().redis)
    queue = Queue(Arena.of().settings.bot_queue, connection=redis)
    live = sum(pulses.alive(redis, worker.name) for worker in Worker.all(queue=queue))
    return {"ok": live > 0, "count": live, "queue": queue.name}


def _replication() -> dict | None:
    """How acknowledged writes are kept: 'replicated' (a replica confirms each), 'degraded' (some
    master has no replica: its writes are kept as on a single Redis), or 'off' (not asked for)."""
    arena = Arena.of()
    try:
        return arena.service.store.replication.status(arena.redis)
    except RedisError:
        return None


@blp.route("/health")
@blp.response(200, HealthOut)
@blp.alt_response(503, schema=HealthOut)
def health():
    checks = {"redis": _redis()}
    if checks["redis"]["ok"]:
        try:
            checks["workers"] = _workers()
            checks["bots"] = _bots()
        except RedisError as exc:
            checks["workers"] = {"ok": False, "error": str(exc)}
    for name, check in current_app.extensions.get("arena_health", {}).items():
        checks[name] = check()
    replication = _replication() if checks["redis"]["ok"] else None
    down = [name for name, check in checks.items() if not check["ok"]]
    if replication and replication["mode"] == "degraded" and is_cluster(Arena.of().redis):
        down.append("replication")      # a Cluster master lost its replica (a single Redis has none)
    body = {"status": "ok" if not down else "degraded", "redis": checks["redis"]["ok"], "down": down}
    if _operator():
        body.update(checks=checks, replication=replication)
    if checks["redis"]["ok"]:
        return body, 200
    return body, 503, {"Retry-After": str(retry_after_seconds())}
