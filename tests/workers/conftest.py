"""Worker tests: a real Redis (database 1 of the session's server, emptied for each test), the
Flask app on it, and real RQ workers run in burst mode in this process (SimpleWorker).

Time: deadlines come from the times recorded in events, so tests move the clock with freezegun
(`freeze_time`) rather than waiting; nothing sleeps for correctness.
"""
from __future__ import annotations

import pytest

from server import create_app
from tests.server.conftest import settle_now

from .helpers import Receiver
from .processes import DurableRedis, Worker

DB = 1


@pytest.fixture
def redis_url(redis_server) -> str:
    return f"redis://127.0.0.1:{redis_server.port}/{DB}"


@pytest.fixture
def redis_db(redis_server):
    """Database 1 is these tests' own: emptied before each, so RQ's queues start empty."""
    client = redis_server.client(db=DB)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture(autouse=True)
def arena_env(monkeypatch, tmp_path):
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ARENA_WEBHOOK_RETRIES", "0,0")
    monkeypatch.setenv("ARENA_WEBHOOK_TIMEOUT", "5")


@pytest.fixture
def app(redis_url, redis_db):
    app = create_app({"REDIS_URL": redis_url, "TESTING": True})
    yield app
    settle_now(app)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def hook(monkeypatch):
    """A webhook receiver on 127.0.0.1 (allowed for webhooks) answering 200."""
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1/32")
    receiver = Receiver([200])
    yield receiver
    receiver.close()


# --- real processes (tests/workers/processes.py): a Redis that can be killed, worker processes -------

@pytest.fixture
def durable_redis(tmp_path):
    """A redis-server of the test's own, append-only file flushed on every write."""
    server = DurableRedis(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def durable_client(durable_redis):
    return create_app({"REDIS_URL": durable_redis.url, "TESTING": True}).test_client()


@pytest.fixture
def worker_processes(durable_redis, tmp_path):
    """start(queue="arena", **env) -> a worker process on durable_redis; all are stopped afterwards."""
    started: list[Worker] = []

    def start(queue: str = "arena", **env: str) -> Worker:
        started.append(Worker(durable_redis.url, tmp_path / "data", queue, **env))
        return started[-1]
    yield start
    for worker in started:
        worker.stop()
