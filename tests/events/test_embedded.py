import os

import pytest

from events import GameService
from events.connection import connect
from events.embedded import EmbeddedRedis

DUEL = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}]}


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
    yield tmp_path
    EmbeddedRedis(tmp_path).stop()


def test_without_redis_url_the_project_runs_its_own_durable_redis_under_the_data_dir(data_dir):
    client = connect(decode_responses=True)
    server = EmbeddedRedis(data_dir)
    assert server.socket_path.exists() and str(server.socket_path).startswith(str(data_dir))
    assert client.config_get("appendonly") == {"appendonly": "yes"}
    assert client.config_get("appendfsync") == {"appendfsync": "always"}
    assert client.config_get("dir")["dir"] == str(server.dir)
    pid = int(server.pid_path.read_text())
    connect().ping()                                       # a second caller reuses the same server
    assert int(server.pid_path.read_text()) == pid
    client.close()


def test_an_acknowledged_game_survives_a_restart_of_the_embedded_server(data_dir):
    service = GameService(connect())
    created = service.create_game(DUEL)
    before = service.load(created.game_id)
    EmbeddedRedis(data_dir).stop()
    assert not EmbeddedRedis(data_dir).is_running()
    after = GameService(connect()).load(created.game_id)
    assert (after.version, after.state, after.head_hash) == (before.version, before.state, before.head_hash)
    assert (data_dir / "redis" / "appendonly.aof").stat().st_size > 0


def test_with_redis_url_that_server_is_used(redis_server, monkeypatch, tmp_path):
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
    client = connect()
    assert client.connection_pool.connection_kwargs["port"] == redis_server.port
    assert client.ping()
    assert not os.path.exists(tmp_path / "redis")
    client.close()
