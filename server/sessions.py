"""The browser session: a cookie that names an account, and CSRF protection for the writes it makes.

The session cookie is HttpOnly and SameSite=Lax (Secure when the page is served over https, or
always with ARENA_SECURE_COOKIES). A write authenticated by the cookie (any method but GET, HEAD
and OPTIONS) must also carry the session's CSRF token in the X-CSRF-Token header: the page reads
it from the `arena_csrf` cookie (double submit) or from GET /accounts/me. Requests with a bearer
token never look at cookies, so scripts and bots need no CSRF token.
"""
from __future__ import annotations

import hmac

from flask import Response, current_app, g, request

from events import accounts

from .context import settings
from .errors import ApiError

COOKIE = "arena_session"
CSRF_COOKIE = "arena_csrf"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def current(redis) -> accounts.Session | None:
    """The request's session (None without a live one), CSRF-checked for writes."""
    if "arena_session" not in g:
        g.arena_session = accounts.session(redis, request.cookies.get(COOKIE))
    found = g.arena_session
    if found is not None and request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), found.csrf.encode()):
            raise ApiError(403, "csrf_failed", "This page's sign-in check is missing or out of date; "
                                               f"reload the page and try again (send the {CSRF_HEADER} header).")
    return found


def secure() -> bool:
    """Cookies are Secure with ARENA_SECURE_COOKIES (or SESSION_COOKIE_SECURE), or when the request
    came over https: directly, or as a trusted proxy's X-Forwarded-Proto says (server/limits.py)."""
    return settings().secure_cookies or bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure


def set_cookies(response: Response, cookie: str, csrf: str) -> Response:
    common = {"max_age": accounts.SESSION_SECONDS, "secure": secure(), "samesite": "Lax", "path": "/"}
    response.set_cookie(COOKIE, cookie, httponly=True, **common)
    response.set_cookie(CSRF_COOKIE, csrf, httponly=False, **common)
    return response


def clear_cookies(response: Response) -> Response:
    for name in (COOKIE, CSRF_COOKIE):
        response.delete_cookie(name, path="/", secure=secure(), samesite="Lax")
    return response
