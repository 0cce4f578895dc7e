"""The store's contract, run against every backend: Redis (RESP3 bytes, RESP2 decoded) and a
local 3-master Redis Cluster."""
import threading

import pytest

from events import keys
from events.envelope import Envelope
from events.errors import ChainBroken, ConflictError, GameNotFound, VersionNotFound
from events.hashchain import GENESIS, event_hash, first_bad_version, seed_commitment
from events.idempotency import IdempotencyRecord
from events.store import DuplicateCommand, EventStore, Head, SNAPSHOTS_KEPT

SEED = "contract-seed"


def batch(game_id: str, head: Head, n: int, writer: int = 0) -> list[Envelope]:
    out, prev = [], head.hash
    for offset in range(n):
        version = head.version + 1 + offset
        body = {"game_id": game_id, "version": version, "type": "Marker", "schema_version": 1,
                "time": "2026-01-01T00:00:00.000000Z", "actor": writer, "payload": {"writer": writer, "i": offset},
                "prev_hash": prev}
        if version == 1:
            body["commitment"] = seed_commitment(SEED)
        prev = event_hash(SEED, body)
        out.append(Envelope(**body, hash=prev))
    return out


@pytest.fixture
def store(any_redis) -> EventStore:
    return EventStore(any_redis)


def test_a_game_with_no_events_is_at_version_zero(store, game_id):
    assert store.version(game_id) == 0
    assert store.head(game_id) == Head(0, GENESIS)
    assert store.read(game_id) == []
    with pytest.raises(GameNotFound):
        store.parts(game_id, None, 10, "fp")


def test_appended_events_read_back_in_order_from_version_one(store, game_id):
    first = batch(game_id, Head(0, GENESIS), 3)
    assert store.append(game_id, 0, first) == 3
    second = batch(game_id, store.head(game_id), 2)
    assert store.append(game_id, 3, second) == 5
    assert store.read(game_id) == first + second
    assert store.read(game_id, after=2, upto=4) == (first + second)[2:4]
    assert store.read(game_id, after=5) == []
    assert store.head(game_id) == Head(5, second[-1].hash)
    assert first_bad_version(store.read(game_id), SEED, game_id) is None


def test_an_append_at_the_wrong_version_raises_a_conflict_and_appends_nothing(store, game_id):
    store.append(game_id, 0, batch(game_id, Head(0, GENESIS), 2))
    stale = batch(game_id, Head(1, GENESIS), 3)
    with pytest.raises(ConflictError) as caught:
        store.append(game_id, 1, stale)
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    assert store.version(game_id) == 2


def test_a_batch_that_does_not_continue_the_chain_is_refused_whole(store, game_id):
    store.append(game_id, 0, batch(game_id, Head(0, GENESIS), 2))
    wrong = batch(game_id, Head(2, "f" * 64), 3)
    with pytest.raises(ChainBroken):
        store.append(game_id, 2, wrong)
    assert store.version(game_id) == 2


def test_readers_never_see_part_of_a_batch(store, game_id):
    seen: set[int] = set()
    done = threading.Event()

    def reader():
        while not done.is_set():
            seen.add(len(store.read(game_id)))
            seen.add(store.version(game_id))

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for _ in range(40):
            store.append(game_id, store.version(game_id), batch(game_id, store.head(game_id), 5))
    finally:
        done.set()
        thread.join()
    assert all(n % 5 == 0 for n in seen), sorted(seen)
    assert store.version(game_id) == 200


def test_thirty_two_writers_racing_at_the_same_version_make_one_winner_each_round(store, game_id):
    writers, rounds = 32, 12
    ready = threading.Barrier(writers)
    wins: list[tuple[int, int, int]] = []          # (round, writer, expected version)
    conflicts = [0]
    lock = threading.Lock()

    def write(writer: int):
        for r in range(rounds):
            ready.wait()
            head = store.head(game_id)
            mine = batch(game_id, head, 1 + writer % 3, writer)
            ready.wait()                             # everyone holds the same head: now race
            try:
                store.append(game_id, head.version, mine)
            except ConflictError:
                with lock:
                    conflicts[0] += 1
            else:
                with lock:
                    wins.append((r, writer, head.version))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r for r, _, _ in wins) == list(range(rounds))          # exactly one winner a round
    assert conflicts[0] == rounds * (writers - 1)
    log = store.read(game_id)
    assert [e.version for e in log] == list(range(1, len(log) + 1))       # no gaps, no duplicates
    expected_log = []
    for _, writer, version in sorted(wins, key=lambda w: w[2]):
        assert version == len(expected_log)
        expected_log += [(writer, i) for i in range(1 + writer % 3)]
    assert [(e.payload["writer"], e.payload["i"]) for e in log] == expected_log
    assert first_bad_version(log, SEED, game_id) is None


def test_an_idempotency_record_goes_in_with_the_batch_and_blocks_a_second_use(store, game_id):
    record = IdempotencyRecord("key-1", "print", 0, 1, 2)
    store.append(game_id, 0, batch(game_id, Head(0, GENESIS), 2), record)
    assert store.idempotency_record(game_id, "key-1") == record
    assert 0 < store.redis.ttl(keys.idempotency(game_id, "key-1")) <= 24 * 3600
    with pytest.raises(DuplicateCommand) as caught:
        store.append(game_id, 2, batch(game_id, store.head(game_id), 1), IdempotencyRecord("key-1", "x", 0, 3, 3))
    assert caught.value.record == record
    assert store.version(game_id) == 2


def test_parts_give_the_nearest_snapshot_below_a_version_and_the_tail(store, game_id):
    store.append(game_id, 0, batch(game_id, Head(0, GENESIS), 23))
    log = store.read(game_id)
    whole = store.parts(game_id, None, 5, "fp")
    assert (whole.latest, whole.version, whole.snapshot_version, whole.snapshot) == (23, 23, 0, None)
    assert whole.envelopes == log
    store.put_snapshots(game_id, "fp", {5: "five", 10: "ten", 20: "twenty"})
    at17 = store.parts(game_id, 17, 5, "fp")
    assert (at17.version, at17.snapshot_version, at17.snapshot) == (17, 10, "ten")   # 15 is missing
    assert at17.envelopes == log[10:17]
    assert store.parts(game_id, 20, 5, "fp").envelopes == []
    assert store.parts(game_id, 3, 5, "fp").snapshot is None
    assert store.parts(game_id, 17, 5, "other engine").snapshot is None
    assert store.snapshot_versions(game_id, "fp") == [5, 10, 20][-SNAPSHOTS_KEPT:]      # the newest only
    with pytest.raises(VersionNotFound):
        store.parts(game_id, 24, 5, "fp")
    store.drop_snapshots(game_id)
    assert store.parts(game_id, 17, 5, "fp").snapshot is None


def test_a_games_keys_share_one_slot_as_the_cluster_computes_it(cluster_client, game_id):
    game_keys = [*keys.game_keys(game_id), keys.idempotency(game_id, "k"), keys.meta(game_id, "seats")]
    slots = {int(cluster_client.execute_command("CLUSTER KEYSLOT", key, target_nodes=cluster_client.get_random_node()))
             for key in game_keys}
    assert len(slots) == 1
