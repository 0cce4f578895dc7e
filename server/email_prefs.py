"""E-mail preferences (address and kinds), the failures to show, and the one-click unsubscribe link.

What is stored is events/email_prefs.py's; the mail itself is workers/email.py's. The unsubscribe
link works without signing in (its token is signed by the server). GET changes nothing (mail
prefetchers and link scanners follow links): it shows a page with one button. POST turns the kind
off: that button, or a mail client's RFC 8058 one-click POST (body `List-Unsubscribe=One-Click`,
form-encoded) to the URL named by List-Unsubscribe.
"""
from __future__ import annotations

from html import escape
from urllib.parse import urlencode

from flask import Response
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from events import email_prefs
from workers import notify

from . import auth, limits, recovery
from .context import Arena
from .errors import ApiError
from .games import problems
from .schemas import Strict

blp = Blueprint("email", __name__, description="E-mail preferences and unsubscribing")


KindsIn = Strict.from_dict({kind: fields.Boolean() for kind in email_prefs.KINDS}, name="KindsIn")   # one list of kinds


class EmailIn(Strict):
    address = fields.Email(validate=validate.Length(max=254), allow_none=False)
    kinds = fields.Nested(KindsIn, load_default=dict)


class EmailOut(Schema):
    address = fields.String(allow_none=True)
    verified = fields.Boolean(metadata={"description": "the address was confirmed (its mailed link opened): "
                                                      "only then does e-mail go there"})
    kinds = fields.Dict(keys=fields.String(), values=fields.Boolean())
    failures = fields.List(fields.Dict(), metadata={"description": "the latest failed deliveries, newest first"})
    sending = fields.Boolean(metadata={"description": "false: this server sends no e-mail at all (no mail server "
                                                      "set up), whatever is chosen here"})


class UnsubscribeQuery(Schema):
    token = fields.String(required=True, validate=validate.Length(min=1, max=500))


def _out(pid: str) -> dict:
    redis = Arena.of().redis
    return {**email_prefs.preferences(redis, pid), "failures": email_prefs.failures(redis, pid),
            "sending": notify.mail_sent()}


@blp.route("/accounts/me/email")
@blp.response(200, EmailOut)
@problems(401)
def get_preferences():
    """Your e-mail address, the kinds of e-mail you want, and recent delivery failures."""
    return _out(auth.require_player(Arena.of().redis))


@blp.route("/accounts/me/email", methods=["PUT"])
@limits.limited("email", "e-mail settings changed", per_address="30/minute", per_player="10/minute;100/day")
@blp.arguments(EmailIn)
@blp.response(200, EmailOut)
@problems(400, 401, 403, 429)
def put_preferences(data: dict):
    """Set your address and turn kinds on or off: your_turn, deadline_soon, game_over, digest. A new
    address gets a link to confirm it (GET /email/confirm); no other e-mail goes there until then."""
    pid = auth.require_player(Arena.of().redis)
    prefs = email_prefs.set_preferences(Arena.of().redis, pid, data.get("address"), data["kinds"])
    if data.get("address") and not prefs["verified"]:
        recovery.send_confirmation(pid, prefs["address"])
    return _out(pid)


def _page(title: str, text: str, form: str = "") -> Response:
    body = (f"<!doctype html><html lang=en><meta charset=utf-8><meta name=robots content=noindex>"
            f"<title>{escape(title)}</title><link rel=stylesheet href=/web/css/app.css><main class=panel>"
            f"<h1>{escape(title)}</h1><p>{escape(text)}</p>{form}<p><a href=/>Tash-Kalar Arena</a></p></main></html>")
    return Response(body, mimetype="text/html", headers={"Cache-Control": "no-store"})


def _kind(query: dict) -> str:
    """The kind of e-mail the link's token names (404 for a link this server did not make)."""
    found = email_prefs.read_unsubscribe_token(Arena.of().redis, query["token"])
    if found is None:
        raise ApiError(404, "link_not_valid", "This unsubscribe link is not one this server made; use the link from "
                       "your latest e-mail, or change your preferences.")
    return found[1].replace("_", " ")


@blp.route("/email/unsubscribe")
@blp.arguments(UnsubscribeQuery, location="query")
@blp.response(200, content_type="text/html")
@problems(400, 404)
def confirm_unsubscribe(query: dict):
    """The link in an e-mail: a page with one button that stops that kind of e-mail (nothing changes
    until it is pressed, so link scanners that open the link unsubscribe nobody)."""
    kind = _kind(query)
    action = escape(f"/email/unsubscribe?{urlencode({'token': query['token']})}")
    form = (f"<form method=post action=\"{action}\"><input type=hidden name=List-Unsubscribe value=One-Click>"
            f"<button type=submit>Stop {escape(kind)} e-mails</button></form>")
    return _page("Unsubscribe?", f"Press the button to get no more {kind} e-mails from Tash-Kalar Arena.", form)


@blp.route("/email/unsubscribe", methods=["POST"])
@limits.limited("unsubscribe", "unsubscribe links followed", per_address="30/minute")
@blp.arguments(UnsubscribeQuery, location="query")
@blp.response(200, content_type="text/html")
@problems(400, 404, 415, 429)
def unsubscribe(query: dict):
    """Stop that kind of e-mail (turn it on again in your preferences): the confirmation page's
    button, or a mail client's RFC 8058 one-click POST (`List-Unsubscribe=One-Click`, form-encoded)."""
    kind = _kind(query)
    email_prefs.unsubscribe(Arena.of().redis, query["token"])
    return _page("Unsubscribed", f"You will get no more {kind} e-mails. "
                                 "You can turn them on again in your preferences.")
