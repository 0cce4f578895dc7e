"""The engine's vocabulary as the server publishes it: GET /vocabulary and the OpenAPI catalogue."""
from __future__ import annotations

from engine.ai.levels import LEVELS
from engine.errors import ERROR_CODES
from engine.vocabulary import vocabulary


def test_the_server_publishes_the_vocabulary_and_the_error_catalogue(redis_server):
    from server import create_app
    client = create_app({"REDIS_URL": f"redis://127.0.0.1:{redis_server.port}/0", "TESTING": True}).test_client()
    served = client.get("/vocabulary").get_json()
    assert {k: v for k, v in served.items() if k != "bot_levels"} == vocabulary()
    assert [entry["level"] for entry in served["bot_levels"]] == sorted(LEVELS)
    catalogue = client.get("/openapi.json").get_json()["components"]["schemas"]["RuleErrorCode"]
    assert catalogue["enum"] == list(ERROR_CODES) and catalogue["x-codes"] == ERROR_CODES
