"""GET /health: is the server up, and can it reach Redis?"""
from __future__ import annotations

from flask_smorest import Blueprint
from redis.exceptions import RedisError

from .context import Arena
from .schemas import HealthOut

blp = Blueprint("health", __name__, description="Liveness and Redis reachability")


@blp.route("/health")
@blp.response(200, HealthOut)
@blp.alt_response(503, schema=HealthOut)
def health():
    try:
        ok = bool(Arena.of().redis.ping())
    except RedisError:
        ok = False
    return ({"status": "ok", "redis": True}, 200) if ok else ({"status": "degraded", "redis": False}, 503)
