import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import engine

from events import GameService, signing
from events.envelope import Envelope
from events.hashchain import event_hash
from events.record import dumps_record, loads_record, write_record
from events.verify import verify_record, verify_text

from .games import play

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def finished(redis_server, tmp_path_factory):
    """A finished duel's record, its text and a file holding it (one game for the module)."""
    from .games import random_script

    client = redis_server.client()
    service = GameService(client)
    script = random_script("duel", "record")
    play(service, script, "record-game")
    record = service.export_record("record-game")
    path = tmp_path_factory.mktemp("records") / "record.json"
    write_record(record, str(path))
    yield record, dumps_record(record), path
    service.store.delete_game("record-game")
    client.close()


def reseal(record: dict, change) -> dict:
    """The record with its events changed by `change(events)` and the chain recomputed with the
    seed, as a forger who knows the seed would do: only the seed checks can catch this."""
    seed = record["events"][0]["payload"]["seed"]
    events = [Envelope.from_dict(e) for e in record["events"]]
    payloads = [dict(e.payload) for e in events]
    change(payloads)
    out, prev = [], "0" * 64
    for env, payload in zip(events, payloads):
        env = dataclasses.replace(env, payload=payload, prev_hash=prev)
        prev = event_hash(seed, env.body())
        out.append(dataclasses.replace(env, hash=prev).to_dict())
    return {**record, "events": out, "head_hash": prev}


def test_an_exported_record_verifies(finished):
    record, text, _ = finished
    assert record["events"][-1]["type"] == "GameEnded"
    assert "seed" not in record
    verdict = verify_text(text)
    assert verdict.ok and verdict.events == len(record["events"]), verdict
    assert loads_record(text) == json.loads(text)


def test_the_command_line_says_consistent_and_who_signed_and_exits_zero(finished):
    _, _, path = finished
    own = signing.describe_key(signing.server_key().public_key())
    run = subprocess.run([sys.executable, "-m", "events.verify", str(path), "--key", own["public_key"]],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith(f"consistent, signed by {own['key_id']} (")


def test_one_changed_byte_in_any_event_fails_with_that_events_version(finished):
    _, text, _ = finished
    lines = text.split("\n")
    rng = random.Random(7)
    event_lines = range(1, len(lines) - 2)
    for line_no in [*event_lines[:3], *rng.sample(event_lines, 60), event_lines[-1]]:
        line = lines[line_no]
        end = len(line) - 1 if line.endswith(",") else len(line)       # the event, not its separator
        at = rng.randrange(end)
        replacement = rng.choice([c for c in "0123456789abcdefxyz{}[]\":,. " if c != line[at]])
        tampered = "\n".join([*lines[:line_no], line[:at] + replacement + line[at + 1:], *lines[line_no + 1:]])
        verdict = verify_text(tampered)
        assert not verdict.ok and verdict.version == line_no, (line_no, at, replacement, verdict)


def test_the_command_line_names_the_first_bad_version_and_exits_one(finished, tmp_path):
    _, text, _ = finished
    lines = text.split("\n")
    lines[5] = lines[5].replace('"version":5', '"version":6')
    bad = tmp_path / "bad.json"
    bad.write_text("\n".join(lines))
    run = subprocess.run([sys.executable, "-m", "events.verify", str(bad)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1
    assert "at version 5" in run.stdout


def test_a_changed_final_state_fails(finished):
    record, _, _ = finished
    state = json.loads(json.dumps(record["final_state"]))
    state["points"][0] += 1
    verdict = verify_record({**record, "final_state": state})
    assert not verdict.ok and "final state" in verdict.reason


def test_a_forged_shuffle_is_caught_even_with_a_recomputed_chain(finished):
    record, _, _ = finished

    def swap_first_two_cards(payloads):
        cards = payloads[1]["cards"]
        payloads[1] = {**payloads[1], "cards": cards[1::-1] + cards[2:]}

    verdict = verify_record(reseal(record, swap_first_two_cards))
    assert not verdict.ok and verdict.version == 2 and "seed" in verdict.reason


def test_a_forged_reveal_is_caught(finished):
    record, _, _ = finished

    def other_seed(payloads):
        payloads[-1]["seed"] = "not-the-seed"

    verdict = verify_record(reseal(record, other_seed))
    assert not verdict.ok and verdict.version == len(record["events"])


def test_a_seed_that_does_not_match_the_commitment_fails_at_the_first_event(finished):
    record, _, _ = finished
    events = [dict(e) for e in record["events"]]
    events[0]["commitment"] = "sha256:" + "0" * 64
    verdict = verify_record({**record, "events": events})
    assert not verdict.ok and verdict.version == 1


def test_an_unfinished_games_record_carries_its_seed_and_verifies(redis_client, scripts, game_id):
    service = GameService(redis_client)
    play(service, scripts["melee"][0], game_id, upto=20)
    record = service.export_record(game_id, allow_unfinished=True)
    assert record["seed"] == scripts["melee"][0].options["seed"]
    assert verify_text(dumps_record(record)).ok
    assert not verify_record({k: v for k, v in record.items() if k != "seed"}).ok


def test_the_export_command_writes_a_record_that_verifies(redis_server, scripts, game_id, tmp_path):
    service = GameService(redis_server.client())
    play(service, scripts["duel"][2], game_id)
    out = tmp_path / "exported.json"
    env = {**os.environ, "REDIS_URL": redis_server.url}
    run = subprocess.run([sys.executable, "-m", "events.export", game_id, "-o", str(out)], capture_output=True,
                         text=True, cwd=ROOT, env=env)
    assert run.returncode == 0, run.stderr
    assert verify_text(out.read_bytes()).ok


def test_a_forged_draw_in_the_middle_of_the_game_is_caught_by_deciding_the_move_again(finished):
    record, _, _ = finished
    events = record["events"]
    late = next(i for i, e in enumerate(events) if i > 40 and e["type"] == "CardsDrawn" and e["payload"]["deck"] == "school")
    other = next(c for c in engine.CARDS.decks[record["final_state"]["seats"][events[late]["payload"]["seat"]]["school"]]
                 if c not in events[late]["payload"]["cards"])

    def draw_another_card(payloads):
        payloads[late] = {**payloads[late], "cards": [other] + payloads[late]["cards"][1:]}

    verdict = verify_record(reseal(record, draw_another_card))
    assert not verdict.ok and verdict.version == late + 1 and "rules and the seed" in verdict.reason


def test_a_game_created_with_its_own_zombie_limit_verifies_as_the_corpus_check_decides_it(redis_client, game_id):
    """verify and engine/audit.py are one path: the creation is rebuilt with every option it had."""
    service = GameService(redis_client)
    options = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": "zombie",
               "zombie_after": 5}
    service.create_game(options, game_id=game_id)
    service.execute(game_id, 1, {"type": "resign"})
    record = service.export_record(game_id)
    verdict = verify_record(record)
    assert verdict.ok, verdict
    assert engine.audit.redecide([{"type": e["type"], **e["payload"]} for e in record["events"]]) is None
