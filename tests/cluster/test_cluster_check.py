"""`arena cluster-check`: what it reports about the Cluster and the queue Redis, and when it refuses."""
from __future__ import annotations

import json

from click.testing import CliRunner

from server.cli import main


def check(monkeypatch, cluster_url: str | None, queue_url: str, *args: str):
    if cluster_url:
        monkeypatch.setenv("REDIS_CLUSTER_URL", cluster_url)
    else:
        monkeypatch.delenv("REDIS_CLUSTER_URL", raising=False)
    monkeypatch.setenv("REDIS_URL", queue_url)
    return CliRunner().invoke(main, ["cluster-check", *args])


def test_it_reports_nodes_slots_replicas_and_the_queue_redis(monkeypatch, redis_cluster, redis_server):
    result = check(monkeypatch, redis_cluster.url, redis_server.url, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    cluster = report["cluster"]
    assert cluster["state"] == "ok" and cluster["slots_covered"] == 16384 and len(cluster["masters"]) == 3
    assert sorted(int(m["address"].rsplit(":", 1)[1]) for m in cluster["masters"]) == \
        sorted(n.port for n in redis_cluster.nodes)
    assert cluster["replication"]["mode"] == "degraded"
    assert sum("has no live replica" in w for w in report["warnings"]) == 3
    assert report["queue"] == {"url": redis_server.url, "env": "REDIS_URL", "reachable": True,
                               "version": report["queue"]["version"], "cluster_enabled": False}
    text = check(monkeypatch, redis_cluster.url, redis_server.url).output
    assert "3 masters, 16384/16384 slots" in text and text.rstrip().endswith("OK")


def test_a_cluster_enabled_queue_redis_is_refused(monkeypatch, redis_cluster):
    result = check(monkeypatch, redis_cluster.url, redis_cluster.nodes[1].url)
    assert result.exit_code == 1
    assert "cluster-enabled: RQ needs a single Redis" in result.output and result.output.rstrip().endswith("NOT OK")


def test_without_a_cluster_it_says_so_and_checks_the_queue_redis(monkeypatch, redis_server):
    result = check(monkeypatch, None, redis_server.url, "--json")
    assert result.exit_code == 0
    report = json.loads(result.output)
    assert report["cluster"] is None and report["queue"]["reachable"]
    assert any("REDIS_CLUSTER_URL is not set" in w for w in report["warnings"])


def test_an_unreachable_queue_redis_is_an_error(monkeypatch, redis_cluster):
    from events.redis_process import free_port
    result = check(monkeypatch, redis_cluster.url, f"redis://:secret@127.0.0.1:{free_port()}/0")
    assert result.exit_code == 1 and "cannot reach the queue Redis" in result.output
    assert "secret" not in result.output and ":***@" in result.output


def test_servers_that_would_drop_data_are_refused_and_risky_settings_warned(monkeypatch, redis_cluster, redis_server):
    master = redis_cluster.nodes[0].client()
    queue = redis_server.client()
    before = {**master.config_get("maxmemory*"), **master.config_get("cluster-require-full-coverage")}
    try:
        master.config_set("maxmemory", "1gb")
        master.config_set("maxmemory-policy", "allkeys-lru")
        master.config_set("cluster-require-full-coverage", "yes")
        queue.config_set("maxmemory", "1gb")
        queue.config_set("maxmemory-policy", "volatile-lru")
        result = check(monkeypatch, redis_cluster.url, redis_server.url, "--json")
    finally:
        master.config_set("maxmemory-policy", before["maxmemory-policy"])
        master.config_set("maxmemory", before["maxmemory"])
        master.config_set("cluster-require-full-coverage", before["cluster-require-full-coverage"])
        queue.config_set("maxmemory-policy", "noeviction")
        queue.config_set("maxmemory", "0")
        master.close()
        queue.close()
    report = json.loads(result.output)
    assert result.exit_code == 1
    assert [e for e in report["errors"] if "allkeys-lru" in e and "game logs" in e]
    assert [e for e in report["errors"] if "queue Redis" in e and "volatile-lru" in e]
    assert [w for w in report["warnings"] if "cluster-require-full-coverage yes" in w]
    assert [w for w in report["warnings"] if "appendonly no" in w]          # the test nodes keep no AOF


def test_it_says_when_data_of_an_older_key_layout_waits_to_be_moved(monkeypatch, redis_cluster, redis_server):
    from events import keys, lobby, presence
    from events import due
    cluster = redis_cluster.client()
    cluster.zadd(keys.legacy_live_games(), {"cc-old-game": 1.0})
    cluster.zadd(keys.legacy_deadlines(), {"timeout:cc-old-game:1": 5.0})
    cluster.hset(keys.legacy_account_names(), "cc-old-name", "pccold")
    table = {"id": "Lccold", "status": "started", "created": 1.0, "game_id": "Lccold"}
    cluster.set(keys.legacy_table("Lccold"), json.dumps(table))
    report = json.loads(check(monkeypatch, redis_cluster.url, redis_server.url, "--json").output)
    assert set(report["layout"]["older_keys"]) == {keys.legacy_live_games(), keys.legacy_deadlines(),
                                                  keys.legacy_account_names()}
    assert any("arena migrate" in w for w in report["warnings"])
    said = CliRunner().invoke(main, ["migrate"]).output                       # on the Cluster: every slot
    assert all(f"{what}: 1" in said for what in ("live_games", "deadlines", "account_names", "tables")), said
    assert "cc-old-game" in presence.live(cluster, 1000) and due.when(cluster, "timeout:cc-old-game:1") == 5.0
    assert lobby.table(cluster, "Lccold") == table and cluster.get(keys.account_name("CC-old-name")) == b"pccold"
    due.drop(cluster, ["timeout:cc-old-game:1"])
    cluster.delete(keys.table("Lccold"))
    cluster.delete(keys.account_name("cc-old-name"))
    assert json.loads(check(monkeypatch, redis_cluster.url, redis_server.url, "--json").output)["layout"] == \
        {"version": keys.LAYOUT, "current": keys.LAYOUT, "older_keys": []}
    presence.not_live(cluster, "cc-old-game")
    cluster.close()
