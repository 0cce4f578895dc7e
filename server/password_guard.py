"""The brake on guessing passwords, built so that strangers cannot turn it against an account's owner.

Wrong passwords for a name are bounded per (name, client address) and, much higher, per name from
everywhere; a browser that signed in to the account before carries a device cookie that takes the
per-name bound off it (it is bounded per (name, device) instead), so a flood of strangers' guesses
does not lock its owner out. A password change, made with a session or a token already, is bounded
per credential and per account, never by the name's sign-in failures. Every attempt is counted in
Redis before its password is checked (events/attempts.py), so racing guesses cannot pass a bound;
a right password gives its attempt back. Past a bound the answer is 429 with Retry-After, at once.
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable

from flask import Response, request

from events import accounts, attempts, keys, tokens

from . import sessions
from .context import settings
from .errors import ApiError
from .limits import client_address

DEVICE_COOKIE = "arena_device"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _near() -> tuple[int, int]:
    return settings().signin_failures_per_address, settings().signin_address_window


def _far() -> tuple[int, int]:
    return settings().signin_failures_per_name, settings().signin_name_window


def signin_bounds(redis: Any, name: str, account: accounts.Account | None) -> tuple[list[attempts.Bound], bool]:
    """The counters a sign-in for `name` from this request falls under; and whether it comes from
    a device that signed in to the account before."""
    pair = attempts.Bound(keys.signin_failures_from(name, _digest(client_address())), *_near())
    device = account and accounts.known_device(redis, account.id, request.cookies.get(DEVICE_COOKIE))
    if device:
        return [pair, attempts.Bound(keys.signin_failures_from(name, "d" + device[:32]), *_near())], True
    return [pair, attempts.Bound(keys.signin_failures(name), *_far())], False


def change_bounds(account: accounts.Account) -> list[attempts.Bound]:
    """The counters a password change by this request's credential falls under."""
    credential = request.headers.get("Authorization", "") or request.cookies.get(sessions.COOKIE, "")
    return [attempts.Bound(keys.password_checks(account.id, tokens.token_hash(credential)[:32]), *_near()),
            attempts.Bound(keys.password_checks(account.id, "all"), *_far())]


def checked(redis: Any, bounds: list[attempts.Bound], check: Callable[[], bool]) -> bool:
    """Count the attempt first (429 past a bound), then `check` the password; a right one is given back."""
    wait = attempts.count(redis, bounds)
    if wait:
        raise ApiError(429, "too_many_failures", f"Too many wrong passwords here; wait {wait} s and try again.",
                       headers={"Retry-After": str(wait)}, retry_after=wait)
    if not check():
        return False
    attempts.forgive(redis, bounds)
    return True


def remember_device(redis: Any, account: accounts.Account, known: bool) -> Callable[[Response], Response]:
    """After a right password: the device cookie for this browser (a new one unless it had one)."""
    value = None if known else accounts.remember_device(redis, account.id)

    def set_cookie(response: Response) -> Response:
        if value is not None:
            response.set_cookie(DEVICE_COOKIE, value, max_age=accounts.DEVICE_SECONDS, httponly=True,
                                secure=sessions.secure(), samesite="Lax", path="/accounts")
        return response
    return set_cookie
