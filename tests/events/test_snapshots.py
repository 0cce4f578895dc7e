import engine
from events import GameService
from events.snapshots import FINGERPRINT, due
from events.store import SNAPSHOTS_KEPT

from .games import play

EVERY = 7


def prefix_states(events: list[dict]) -> list[dict]:
    """The state after each number of events: index v holds the state at version v."""
    states, state = [{}], {}
    for event in events:
        state = engine.evolve(state, event)
        states.append(state)
    return states


def test_snapshot_plus_tail_equals_a_full_replay_at_every_version_of_many_games(redis_client, scripts, game_id):
    service = GameService(redis_client, snapshot_every=EVERY)
    games = [script for per_form in scripts.values() for script in per_form]
    assert len(games) >= 9
    for n, script in enumerate(games):
        gid = f"{game_id}-{n}"
        play(service, script, gid)
        latest = service.store.version(gid)
        assert latest == len(script.events)
        assert service.store.snapshot_versions(gid, FINGERPRINT) == due(0, latest, EVERY)[-SNAPSHOTS_KEPT:]
        expected = prefix_states(script.events)
        for version in range(1, latest + 1):
            assert service.load(gid, at=version).state == expected[version], (gid, version)
        assert expected[-1]["phase"] == "over"
        assert len(service.store.snapshot_versions(gid, FINGERPRINT)) <= SNAPSHOTS_KEPT     # rewinds kept it bounded


def test_dropped_snapshots_change_nothing_and_come_back_on_the_next_load(redis_client, scripts, game_id):
    service = GameService(redis_client, snapshot_every=EVERY)
    script = scripts["high_form"][0]
    play(service, script, game_id, upto=25)
    before = service.load(game_id)
    taken = service.store.snapshot_versions(game_id, FINGERPRINT)
    service.store.drop_snapshots(game_id)
    assert service.store.snapshot_versions(game_id, FINGERPRINT) == []
    after = service.load(game_id)
    assert (after.version, after.state, after.head_hash) == (before.version, before.state, before.head_hash)
    assert service.store.snapshot_versions(game_id, FINGERPRINT) == taken


def test_snapshots_taken_by_another_engine_are_never_used(redis_client, scripts, game_id):
    service = GameService(redis_client, snapshot_every=EVERY)
    play(service, scripts["duel"][0], game_id, upto=10)
    service.store.drop_snapshots(game_id)
    service.store.put_snapshots(game_id, "an-older-engine", {EVERY: '{"version":7,"hash":"x","state":{"bogus":1}}'})
    assert "bogus" not in service.load(game_id).state
