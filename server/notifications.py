"""A registered player's notifications: a live SSE stream, the same as a list, webhook failures.

Notifications ("your_turn", "deadline_soon", "opponent_moved", "game_over") are written by the
workers (workers/notify.py) to the player's inbox, a Redis stream; its entry ids are the SSE event
ids, so a client resumes with Last-Event-ID (or `after`) and misses nothing still kept (the last
ARENA_INBOX_SIZE). Webhook deliveries carry the same JSON body.
"""
from __future__ import annotations

from flask import request
from flask_smorest import Blueprint
from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate

from events import inbox, keys, ratings

from . import auth, sse
from .context import Arena
from .errors import ApiError
from .games import problems

blp = Blueprint("notifications", __name__, url_prefix="/players", description="Your notifications")


def _check_stream_id(value: str) -> None:
    if not sse.valid_id(value):
        raise ValidationError(STREAM_ID_ERROR)


STREAM_ID_ERROR = "Not a notification id like 1700000000000-0 (each part at most 2^63 - 1)."


class InboxQuery(Schema):
    class Meta:
        unknown = EXCLUDE
    after = fields.String(load_default="0", validate=_check_stream_id,
                          metadata={"description": "the id of the last notification seen (SSE: Last-Event-ID)"})
    follow = fields.Boolean(load_default=True, metadata={"description": "keep the stream open for new ones"})


class NotificationsQuery(InboxQuery):
    newest = fields.Integer(validate=validate.Range(min=1, max=100),
                            metadata={"description": "instead of those after `after`: the newest n (oldest first)"})


class NotificationsOut(Schema):
    notifications = fields.List(fields.Dict())
    last_id = fields.String()


class FailuresOut(Schema):
    failures = fields.List(fields.Dict())


class RatingOut(Schema):
    player = fields.String()
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float()
    games = fields.Integer()
    display_rating = fields.String(metadata={"description": "on a scale centred on 1500 (a new player), with '?' "
                                                            "while provisional (fewer than 10 rated games)"})
    display_value = fields.Integer()
    provisional = fields.Boolean()


def _after(query: dict) -> str:
    last = request.headers.get("Last-Event-ID", query["after"])
    if not sse.valid_id(last):
        raise ApiError(400, "malformed_request", f"The notifications cannot resume from that Last-Event-ID. {STREAM_ID_ERROR}")
    return last


@blp.route("/me/stream")
@blp.arguments(InboxQuery, location="query")
@blp.response(200, content_type="text/event-stream")
@problems(400, 401, 501)
def stream(query: dict):
    """Server-Sent Events, one per notification (id = its stream id); resume with Last-Event-ID."""
    open_stream(query)
    raise sse.not_served_here()


def open_stream(query: dict) -> sse.Source:
    """The caller's inbox after Last-Event-ID (or `after`)."""
    pid = auth.require_player(Arena.of().redis)
    return sse.Source(keys.inbox(pid), sse.parse_id(_after(query)), render_notes)


def render_notes(entries, viewer: None = None) -> list[sse.Frame]:
    return [sse.Frame(sse.parse_id(sid), sse.frame(sid, note["type"], note)) for sid, note in inbox.rows(entries)]


@blp.route("/me/notifications")
@blp.arguments(NotificationsQuery, location="query")
@blp.response(200, NotificationsOut)
@problems(400, 401)
def notifications(query: dict):
    """Your notifications after `after` (at most 100), oldest first, as JSON; or the `newest` n."""
    pid = auth.require_player(Arena.of().redis)
    after = _after(query)
    rows = inbox.latest(Arena.of().redis, pid, query["newest"]) if "newest" in query else \
        inbox.read(Arena.of().redis, pid, after)
    return {"notifications": [{"stream_id": sid, **note} for sid, note in rows],
            "last_id": rows[-1][0] if rows else after}


@blp.route("/me/webhook-failures")
@blp.response(200, FailuresOut)
@problems(401)
def webhook_failures():
    """Your webhook's latest failed deliveries, newest first (each is retried with backoff)."""
    pid = auth.require_player(Arena.of().redis)
    return {"failures": inbox.webhook_failures(Arena.of().redis, pid)}


@blp.route("/me/rating")
@blp.response(200, RatingOut)
@problems(401)
def rating():
    """Your rating (openskill Plackett-Luce: mu, sigma, ordinal = mu - 3 sigma) and games rated."""
    pid = auth.require_player(Arena.of().redis)
    return {"player": pid, **ratings.rating_of(Arena.of().redis, pid)}
