"""E-mail preferences (address and kinds), the failures to show, and the one-click unsubscribe link.

The mail itself is workers/email.py's. The unsubscribe link works without signing in (its token
is signed by the server): GET turns the kind off and says so in a small page, POST does the same
for mail clients that follow RFC 8058's List-Unsubscribe-Post.
"""
from __future__ import annotations

from html import escape

from flask import Response
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from workers import email

from . import auth
from .context import Arena
from .errors import ApiError
from .games import problems
from .schemas import Strict

blp = Blueprint("email", __name__, description="E-mail preferences and unsubscribing")


class KindsIn(Strict):
    your_turn = fields.Boolean()
    deadline_soon = fields.Boolean()
    game_over = fields.Boolean()
    digest = fields.Boolean()


class EmailIn(Strict):
    address = fields.Email(validate=validate.Length(max=254), allow_none=False)
    kinds = fields.Nested(KindsIn, load_default=dict)


class EmailOut(Schema):
    address = fields.String(allow_none=True)
    kinds = fields.Dict(keys=fields.String(), values=fields.Boolean())
    failures = fields.List(fields.Dict(), metadata={"description": "the latest failed deliveries, newest first"})


class UnsubscribeQuery(Schema):
    token = fields.String(required=True, validate=validate.Length(min=1, max=500))


def _out(pid: str) -> dict:
    redis = Arena.of().redis
    return {**email.preferences(redis, pid), "failures": email.failures(redis, pid)}


@blp.route("/accounts/me/email")
@blp.response(200, EmailOut)
@problems(401)
def get_preferences():
    """Your e-mail address, the kinds of e-mail you want, and recent delivery failures."""
    return _out(auth.require_player(Arena.of().redis))


@blp.route("/accounts/me/email", methods=["PUT"])
@blp.arguments(EmailIn)
@blp.response(200, EmailOut)
@problems(400, 401, 403)
def put_preferences(data: dict):
    """Set your address and turn kinds on or off: your_turn, deadline_soon, game_over, digest."""
    pid = auth.require_player(Arena.of().redis)
    email.set_preferences(Arena.of().redis, pid, data.get("address"), data["kinds"])
    return _out(pid)


def _page(title: str, text: str) -> Response:
    body = (f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(title)}</title>"
            f"<link rel=stylesheet href=/web/css/app.css><main class=panel><h1>{escape(title)}</h1>"
            f"<p>{escape(text)}</p><p><a href=/>Tash-Kalar Arena</a></p></main></html>")
    return Response(body, mimetype="text/html")


@blp.route("/email/unsubscribe", methods=["GET", "POST"])
@blp.arguments(UnsubscribeQuery, location="query")
@blp.response(200, content_type="text/html")
@problems(400, 404)
def unsubscribe(query: dict):
    """One click from an e-mail: that kind of e-mail stops (turn it on again in your preferences)."""
    done = email.unsubscribe(Arena.of().redis, query["token"])
    if done is None:
        raise ApiError(404, "link_not_valid", "This unsubscribe link is not one this server made.")
    return _page("Unsubscribed", f"You will get no more {done[1].replace('_', ' ')} e-mails. "
                                 "You can turn them on again in your preferences.")
