"""The engine's vocabulary as the server publishes it: GET /vocabulary and the OpenAPI catalogue."""
from __future__ import annotations

from engine.errors import ERROR_CODES
from engine.vocabulary import vocabulary


def test_the_server_publishes_the_vocabulary_and_the_error_catalogue(redis_server):
    from server import create_app
    client = create_app({"REDIS_URL": f"redis://127.0.0.1:{redis_server.port}/0", "TESTING": True}).test_client()
    assert client.get("/vocabulary").get_json() == vocabulary()
    catalogue = client.get("/openapi.json").get_json()["components"]["schemas"]["RuleErrorCode"]
    assert catalogue["enum"] == list(ERROR_CODES) and catalogue["x-codes"] == ERROR_CODES
