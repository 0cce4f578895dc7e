"""Limits against abuse: request rates, body sizes, and games waiting for a first move.

Rates are counted by flask-limiter in Redis (sliding windows, so they hold across processes and
machines), per client address and per person calling (the account or player, whichever of its
sessions, API tokens or seat tokens it sends; a guest by its seat); an anonymous caller counts by
its address only. A view opts in with one
decorator, placed under its route:

    @blp.route("", methods=["POST"])
    @limited("create", "games created", per_address="30/minute;300/hour", per_player="20/minute;200/hour")
    def create_game(...): ...

which reads ARENA_LIMIT_CREATE_ADDRESS and ARENA_LIMIT_CREATE_PLAYER (app config first, then the
environment, else the defaults given), shared by every view naming the same scope. `large_body`
lets a view take bodies up to ARENA_MAX_IMPORT_BODY instead of ARENA_MAX_BODY. Refusals are
problem+json: 429 `rate_limited` with Retry-After, 413 `body_too_large`.

Behind a reverse proxy, ARENA_PROXY_HOPS says how many proxies' X-Forwarded-For to trust.
"""
from __future__ import annotations

import math
import os
import time
from typing import Any, Callable

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from werkzeug.middleware.proxy_fix import ProxyFix

from events import accounts, keys, lobby, tokens

from .auth import person_calling
from .errors import ApiError, problem
from .sessions import COOKIE

# config key (= environment variable) -> (default, what it limits); rate limits add theirs below.
SETTINGS: dict[str, tuple[Any, str]] = {
    "ARENA_MAX_BODY": (64 * 1024, "bytes of a request body (every endpoint but imports)"),
    "ARENA_MAX_IMPORT_BODY": (2 * 1024 * 1024, "bytes of an imported record"),
    "ARENA_MAX_UNMOVED_GAMES": (20, "games a player or an address may have created that nobody moved in yet"),
    "ARENA_UNMOVED_GAME_TTL": (7 * 24 * 3600, "seconds after which a game nobody moved in is deleted "
                                              "(plus its move or bank time when timed)"),
    "ARENA_INVITATION_TIMEOUT": (3 * 24 * 3600, "seconds invited players have to accept before the game "
                                                "is cancelled"),
    "ARENA_REMATCH_TIMEOUT": (24 * 3600, "seconds the players of a finished game have to accept a rematch offer "
                                         "before it expires"),
    "ARENA_LOBBY_TABLE_TTL": (lobby.TABLE_TTL, "seconds an open lobby table waits for its next player before it expires "
                                         "(its creator is told)"),
    "ARENA_MAX_OPEN_TABLES": (3, "open lobby tables one account, and one client address, may have at once"),
    "ARENA_BOT_ACCOUNT_GAMES": (20, "unfinished games a bot account may have at once: beyond, it may not accept "
                                    "invitations nor join tables"),
    "ARENA_PROXY_HOPS": (0, "reverse proxies in front of the server whose X-Forwarded-For (and -Proto) is trusted"),
    "ARENA_SECURE_COOKIES": (False, "1: session, CSRF and device cookies are always Secure; 0: when the request "
                                    "came over https (directly, or as a trusted proxy's X-Forwarded-Proto says)"),
    "ARENA_RATE_LIMITS": (True, "0 turns every rate limit off (body sizes and the unmoved-game cap stay)"),
}
LIMIT_ATTR, BODY_ATTR = "_arena_limits", "_arena_body_limit"


def setting(name: str) -> Any:
    return current_app.config[name]


def bot_has_room(redis: Any, player_id: str) -> None:
    """A bot account takes another game only while it has fewer than ARENA_BOT_ACCOUNT_GAMES
    unfinished (429 bot_busy); a person is never counted."""
    if not accounts.is_bot(redis, player_id):
        return
    cap = setting("ARENA_BOT_ACCOUNT_GAMES")
    if redis.scard(keys.player_games(player_id)) - redis.hlen(keys.results(player_id)) >= cap:
        raise ApiError(429, "bot_busy", f"This bot account is playing {cap} games already, as many as a bot may; "
                                        "finish one first.", headers={"Retry-After": "60"}, retry_after=60)


def configure(app: Flask) -> None:
    """Every setting from the environment (or its default) into the app config, unless set there."""
    for name, (default, _) in SETTINGS.items():
        raw = os.environ.get(name)
        if raw in (None, ""):
            value = default
        elif isinstance(default, bool):
            value = raw.strip().lower() not in ("0", "false", "no", "off")      # ARENA_RATE_LIMITS=off
        elif isinstance(default, int):
            value = int(raw)
        else:
            value = raw
        app.config.setdefault(name, value)


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
            SETTINGS.setdefault(name, (default, f"{what} per {who}"))
            names.append((scope, kind, name))

    def wrap(fn: Callable) -> Callable:
        setattr(fn, LIMIT_ATTR, [*getattr(fn, LIMIT_ATTR, []), *names])
        return fn
    return wrap


def large_body(fn: Callable) -> Callable:
    """Let a view take bodies up to ARENA_MAX_IMPORT_BODY."""
    setattr(fn, BODY_ATTR, "ARENA_MAX_IMPORT_BODY")
    return fn


def init(app: Flask, redis: Any) -> Limiter:
    """Count the declared limits in `redis`, cap bodies, and answer refusals as problem+json."""
    if app.config["ARENA_PROXY_HOPS"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["ARENA_PROXY_HOPS"], x_proto=app.config["ARENA_PROXY_HOPS"])
    limiter = Limiter(key_func=client_address, app=app, storage_uri="redis://",
                      storage_options={"connection_pool": redis.connection_pool},
                      strategy="sliding-window-counter", headers_enabled=True, key_prefix=keys.rate_limits(),
                      enabled=bool(app.config["ARENA_RATE_LIMITS"]), retry_after="delta-seconds")
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
    return lambda: current_app.config[name]


def _cap_body() -> None:
    view = current_app.view_functions.get(request.endpoint or "")
    request.max_content_length = setting(getattr(view, BODY_ATTR, "ARENA_MAX_BODY"))
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
