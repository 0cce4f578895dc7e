"""Generated requests from /openapi.json: over 1,000 cases, each checked by schemathesis for server
errors and for status codes, content types, headers and bodies that the spec documents.

Uses schemathesis's Hypothesis strategies directly (one strategy per operation), which keeps the
run inside one plain test and lets it count the cases. Every other case is sent for a real game
with a real seat token (and real player token), so the generated bodies reach the views behind
authentication and existence checks; streams are asked not to follow (the Flask app alone answers
them 501 once their checks pass, by design: the stream tier serves them, tests/streams).
"""
from __future__ import annotations

import re

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_headers_conformance,
                                               response_schema_conformance, status_code_conformance)

from server import create_app

CASES_PER_OPERATION = 30
# Signing up and in hash a password with argon2 (about half a second each, by design): fewer cases there.
FEWER_CASES = {"POST /accounts": 5, "POST /accounts/session": 5}
MIN_CASES = 1000
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]
STREAM_CHECKS = [check for check in CHECKS if check is not not_a_server_error]


def _real(app) -> dict:
    client = app.test_client()
    game = client.post("/games", json={"form": "duel", "seed": "schemathesis", "players": [
        {"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]}).json
    player = client.post("/players", json={"name": "Pat"}).json
    return {"game_id": game["id"], "seat": game["seats"][1]["token"], "player": player["token"]}


def _aim(case, real: dict, index: int) -> dict:
    """Point every other case at the real game, with a token; never follow a stream."""
    headers = {}
    if "follow" in (case.query or {}) or case.operation.path.endswith("/stream"):
        case.query = {**(case.query or {}), "follow": "false"}
    if index % 2:
        if "game_id" in (case.path_parameters or {}):
            case.path_parameters = {**case.path_parameters, "game_id": real["game_id"]}
        token = real["player"] if case.operation.path.startswith("/players/me") else real["seat"]
        headers = {"Authorization": f"Bearer {token}"}
    return headers


def test_generated_requests_get_only_documented_answers(redis_server):
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True})
    real = _real(app)
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    calls: list[str] = []
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(operation.as_strategy())
        @settings(max_examples=FEWER_CASES.get(operation.label, CASES_PER_OPERATION), deadline=None, suppress_health_check=list(HealthCheck),
                  database=None, derandomize=True)
        def run(case):
            headers = _aim(case, real, len(calls))
            response = case.call(headers=headers)
            calls.append(operation.label)
            try:
                checks = STREAM_CHECKS if operation.path.endswith("/stream") else CHECKS
                case.validate_response(response, checks=checks, headers=headers)
            except (Exception, BaseExceptionGroup) as failure:      # noqa: BLE001 - collect every check failure
                failures.append(f"{operation.label} -> {response.status_code}: {str(failure)[:400]}")
        run()
    print(f"{len(calls)} generated requests over {len(set(calls))} operations")
    assert failures == []
    assert len(calls) >= MIN_CASES, f"only {len(calls)} cases over {len(set(calls))} operations"


def test_a_method_no_path_takes_is_a_405_problem_with_allow(client):
    """What schemathesis's unsupported-method scenario checks, for every documented path."""
    paths = client.get("/openapi.json").json["paths"]
    wrong = []
    for path, item in paths.items():
        url = re.sub(r"\{[^}]+\}", "1", path)                        # any value will do for the routing
        r = client.open(url, method="PATCH" if "patch" not in item else "PUT")
        allowed = {m.strip() for m in r.headers.get("Allow", "").split(",")}
        if r.status_code != 405 or r.mimetype != "application/problem+json" or \
                not {m.upper() for m in item if m != "parameters"} <= allowed:
            wrong.append(f"{path}: {r.status_code} {r.mimetype} Allow={r.headers.get('Allow')}")
    assert wrong == []
