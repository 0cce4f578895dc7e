"""Every refusal an endpoint can give, documented in /openapi.json as application/problem+json.

Any operation may be refused as malformed (400), unauthenticated (401), not yours (403), unknown
(404), in conflict (409), too large (413), of the wrong media type (415), against the rules (422),
over a limit (429) or with the store unavailable (503): an apispec plugin adds these responses to
every operation as it is registered, so a new blueprint is documented with nothing to add; those an
endpoint did not declare with `problems(...)` are marked `x-any-endpoint`, so GET /docs names each
endpoint's own refusals and lists the rest once.
flask-smorest's generic `default` error (plain JSON, another shape) is dropped: clients and
schemathesis see exactly the answers the server gives.
"""
from __future__ import annotations

from typing import Any

from apispec import BasePlugin
from flask_smorest import Api

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
    503: "the game store is unavailable; try again shortly (see Retry-After)",
}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again",
                               "schema": {"type": "integer", "minimum": 0}}}
PROBLEM_REF = {"$ref": "#/components/schemas/ProblemOut"}


def problem_response(code: int) -> dict[str, Any]:
    response: dict[str, Any] = {"description": ERRORS[code], "content": {"application/problem+json": {
        "schema": PROBLEM_REF}}}
    if code in (429, 503):
        response["headers"] = RETRY_AFTER
    return response


ANY_ENDPOINT = "x-any-endpoint"       # a refusal the endpoint did not declare itself (GET /docs lists those once)


class ProblemResponses(BasePlugin):
    """Adds the problem+json refusals to every operation (in place of any an endpoint listed); those
    the endpoint did not declare itself (`problems(...)`) are marked `x-any-endpoint`."""

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        for operation in (operations or {}).values():
            responses = operation.setdefault("responses", {})
            responses.pop("default", None)
            for code in ERRORS:
                declared = responses.pop(code, None) is not None or responses.pop(str(code), None) is not None
                responses[str(code)] = problem_response(code) if declared else {**problem_response(code), ANY_ENDPOINT: True}


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
