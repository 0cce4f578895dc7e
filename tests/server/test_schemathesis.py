"""Generated requests from /openapi.json: at least 500 cases, and none gets a 5xx.

Uses schemathesis's Hypothesis strategies directly (one strategy per operation), which keeps the
run inside one plain test and lets it count the cases.
"""
from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings

from server import create_app

CASES_PER_OPERATION = 60


def test_generated_requests_never_get_a_server_error(redis_server):
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True})
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    calls: list[str] = []
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(operation.as_strategy())
        @settings(max_examples=CASES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck),
                  database=None)
        def run(case):
            response = case.call()
            calls.append(operation.label)
            if response.status_code >= 500:
                failures.append(f"{operation.label} -> {response.status_code}: {response.text[:300]}")
        run()
    print(f"{len(calls)} generated requests over {len(set(calls))} operations")
    assert failures == []
    assert len(calls) >= 500, f"only {len(calls)} cases over {len(set(calls))} operations"
