"""Every refusal as application/problem+json, mapped from exceptions in one place.

Views raise; they never catch. Status codes: 400 malformed, 401 no or bad token, 403 not your seat
or not your turn, 404 unknown, 409 stale expected_version, 422 illegal by the rules, 503 (with
Retry-After) when Redis cannot be reached.
"""
from __future__ import annotations

import os
from typing import Any

from flask import Flask, Response, json
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


def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict:
    """The problem+json document; the async front (server/streams/) sends the same."""
    return {"type": f"https://tash-kalar-arena.invalid/problems/{code}", "title": code.replace("_", " "),
            "status": status, "code": code, "detail": detail, **extra}


def problem(status: int, code: str, detail: str, **extra: Any) -> Response:
    return Response(json.dumps(problem_body(status, code, detail, **extra)), status=status, mimetype=PROBLEM)


def retry_after_seconds() -> int:
    return int(os.environ.get("ARENA_RETRY_AFTER") or 2)


def _redis_unavailable(err: Exception) -> Response:
    """Redis unreachable (down, restarting, loading its file, failing over): try again shortly."""
    response = problem(503, "store_unavailable", f"The game store is unavailable ({type(err).__name__}); try again "
                       "shortly. A command sent again with the same Idempotency-Key is applied at most once.")
    response.headers["Retry-After"] = str(retry_after_seconds())
    return response


def _api_error(err: ApiError) -> Response:
    response = problem(err.status, err.code, err.detail, **err.extra)
    response.headers.update(err.headers)
    return response


def _rule_error(err: engine.RuleError) -> Response:
    status = 400 if err.malformed else 403 if err.code in FORBIDDEN_CODES else 422
    return problem(status, err.code, err.message, rule=err.rule)


def _http_error(err: HTTPException) -> Response:
    data = getattr(err, "data", None) or {}
    if err.code == 422 and "messages" in data:          # webargs validation: the request is malformed
        messages = data["messages"]
        return problem(400, "malformed_request", _flatten(messages), errors=messages)
    if err.code == 413:
        return problem(413, "body_too_large", "The request body is too large.")
    response = problem(err.code or 500, (err.name or "error").lower().replace(" ", "_"), err.description or "")
    response.headers.update({k: v for k, v in err.get_headers() if k.lower() != "content-type"})   # 405: Allow
    return response


def _flatten(messages: Any, path: tuple[str, ...] = ()) -> str:
    """Validation messages as one readable line naming each field ('square: Not a valid string.')."""
    if isinstance(messages, dict):
        return "; ".join(_flatten(v, path + (str(k),)) for k, v in messages.items())
    text = " ".join(map(str, messages)) if isinstance(messages, list) else str(messages)
    where = ".".join(p for p in path if p not in ("json", "query", "headers", "view_args"))
    return f"{where}: {text}" if where else text


def _not_replicated(err: NotReplicated) -> Response:
    """The write reached a master but no replica confirmed it: not acknowledged, so 'retry' (with
    the same Idempotency-Key, which then returns the original answer if the write survived)."""
    answer = problem(503, "not_replicated", f"{err} Retry with the same Idempotency-Key.")
    answer.headers["Retry-After"] = "1"
    return answer


def register(app: Flask) -> None:
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(engine.RuleError, _rule_error)
    app.register_error_handler(ConflictError, lambda e: problem(
        409, "stale_version", f"The game moved on while you were choosing (it is at version {e.actual}, your command "
        f"was for version {e.expected}): look at the new position and choose again.", current_version=e.actual))
    app.register_error_handler(GameNotFound, lambda e: problem(404, "game_not_found", f"There is no game {e.game_id!r}: check the link or the game id."))
    app.register_error_handler(VersionNotFound, lambda e: problem(
        404, "version_not_found", f"The game has no version {e.version}; the latest is {e.latest}.", latest=e.latest))
    app.register_error_handler(GameNotOver, lambda e: problem(
        403, "game_not_over", "The full record is available once the game has ended; ask again then."))
    app.register_error_handler(IdempotencyKeyReused, lambda e: problem(
        422, "idempotency_key_reused", "This Idempotency-Key was already used with a different command: send a new key with each new command."))
    app.register_error_handler(RecordRejected, lambda e: problem(
        422, "record_rejected", str(e), first_bad_version=e.version))
    app.register_error_handler(RecordMalformed, lambda e: problem(400, "malformed_request", str(e)))
    app.register_error_handler(RecordUnfinished, lambda e: problem(422, "record_unfinished", str(e)))
    app.register_error_handler(GameExists, lambda e: problem(409, "game_exists", f"A game {e.game_id!r} exists already."))
    app.register_error_handler(NotReplicated, _not_replicated)
    app.register_error_handler(InvalidKeyPart, lambda e: problem(400, "malformed_request", str(e)))
    app.register_error_handler(HTTPException, _http_error)
    for unavailable in REDIS_UNAVAILABLE:
        app.register_error_handler(unavailable, _redis_unavailable)
