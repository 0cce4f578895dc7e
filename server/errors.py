"""Every refusal as application/problem+json, mapped from exceptions in one place.

Views raise; they never catch. Status codes: 400 malformed, 401 no or bad token, 403 not your seat
or not your turn, 404 unknown, 409 stale expected_version, 422 illegal by the rules, 503 (with
Retry-After) when Redis cannot be reached.
"""
from __future__ import annotations

from html import escape
from typing import Any

from flask import Flask, Response, current_app, json, request
from redis.exceptions import ClusterDownError, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ReadOnlyError as RedisReadOnlyError
from redis.exceptions import TimeoutError as RedisTimeoutError
from werkzeug.exceptions import HTTPException

import engine
from events.errors import (ConflictError, GameExists, GameNotFound, GameNotOver, IdempotencyKeyReused, NotReplicated,
                           RecordMalformed, RecordRejected, RecordUnfinished, VersionNotFound)
from events.keys import InvalidKeyPart

PROBLEM = "application/problem+json"
# Engine codes that mean "not you, not now" rather than "against the rules".
FORBIDDEN_CODES = {"not_your_turn", "not_your_decision"}
# Redis errors that mean "not now" (503 + Retry-After), never a 500: connection refused or reset,
# a timeout, loading its data after a restart (BusyLoadingError is a ConnectionError), a replica.
REDIS_UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, RedisReadOnlyError,
                     ClusterDownError, TryAgainError)           # a Cluster mid-failover, or migrating a slot


class ApiError(Exception):
    """A refusal raised by the HTTP layer itself (auth, unknown resources)."""

    def __init__(self, status: int, code: str, detail: str, headers: dict[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.extra = status, code, detail, extra
        self.headers = headers or {}


# Titles in plain words where the code's own words are the server's jargon; others read as the code.
TITLES = {"stale_version": "The game moved on", "malformed_json": "Unreadable request",
          "malformed_request": "Request not understood", "http_error": "No answer"}
# What a player reads for the HTTP layer's own refusals (no route, wrong method...), by status.
HTTP_SENTENCES = {
    400: "The request could not be understood; reload the page and try again.",
    404: "There is nothing at this address; check the link, or go back to the start page.",
    405: "This address cannot be used that way; check the link, or reload the page.",
    406: "The server cannot answer in the form asked for; ask for JSON or a web page.",
    408: "The request took too long to arrive; check your connection and try again.",
    409: "The request clashes with the current state; reload the page and try again.",
    410: "This is gone for good; go back to the start page.",
    411: "The request must say how long its body is; send it again with a length.",
    412: "Something changed since the page loaded; reload the page and try again.",
    413: "The request is too large; send less at once.",
    414: "The address is too long; check the link.",
    415: "The request was sent in a form the server does not read; send it as JSON.",
    428: "The request must say what it expects to change; reload the page and try again.",
    431: "The request's headers are too large; clear this site's cookies and try again.",
    500: "Something went wrong on the server; try again in a moment, and reload the page if it keeps happening.",
    501: "The server cannot do that; check the link.",
}


def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict:
    """The problem+json document; the async front (server/streams/) sends the same."""
    title = TITLES.get(code) or code.replace("_", " ").capitalize()
    return {"type": f"https://tash-kalar-arena.invalid/problems/{code}", "title": title,
            "status": status, "code": code, "detail": detail, **extra}


def problem(status: int, code: str, detail: str, **extra: Any) -> Response:
    return Response(json.dumps(problem_body(status, code, detail, **extra)), status=status, mimetype=PROBLEM)


STORE_UNAVAILABLE = ("The game server cannot reach its games just now; wait a few seconds and try again "
                     "(a command sent again with the same Idempotency-Key counts once).")


def retry_after_seconds() -> int:
    """ARENA_RETRY_AFTER, in the app answering."""
    return int(current_app.extensions["arena"].settings.retry_after)


def _redis_unavailable(err: Exception) -> Response:
    """Redis unreachable (down, restarting, loading its file, failing over): try again shortly."""
    response = problem(503, "store_unavailable", STORE_UNAVAILABLE)
    response.headers["Retry-After"] = str(retry_after_seconds())
    return response


def _api_error(err: ApiError) -> Response:
    response = problem(err.status, err.code, err.detail, **err.extra)
    response.headers.update(err.headers)
    return response


def _rule_error(err: engine.RuleError) -> Response:
    status = 400 if err.malformed else 403 if err.code in FORBIDDEN_CODES else 422
    return problem(status, err.code, err.message, rule=err.rule)


def _wants_html() -> bool:
    """A browser opening an address (Accept prefers text/html); programs keep problem+json."""
    best = request.accept_mimetypes.best_match(["application/json", "application/problem+json", "text/html"])
    return best == "text/html" and request.method in ("GET", "HEAD")


def _not_found_page() -> Response:
    """A page a person can use for an address that leads nowhere: what happened, and the way back."""
    page = ("<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width, "
            "initial-scale=1'><title>Page not found · Tash-Kalar Arena</title>"
            "<link rel=stylesheet href='/web/css/app.css'><header class=top><a class=brand href='/'>Tash-Kalar "
            "<span>Arena</span></a></header><main id=main><section class=panel><h1>Page not found</h1>"
            f"<p>There is nothing at <code>{escape(request.path)}</code>. Check the link, or go "
            "<a href='/'>back to the start page</a> (your games and the lobby are there).</p></section></main></html>")
    return Response(page, status=404, mimetype="text/html")


def _http_error(err: HTTPException) -> Response:
    data = getattr(err, "data", None) or {}
    if err.code == 422 and "messages" in data:          # webargs validation: the request is malformed
        messages = data["messages"]
        return problem(400, "malformed_request", _flatten(messages), errors=messages)
    if err.code == 413:
        return problem(413, "body_too_large", HTTP_SENTENCES[413])
    status = err.code or 500
    if status == 404 and _wants_html():
        return _not_found_page()
    detail = HTTP_SENTENCES.get(status) or HTTP_SENTENCES[500 if status >= 500 else 400]
    allowed = [m for m in getattr(err, "valid_methods", None) or () if m not in ("HEAD", "OPTIONS")]
    if status == 405 and allowed:
        detail = f"This address cannot be used that way (it takes {' and '.join(allowed)} only); check the link."
    response = problem(status, (err.name or "error").lower().replace(" ", "_"), detail)
    response.headers.update({k: v for k, v in err.get_headers() if k.lower() != "content-type"})   # 405: Allow
    return response


def _flatten(messages: Any) -> str:
    """Validation messages as one sentence naming each field in words ("Check these and send again:
    the expected version (Not a valid integer.)"); `errors` keeps them by field for programs."""
    found = "; ".join(f"{where} ({text})" if where else text for where, text in _by_field(messages))
    return f"Some of what was sent is not right; check these and send again: {found}."


def _by_field(messages: Any, path: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    if isinstance(messages, dict):
        return [found for k, v in messages.items() for found in _by_field(v, path + (str(k),))]
    text = " ".join(map(str, messages)) if isinstance(messages, list) else str(messages)
    text = text.replace("_", " ")           # "claim task": `errors` keeps the exact words for programs
    named = [p.replace("_", " ") for p in path if p not in ("json", "query", "headers", "view_args", "form")]
    where = " of ".join(reversed([p for p in named if not p.isdigit()]))
    return [(f"the {where}" if where else "", text.rstrip("."))]


def _not_replicated(err: NotReplicated) -> Response:
    """The write reached a master but no replica confirmed it: not acknowledged, so 'retry' (with
    the same Idempotency-Key, which then returns the original answer if the write survived)."""
    answer = problem(503, "not_replicated", "The game server could not yet make your move safe; send it again in a "
                     "moment with the same Idempotency-Key (it counts once).")
    answer.headers["Retry-After"] = "1"
    return answer


def _words(err: Exception) -> str:
    """A lower-level reason ending a sentence of ours: its field names in words, no full stop of its own."""
    return str(err).replace("game_id", "game id").rstrip(".")


def register(app: Flask) -> None:
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(engine.RuleError, _rule_error)
    app.register_error_handler(ConflictError, lambda e: problem(
        409, "stale_version", "The game moved on while you were choosing; look at the new position and choose again.",
        current_version=e.actual, expected_version=e.expected))
    app.register_error_handler(GameNotFound, lambda e: problem(
        404, "game_not_found", f"There is no game {e.game_id!r}; check the link, or go back to your games."))
    app.register_error_handler(VersionNotFound, lambda e: problem(
        404, "version_not_found", f"The game has not reached that point yet: it has {e.latest} steps so far; "
        "choose an earlier one.", latest=e.latest))
    app.register_error_handler(GameNotOver, lambda e: problem(
        403, "game_not_over", "The full record is available once the game has ended; ask again then."))
    app.register_error_handler(IdempotencyKeyReused, lambda e: problem(
        422, "idempotency_key_reused", "This Idempotency-Key was already used for a different command; send each new "
        "command with a new key."))
    app.register_error_handler(RecordRejected, lambda e: problem(
        422, "record_rejected", f"This record does not check out, so it was not imported: {_words(e)}.",
        first_bad_version=e.version))
    app.register_error_handler(RecordMalformed, lambda e: problem(
        400, "malformed_request", f"This is not a game record that can be imported: {_words(e)}."))
    app.register_error_handler(RecordUnfinished, lambda e: problem(
        422, "record_unfinished", "Only finished games can be imported; export the game again once it has ended."))
    app.register_error_handler(GameExists, lambda e: problem(
        409, "game_exists", f"A game {e.game_id!r} exists already; choose another name for it."))
    app.register_error_handler(NotReplicated, _not_replicated)
    app.register_error_handler(InvalidKeyPart, lambda e: problem(
        400, "malformed_request", f"That name or id cannot be used: {_words(e)}."))
    app.register_error_handler(HTTPException, _http_error)
    for unavailable in REDIS_UNAVAILABLE:
        app.register_error_handler(unavailable, _redis_unavailable)
