"""Live games stored compactly: the moves index holds versions, not copies of envelopes, and an
index an older version wrote (the envelopes themselves) reads the same; snapshots stay few; the
log's envelopes leave out the game id and keep their hashes in base64url, and a log of whole
envelopes reads the same."""
from __future__ import annotations

from events import GameService, keys, moves
from events.store import SNAPSHOTS_KEPT

from .games import play


def test_the_moves_index_holds_versions_and_an_older_index_of_envelopes_reads_the_same(any_redis, scripts, game_id):
    service = GameService(any_redis, snapshot_every=7)
    play(service, scripts["duel"][0], game_id)
    index = moves.read(service.store, game_id)
    stored = any_redis.lrange(keys.moves(game_id), 1, -1)
    assert [int(v) for v in stored] == [env.version for env in index.envelopes]
    assert index.envelopes == [env for env in service.store.read(game_id) if moves.indexed(env.type)]
    any_redis.delete(keys.moves(game_id))                 # as an older version wrote it: the envelopes
    any_redis.rpush(keys.moves(game_id), moves.HEADER, *(env.to_json() for env in index.envelopes))
    assert moves.read(service.store, game_id) == index
    assert len(service.store.snapshot_versions(game_id, service.fingerprint)) == SNAPSHOTS_KEPT


def test_the_log_keeps_envelopes_without_their_game_id_with_short_hashes_and_an_older_log_reads_the_same(
        any_redis, scripts, game_id):
    service = GameService(any_redis)
    play(service, scripts["high_form"][0], game_id, upto=12)
    envelopes, state = service.store.read(game_id), service.load(game_id).state
    raw = any_redis.xrange(keys.log(game_id))
    assert game_id not in str(raw[3][1]) and "schema_version" not in str(raw[3][1])
    assert envelopes[3].hash not in str(raw[3][1]) and envelopes[3].prev_hash not in str(raw[3][1])   # base64url
    any_redis.delete(keys.log(game_id))                   # as an older version wrote it: whole envelopes
    for env in envelopes:
        any_redis.xadd(keys.log(game_id), {"e": env.to_json()}, id=f"{env.version}-0")
    assert service.store.read(game_id) == envelopes
    assert GameService(any_redis).load(game_id).state == state
