"""Durable acknowledgement on a Cluster of 3 masters with a replica each: a move is answered only
once a replica has it; a replica that does not confirm makes the move unacknowledged (503), and a
retry with the same Idempotency-Key then gets the original answer; /health says how writes are kept."""
from __future__ import annotations

import os
import signal

import pytest
import redis

import engine
from engine.state import active_seat
from events import GameService, keys
from events.redis_process import start_cluster
from events.replication import Replication
from server import create_app

from .conftest import QUEUE_DB
from tests.conftest import OPERATOR

DUEL = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}]}


@pytest.fixture(scope="module")
def replicated(tmp_path_factory):
    cluster = start_cluster(tmp_path_factory.mktemp("replicated"), masters=3, replicas=1, node_timeout=2000)
    yield cluster
    cluster.stop()


def replica_of(cluster, client, key: str):
    """The replica process of the master that owns `key`."""
    port = client.get_node_from_key(key).port
    for process in cluster.replicas:
        if int(process.client().info("replication")["master_port"]) == port:
            return process
    raise AssertionError(f"no replica follows the master on port {port}")


def replica_version(process, game_id: str) -> int:
    reader = redis.Redis(host="127.0.0.1", port=process.port, single_connection_client=True)
    reader.execute_command("READONLY")
    try:
        return int(reader.xlen(keys.log(game_id)))
    finally:
        reader.close()


@pytest.fixture
def app(replicated, redis_server, monkeypatch, tmp_path):
    monkeypatch.setenv("REDIS_CLUSTER_URL", replicated.url)
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{redis_server.port}/{QUEUE_DB}")
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
    return create_app({"TESTING": True, "SERVICE_OPTIONS": {"replication": Replication(1, 300)}})


def test_every_acknowledged_append_is_already_on_the_replica(replicated, game_id):
    client = replicated.client()
    service = GameService(client, replication=Replication(1, 1000))
    created = service.create_game(DUEL, game_id=game_id)
    replica = replica_of(replicated, client, keys.log(game_id))
    assert replica_version(replica, game_id) == created.version
    state = service.load(game_id).state
    for _ in range(5):
        seat = active_seat(state)
        command = engine.legal_commands(state, seat)[0]
        result = service.execute(game_id, seat, command)
        assert replica_version(replica, game_id) == result.version          # read at once, no waiting
        state = service.load(game_id).state
    client.close()


def test_a_move_no_replica_confirms_is_refused_and_its_retry_gets_the_original_answer(app, replicated):
    web = app.test_client()
    game = web.post("/games", json={"form": "duel", "players": [{"name": "A", "school": "northern"},
                                                                  {"name": "B", "school": "sylvan"}]}).json
    seat = web.get(f"/games/{game['id']}").json["active_seat"]
    auth = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    legal = web.get(f"/games/{game['id']}/legal", headers=auth).json
    body = {**legal["commands"][0], "expected_version": legal["version"]}
    headers = {**auth, "Idempotency-Key": "move-1"}
    replica = replica_of(replicated, app.extensions["arena"].redis, keys.log(game["id"]))
    os.kill(replica.process.pid, signal.SIGSTOP)
    try:
        refused = web.post(f"/games/{game['id']}/commands", json=body, headers=headers)
    finally:
        os.kill(replica.process.pid, signal.SIGCONT)
    assert refused.status_code == 503 and refused.json["code"] == "not_replicated"
    assert refused.headers["Retry-After"].isdigit()              # 1, or the limiter's window when it says later
    answer = web.post(f"/games/{game['id']}/commands", json=body, headers=headers)
    assert answer.status_code == 200 and answer.json["replayed"] is True
    assert answer.json["version"] == legal["version"] + len(answer.json["events"])
    assert replica_version(replica, game["id"]) == answer.json["version"]
    assert web.get("/health", headers=OPERATOR).json["replication"]["mode"] == "replicated"


def test_health_says_whether_writes_are_replicated(redis_server, monkeypatch):
    monkeypatch.delenv("REDIS_CLUSTER_URL", raising=False)
    single = create_app({"REDIS_URL": redis_server.url, "TESTING": True}).test_client().get("/health", headers=OPERATOR).json
    assert single["replication"]["mode"] == "degraded"
    assert single["replication"]["masters_without_replica"] == [f"127.0.0.1:{redis_server.port}"]
    off = create_app({"REDIS_URL": redis_server.url, "TESTING": True,
                      "SERVICE_OPTIONS": {"replication": Replication(0, 1000)}})
    assert off.test_client().get("/health", headers=OPERATOR).json["replication"]["mode"] == "off"
