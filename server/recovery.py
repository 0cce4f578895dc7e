"""Getting an account back: an e-mail address is confirmed before any mail is sent to it, and a
forgotten password is reset through a link mailed to the confirmed address.

Both links are signed, single-use and expiring (events/account_links.py: a day to confirm, an hour
to reset). Asking for a reset answers the same (202) whether or not the name or address belongs to
an account with a confirmed address; a link goes out only then, at most ARENA_ACCOUNT_MAILS an hour
per account (more are dropped without a word), and requests are rate-limited per client address.
A reset signs the account out everywhere and ends every API token and seat token of it.
"""
from __future__ import annotations

import hashlib
from html import escape

from flask import Response, request
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from events import account_links, accounts, attempts, email_prefs, keys
from workers import email as mail

from . import limits
from .accounts import HASHER, PASSWORD
from .context import Arena, settings
from .errors import ApiError
from .games import problems
from .schemas import Strict

blp = Blueprint("recovery", __name__, description="Confirming an e-mail address, resetting a forgotten password")
ASKED = ("If an account has that name or address, and has confirmed its e-mail address, a link to reset its "
         "password is on its way there; it works once, within an hour.")


class ResetAskIn(Strict):
    name = fields.String(validate=validate.Length(min=1, max=64))
    address = fields.Email(validate=validate.Length(max=254))

    @validates_schema
    def one_of(self, data: dict, **_) -> None:
        if ("name" in data) == ("address" in data):
            raise ValidationError("Send the account's name or its e-mail address (one of them).")


class ResetIn(Strict):
    token = fields.String(required=True, validate=validate.Length(min=1, max=500))
    password = fields.String(required=True, validate=PASSWORD, load_only=True)


class AskedOut(Schema):
    detail = fields.String()


class ResetOut(Schema):
    sessions_closed = fields.Integer()
    tokens_revoked = fields.Integer(metadata={"description": "API tokens and seat tokens ended"})


class LinkQuery(Schema):
    token = fields.String(required=True, validate=validate.Length(min=1, max=500))


def _sendable(pid: str, kind: str) -> bool:
    """Whether one more account mail of `kind` may go to the player this hour (counted if so)."""
    bound = attempts.Bound(keys.account_mails(pid, kind), settings().account_mails, 3600)
    return attempts.count(Arena.of().redis, [bound]) == 0


def _job_id(kind: str, token: str) -> str:
    return f"account-{kind}-{hashlib.sha256(token.encode()).hexdigest()[:24]}"


def send_confirmation(pid: str, address: str) -> bool:
    """Mail `address` a link that confirms it is the player's; False when none may go out now."""
    redis = Arena.of().redis
    if not _sendable(pid, "verify"):
        return False
    token = account_links.make(redis, pid, "verify", a=address)
    link = f"{settings().public_url}/email/confirm?token={token}"
    mail.send_account_mail(redis, settings(), address, "Confirm your e-mail address",
                           f"To get e-mail from Tash-Kalar Arena at this address, open: {link}\n"
                           "It works once, within a day. If you did not ask for it, ignore this e-mail.\n",
                           _job_id("verify", token))
    return True


def _page(title: str, text: str, form: str = "") -> Response:
    body = (f"<!doctype html><html lang=en><meta charset=utf-8><meta name=robots content=noindex>"
            f"<title>{escape(title)}</title><link rel=stylesheet href=/web/css/app.css><main class=panel>"
            f"<h1>{escape(title)}</h1><p>{escape(text)}</p>{form}<p><a href=/>Tash-Kalar Arena</a></p></main></html>")
    return Response(body, mimetype="text/html", headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


@blp.route("/email/confirm")
@limits.limited("confirm", "e-mail confirmation and password reset links opened", per_address="30/minute")
@blp.arguments(LinkQuery, location="query")
@blp.response(200, content_type="text/html")
@problems(400, 404, 429)
def confirm(query: dict):
    """The link mailed to a new address: it is confirmed, and e-mail may go there."""
    redis = Arena.of().redis
    data = account_links.use(redis, query["token"], "verify")
    if data is None or not email_prefs.confirm(redis, data["p"], str(data.get("a"))):
        raise ApiError(404, "link_not_valid", "This link is used up, expired, or for an address you changed since; "
                                              "set your address again in your preferences to get a new one.")
    return _page("Address confirmed", "Thank you: your e-mail from Tash-Kalar Arena goes to this address now.")


@blp.route("/accounts/password-reset", methods=["POST"])
@limits.limited("reset", "password resets asked for", per_address="5/minute;20/hour")
@blp.arguments(ResetAskIn)
@blp.response(202, AskedOut)
@problems(400, 429)
def ask_reset(data: dict):
    """Mail a password reset link to the account's confirmed address. The answer is the same
    whether or not there is such an account."""
    redis = Arena.of().redis
    if "name" in data:
        account = accounts.find(redis, data["name"])
        pid = account.id if account is not None else None
    else:
        pid = email_prefs.owner_of(redis, data["address"])
    prefs = email_prefs.preferences(redis, pid) if pid else None
    if prefs and prefs["verified"] and _sendable(pid, "reset"):
        token = account_links.make(redis, pid, "reset")
        link = f"{settings().public_url}/accounts/password-reset?token={token}"
        mail.send_account_mail(redis, settings(), prefs["address"], "Reset your password",
                               f"To choose a new password for Tash-Kalar Arena, open: {link}\nIt works once, "
                               "within an hour, and signs you out everywhere. If you did not ask for it, "
                               "ignore this e-mail: your password stays as it is.\n", _job_id("reset", token))
    return {"detail": ASKED}


@blp.route("/accounts/password-reset")
@blp.arguments(LinkQuery, location="query")
@blp.response(200, content_type="text/html")
@problems(400)
def reset_page(query: dict):
    """The link mailed for a reset: a form for the new password (nothing changes until it is sent)."""
    form = ("<form method=post action=/accounts/password-reset/confirm>"
            f"<input type=hidden name=token value=\"{escape(query['token'])}\">"
            "<label>New password <input type=password name=password minlength=8 maxlength=256 required "
            "autocomplete=new-password></label> <button type=submit>Set the new password</button></form>")
    return _page("Choose a new password", "At least 8 characters. Every device will be signed out.", form)


@blp.route("/accounts/password-reset/confirm", methods=["POST"])
@limits.limited("confirm", "e-mail confirmation and password reset links opened", per_address="30/minute")
@blp.arguments(ResetIn, location="json_or_form")
@blp.response(200, ResetOut)
@problems(400, 415, 429)
def reset(data: dict):
    """Set a new password with a reset link's token (JSON {token, password}, or the reset page's
    form): every session, API token and seat token of the account ends."""
    redis = Arena.of().redis
    used = account_links.use(redis, data["token"], "reset")
    if used is None or accounts.load(redis, used["p"]) is None:
        raise ApiError(400, "link_not_valid", "This reset link is used up or expired; ask for a new one.")
    pid = used["p"]
    accounts.set_password(redis, pid, HASHER.hash(data["password"]))
    out = {"sessions_closed": accounts.close_all_sessions(redis, pid), "tokens_revoked": accounts.revoke_all_tokens(redis, pid)}
    if request.mimetype != "application/json" and not request.is_json:
        return _page("Password changed", "Sign in with your new password; every device was signed out.")
    return out
