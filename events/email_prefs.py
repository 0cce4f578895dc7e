"""A player's e-mail: the address and the kinds they want, the signed one-click unsubscribe tokens,
and the failed deliveries to show them. Stored in keys.email_settings (a hash: `address`, and one
"1"/"0" field per kind turned on or off; a kind never set has its default) and keys.email_failures
(a capped stream). Read and written by the server (the preferences page, the unsubscribe link) and
by the workers that send the mail (workers/email.py).

The digest is a member `digest:<player>` of the deadline index (events/due.py), kept there exactly
while the player has an address and wants the digest, so changing the preferences schedules it.
Unsubscribe tokens are signed with ARENA_SECRET, or else with a secret made once and kept in Redis
(keys.mail_secret), so a link keeps working across restarts and processes.
"""
from __future__ import annotations

import json
import secrets
import time
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer

from . import due, inbox, keys
from .clocks import format_epoch
from .replies import text
from .settings import current

KINDS = ("your_turn", "deadline_soon", "game_over", "digest")
DEFAULTS = {"your_turn": True, "deadline_soon": True, "game_over": False, "digest": True}
DIGEST_EVERY = 24 * 3600.0
FAILURES_KEPT = 100


# --- preferences ---------------------------------------------------------------------------------

def preferences(redis: Any, player_id: str) -> dict[str, Any]:
    """{"address": str | None, "verified": bool, "kinds": {kind: on}} (every kind, defaults filled
    in). Mail goes only to a verified address: one whose owner opened the link mailed to it."""
    raw = {text(k): text(v) for k, v in redis.hgetall(keys.email_settings(player_id)).items()}
    address = raw.get("address") or None
    return {"address": address, "verified": bool(address) and raw.get("verified") == address,
            "kinds": {k: raw[k] == "1" if k in raw else DEFAULTS[k] for k in KINDS}}


def confirm(redis: Any, player_id: str, address: str) -> bool:
    """The player opened the link mailed to `address`: it is verified, if it is still their address
    (and the address leads to them for password resets). False when they changed it since."""
    if preferences(redis, player_id)["address"] != address:
        return False
    redis.hset(keys.email_settings(player_id), "verified", address)
    redis.set(keys.email_owner(address), player_id)
    return True


def owner_of(redis: Any, address: str) -> str | None:
    """The player whose verified address this is (regardless of case), if it still is."""
    pid = text(redis.get(keys.email_owner(address)))
    if not pid or not keys.valid_game_id(pid):
        return None
    prefs = preferences(redis, pid)
    return pid if prefs["verified"] and prefs["address"].lower() == address.lower() else None


def set_preferences(redis: Any, player_id: str, address: str | None, kinds: dict[str, bool],
                    now: float | None = None) -> dict[str, Any]:
    """Change the address (None: keep it) and the kinds named; the digest is indexed, due a day
    from `now`, when it becomes wanted, and dropped when not. The preferences after the change."""
    fields = {k: "1" if on else "0" for k, on in kinds.items() if k in KINDS}
    if address is not None and address != preferences(redis, player_id)["address"]:
        fields["address"] = address             # unverified until its link is opened
    if fields:
        redis.hset(keys.email_settings(player_id), mapping=fields)
    prefs = preferences(redis, player_id)
    member = due.member("digest", player_id)
    if prefs["address"] and prefs["kinds"]["digest"]:
        if due.when(redis, member) is None:
            due.add(redis, {member: (time.time() if now is None else now) + DIGEST_EVERY})
    else:
        due.drop(redis, [member])
    return prefs


# --- unsubscribe links ----------------------------------------------------------------------------

def server_secret(redis: Any) -> str:
    """ARENA_SECRET, or a secret made once and kept in Redis: what the server signs links with and
    derives its bots' seeds from (workers/bots.py)."""
    configured = current().secret
    if configured:
        return configured
    redis.set(keys.mail_secret(), secrets.token_hex(32), nx=True)
    return text(redis.get(keys.mail_secret()))


def unsubscribe_token(redis: Any, player_id: str, kind: str) -> str:
    return URLSafeSerializer(server_secret(redis), salt="unsubscribe").dumps({"p": player_id, "k": kind})


def read_unsubscribe_token(redis: Any, token: str) -> tuple[str, str] | None:
    """(player, kind) that a token names, or None for a forged token."""
    try:
        data = URLSafeSerializer(server_secret(redis), salt="unsubscribe").loads(token)
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("k") not in KINDS or not keys.valid_game_id(str(data.get("p"))):
        return None
    return data["p"], data["k"]


def unsubscribe(redis: Any, token: str) -> tuple[str, str] | None:
    """Turn off the kind the token names; (player, kind), or None for a forged token."""
    found = read_unsubscribe_token(redis, token)
    if found is not None:
        set_preferences(redis, found[0], None, {found[1]: False})
    return found


# --- failed deliveries ------------------------------------------------------------------------------

def record_failure(redis: Any, player_id: str, kind: str, subject: str, attempt: int, error: str,
                   now: float) -> None:
    """One failed attempt to send the player a mail, kept among their latest FAILURES_KEPT."""
    redis.xadd(keys.email_failures(player_id), {"data": json.dumps(
        {"kind": kind, "subject": subject, "attempt": attempt, "error": error, "time": format_epoch(now)})},
        maxlen=FAILURES_KEPT, approximate=True)


def failures(redis: Any, player_id: str, count: int = 20) -> list[dict[str, Any]]:
    """The player's latest failed attempts, newest first."""
    return [entry for _, entry in inbox.rows(redis.xrevrange(keys.email_failures(player_id), "+", "-", count=count))]
