"""The `arena` command line (click), against the test Redis through REDIS_URL."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from events import GameService
from server.cli import main

from .helpers import bearer, new_game


@pytest.fixture
def arena(monkeypatch, redis_url):
    monkeypatch.setenv("REDIS_URL", redis_url)
    runner = CliRunner()

    def run(*args: str, code: int = 0):
        result = runner.invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output
    return run


@pytest.fixture
def finished(client):
    game = new_game(client, seed="cli")
    assert client.post(f"/games/{game['id']}/resign", headers=bearer(game["seats"][0]["token"])).status_code == 200
    return game["id"]


def test_selfplay_plays_games_and_reports(arena):
    out = arena("selfplay", "--games", "2", "--seed", "5")
    assert "2/2 finished" in out and "errors 0" in out


def test_replay_prints_the_board_after_a_move(arena, client):
    game = new_game(client, seed="cli")
    out = arena("replay", game["id"], "--move", "0")
    assert f"Game {game['id']}, duel: move 0 of 0" in out
    assert "5/7/9/9/9/9/9/7/5" in out and "Waiting for Bob (seat 1)." in out
    arena("replay", game["id"], "--move", "3", code=1)
    arena("replay", "nosuchgame", code=1)


def test_export_verify_and_import_a_record(arena, finished, tmp_path, redis_db):
    path = tmp_path / "game.json"
    arena("export", finished, "-o", str(path))
    assert arena("verify", str(path)).startswith("consistent but unknown signer ")      # no key given
    GameService(redis_db).store.delete_game(finished)
    assert arena("import", str(path)) .startswith(f"imported game {finished}")
    arena("import", str(path), code=1)                                  # it exists now
    tampered = tmp_path / "bad.json"
    tampered.write_text(path.read_text().replace('"resign"', '"resigN"', 1))
    assert arena("verify", str(tampered), code=1).startswith("FAILED")


def test_an_unfinished_game_is_exported_only_when_asked(arena, client):
    game = new_game(client)
    arena("export", game["id"], code=1)
    assert '"format":"tash-kalar-arena/record"' in arena("export", game["id"], "--unfinished")


def test_arena_bots_plays_levels_against_each_other_and_writes_verifiable_records(tmp_path):
    result = CliRunner().invoke(main, ["bots", "--form", "duel", "--levels", "1,random", "--games", "2", "--seed", "t",
                                       "--records", str(tmp_path), "--processes", "1"])
    assert result.exit_code == 0, result.output
    line = json.loads(result.output.strip().splitlines()[-1])
    assert set(line) == {"games", "wins", "draws", "illegal", "cpu_per_decision", "summons_per_game"}
    assert line["games"] == 2 and line["illegal"] == 0 and set(line["wins"]) == {"1", "random"}
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    checked = CliRunner().invoke(main, ["verify", str(records[0])])
    assert checked.exit_code == 0 and "consistent" in checked.output, checked.output
