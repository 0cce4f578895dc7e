"""Limits against abuse: request rates, body sizes, and games waiting for a first move.

Rates are counted by flask-limiter in Redis (sliding windows, so they hold across processes and
machines), per client address and per person calling (the account or player, whichever of its
sessions, API tokens or seat tokens it sends; a guest by its seat); an anonymous caller counts by
its address only. A view opts in with one
decorator, placed under its route:

    @blp.route("", methods=["POST"])
    @limited("create", "games created", per_address="30/minute;300/hour", per_player="20/minute;200/hour")
    def create_game(...): ...

which reads ARENA_LIMIT_CREATE_ADDRESS and ARENA_LIMIT_CREATE_PLAYER (the settings' values, else the
defaults given), shared by every view naming the same scope. `large_body`
lets a view take bodies up to ARENA_MAX_IMPORT_BODY instead of ARENA_MAX_BODY. Refusals are
problem+json: 429 `rate_limited` with Retry-After, 413 `body_too_large`.

Behind a reverse proxy, ARENA_PROXY_HOPS says how many proxies' X-Forwarded-For to trust.
"""
from __future__ import annotations

import math
import time
from typing import Any, Callable

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from werkzeug.middleware.proxy_fix import ProxyFix

from events import accounts, keys, tokens
from events.settings import Settings, SettingsError

from .auth import person_calling
from .context import settings
from .errors import ApiError, problem
from .sessions import COOKIE

# ARENA_LIMIT_<SCOPE>_<ADDRESS|PLAYER> -> (default, what it counts): each declared by `limited`, beside
# its views; the values set are the settings' `rate_limits` (events/settings.py holds every other setting).
RATE_LIMITS: dict[str, tuple[str, str]] = {}
LIMIT_ATTR, BODY_ATTR = "_arena_limits", "_arena_body_limit"


def bot_has_room(redis: Any, player_id: str) -> None:
    """A bot account takes another game only while it has fewer than ARENA_BOT_ACCOUNT_GAMES
    unfinished (429 bot_busy); a person is never counted."""
    if not accounts.is_bot(redis, player_id):
        return
    cap = settings().bot_account_games
    if redis.scard(keys.player_games(player_id)) - redis.hlen(keys.results(player_id)) >= cap:
        raise ApiError(429, "bot_busy", f"This bot account is playing {cap} games already, as many as a bot may; "
                                        "finish one first.", headers={"Retry-After": "60"}, retry_after=60)


def rate_limit(name: str) -> str:
    """The limit a variable sets: the settings' value, else its declared default."""
    return settings().rate_limits.get(name) or RATE_LIMITS[name][0]


def check_rate_limit_names(values: Settings) -> None:
    """A rate limit set that no view declares is a typo: refuse to start, naming it."""
    unknown = sorted(set(values.rate_limits) - set(RATE_LIMITS))
    if unknown:
        raise SettingsError(f"no such rate limit: {', '.join(unknown)} (README.md, Configuration, lists them)")


# --- who is asking -------------------------------------------------------------------------------------

def client_address() -> str:
    return request.remote_addr or "unknown"


def address_owner() -> str:
    """The address as a key part: IPv6 colons kept, anything odd reduced to what a key may hold."""
    return "a:" + "".join(c for c in client_address() if c.isalnum() or c in ".:-")[:70]


def _credential() -> str:
    return request.headers.get("Authorization", "").partition(" ")[2].strip() or request.cookies.get(COOKIE, "")


def caller_key() -> str:
    """Whom a per-player limit counts: the account (or registered player) behind the request,
    whatever its credential (a session, an API token, or a seat token of the player's seat), so
    that making more credentials buys no more; a guest seat's token counts as that seat; anything
    else (an unknown token) by the credential's hash."""
    return person_calling() or "t:" + tokens.token_hash(_credential())[:32]


def anonymous() -> bool:
    """No token, no session: such a caller is counted by its address only."""
    return not _credential()


# --- declaring limits on views --------------------------------------------------------------------------

def limited(scope: str, what: str, *, per_address: str, per_player: str | None = None) -> Callable:
    """Rate-limit a view (put it under the route decorator); `scope` names the shared counters,
    `what` says in the README what they count."""
    names = []
    for kind, default in (("ADDRESS", per_address), ("PLAYER", per_player)):
        if default is not None:
            name = f"ARENA_LIMIT_{scope.upper()}_{kind}"
            who = "client address" if kind == "ADDRESS" else "person (account or player, whatever its credential; a guest by seat)"
            RATE_LIMITS.setdefault(name, (default, f"{what} per {who}"))
            names.append((scope, kind, name))

    def wrap(fn: Callable) -> Callable:
        setattr(fn, LIMIT_ATTR, [*getattr(fn, LIMIT_ATTR, []), *names])
        return fn
    return wrap


def large_body(fn: Callable) -> Callable:
    """Let a view take bodies up to ARENA_MAX_IMPORT_BODY."""
    setattr(fn, BODY_ATTR, "max_import_body")
    return fn


def init(app: Flask, redis: Any) -> Limiter:
    """Count the declared limits in `redis`, cap bodies, and answer refusals as problem+json."""
    hops = app.extensions["arena"].settings.proxy_hops
    check_rate_limit_names(app.extensions["arena"].settings)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)       # type: ignore[method-assign]
    limiter = Limiter(key_func=client_address, app=app, storage_uri="redis://",
                      storage_options={"connection_pool": redis.connection_pool},
                      strategy="sliding-window-counter", headers_enabled=True, key_prefix=keys.rate_limits(),
                      enabled=app.extensions["arena"].settings.rate_limits_on, retry_after="delta-seconds")
    for endpoint, view in list(app.view_functions.items()):
        for scope, kind, name in getattr(view, LIMIT_ATTR, []):
            per_address = kind == "ADDRESS"
            view = limiter.shared_limit(_reader(name), scope=f"{scope}-{kind.lower()}",
                                        key_func=client_address if per_address else caller_key,
                                        exempt_when=None if per_address else anonymous)(view)
        app.view_functions[endpoint] = view
    app.before_request(_cap_body)
    app.register_error_handler(RateLimitExceeded, _rate_limited)
    app.extensions["arena_limiter"] = limiter
    return limiter


def _reader(name: str) -> Callable[[], str]:
    return lambda: rate_limit(name)


def _cap_body() -> None:
    view = current_app.view_functions.get(request.endpoint or "")
    request.max_content_length = getattr(settings(), getattr(view, BODY_ATTR, "max_body"))
    if request.content_length is not None and request.content_length > request.max_content_length:
        raise body_too_large()


def body_too_large() -> ApiError:
    return ApiError(413, "body_too_large", f"The request is too large: it may hold at most {request.max_content_length} bytes; send less at once.",
                    limit=request.max_content_length)


def _rate_limited(err: RateLimitExceeded):
    limit = err.limit.limit
    current = current_app.extensions["arena_limiter"].current_limit
    wait = max(1, math.ceil(current.reset_at - time.time())) if current is not None else 1
    response = problem(429, "rate_limited", f"You are sending requests too quickly (at most {limit} here); wait {wait} s and try again.",
                       retry_after=wait)
    response.headers["Retry-After"] = str(wait)
    return response
