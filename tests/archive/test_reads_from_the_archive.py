"""For games of the recorded-games corpus, every read endpoint answers the same, byte for byte,
before and after the game left Redis for the archive, for a spectator and for a seat; a rematch
made before it stands and is accepted after. Also: what stays in Redis, and a game read while it is being archived."""
from __future__ import annotations

import uuid

import pytest

from events import keys
from events.archive import archiver
from server import create_app

from .conftest import corpus_names, finished_game

# 12 of the 64 games, every kind among them: drafts, duels, High Form, melees of 3 and 4, teams,
# timeouts, a resignation, a set-up position (the whole corpus would take minutes of the suite)
SAMPLE = corpus_names()[::6] + ["resign-teams-duel"]


@pytest.fixture(scope="module")
def app(redis_server):
    return create_app({"REDIS_URL": redis_server.url, "TESTING": True, "FOLLOW_UP": lambda *_: None})


def reads(client, game_id: str, token: str | None) -> dict:
    """Every read of a finished game, as one caller gets them (status and body)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    moves = client.get(f"/games/{game_id}/moves", headers=headers).json["moves"]
    last = len(moves) - 1
    version = client.get(f"/games/{game_id}", headers=headers).json["version"]
    paths = ["", "/moves", "/log", "/events", f"/events?after={version // 2}", "/record", "/record?chat=1",
             "/stats", "/legal", "/board.svg", f"/board.svg?move={last // 2}", f"/changes?after={version // 3}",
             "/chat", "/chat?channel=spectators", "/rematch", f"/moves/{last + 1}", "/moves/0",
             *(f"/moves/{n}" for n in sorted({1, last // 3, last // 2, last}))]
    out = {}
    for path in paths:
        r = client.get(f"/games/{game_id}{path}", headers=headers)
        out[path] = (r.status_code, r.get_data())
    return out


@pytest.mark.parametrize("name", SAMPLE)
def test_every_read_answers_the_same_from_the_archive(app, redis_client, name):
    service = app.extensions["arena"].service
    game_id = f"a{uuid.uuid4().hex[:12]}"
    tokens = finished_game(service, name, game_id)
    client = app.test_client()
    offered = client.post(f"/games/{game_id}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert offered.status_code in (201, 202), offered.json
    before = {who: reads(client, game_id, token) for who, token in (("spectator", None), ("seat 0", tokens[0]))}
    assert archiver.archive_game(redis_client, service, game_id) == "archived"
    assert not redis_client.exists(keys.log(game_id), keys.snapshots(game_id), keys.moves(game_id),
                                   keys.chat(game_id, "players"), keys.chat(game_id, "spectators"))
    service.store.archive._games = type(service.store.archive._games)(size=8, ttl=float("inf"))    # cold
    for who, token in (("spectator", None), ("seat 0", tokens[0])):
        after = reads(client, game_id, token)
        assert after.keys() == before[who].keys()
        for path in before[who]:
            assert after[path] == before[who][path], f"{who} GET /games/{game_id}{path} changed"
    accepted = client.post(f"/games/{game_id}/rematch", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert accepted.status_code in (201, 202), accepted.json         # the offer made before stands


def test_an_archived_game_leaves_a_small_stub(app, redis_client):
    service = app.extensions["arena"].service
    game_id = f"a{uuid.uuid4().hex[:12]}"
    finished_game(service, "duel-northern-sylvan", game_id)
    before = sum(redis_client.memory_usage(k) for k in redis_client.scan_iter(match=f"arena:{{{game_id}}}*"))
    assert archiver.archive_game(redis_client, service, game_id) == "archived"
    left = {k.decode(): redis_client.memory_usage(k) for k in redis_client.scan_iter(match=f"arena:{{{game_id}}}*")}
    assert sum(left.values()) <= 4096 < before, left
    stub = {k.decode(): v.decode() for k, v in redis_client.hgetall(keys.archived(game_id)).items()}
    assert {"name", "location", "version", "head_hash", "form", "players", "result", "rules"} <= stub.keys()
    assert stub["form"] == "duel" and stub["location"].endswith(stub["name"])
    assert archiver.archive_game(redis_client, service, game_id) == "archived"      # again: nothing to do


def test_a_running_game_or_one_whose_work_is_owed_stays(app, redis_client):
    service = app.extensions["arena"].service
    running = f"a{uuid.uuid4().hex[:12]}"
    service.create_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}]}, game_id=running)
    assert archiver.archive_game(redis_client, service, running) == "not_finished"
    owed = f"a{uuid.uuid4().hex[:12]}"
    finished_game(service, "duel-highland-sylvan", owed)
    redis_client.hdel(keys.finish_marks(owed), "done")
    assert archiver.archive_game(redis_client, service, owed) == "not_finished"
    assert redis_client.exists(keys.log(owed)) and not redis_client.exists(keys.archived(owed))

