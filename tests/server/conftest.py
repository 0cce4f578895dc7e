"""The Flask app under test, talking to the real Redis server of tests/conftest.py."""
from __future__ import annotations

import pytest

from server import create_app


@pytest.fixture
def app(redis_server):
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True})
    yield app
    settle_now(app)


def settle_now(app) -> None:
    """Clear the follow-up debts the app's settler thread still waits to clear (events/followup.py),
    while the test's Redis still runs: a settler failing after the session stopped Redis logs a
    traceback from its thread, and Python 3.11 may then fail the main thread's imports at the end of
    the session ("AST constructor recursion depth mismatch", the ast module's state is shared)."""
    app.extensions["arena"].service.settle_now()


@pytest.fixture
def client(app):
    return app.test_client()


def reconfigure(app, **variables) -> None:
    """Set some of a running app's settings otherwise (as a process started with those variables)."""
    arena = app.extensions["arena"]
    arena.settings = arena.settings.overridden(variables)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def duel(client):
    """A new duel: (game id, [seat tokens])."""
    r = client.post("/games", json={"form": "duel", "seed": "fixture",
                                    "players": [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]})
    assert r.status_code == 201
    return r.json["id"], [s["token"] for s in r.json["seats"]]


from tests.server.served import serve, served  # noqa: E402,F401 (fixtures: the app over real HTTP, shipped limits)
