"""What an operator needs to know before pointing Arena at a Redis Cluster: `arena cluster-check`.

`check()` looks at the Cluster REDIS_CLUSTER_URL names (every node as the Cluster sees it, the
slots each master serves, its replicas) and at the queue Redis REDIS_URL names (RQ needs a single
Redis: a cluster-enabled one is refused), and sorts what it finds into errors (Arena cannot run
safely), warnings (it runs, with less than it could) and facts. Beyond reachability it reads each
server's settings that decide whether data survives: an eviction policy would drop game logs or
queued jobs (an error), no append-only file loses what a restart of every copy finds missing, a
Cluster requiring full coverage stops every game while one master is down (warnings). It also
says whether data of an older key layout is still waiting to be moved (`arena migrate`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from redis.crc import REDIS_CLUSTER_HASH_SLOTS as CLUSTER_SLOTS
from redis.exceptions import RedisError

from . import connection, keys
from .replication import default as default_replication
from .replies import text
from .settings import current

# Keys of older layouts: any left means `arena migrate` has work (tables are found by SCAN, not here).
LEGACY_KEYS = (keys.legacy_deadlines(), keys.legacy_deadline_leases(), keys.legacy_open_tables(),
               keys.legacy_seeks(), keys.legacy_live_games(), keys.legacy_account_names())


@dataclass
class Report:
    cluster: dict[str, Any] | None = None
    queue: dict[str, Any] = field(default_factory=dict[str, Any])
    layout: dict[str, Any] | None = None
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "cluster": self.cluster, "queue": self.queue, "layout": self.layout,
                "errors": self.errors, "warnings": self.warnings}


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
    if report.ok:
        _check_layout(report)
    return report


def _check_layout(report: Report) -> None:
    """Which key layout the game data is in, and whether an older one left keys behind."""
    try:
        client = connection.connect(decode_responses=True)
        pipe = client.pipeline(transaction=False)
        pipe.get(keys.layout())
        for key in LEGACY_KEYS:
            pipe.type(key)                              # one key a command ('none' when absent)
        found = pipe.execute()
    except RedisError as exc:
        report.errors.append(f"cannot read the key layout: {exc}")
        return
    left = [key for key, kind in zip(LEGACY_KEYS, found[1:]) if kind != "none"]
    report.layout = {"version": int(found[0] or 0), "current": keys.LAYOUT, "older_keys": left}
    if left:
        report.warnings.append(f"data of an older key layout is still in {', '.join(left)}: run `arena migrate` "
                               "(web and worker processes do it when they start)")
    client.close()


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
        settings = _settings(client, m["address"])
        m["notify_keyspace_events"] = settings.get("notify-keyspace-events")
        _check_keeping(report, f"master {m['address']}", settings, "game logs")
        if settings.get("cluster-require-full-coverage") == "yes":
            report.warnings.append(f"master {m['address']} has cluster-require-full-coverage yes: while any master "
                                   "is down every game stops; set it to no so the other masters' games go on")
        if m["notify_keyspace_events"] is not None and _lacks_xadd_events(m["notify_keyspace_events"]):
            report.warnings.append(f"master {m['address']} does not publish XADD events (notify-keyspace-events "
                                   f"{m['notify_keyspace_events']!r}): the stream tier turns them on itself, or, "
                                   "where CONFIG is refused, set 'notify-keyspace-events Et' on every node")
        live = [r for r in m["replicas"] if r["connected"] and not r["failed"]]
        if not live:
            report.warnings.append(f"master {m['address']} has no live replica: its writes are not confirmed "
                                   "by a second copy, and a failure of it stops its slots")
    client.close()


def _settings(client: Any, address: str) -> dict[str, str]:
    """The master's configuration (empty when CONFIG is refused there)."""
    host, _, port = address.rpartition(":")
    try:
        return _config(client.get_redis_connection(client.get_node(host=host, port=int(port))))
    except RedisError:
        return {}


def _config(client: Any) -> dict[str, str]:
    found = client.config_get("*")
    return {text(k): text(v) for k, v in found.items()}


def _check_keeping(report: Report, who: str, settings: dict[str, str], what: str) -> None:
    """Errors and warnings about whether a server keeps what it is given (nothing when CONFIG is refused)."""
    policy = settings.get("maxmemory-policy", "noeviction")
    if settings.get("maxmemory", "0") != "0" and policy != "noeviction":
        report.errors.append(f"{who} evicts keys when full (maxmemory-policy {policy}): it would drop {what}; "
                             "set maxmemory-policy noeviction")
    if settings.get("appendonly") == "no":
        report.warnings.append(f"{who} keeps no append-only file (appendonly no): {what} written since its last "
                               "snapshot are lost if it restarts with no copy elsewhere")


def _lacks_xadd_events(flags: str) -> bool:
    return "E" not in flags or ("t" not in flags and "A" not in flags)


def _slot_count(ranges: list[list[str]]) -> int:
    return sum(int(r[-1]) - int(r[0]) + 1 for r in ranges)


def _check_queue(report: Report, url: str) -> None:
    report.queue = {"url": redact(url), "env": connection.QUEUE_ENV if current().redis_url
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
    try:
        _check_keeping(report, f"the queue Redis {redact(url)}", _config(client),
                       "queued jobs (end-of-game work, bots, webhooks)")
    except RedisError:
        pass                                            # CONFIG refused: nothing to say
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
    if report.layout is not None:
        left = report.layout["older_keys"]
        lines.append(f"Key layout: {report.layout['version']} (this version writes {report.layout['current']})"
                     + (f"; older keys left: {', '.join(left)}" if left else ""))
    lines += [f"WARNING: {w}" for w in report.warnings] + [f"ERROR: {e}" for e in report.errors]
    lines.append("OK" if report.ok else "NOT OK")
    return lines
