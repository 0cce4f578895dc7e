import json
import threading
from datetime import datetime, timezone

import pytest

import engine
from events import (SYSTEM, ConflictError, GameExists, GameNotFound, GameNotOver, GameService,
                    IdempotencyKeyReused, VersionNotFound, keys)
from events.hashchain import seed_commitment

from .games import options, play

DUEL = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}]}
OPEN_BOARD = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}],
              "board": "5/7/9/9/9/9/9/7/5", "turn": {"seat": 0, "actions_left": 2}}


def active(service, game_id) -> tuple[int, int, list[dict]]:
    """(version, active seat, its legal commands without resign)."""
    loaded = service.load(game_id)
    seat = engine.state.active_seat(loaded.state)
    commands = [{k: v for k, v in c.items() if k != "seat"} for c in engine.legal_commands(loaded.state, seat)
                if c["type"] != "resign"]
    return loaded.version, seat, commands


def test_a_new_game_opens_with_system_events_and_a_commitment_to_a_fresh_seed(service, game_id):
    created = service.create_game(DUEL, game_id=game_id)
    envelopes = service.store.read(game_id)
    seed = service.load(game_id).state["rng"]["seed"]
    assert created.version == len(envelopes) > 1
    assert len(seed) == 32 and seed != service.load(service.create_game(DUEL).game_id).state["rng"]["seed"]
    assert envelopes[0].type == "GameCreated" and envelopes[0].commitment == seed_commitment(seed)
    assert all(e.actor == SYSTEM for e in envelopes)
    assert all(e.commitment is None for e in envelopes[1:])
    for seat in (0, 1, None):
        assert seed not in json.dumps(service.events(game_id, seat)) + json.dumps(service.view(game_id, seat).view)


def test_a_game_id_in_use_cannot_be_created_again(service, game_id):
    service.create_game(DUEL, game_id=game_id)
    with pytest.raises(GameExists):
        service.create_game(DUEL, game_id=game_id)


def test_a_refused_command_raises_the_engines_rule_error_and_appends_nothing(service, game_id):
    service.create_game(DUEL, game_id=game_id)
    version, seat, _ = active(service, game_id)
    with pytest.raises(engine.RuleError) as caught:
        service.execute(game_id, 1 - seat, {"type": "choose", "square": "e5"})
    assert caught.value.code in ("not_your_decision", "not_your_turn")
    with pytest.raises(engine.RuleError) as malformed:
        service.execute(game_id, seat, "place e5")
    assert malformed.value.malformed
    assert service.store.version(game_id) == version


def test_a_command_appends_its_events_and_returns_them_redacted_for_the_caller(service, game_id):
    service.create_game(DUEL, game_id=game_id)
    version, seat, commands = active(service, game_id)
    result = service.execute(game_id, seat, commands[0], expected_version=version)
    assert result.version == version + len(result.events)
    assert [e["version"] for e in result.events] == list(range(version + 1, result.version + 1))
    assert all(e["actor"] == seat for e in result.events)
    assert result.events == service.events(game_id, seat, after=version)
    assert result.state == service.load(game_id).state


def test_a_stale_expected_version_is_a_conflict_and_appends_nothing(service, game_id):
    created = service.create_game(DUEL, game_id=game_id)
    version, seat, commands = active(service, game_id)
    with pytest.raises(ConflictError) as caught:
        service.execute(game_id, seat, commands[0], expected_version=created.version - 1)
    assert (caught.value.expected, caught.value.actual) == (created.version - 1, version)
    assert service.store.version(game_id) == version


def test_without_an_expected_version_a_lost_race_is_decided_again_on_the_new_state(service, redis_client, game_id):
    service.create_from_position(OPEN_BOARD, game_id=game_id)
    rival = GameService(redis_client)
    real_append = service.store.appended
    raced = []

    def append_after_a_rival(*args, **kwargs):
        if not raced:
            raced.append(rival.execute(game_id, 0, {"type": "place", "square": "e5"}))
        return real_append(*args, **kwargs)

    service.store.appended = append_after_a_rival
    mine = service.execute(game_id, 0, {"type": "place", "square": "f5"})
    assert mine.version == raced[0].version + len(mine.events)
    board = service.load(game_id).state["board"]
    assert "e5" in board and "f5" in board


def test_a_retry_with_the_same_idempotency_key_returns_the_first_result_without_appending(service, game_id):
    service.create_from_position(OPEN_BOARD, game_id=game_id)
    first = service.execute(game_id, 0, {"type": "place", "square": "e5"}, idempotency_key="k1")
    again = service.execute(game_id, 0, {"type": "place", "square": "e5"}, idempotency_key="k1")
    assert again.replayed and not first.replayed
    assert (again.version, again.events) == (first.version, first.events)
    service.execute(game_id, 0, {"type": "place", "square": "f5"})
    later = service.execute(game_id, 0, {"type": "place", "square": "e5"}, idempotency_key="k1")
    assert (later.version, later.events, later.replayed) == (first.version, first.events, True)


def test_a_retry_naming_its_first_expected_version_still_gets_the_first_result(service, game_id):
    created = service.create_from_position(OPEN_BOARD, game_id=game_id)
    command = {"type": "place", "square": "e5"}
    first = service.execute(game_id, 0, command, expected_version=created.version, idempotency_key="k2")
    again = service.execute(game_id, 0, command, expected_version=created.version, idempotency_key="k2")
    assert again.replayed and again.version == first.version
    assert service.store.version(game_id) == first.version


def test_the_same_key_with_another_body_is_refused(service, game_id):
    service.create_from_position(OPEN_BOARD, game_id=game_id)
    first = service.execute(game_id, 0, {"type": "place", "square": "e5"}, idempotency_key="k3")
    with pytest.raises(IdempotencyKeyReused):
        service.execute(game_id, 0, {"type": "place", "square": "d5"}, idempotency_key="k3")
    assert service.store.version(game_id) == first.version


def test_idempotency_keys_expire_after_a_day(service, redis_client, game_id):
    service.create_from_position(OPEN_BOARD, game_id=game_id)
    service.execute(game_id, 0, {"type": "place", "square": "e5"}, idempotency_key="k4")
    assert 24 * 3600 - 60 < redis_client.ttl(keys.idempotency(game_id, "k4")) <= 24 * 3600


def test_a_refused_command_leaves_its_key_free(service, game_id):
    service.create_from_position(OPEN_BOARD, game_id=game_id)
    with pytest.raises(engine.RuleError):
        service.execute(game_id, 0, {"type": "place", "square": "z9"}, idempotency_key="k5")
    assert service.execute(game_id, 0, {"type": "place", "square": "e5"}, idempotency_key="k5").version > 1


def run_together(n: int, work) -> list:
    results: list = [None] * n
    start = threading.Barrier(n)

    def run(i):
        start.wait()
        try:
            results[i] = work(i)
        except Exception as exc:   # noqa: BLE001 - collected for the assertions
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_thirty_two_clients_sending_one_keyed_command_apply_it_once(service, game_id):
    created = service.create_from_position(OPEN_BOARD, game_id=game_id)
    results = run_together(32, lambda i: service.execute(game_id, 0, {"type": "place", "square": "e5"},
                                                         idempotency_key="same"))
    assert all(not isinstance(r, Exception) for r in results), results
    assert len({(r.version, json.dumps(r.events, sort_keys=True)) for r in results}) == 1
    assert sum(not r.replayed for r in results) == 1
    assert service.store.version(game_id) == results[0].version
    assert [e.type for e in service.store.read(game_id, created.version)].count("PiecePlaced") == 1


def test_thirty_two_clients_at_the_same_expected_version_make_one_winner(service, game_id):
    created = service.create_from_position(OPEN_BOARD, game_id=game_id)
    squares = [c["square"] for c in engine.legal_commands(service.load(game_id).state, 0) if c["type"] == "place"][:32]
    results = run_together(32, lambda i: service.execute(game_id, 0, {"type": "place", "square": squares[i]},
                                                         expected_version=created.version))
    winners = [r for r in results if not isinstance(r, Exception)]
    assert len(winners) == 1
    assert all(isinstance(r, ConflictError) for r in results if r is not winners[0])
    assert service.store.version(game_id) == winners[0].version


def test_the_state_at_any_version_is_the_replay_of_the_events_up_to_it(redis_client, scripts, game_id):
    service = GameService(redis_client, snapshot_every=10)
    script = scripts["duel"][0]
    play(service, script, game_id, upto=30)
    latest = service.store.version(game_id)
    for version in (1, script.created, 10, 11, 19, 20, 21, latest - 1, latest):
        expected = engine.replay(script.events[:version])
        loaded = service.load(game_id, at=version)
        assert (loaded.version, loaded.latest, loaded.state) == (version, latest, expected)
        for seat in (0, 1, None):
            assert service.view(game_id, seat, at=version).view == engine.player_view(expected, seat)


def test_a_rewind_past_the_oldest_kept_snapshot_replays_fewer_events_than_the_snapshot_interval(
        redis_client, scripts, game_id):
    """Only the newest snapshots are kept (store.SNAPSHOTS_KEPT): a rewind to the recent part of a
    game replays a short tail; one further back folds from the start (tests/events/test_snapshots.py)."""
    service = GameService(redis_client, snapshot_every=16)
    play(service, scripts["melee"][0], game_id, upto=40)
    oldest_kept = min(service.store.snapshot_versions(game_id, service.fingerprint))
    tails = []
    real_parts = service.store.parts

    def counting_parts(*args, **kwargs):
        parts = real_parts(*args, **kwargs)
        tails.append(len(parts.envelopes))
        return parts

    service.store.parts = counting_parts
    for version in range(oldest_kept, service.store.version(game_id) + 1):
        service.load(game_id, at=version)
    assert max(tails) < 16


def test_missing_games_and_versions_are_reported(service, game_id):
    for call in (lambda: service.load(game_id), lambda: service.view(game_id, 0), lambda: service.events(game_id, 0),
                 lambda: service.export_record(game_id),
                 lambda: service.execute(game_id, 0, {"type": "end_turn"})):
        with pytest.raises(GameNotFound):
            call()
    created = service.create_game(DUEL, game_id=game_id)
    for version in (0, created.version + 1):
        with pytest.raises(VersionNotFound):
            service.load(game_id, at=version)


def test_envelopes_record_the_clock_and_on_whose_behalf(redis_client, game_id):
    moment = datetime(2026, 3, 1, 12, 30, 5, 250000, tzinfo=timezone.utc)
    service = GameService(redis_client, clock=lambda: moment)
    service.create_from_position(OPEN_BOARD, game_id=game_id)
    result = service.execute(game_id, 0, {"type": "place", "square": "e5"}, actor=SYSTEM)
    assert {e["time"] for e in result.events} == {"2026-03-01T12:30:05.250000Z"}
    assert {e["actor"] for e in result.events} == {"system"}


def test_a_game_from_a_position_commits_its_seed_and_hides_hands(service, game_id):
    hands = {"0": ["northern-bomb", "northern-knight"], "1": ["sylvan-naiad", "legends-hell-bull"]}
    service.create_from_position({**OPEN_BOARD, "hands": hands}, game_id=game_id)
    first = service.store.read(game_id)[0]
    assert first.type == "PositionSet"
    assert first.commitment == seed_commitment(first.payload["state"]["rng"]["seed"])
    seen_by_0 = json.dumps(service.events(game_id, 0)) + json.dumps(service.view(game_id, 0).view)
    assert "northern-knight" in seen_by_0 and "sylvan-naiad" not in seen_by_0 and "legends-hell-bull" not in seen_by_0


def test_an_unfinished_game_is_exported_only_when_asked(service, game_id):
    service.create_game(options("duel", "export-early"), game_id=game_id)
    with pytest.raises(GameNotOver):
        service.export_record(game_id)
    record = service.export_record(game_id, allow_unfinished=True)
    assert record["seed"] == "export-early"


def test_two_processes_taking_turns_on_one_game_each_decide_on_the_current_state(redis_client, scripts, game_id):
    """Each service keeps the states it made; the other's moves make them stale, never wrong."""
    first, second = GameService(redis_client), GameService(redis_client)
    script = scripts["duel"][1]
    first.create_game(script.options, game_id=game_id)
    for n, command in enumerate(script.commands[:60]):
        service = (first, second)[n % 3 == 0]
        service.execute(game_id, command["seat"], {k: v for k, v in command.items() if k != "seat"})
    assert first.load(game_id).state == engine.replay(script.events[:first.store.version(game_id)])


def test_a_refusal_by_a_stale_cached_state_is_checked_against_the_current_one(redis_client, game_id):
    mine, other = GameService(redis_client), GameService(redis_client)
    mine.create_from_position({**OPEN_BOARD, "turn": {"seat": 0, "actions_left": 1}}, game_id=game_id)
    mine.execute(game_id, 0, {"type": "place", "square": "e5"})           # seat 0's turn ends
    version, seat, commands = active(other, game_id)
    while seat != 0:
        version = other.execute(game_id, seat, commands[0]).version
        version, seat, commands = active(other, game_id)
    assert mine.execute(game_id, 0, commands[0]).version > version        # mine still thought seat 1 was to play


def test_the_service_plays_rewinds_and_retries_on_every_backend(any_redis, scripts, game_id):
    service = GameService(any_redis, snapshot_every=8, validate_events=True)
    script = scripts["high_form"][1]
    created = service.create_game(script.options, game_id=game_id)
    version = created.version
    for n, command in enumerate(script.commands[:25]):
        body = {k: v for k, v in command.items() if k != "seat"}
        result = service.execute(game_id, command["seat"], body, expected_version=version, idempotency_key=f"c{n}")
        again = service.execute(game_id, command["seat"], body, expected_version=version, idempotency_key=f"c{n}")
        assert again.replayed and again.version == result.version
        version = result.version
    for at in (1, 8, 9, version):
        assert service.load(game_id, at=at).state == engine.replay(script.events[:at])
    assert service.events(game_id, None, after=version - 3)[-1]["version"] == version
