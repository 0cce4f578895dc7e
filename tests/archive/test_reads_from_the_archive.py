"""For every game of the recorded-games corpus, every read endpoint answers the same, byte for
byte, before and after the game left Redis for the archive: for a spectator and for a seat, the
players' desks and profiles; a rematch offered before it stands and is accepted after. Also: what
stays in Redis, and a game that may not leave yet.

The corpus is archived in four parts (each test one Redis, one app): a part's games are stored,
finished by the end-of-game job, read, archived together, read again cold; a few of them also with
their data on the 3-master Cluster. Rewinds are sampled:
moves 0, the last and two drawn per game from its name (the same every run). Export and verify
read the record `/record` answers (here with the chat), so the same bytes give the same export and
verdict."""
from __future__ import annotations

import json
import random
import uuid

import pytest

from events import keys
from events.archive import archiver, storage
from server import create_app
from workers import endgame
from events.settings import Settings

from tests.cluster.conftest import cluster_env  # noqa: F401 - REDIS_CLUSTER_URL for the module

from .conftest import corpus_names, finished_game

PARTS = 4


@pytest.fixture(scope="module")
def app(redis_server):
    return create_app({"REDIS_URL": redis_server.url, "TESTING": True, "FOLLOW_UP": lambda *_: None})


@pytest.fixture(scope="module")
def players(app) -> list[dict]:
    return registered(app)


def registered(app) -> list[dict]:
    """Four registered players, who sit in every game of the corpus (as many as it has seats)."""
    client = app.test_client()
    out = []
    for i in range(4):
        r = client.post("/players", json={"name": f"Archivist{i}{uuid.uuid4().hex[:6]}"})
        assert r.status_code == 201, r.json
        out.append(r.json)
    return out


def bearer(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def reads(client, game_id: str, name: str, token: str | None) -> dict:
    """Every read of a finished game, as one caller gets them (status and body)."""
    def get(path: str) -> tuple[int, bytes]:
        r = client.get(f"/games/{game_id}{path}", headers=bearer(token))
        return r.status_code, r.get_data()
    out = {path: get(path) for path in ("", "/moves")}
    version, last = json.loads(out[""][1])["version"], len(json.loads(out["/moves"][1])["moves"]) - 1
    drawn = sorted(random.Random(name).sample(range(1, last + 1), min(2, last)))
    for path in ("/log", "/events", f"/events?after={version // 2}", "/record?chat=1", "/stats", "/legal",
                 "/board.svg", f"/board.svg?move={drawn[0]}", f"/changes?after={version - 3}", "/chat",
                 "/chat?channel=spectators", "/rematch", f"/moves/{last + 1}", *(f"/moves/{n}" for n in sorted({0, *drawn, last}))):
        out[path] = get(path)
    return out


def personal(client, players: list[dict]) -> dict:
    """Each player's desk (their games) and public profile (results, history, current games)."""
    return {p["id"]: (client.get("/players/me/games", headers=bearer(p["token"])).get_data(),
                      client.get(f"/profiles/{p['name']}").get_data()) for p in players}


@pytest.mark.parametrize("part", range(PARTS))
def test_every_read_of_every_corpus_game_answers_the_same_from_the_archive(app, players, part):
    the_same_after_archiving(app, players, corpus_names()[part::PARTS])


def test_reads_answer_the_same_from_the_archive_on_the_cluster(cluster_env):
    """A few corpus games, their data on the 3-master Cluster."""
    app = create_app({"TESTING": True, "FOLLOW_UP": lambda *_: None})
    the_same_after_archiving(app, registered(app), corpus_names()[::16])


def the_same_after_archiving(app, players: list[dict], names: list[str]) -> None:
    """The games `names` stored, finished by the end-of-game job and read; archived together; read
    again cold: every answer the same, and the rematches offered before accepted after."""
    service, redis = app.extensions["arena"].service, app.extensions["arena"].redis
    client, settings = app.test_client(), Settings.load()
    seated = [{"name": p["name"], "player": p["id"]} for p in players]
    games = {}
    for name in names:
        game_id = f"a{uuid.uuid4().hex[:12]}"
        tokens = finished_game(service, name, game_id, seated,
                               finish=lambda g: endgame.finish(redis, service, g, settings))
        offered = client.post(f"/games/{game_id}/rematch", headers=bearer(tokens[0]))
        assert offered.status_code in (201, 202), offered.json
        games[game_id] = (name, tokens)
    before = {(g, who): reads(client, g, name, token) for g, (name, tokens) in games.items()
              for who, token in (("spectator", None), ("seat 0", tokens[0]))}
    desks = personal(client, players)
    store = service.store.archive.storage
    written = {g: store.path(storage.name_of(g)).stat().st_mtime_ns for g in games}     # by the end-of-game job
    for game_id in games:
        assert archiver.archive_game(redis, service, game_id) == "archived"
        assert store.path(storage.name_of(game_id)).stat().st_mtime_ns == written[game_id]   # taken as it was
        assert not redis.exists(keys.log(game_id), keys.snapshots(game_id), keys.moves(game_id),
                                keys.chat(game_id, "players"), keys.chat(game_id, "spectators"))
    service.store.archive._games = type(service.store.archive._games)(size=128, ttl=float("inf"))    # read cold
    assert personal(client, players) == desks
    for (game_id, who), seen in before.items():
        name, tokens = games[game_id]
        after = reads(client, game_id, name, tokens[0] if who == "seat 0" else None)
        assert after.keys() == seen.keys()
        for path in seen:
            assert after[path] == seen[path], f"{name}: {who} GET /games/{game_id}{path} changed"
    for game_id, (name, tokens) in games.items():
        accepted = client.post(f"/games/{game_id}/rematch", headers=bearer(tokens[1]))
        assert accepted.status_code in (201, 202), f"{name}: {accepted.json}"     # the offer made before stands


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
