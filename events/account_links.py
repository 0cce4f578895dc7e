"""Signed, single-use, expiring links mailed to an account: confirming an e-mail address, resetting
a forgotten password.

A link carries its player, its purpose's data and a random nonce, signed (itsdangerous, with the
server's secret, events/email_prefs.server_secret) and timed; the nonce is also kept in Redis for
as long as the link lives, and using the link deletes it, so of two uses (even racing) one works.
"""
from __future__ import annotations

import re
import secrets
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer

from . import keys
from .email_prefs import server_secret
from .replies import text
from .settings import current

SECONDS = {"verify": 24 * 3600, "reset": 3600}
_NONCE = re.compile(r"[0-9a-f]{32}")


def _signer(secret: str, purpose: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=f"account-link-{purpose}")


def make(redis: Any, player_id: str, purpose: str, **data: str) -> str:
    """A new link token of `purpose` for the player, usable once within SECONDS[purpose]."""
    nonce = secrets.token_hex(16)
    redis.set(keys.account_link(player_id, nonce), purpose, ex=SECONDS[purpose])
    return _signer(server_secret(redis), purpose).dumps({"p": player_id, "n": nonce, **data})


def use(redis: Any, token: str, purpose: str) -> dict[str, Any] | None:
    """The link's data (with 'p', its player) when it is genuine, of `purpose`, not expired and not
    used yet, and uses it up; None otherwise."""
    secret = current().secret or text(redis.get(keys.mail_secret()))
    if not secret:
        return None                         # no secret yet: no link was ever made
    try:
        data = _signer(secret, purpose).loads(token, max_age=SECONDS[purpose])
    except BadSignature:                    # forged, or expired (SignatureExpired is one)
        return None
    if not isinstance(data, dict) or not keys.valid_game_id(str(data.get("p"))) or \
            not _NONCE.fullmatch(str(data.get("n"))):
        return None
    key = keys.account_link(data["p"], data["n"])
    if text(redis.get(key)) != purpose or not redis.delete(key):
        return None
    return data
