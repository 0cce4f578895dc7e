"""Webhook deliveries: a JSON body POSTed to the player's URL, signed with their webhook secret.

Headers of every attempt:

    Content-Type: application/json
    X-Arena-Signature: sha256=<hex HMAC-SHA256 of the exact body bytes, keyed with the secret>
    X-Arena-Delivery: <delivery id>        the same on every retry: receivers de-duplicate by it
    X-Arena-Event: your_turn | deadline_soon | opponent_moved | game_over
    X-Arena-Attempt: 1, 2, ...

A receiver answering 2xx has it. Anything else (another status, a refused connection, a timeout)
is recorded in the player's `webhook_failures` stream and raised, so RQ retries the job after the
intervals of ARENA_WEBHOOK_RETRIES; the last failure stays in RQ's failed job registry.

    verify(secret, body, request.headers["X-Arena-Signature"])     # what a receiver checks
"""
from __future__ import annotations

import hashlib
import hmac
import json
import urllib.error
import urllib.request
from typing import Any

from events import keys

from . import runtime
from .clock import format_epoch

FAILURES_KEPT = 200
USER_AGENT = "tash-kalar-arena-webhooks/1"


class DeliveryFailed(Exception):
    """The receiver did not take the delivery; RQ retries the job."""


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, signature: str) -> bool:
    return hmac.compare_digest(sign(secret, body), signature or "")


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else ("" if value is None else str(value))


def deliver(redis: Any, player_id: str, delivery_id: str, body: str, attempt: int, timeout: float) -> int:
    """POST the body once; the receiver's status, or DeliveryFailed (recorded) when it failed."""
    url, secret = (_text(v) for v in redis.hmget(keys.player(player_id), ["webhook_url", "webhook_secret"]))
    if not url:
        return 0                                            # nowhere to deliver any more
    data = body.encode()
    kind = _event_type(body)
    request = urllib.request.Request(url, data=data, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": USER_AGENT, "X-Arena-Signature": sign(secret, data),
        "X-Arena-Delivery": delivery_id, "X-Arena-Event": kind, "X-Arena-Attempt": str(attempt)})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status, error = exc.code, f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        status, error = 0, f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
    else:
        if 200 <= status < 300:
            return status
        error = f"HTTP {status}"
    record_failure(redis, player_id, delivery_id, attempt, url, error)
    raise DeliveryFailed(f"webhook {delivery_id} to {url}: {error}")


def _event_type(body: str) -> str:
    try:
        return str(json.loads(body).get("type", ""))
    except ValueError:
        return ""


def record_failure(redis: Any, player_id: str, delivery_id: str, attempt: int, url: str, error: str) -> None:
    redis.xadd(keys.webhook_failures(player_id),
               {"delivery": delivery_id, "attempt": attempt, "url": url, "error": error[:500],
                "time": format_epoch(runtime.now())}, maxlen=FAILURES_KEPT, approximate=True)


def failures(redis: Any, player_id: str, count: int = 50) -> list[dict]:
    """The player's latest recorded failures, newest first."""
    rows = redis.xrevrange(keys.webhook_failures(player_id), "+", "-", count=count)
    out = []
    for _, fields in rows:
        item = {_text(k): _text(v) for k, v in fields.items()}
        item["attempt"] = int(item.get("attempt", 0))
        out.append(item)
    return out
