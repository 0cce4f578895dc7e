"""What an operator needs to know before pointing Arena at a Redis Cluster: `arena cluster-check`.

`check()` looks at the Cluster REDIS_CLUSTER_URL names (every node as the Cluster sees it, the
slots each master serves, its replicas) and at the queue Redis REDIS_URL names (RQ needs a single
Redis: a cluster-enabled one is refused), and sorts what it finds into errors (Arena cannot run
safely), warnings (it runs, with less than it could) and facts.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from redis.crc import REDIS_CLUSTER_HASH_SLOTS as CLUSTER_SLOTS
from redis.exceptions import RedisError

from . import connection
from .replication import default as default_replication


@dataclass
class Report:
    cluster: dict | None = None
    queue: dict = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def as_dict(self) -> dict:
        return {"ok": self.ok, "cluster": self.cluster, "queue": self.queue, "errors": self.errors,
                "warnings": self.warnings}


def redact(url: str) -> str:
    """A URL fit to print: any password replaced by '***'."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username or ''}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def check() -> Report:
    report = Report()
    url = connection.cluster_url()
    if url:
        _check_cluster(report, url)
    else:
        report.warnings.append(f"{connection.CLUSTER_ENV} is not set: game data stays on the single Redis below")
    _check_queue(report, connection.queue_url())
    return report


def _check_cluster(report: Report, url: str) -> None:
    try:
        client = connection.connect_cluster(url, decode_responses=True)
        nodes = client.cluster_nodes()
        info = client.cluster_info()
    except RedisError as exc:
        report.errors.append(f"cannot reach the Cluster at {redact(url)}: {exc}")
        return
    masters = {v["node_id"]: {"address": addr, "slots": _slot_count(v["slots"]), "ranges": v["slots"],
                              "replicas": [], "connected": v["connected"], "failed": "fail" in v["flags"]}
               for addr, v in nodes.items() if "master" in v["flags"].split(",")}
    for addr, v in nodes.items():
        if "slave" in v["flags"].split(",") and v["master_id"] in masters:
            masters[v["master_id"]]["replicas"].append({"address": addr, "connected": v["connected"],
                                                        "failed": "fail" in v["flags"]})
    serving = [m for m in masters.values() if m["slots"]]
    covered = sum(m["slots"] for m in serving)
    report.cluster = {"url": redact(url), "state": info.get("cluster_state"), "nodes": len(nodes),
                      "masters": sorted(serving, key=lambda m: int(m["ranges"][0][0])),
                      "slots_covered": covered, "replication": default_replication().status(client)}
    if info.get("cluster_state") != "ok":
        report.errors.append(f"the Cluster's state is {info.get('cluster_state')!r}, not 'ok'")
    if covered != CLUSTER_SLOTS:
        report.errors.append(f"only {covered} of {CLUSTER_SLOTS} slots are served")
    for m in serving:
        m["notify_keyspace_events"] = _notifications(client, m["address"])
        if m["notify_keyspace_events"] is not None and _lacks_xadd_events(m["notify_keyspace_events"]):
            report.warnings.append(f"master {m['address']} does not publish XADD events (notify-keyspace-events "
                                   f"{m['notify_keyspace_events']!r}): the stream tier turns them on itself, or, "
                                   "where CONFIG is refused, set 'notify-keyspace-events Et' on every node")
        live = [r for r in m["replicas"] if r["connected"] and not r["failed"]]
        if not live:
            report.warnings.append(f"master {m['address']} has no live replica: its writes are not confirmed "
                                   "by a second copy, and a failure of it stops its slots")
    client.close()


def _notifications(client: Any, address: str) -> str | None:
    """The master's notify-keyspace-events (None when CONFIG is refused there)."""
    host, _, port = address.rpartition(":")
    try:
        found = client.get_redis_connection(client.get_node(host=host, port=int(port))).config_get(
            "notify-keyspace-events")
    except RedisError:
        return None
    value = next(iter(found.values()), "")
    return value.decode() if isinstance(value, bytes) else value


def _lacks_xadd_events(flags: str) -> bool:
    return "E" not in flags or ("t" not in flags and "A" not in flags)


def _slot_count(ranges: list[list[str]]) -> int:
    return sum(int(r[-1]) - int(r[0]) + 1 for r in ranges)


def _check_queue(report: Report, url: str) -> None:
    report.queue = {"url": redact(url), "env": connection.QUEUE_ENV if os.environ.get(connection.QUEUE_ENV)
                    else "embedded"}
    try:
        client = connection.connect_queue(decode_responses=True, socket_connect_timeout=connection.CONNECT_TIMEOUT)
        server = client.info("server")
        enabled = int(client.info("cluster").get("cluster_enabled", 0))
    except RedisError as exc:
        report.errors.append(f"cannot reach the queue Redis at {redact(url)}: {exc}")
        report.queue["reachable"] = False
        return
    report.queue.update(reachable=True, version=server.get("redis_version"), cluster_enabled=bool(enabled))
    if enabled:
        report.errors.append(f"the queue Redis {redact(url)} is cluster-enabled: RQ needs a single Redis "
                             f"(set {connection.QUEUE_ENV} to a plain redis-server)")
    client.close()


def describe(report: Report) -> list[str]:
    """The report as lines for a terminal."""
    lines = []
    if report.cluster is not None:
        c = report.cluster
        lines.append(f"Cluster {c['url']}: state {c['state']}, {c['nodes']} nodes, {len(c['masters'])} masters, "
                     f"{c['slots_covered']}/{CLUSTER_SLOTS} slots")
        for m in c["masters"]:
            ranges = ", ".join("-".join(r) if r[0] != r[-1] else r[0] for r in m["ranges"])
            replicas = ", ".join(f"{r['address']}{'' if r['connected'] and not r['failed'] else ' (down)'}"
                                 for r in m["replicas"]) or "none"
            lines.append(f"  master {m['address']}: {m['slots']} slots ({ranges}); replicas: {replicas}")
        r = c["replication"]
        lines.append(f"  acknowledged writes: {r['mode']} (WAIT {r['wait_replicas']} replica(s), {r['wait_ms']} ms)")
    q = report.queue
    state = f"Redis {q.get('version')}" if q.get("reachable") else "unreachable"
    lines.append(f"Queue Redis (RQ) {q['url']} [{q['env']}]: {state}")
    lines += [f"WARNING: {w}" for w in report.warnings] + [f"ERROR: {e}" for e in report.errors]
    lines.append("OK" if report.ok else "NOT OK")
    return lines
