"""Web Push opt-in: the server's public key, the browsers a player opted in on, the kinds pushed.

A browser opts in by subscribing with the public key (PushManager.subscribe, applicationServerKey)
and posting what it got (PushSubscription.toJSON()) here; storage and rules are events/push.py's,
delivery workers/push.py's. An endpoint the webhook address guard refuses is refused here too.
"""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from events import notices, push, urlguard
from events.clocks import now

from . import auth, limits
from .context import Arena
from .errors import ApiError
from .games import problems
from .schemas import Strict

blp = Blueprint("push", __name__, description="Push notifications to your browsers (Web Push)")

PushKindsIn = Strict.from_dict({kind: fields.Boolean() for kind in notices.pushed()}, name="PushKindsIn")


class PushIn(Strict):
    kinds = fields.Nested(PushKindsIn, required=True)


class SubscriptionKeysIn(Strict):
    p256dh = fields.String(required=True, validate=validate.Length(min=1, max=200))
    auth = fields.String(required=True, validate=validate.Length(min=1, max=100))


class SubscriptionIn(Strict):
    """What a browser's PushSubscription.toJSON() gives."""
    endpoint = fields.String(required=True, validate=validate.Length(min=1, max=urlguard.MAX_URL_LENGTH))
    keys = fields.Nested(SubscriptionKeysIn, required=True)
    expirationTime = fields.Float(allow_none=True, metadata={"description": "ignored: a push service that ends "
                                                                            "the subscription answers 404 or 410"})


class SubscriptionOut(Schema):
    id = fields.String()
    service = fields.String(metadata={"description": "the push service's origin"})
    created = fields.String(metadata={"description": "when the browser opted in (UTC)"})


class PushOut(Schema):
    public_key = fields.String(metadata={"description": "the server's VAPID key: applicationServerKey to subscribe with"})
    kinds = fields.Dict(keys=fields.String(), values=fields.Boolean(),
                        metadata={"description": "each kind that may be pushed (GET /notices.json: push), on or off"})
    subscriptions = fields.List(fields.Nested(SubscriptionOut))


def _out(pid: str) -> dict:
    redis = Arena.of().redis
    return {"public_key": push.public_key(), "kinds": push.preferences(redis, pid),
            "subscriptions": [push.listed(s) for s in push.subscriptions(redis, pid)]}


@blp.route("/accounts/me/push")
@blp.response(200, PushOut)
@problems(401)
def get_push():
    """The key to subscribe with, the kinds pushed to you, and the browsers you opted in on."""
    return _out(auth.require_player(Arena.of().redis))


@blp.route("/accounts/me/push", methods=["PUT"])
@limits.limited("push", "push settings changed", per_address="30/minute", per_player="10/minute;100/day")
@blp.arguments(PushIn)
@blp.response(200, PushOut)
@problems(400, 401, 403, 429)
def put_push(data: dict):
    """Turn kinds of push on or off, for every browser you opted in on."""
    pid = auth.require_player(Arena.of().redis)
    push.set_preferences(Arena.of().redis, pid, data["kinds"])
    return _out(pid)


@blp.route("/accounts/me/push/subscriptions", methods=["POST"])
@limits.limited("push", "push settings changed", per_address="30/minute", per_player="10/minute;100/day")
@blp.arguments(SubscriptionIn)
@blp.response(201, SubscriptionOut)
@problems(400, 401, 403, 422, 429)
def subscribe(data: dict):
    """Opt this browser in: the subscription its PushManager gave (the same endpoint again replaces it)."""
    redis = Arena.of().redis
    pid = auth.require_player(redis)
    try:
        checked = push.checked(data["endpoint"], data["keys"]["p256dh"], data["keys"]["auth"])
    except (urlguard.Malformed, push.BadSubscription) as exc:
        raise ApiError(400, "malformed_request", f"The push subscription cannot be used: {exc}.") from None
    except urlguard.Refused as exc:
        raise ApiError(422, "push_endpoint_not_allowed", f"The push subscription's endpoint cannot be used: {exc}.") from None
    return push.subscribe(redis, pid, checked, now())


@blp.route("/accounts/me/push/subscriptions/<subscription_id>", methods=["DELETE"])
@blp.response(204)
@problems(401, 403, 404)
def unsubscribe(subscription_id: str):
    """Opt a browser out (this one, when it unsubscribes, or one you no longer use)."""
    redis = Arena.of().redis
    pid = auth.require_player(redis)
    if not push.drop(redis, pid, subscription_id):
        raise ApiError(404, "subscription_not_found", "You have no such push subscription; it may have expired.")
    return None
