"""Web Push: the browsers a player opted in on, the kinds they want pushed, and this server's
VAPID key. The messages themselves are sent by workers/push.py.

A subscription is what a browser's PushManager.subscribe gives: the push service's endpoint URL and
the browser's keys (`p256dh`, a P-256 public key, and `auth`, 16 secret bytes), both base64url. It
is kept in keys.push_subscriptions under an id made from its endpoint (the same browser opting in
twice is one subscription), at most MAX_SUBSCRIPTIONS per player (the oldest goes). The endpoint
must pass the webhook address guard (events/urlguard.py), when registered and at every delivery:
a push is a POST the server makes to a URL a player chose.

The kinds that may be pushed, and their defaults, are declared in events/notices.py; the player's
choices are flags in keys.push_settings.

The VAPID key (RFC 8292: it tells the push service which server sends) is an EC P-256 key from
ARENA_VAPID_KEY (PKCS#8 PEM, or base64url of the 32-byte private number), else from
`$ARENA_DATA_DIR/vapid-key.pem`, made on first use like the record signing key. Browsers subscribe
with its public key, so changing it ends every subscription.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from . import keys, notices, urlguard
from .clocks import format_epoch
from .durable import key_file
from .embedded import data_dir
from .replies import text
from .settings import current

KEY_ENV = "ARENA_VAPID_KEY"
KEY_FILE = "vapid-key.pem"
MAX_SUBSCRIPTIONS = 20


class BadSubscription(ValueError):
    """Not a subscription a browser gives: the message says what is wrong."""


# --- the server's key ------------------------------------------------------------------------------

def server_key() -> ec.EllipticCurvePrivateKey:
    """This server's VAPID key (ARENA_VAPID_KEY, else the key file, made on first use)."""
    return _server_key(current().vapid_key.strip(), str(data_dir() / KEY_FILE))


@lru_cache(maxsize=4)
def _server_key(configured: str, path: str) -> ec.EllipticCurvePrivateKey:
    raw = configured or key_file(Path(path), lambda: ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())).decode("ascii")
    where = KEY_ENV if configured else path
    try:
        if raw.startswith("-----BEGIN"):
            key = serialization.load_pem_private_key(raw.encode(), password=None)
        else:
            key = ec.derive_private_key(int.from_bytes(b64decode(raw), "big"), ec.SECP256R1())
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: not a P-256 private key (PEM or base64url of 32 bytes): {exc}") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ValueError(f"{where}: the key is not a P-256 (prime256v1) key")
    return key


def public_key() -> str:
    """The key browsers subscribe with (applicationServerKey): base64url of the uncompressed point."""
    point = server_key().public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
    return b64encode(point)


def subject() -> str:
    """Whom a push service may contact about this server's pushes (a mailto: or https: URL)."""
    return current().vapid_subject


def b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def b64decode(data: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"not base64url: {exc}") from None


# --- subscriptions -----------------------------------------------------------------------------------

def checked(endpoint: str, p256dh: str, auth: str) -> dict[str, str]:
    """The subscription if its keys are a browser's and its endpoint may be reached; BadSubscription,
    or the guard's Malformed / Refused, saying why not."""
    try:
        point = b64decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        secret = b64decode(auth)
    except ValueError:
        raise BadSubscription("keys.p256dh is not a P-256 public key (base64url of its 65-byte point)") from None
    if len(point) != 65 or len(secret) != 16:
        raise BadSubscription("keys.p256dh must be a 65-byte point and keys.auth 16 bytes, both base64url")
    urlguard.vet(urlguard.check_url(endpoint))
    return {"endpoint": endpoint, "p256dh": p256dh, "auth": auth}


def subscription_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()[:16]


def subscribe(redis: Any, player_id: str, subscription: dict[str, str], now: float) -> dict[str, Any]:
    """Keep a checked subscription (the same endpoint again replaces it); it as listed."""
    sid = subscription_id(subscription["endpoint"])
    redis.hset(keys.push_subscriptions(player_id), sid, json.dumps({**subscription, "created": now}))
    kept = subscriptions(redis, player_id)
    if len(kept) > MAX_SUBSCRIPTIONS:
        drop(redis, player_id, *[s["id"] for s in kept[:len(kept) - MAX_SUBSCRIPTIONS]])
    return listed(next(s for s in kept if s["id"] == sid))


def subscriptions(redis: Any, player_id: str) -> list[dict[str, Any]]:
    """Every subscription of the player, with its id, oldest first."""
    found = [{"id": text(k), **json.loads(v)} for k, v in redis.hgetall(keys.push_subscriptions(player_id)).items()]
    return sorted(found, key=lambda s: (s["created"], s["id"]))


def subscription(redis: Any, player_id: str, sid: str) -> dict[str, Any] | None:
    raw = redis.hget(keys.push_subscriptions(player_id), sid)
    return {"id": sid, **json.loads(raw)} if raw else None


def listed(sub: dict[str, Any]) -> dict[str, Any]:
    """What the player is shown of a subscription: its id, the push service's origin, when it was made
    (never the keys, nor the endpoint's path, which lets anyone push to the browser)."""
    target = urlguard.check_url(sub["endpoint"])
    return {"id": sub["id"], "service": f"{target.scheme}://{target.host}", "created": format_epoch(sub["created"])}


def drop(redis: Any, player_id: str, *sids: str) -> int:
    """Forget subscriptions (the player's choice, or the push service says they expired); how many."""
    return int(redis.hdel(keys.push_subscriptions(player_id), *sids)) if sids else 0


# --- which kinds -------------------------------------------------------------------------------------

def preferences(redis: Any, player_id: str) -> dict[str, bool]:
    """Every kind that may be pushed: on or off for this player (defaults filled in)."""
    raw = {text(k): text(v) for k, v in redis.hgetall(keys.push_settings(player_id)).items()}
    return {k: raw[k] == "1" if k in raw else on for k, on in notices.pushed().items()}


def set_preferences(redis: Any, player_id: str, kinds: dict[str, bool]) -> dict[str, bool]:
    fields = {k: "1" if on else "0" for k, on in kinds.items() if k in notices.pushed()}
    if fields:
        redis.hset(keys.push_settings(player_id), mapping=fields)
    return preferences(redis, player_id)


def targets(redis: Any, player_id: str, kind: str) -> list[str]:
    """The ids of the subscriptions a notification of `kind` is pushed to (none: the player has no
    browser opted in, or does not want this kind pushed)."""
    if kind not in notices.pushed():
        return []
    pipe = redis.pipeline(transaction=False)
    pipe.hkeys(keys.push_subscriptions(player_id))
    pipe.hget(keys.push_settings(player_id), kind)
    sids, flag = pipe.execute()
    on = notices.pushed()[kind] if flag is None else text(flag) == "1"
    return sorted(text(s) for s in sids) if on else []
