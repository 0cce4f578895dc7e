"""Web Push deliveries: one notification to one browser the player opted in on (events/push.py).

The message (events/notices.py `push_message`: title, body, the page a click opens) is encrypted
for the browser's keys (RFC 8291, aes128gcm, with a key pair made for this message) and POSTed to
the subscription's endpoint with a VAPID authorization (RFC 8292) signed by the server's key. The
POST goes through the webhook address guard and its pinned connection (workers/webhooks.py `post`),
so an endpoint can never make the server reach an address webhooks may not.

What the push service answers decides what happens next:
- 2xx: delivered (to the service: the browser gets it when it is next online, within TTL);
- 404 or 410: the subscription expired or the browser withdrew it: it is removed;
- the guard refuses the endpoint: it is removed too (it would be refused every time);
- 429, 5xx, no answer: DeliveryFailed, so RQ retries the job after ARENA_WEBHOOK_RETRIES;
- any other 4xx: given up (logged), since the same request would be refused again.
"""
from __future__ import annotations

import json
import logging
from typing import Any

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from events import notices, push, urlguard

from .webhooks import DeliveryFailed, NoAnswer, post

TTL = 24 * 3600                                      # seconds a push service keeps a message for an offline browser
URGENT = ("your_turn", "deadline_soon")
EXPIRED = (404, 410)
log = logging.getLogger(__name__)


def deliver(redis: Any, player_id: str, sid: str, body: str, timeout: float) -> int:
    """Push the notification `body` to one subscription; the push service's status (0: nothing
    sent, the subscription is gone), DeliveryFailed to be retried."""
    sub = push.subscription(redis, player_id, sid)
    if sub is None:
        return 0                                     # unsubscribed (or expired) since it was queued
    note = json.loads(body)
    data = encrypted(json.dumps(notices.push_message(note), separators=(",", ":")).encode(), sub)
    headers = {"Content-Type": "application/octet-stream", "Content-Encoding": "aes128gcm", "TTL": str(TTL),
               "Urgency": "high" if note["type"] in URGENT else "normal", **authorization(sub["endpoint"])}
    try:
        status = post(sub["endpoint"], data, headers, timeout)
    except (urlguard.Unresolved, NoAnswer) as exc:
        raise DeliveryFailed(f"push {note['id']} to {sid}: no answer ({exc})") from None
    except (urlguard.Malformed, urlguard.Refused) as exc:
        push.drop(redis, player_id, sid)
        log.warning("push subscription %s of %s removed: %s", sid, player_id, exc)
        return 0
    if status in EXPIRED:
        push.drop(redis, player_id, sid)
    elif status == 429 or status >= 500:
        raise DeliveryFailed(f"push {note['id']} to {sid}: HTTP {status}")
    elif not 200 <= status < 300:
        log.warning("push %s to %s refused by the push service: HTTP %s", note["id"], sid, status)
    return status


def encrypted(payload: bytes, sub: dict[str, Any]) -> bytes:
    """The payload encrypted for the subscription's browser (aes128gcm, a fresh sender key)."""
    return http_ece.encrypt(payload, private_key=ec.generate_private_key(ec.SECP256R1()),
                            dh=push.b64decode(sub["p256dh"]), auth_secret=push.b64decode(sub["auth"]),
                            version="aes128gcm")


def authorization(endpoint: str) -> dict[str, str]:
    """The VAPID header for the endpoint's push service (its origin is the token's audience)."""
    target = urlguard.check_url(endpoint)
    port = "" if target.port == urlguard.DEFAULT_PORTS[target.scheme] else f":{target.port}"
    claims = {"sub": push.subject(), "aud": f"{target.scheme}://{target.host}{port}"}
    return {str(k): str(v) for k, v in Vapid02(private_key=push.server_key()).sign(claims).items()}
