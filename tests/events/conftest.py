"""Fixtures for the event store tests: the contract suite's backends and pre-played games."""
from __future__ import annotations

import pytest

from events.service import GameService

from .games import random_script


@pytest.fixture(params=["redis", "redis-resp2-decoded", "cluster"])
def any_redis(request: pytest.FixtureRequest):
    """Every backend the store must work on: one contract suite runs against each."""
    if request.param == "cluster":
        client = request.getfixturevalue("redis_cluster").client()
    elif request.param == "redis-resp2-decoded":
        client = request.getfixturevalue("redis_server").client(protocol=2, decode_responses=True)
    else:
        client = request.getfixturevalue("redis_server").client()
    yield client
    client.close()


OWN_DB = 2          # tests/workers use database 1 of the same server, every other test database 0


@pytest.fixture
def redis_db(redis_server):
    """A database of the session's server emptied for the test: for what a Redis holds once, that
    other tests' games would crowd (the follow-up index, the layout, the live games)."""
    client = redis_server.client(db=OWN_DB)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture
def redis_url(redis_server, redis_db) -> str:
    return f"redis://127.0.0.1:{redis_server.port}/{OWN_DB}"


@pytest.fixture
def service(redis_client) -> GameService:
    return GameService(redis_client, validate_events=True)


@pytest.fixture(scope="session")
def scripts() -> dict[str, list]:
    """Random complete games, three per form, played once per test worker."""
    return {form: [random_script(form, f"{form}-{i}") for i in range(3)] for form in ("duel", "high_form", "melee")}
