"""Every refusal an operation can give, documented in /openapi.json as application/problem+json.

Each operation lists what it can actually answer: the refusals its view declares with
`problems(...)` (server/games.py), and those that come before any view, by its kind: any operation
may find the store unavailable (503); one whose method carries a body may get a malformed body
(400), one too large (413) or not JSON (415) (server/inputs.py, server/limits.py); one with path or
query parameters may get a malformed one (400); one with a rate limit (limits.limited) may be over
it (429). The latter are marked `x-any-endpoint`, so GET /docs
names each endpoint's own refusals and lists the rest once. tests/conftest.py records every
problem+json answer the tests see and fails the run when one is not in its operation's list.

Each refusal also lists the `code`s it can carry (`x-codes`; `x-rule-codes`: besides those, any code
of RuleErrorCode, the engine's): the view's own, kept per operation in server/refusals.json, and
those of the refusals before any view (malformed_request, body_too_large, rate_limited,
store_unavailable...). tests/problems_seen.py fails the run on an answer whose code is not listed;
a new refusal of a view goes into server/refusals.json with the code it gives.

Every operation has an explicit, stable `operationId`, frozen with its path, method and tags in
server/operations.json (tests/server/test_api_document.py): a generated client keeps its names.
flask-smorest's generic `default` error (plain JSON, another shape) is dropped: clients and
schemathesis see exactly the answers the server gives.
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any, Callable

from apispec import BasePlugin
from flask import Flask
from flask_smorest import Api, Blueprint

from engine.errors import ERROR_CODES

from .schemas import ProblemOut

ERRORS = {
    400: "malformed request: the problem names the field or what is wrong with the body",
    401: "no token, or a token that is nobody's",
    403: "not your seat, not your turn, or not allowed",
    404: "unknown game, player, invitation or version",
    409: "a conflict: stale expected_version, a game that exists already, not started or cancelled",
    413: "the request body is too large (ARENA_MAX_BODY, ARENA_MAX_IMPORT_BODY)",
    415: "the body is not application/json",
    422: "refused by the rules of the game (`code` is one of RuleErrorCode), or a record that does not verify",
    429: "over a rate limit or the cap of games nobody moved in (see Retry-After)",
    501: "a live stream asked of the Flask app alone (plain WSGI): streams are served by `arena serve` / `arena web`",
    503: "the game store is unavailable; try again shortly (see Retry-After)",
}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again",
                               "schema": {"type": "integer", "minimum": 0}}}
PROBLEM_REF = {"$ref": "#/components/schemas/ProblemOut"}


_DOC = Blueprint("problems", __name__)      # never registered: lends its alt_response to `problems`


def problems(*codes: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the problem+json answers a view gives for its own reasons (the others: general_refusals)."""
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        for code in codes:
            fn = _DOC.alt_response(code, schema=ProblemOut, description="application/problem+json")(fn)
        return fn
    return wrap


def problem_response(code: int) -> dict[str, Any]:
    response: dict[str, Any] = {"description": ERRORS[code], "content": {"application/problem+json": {
        "schema": PROBLEM_REF}}}
    if code in (429, 503):
        response["headers"] = RETRY_AFTER
    return response


ANY_ENDPOINT = "x-any-endpoint"       # a refusal the endpoint did not declare itself (GET /docs lists those once)


ANYWHERE = frozenset({503})                     # the store is unavailable: every operation reads it
WITH_BODY = frozenset({400, 413, 415})          # a body checked before the view (inputs.py, limits.py)
BODY_METHODS = frozenset({"post", "put", "patch", "delete"})
LIMITED = frozenset({429})                      # an operation with a rate limit (limits.limited)
OPERATIONS = "operations.json"                  # "METHOD /path" -> {"operationId", "tags"}, frozen
REFUSALS = "refusals.json"                      # "METHOD /path" -> {status: [the codes its view gives]}
# The codes of the refusals made before any view, by status (server/inputs.py, limits.py, errors.py).
GENERAL_CODES = {400: ("malformed_request",), 413: ("body_too_large",), 415: ("unsupported_media_type",),
                 429: ("rate_limited",), 503: ("store_unavailable",)}
BODY_CODES = {400: ("malformed_json",), 503: ("not_replicated",)}   # a body read, a write that waits for a replica
CREDENTIAL_CODES = {401: ("bad_token", "token_required")}     # server/auth.py, wherever a credential is asked for
GAME_CODES = {404: ("game_not_found",), 409: ("game_cancelled", "game_not_started")}   # a game looked up by id


def general_refusals(method: str, operation: dict[str, Any], path: str, declared: set[int],
                     view: Callable[..., Any] | None) -> frozenset[int]:
    """The refusals an operation may give besides its view's own: by its method, its parameters (a
    malformed id or query, 400), a game it looks up that is still waiting for its players or was
    cancelled (409, server/invitations.py), and its limits."""
    from .limits import LIMIT_ATTR
    codes = ANYWHERE | (WITH_BODY if method in BODY_METHODS else frozenset())
    if "{" in path or any(p.get("in") == "query" for p in operation.get("parameters", [])):
        codes |= {400}
    if "{game_id}" in path and 404 in declared:
        codes |= {409}
    return codes | (LIMITED if getattr(view, LIMIT_ATTR, None) else frozenset())


def frozen_operations() -> dict[str, dict[str, Any]]:
    return dict(json.loads(resources.files(__package__).joinpath(OPERATIONS).read_text()))


def view_codes() -> dict[str, dict[str, list[str]]]:
    return dict(json.loads(resources.files(__package__).joinpath(REFUSALS).read_text()))


RULE_STATUSES = frozenset({400, 403, 422})     # an engine RuleError's: malformed, not you / not now, the rules


def codes_of(method: str, path: str, status: int, own: dict[str, list[str]]) -> tuple[list[str], bool]:
    """The codes a refusal of `status` can carry (`own`: the view's, by status), and whether any
    engine rule code may come too (an operation that asks the engine to decide may meet any)."""
    general = [*GENERAL_CODES.get(status, ()), *(BODY_CODES.get(status, ()) if method in BODY_METHODS else ()),
               *CREDENTIAL_CODES.get(status, ()), *(GAME_CODES.get(status, ()) if "{game_id}" in path else ())]
    decides = any(code in ERROR_CODES for codes in own.values() for code in codes)
    listed = {*general, *own.get(str(status), [])}
    return sorted(listed), decides and status in RULE_STATUSES


def operation_id(method: str, path: str) -> str:
    """The id a new operation takes until it is frozen: its method and its path's words."""
    words = [w.strip("{}") for w in path.replace("-", "_").split("/") if w]
    return "_".join([method.lower(), *words])


class ProblemResponses(BasePlugin):
    """Adds to every operation the problem+json refusals it can give (in place of any an endpoint
    listed), those before the view marked `x-any-endpoint`, and its frozen operationId."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.frozen = frozen_operations()
        self.codes = view_codes()

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        rule = kwargs.get("rule")
        view = self.app.view_functions.get(rule.endpoint) if rule is not None else None
        for method, operation in (operations or {}).items():
            key = f"{method.upper()} {path}"
            operation["operationId"] = self.frozen.get(key, {}).get("operationId") or operation_id(method, path or "")
            responses = operation.setdefault("responses", {})
            responses.pop("default", None)
            declared = {c for c in ERRORS if responses.pop(c, None) is not None or responses.pop(str(c), None) is not None}
            general = general_refusals(method, operation, path or "", declared, view)
            own = self.codes.get(key, {})
            for code in sorted(declared | general):
                responses[str(code)] = problem_response(code) if code in declared else {**problem_response(code), ANY_ENDPOINT: True}
                listed, rules = codes_of(method, path or "", code, own)
                responses[str(code)].update({"x-codes": listed, **({"x-rule-codes": True} if rules else {})})


def rule_error_codes() -> dict[str, Any]:
    """The catalogue of the engine's rule error codes (engine/errors.py), as an OpenAPI schema."""
    return {"type": "string", "enum": list(ERROR_CODES),
            "description": "The `code` of a refusal by the rules (422). " + "; ".join(
                f"`{code}`: {when}" for code, when in ERROR_CODES.items()) + ".",
            "x-codes": dict(ERROR_CODES)}


def prepare(api: Api) -> None:
    """Before the blueprints are registered: the Problem schema, and no generic default error."""
    if "ProblemOut" not in api.spec.components.schemas:
        api.spec.components.schema("ProblemOut", schema=ProblemOut)
    if "RuleErrorCode" not in api.spec.components.schemas:
        api.spec.components.schema("RuleErrorCode", rule_error_codes())
    api.DEFAULT_ERROR_RESPONSE_NAME = None
