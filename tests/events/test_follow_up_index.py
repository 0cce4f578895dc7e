"""The follow-up index (events/followup.py) against real Redis. On a single Redis the append
script indexes the game itself; on a Cluster `owe` does it first, and a deadline loop that looks at
the game between `owe` and the append itself must not leave the append's debt unindexed.

The interleaving is driven by hand, in one thread: the store's `owe` is wrapped so that, right
after it, a loop does what workers/deadline_loop.py does (claim, catch_up, release); then the
append lands from a service without a hook (a web process that died before its hook ran).
"""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from events import followup, keys, store
from events.service import GameService

from .games import options

LEASE = 30.0


class Loop:
    """A deadline loop's follow-up pass (workers/deadline_loop.py), its hook only counting runs."""

    def __init__(self, redis) -> None:
        self.redis, self.runs = redis, []
        self.service = GameService(redis, follow_up=lambda _service, game_id, _result: self.runs.append(game_id))

    def look(self, now: float) -> list[str]:
        claimed = followup.claim(self.redis, now, LEASE, 10)
        for game_id in claimed.games:
            self.service.catch_up(game_id)
            followup.release(self.redis, game_id)
        return claimed.games


def test_a_loop_between_owe_and_the_append_leaves_the_appends_debt_indexed(redis_db, game_id, monkeypatch):
    loop = Loop(redis_db)
    settled = GameService(redis_db, follow_up=lambda *_: None)
    with freeze_time(datetime.now(timezone.utc) - timedelta(seconds=followup.grace() * 3)):
        created = settled.create_game(options("duel", "owe"), game_id=game_id)    # its entry is due by now
    assert followup.owed(redis_db, game_id) is None                           # its hook ran and settled

    looks: list[list[str]] = []
    real_owe = followup.owe

    def owe_then_a_loop(redis, owing: str, now: float | None = None) -> None:
        real_owe(redis, owing, now)
        looks.append(loop.look(time.time()))          # the loop's turn comes before the append's

    monkeypatch.setattr(store.followup, "owe", owe_then_a_loop)
    died = GameService(redis_db)                  # the web process: dead before its hook runs
    died.store.index_in_append = False            # indexing first, as on a Cluster
    moved = died.execute(game_id, 1, {"type": "resign"}, expected_version=created.version)
    monkeypatch.setattr(store.followup, "owe", real_owe)

    assert followup.owed(redis_db, game_id) == moved.version              # the debt, with the events
    assert redis_db.zscore(keys.follow_ups(keys.deadline_shard(game_id)), game_id) is not None
    assert loop.look(time.time() + followup.grace() + 1) == [game_id]
    assert loop.runs == [game_id]                                                 # followed up, once
    assert followup.owed(redis_db, game_id) is None
    assert looks == [[]]                              # the loop in between had nothing due to look at


def test_a_retry_after_a_failure_never_makes_a_later_owe_due_sooner(redis_db, game_id):
    shard = keys.deadline_shard(game_id)
    now = time.time()
    followup.owe(redis_db, game_id, now - followup.grace() - 1)
    assert followup.claim(redis_db, now, LEASE, 10).games == [game_id]       # a loop holds it
    followup.owe(redis_db, game_id, now)                                      # an append meanwhile
    followup.release(redis_db, game_id, again=now + 1)                        # the loop's look failed
    assert redis_db.zscore(keys.follow_ups(shard), game_id) == now + followup.grace()
    followup.owe(redis_db, game_id, now - 60)                                 # a slow clock: not sooner
    assert redis_db.zscore(keys.follow_ups(shard), game_id) == now + followup.grace()


def test_on_one_redis_the_append_indexes_the_game_and_records_the_debt_in_its_one_round_trip(redis_db, game_id,
                                                                                              monkeypatch):
    monkeypatch.setattr(store.followup, "owe", lambda *_: pytest.fail("a round trip of its own for the index"))
    before = time.time()
    created = GameService(redis_db).create_game(options("duel", "owe"), game_id=game_id)
    assert followup.owed(redis_db, game_id) == created.version
    due = redis_db.zscore(keys.follow_ups(keys.deadline_shard(game_id)), game_id)
    assert before + followup.grace() <= due <= time.time() + followup.grace()
