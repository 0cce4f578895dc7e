"""Archiving survives kill -9 at every step, round-trips through a restore (on a single Redis, RESP2
and RESP3, and on the 3-master Cluster), keeps chat written after it, and leaves a file anyone can
verify with the server's published key."""
from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from events import chat, keys
from events.archive import archiver, storage
from events.service import GameService
from server import create_app
from tests.workers.processes import START_SECONDS, Worker, wait_for

from .conftest import finished_game, seen

ROOT = Path(__file__).resolve().parents[2]
STEPS = ("archive.written", "archive.verified", "archive.stubbed", "archive.dropped")


def game_keys(redis, game_id: str) -> dict:
    """The game's log, moves index and chat as Redis holds them."""
    return {"log": redis.xrange(keys.log(game_id)), "moves": redis.lrange(keys.moves(game_id), 0, -1),
            **{c: redis.xrange(keys.chat(game_id, c)) for c in chat.CHANNELS}}


@pytest.mark.parametrize("step", STEPS)
def test_a_worker_killed_at_any_step_leaves_the_game_readable_and_the_archive_finishes(
        redis_db, redis_url, tmp_path, step):
    service = GameService(redis_db)
    game_id = f"k{uuid.uuid4().hex[:12]}"
    finished_game(service, "resign-duel", game_id)
    before = seen(service, game_id)
    flag = tmp_path / "paused"
    worker = Worker(redis_url, Path(os.environ["ARENA_DATA_DIR"]), ARENA_ARCHIVE_AFTER="0",
                    ARENA_PAUSE_AT=step, ARENA_PAUSE_FLAG=str(flag))
    try:
        wait_for(flag.exists, START_SECONDS, f"the worker's own sweep to reach {step}")
    finally:
        worker.kill9()
    assert seen(service, game_id) == before
    assert redis_db.exists(keys.log(game_id)) == (step != "archive.dropped")
    redis_db.pexpire(keys.archiving(game_id), 1)               # as the dead worker's claim lapsing
    wait_for(lambda: not redis_db.exists(keys.archiving(game_id)), 5, "the claim to lapse")
    assert archiver.sweep(redis_db, service, 1e10, 0)["archived"] == 1       # finished, or found done
    assert not redis_db.exists(keys.log(game_id)) and redis_db.exists(keys.archived(game_id))
    assert not redis_db.zcard(keys.archive_due(keys.deadline_shard(game_id)))
    assert seen(GameService(redis_db), game_id) == before


def test_archive_and_restore_round_trip_on_every_backend(any_redis):
    service = GameService(any_redis)
    game_id = f"r{uuid.uuid4().hex[:12]}"
    finished_game(service, "melee3-1", game_id)
    stored, before = game_keys(any_redis, game_id), seen(service, game_id)
    assert archiver.archive_game(any_redis, service, game_id) == "archived"
    assert seen(service, game_id) == before
    assert archiver.restore_game(any_redis, service, game_id) == "restored"
    assert game_keys(any_redis, game_id) == stored and not any_redis.exists(keys.archived(game_id))
    assert seen(GameService(any_redis), game_id) == before
    assert archiver.restore_game(any_redis, service, game_id) == "not_archived"
    assert archiver.archive_game(any_redis, service, game_id) == "archived"       # and out again
    assert seen(GameService(any_redis), game_id) == before


def test_chat_written_after_the_archive_is_read_with_it_and_archived_by_the_next_sweep(redis_db):
    service = GameService(redis_db)
    game_id = f"c{uuid.uuid4().hex[:12]}"
    finished_game(service, "resign-duel", game_id)
    assert archiver.archive_game(redis_db, service, game_id) == "archived"
    archived = chat.read(redis_db, game_id, "spectators")
    later = chat.post(redis_db, game_id, "spectators", {"player": None, "name": "Late", "seat": None, "text": "gg"})
    assert chat.read(redis_db, game_id, "spectators") == archived + [later]
    assert chat.read(redis_db, game_id, "spectators", after=archived[-1]["id"]) == [later]
    done = archiver.sweep(redis_db, service, later["time"] + 1, 0)
    assert done["archived"] == 1, done
    assert not redis_db.exists(keys.chat(game_id, "spectators"))
    assert chat.read(redis_db, game_id, "spectators") == archived + [later]
    assert archiver.restore_game(redis_db, service, game_id) == "restored"
    assert chat.read(redis_db, game_id, "spectators") == archived + [later]


def test_an_archived_file_verifies_with_the_published_key_and_a_changed_byte_fails(redis_server, tmp_path):
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True, "FOLLOW_UP": lambda *_: None})
    service, redis = app.extensions["arena"].service, app.extensions["arena"].redis
    game_id = f"v{uuid.uuid4().hex[:12]}"
    finished_game(service, "duel-southern-highland", game_id)
    assert archiver.archive_game(redis, service, game_id) == "archived"
    published = app.test_client().get("/keys").json["keys"][0]["public_key"]
    blob = service.store.archive.storage.get(storage.name_of(game_id))
    path = tmp_path / "game.tka"
    path.write_bytes(blob)

    def verify(file: Path) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "events.verify", str(file), "--key", published],
                              capture_output=True, text=True, cwd=ROOT)
    run = verify(path)
    assert run.returncode == 0 and run.stdout.startswith("consistent, signed by"), run.stdout + run.stderr
    changed = bytearray(blob)
    changed[len(changed) // 2] ^= 0x01
    path.write_bytes(bytes(changed))
    assert verify(path).returncode == 1


def test_arena_archive_and_arena_restore(redis_db, redis_url, monkeypatch):
    from click.testing import CliRunner

    from server.cli import main
    monkeypatch.setenv("REDIS_URL", redis_url)
    service = GameService(redis_db)
    ended, running = f"e{uuid.uuid4().hex[:12]}", f"n{uuid.uuid4().hex[:12]}"
    finished_game(service, "resign-duel", ended)
    redis_db.delete(keys.archive_due(keys.deadline_shard(ended)))      # as a game that ended before the index
    service.create_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}]}, game_id=running)
    before = seen(service, ended)
    assert CliRunner().invoke(main, ["archive", "--older-than", "36500"]).output.startswith("archived 0 games")
    run = CliRunner().invoke(main, ["archive", "--older-than", "0"])
    assert run.exit_code == 0 and run.output.startswith("archived 1 games"), run.output
    assert not redis_db.exists(keys.log(ended)) and redis_db.exists(keys.log(running))
    assert seen(GameService(redis_db), ended) == before
    run = CliRunner().invoke(main, ["restore", ended])
    assert run.exit_code == 0 and redis_db.exists(keys.log(ended)), run.output
    assert CliRunner().invoke(main, ["restore", running]).exit_code == 1
