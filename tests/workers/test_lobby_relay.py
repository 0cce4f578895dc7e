"""The lobby's changes reach its feed in order and once: from the process that made them, from
concurrent relays, and from a worker's sweep when that process died before relaying."""
from __future__ import annotations

import json
import threading

from events import keys, lobby

from .helpers import run_worker


def table(table_id: str) -> dict:
    return {"id": table_id, "form": "duel", "seats": 2, "status": "open", "created": 1.0, "players": [],
            "game_id": None}


def feed_ids(redis, after: str) -> list[tuple[str, str]]:
    return [(e["kind"], e["table"]["id"]) for _, e in lobby.feed_after(redis, after)]


def test_changes_left_unrelayed_by_a_dead_process_reach_the_feed_in_order_once(redis_db):
    start = lobby.feed_head(redis_db)
    bucket = keys.lobby_bucket("Lrelay1")
    lobby.open_table(redis_db, table("Lrelay1"))
    for kind in ("changed", "closed"):                          # recorded; the process died before relaying
        redis_db.xadd(keys.lobby_changes(bucket), {"data": json.dumps({"kind": kind, "table": table("Lrelay1")})})
    threads = [threading.Thread(target=lobby.relay, args=(redis_db, bucket)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    run_worker(redis_db)                                        # its sweep finds nothing more to relay
    assert feed_ids(redis_db, start) == [("opened", "Lrelay1"), ("changed", "Lrelay1"), ("closed", "Lrelay1")]


def test_a_change_after_unrelayed_ones_brings_them_first(redis_db):
    start = lobby.feed_head(redis_db)
    lobby.open_table(redis_db, table("Lrelay2"))
    redis_db.xadd(keys.lobby_changes(keys.lobby_bucket("Lrelay2")),
                  {"data": json.dumps({"kind": "changed", "table": table("Lrelay2")})})
    lobby.change_table(redis_db, "Lrelay2", lambda t: {**t, "status": "closed"})
    assert feed_ids(redis_db, start) == [("opened", "Lrelay2"), ("changed", "Lrelay2"), ("closed", "Lrelay2")]
