"""Cluster tests: the Flask app and real RQ workers with game data on a local Redis Cluster and
RQ on a single Redis beside it, as REDIS_CLUSTER_URL and REDIS_URL configure a deployment."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest

from events import keys
from server import create_app
from tests.conftest import OPERATOR

QUEUE_DB = 3


@dataclass
class Flow:
    cluster: Any
    queue: Any
    games: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    tables: dict = field(default_factory=dict)


@pytest.fixture(scope="module")
def cluster_env(redis_cluster, redis_server, tmp_path_factory):
    """REDIS_CLUSTER_URL and REDIS_URL set for the module; the queue database emptied."""
    queue = redis_server.client(db=QUEUE_DB)
    queue.flushdb()
    with pytest.MonkeyPatch.context() as env:
        env.setenv("REDIS_CLUSTER_URL", redis_cluster.url)
        env.setenv("REDIS_URL", f"redis://127.0.0.1:{redis_server.port}/{QUEUE_DB}")
        env.setenv("ARENA_DATA_DIR", str(tmp_path_factory.mktemp("cluster-data")))
        env.setenv("ARENA_WEBHOOK_RETRIES", "0")
        env.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1/32")
        yield queue
    queue.close()


def archived_and_restored(app, client, game_id: str) -> None:
    """The finished duel leaves the Cluster for the archive, reads the same from there, comes back."""
    import time

    from freezegun import freeze_time

    from events.archive import archiver
    paths = ("", "/moves", "/log", "/events", "/record", "/stats", "/moves/2", "/chat")

    def reads() -> dict:
        with freeze_time("2030-01-01"):                     # the same clock reading every time
            return {p: client.get(f"/games/{game_id}{p}").get_data() for p in paths}
    before = reads()
    cluster, service = app.extensions["arena"].redis, app.extensions["arena"].service
    service.settle_now()            # the web clears follow-up debts 0.25 s later: until then the game is owed work
    assert archiver.sweep(cluster, service, time.time() + 3600, 0)["archived"] == 1     # (it ended in a frozen future)
    assert not cluster.exists(keys.log(game_id)) and cluster.exists(keys.archived(game_id))
    assert reads() == before
    assert archiver.restore_game(cluster, service, game_id) == "restored"
    assert cluster.exists(keys.log(game_id)) and not cluster.exists(keys.archived(game_id))
    assert reads() == before


@pytest.fixture(scope="module")
def product_flow(cluster_env) -> Flow:
    """Players, a timed game between them to its end, and a game against a bot (Ann queues a
    conditional reply to it), with the workers running every job they cause; Ann's notifications also go to her webhook (handed over to the
    queue Redis once each, workers/notify.py)."""
    from datetime import datetime, timedelta, timezone

    from freezegun import freeze_time

    from tests.workers.helpers import Receiver, bearer, new_game, play_legal, register, run_worker

    app = create_app({"TESTING": True})
    client = app.test_client()
    cluster = app.extensions["arena"].redis
    flow = Flow(cluster, cluster_env)
    hook = Receiver([200])
    ann, bob = register(client, "Ann", webhook_url=hook.url), register(client, "Bob")
    flow.players += [ann["id"], bob["id"]]
    timed = {"kind": "move", "seconds": 600}
    duel = new_game(client, time_control=timed, seed=None,               # rated: the server draws the seed
                    players=[{"name": "Ann", "school": "northern", "player": ann["id"]},
                             {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    botgame = new_game(client, time_control=timed, seed="cluster-b",
                       players=[{"name": "Ann", "school": "northern", "player": ann["id"]},
                                {"name": "Bot", "school": "sylvan", "bot": True}])
    guest = new_game(client, seed="cluster-g", players=[{"name": "Guest", "school": "northern"},
                                                         {"name": "Bot", "school": "sylvan", "bot": True}])
    cy = register(client, "Cy")                              # the guest signs up and keeps its seat
    claimed = client.post("/players/me/games/claim", headers=bearer(cy["token"]),
                          json={"games": [{"id": guest["id"], "token": guest["seats"][0]["token"]}]}).json
    assert claimed["claimed"] == [guest["id"]]
    flow.games += [duel["id"], botgame["id"], guest["id"]]
    flow.players.append(cy["id"])
    for _ in range(4):
        play_legal(client, duel, client.get(f"/games/{duel['id']}").json["active_seat"])
    while client.get(f"/games/{botgame['id']}").json["active_seat"] == 0:             # Ann's turn, to its end
        play_legal(client, botgame, 0)
    reply = [{"when": {"kind": "anything"}, "then": [{"type": "end_turn"}]}]    # refused or played: either is settled
    assert client.put(f"/games/{botgame['id']}/conditionals", json={"rules": reply},
                      headers=bearer(botgame["seats"][0]["token"])).status_code == 200
    run_worker(cluster_env)                                  # the bot's move, then Ann's conditional reply
    assert client.get(f"/games/{botgame['id']}/conditionals", headers=bearer(botgame["seats"][0]["token"])).json["told"]
    before = client.get(f"/games/{duel['id']}").json["version"]
    with freeze_time(datetime.now(timezone.utc) + timedelta(seconds=700)):
        run_worker(cluster_env)                              # the deadline loop times the duel's seat out
        assert client.get(f"/games/{duel['id']}").json["version"] > before
        seat = client.get(f"/games/{duel['id']}").json["active_seat"]
        assert client.post(f"/games/{duel['id']}/resign",
                           headers=bearer(duel["seats"][seat]["token"])).status_code == 200
        run_worker(cluster_env)                              # the end of the game: rating, archive, news
    cluster.delete(keys.moves(duel["id"]))                  # as for a game stored before the moves index ...
    assert client.get(f"/games/{duel['id']}/moves").status_code == 200     # ... indexed from its log when read
    archived_and_restored(app, client, duel["id"])
    for who in (ann, bob):
        assert client.get("/players/me/rating", headers=bearer(who["token"])).json["games"] == 1
        assert client.get("/players/me/games", headers=bearer(who["token"])).json["games"]
    noted = [n["id"] for n in client.get("/players/me/notifications", headers=bearer(ann["token"])).json["notifications"]]
    hook.close()
    assert noted and sorted(h["X-Arena-Delivery"] for h, _ in hook.requests) == sorted(noted)     # once each
    assert not cluster.hlen(keys.notify_outbox(ann["id"]))
    assert client.get("/health", headers=OPERATOR).json["replication"]["mode"] == "degraded"      # no replicas here
    asyncio.run(_stream_slots_once())
    flow.tables = lobby_flow(app, cluster_env)
    return flow


async def _stream_slots_once() -> None:
    """The stream tier's caps on the Cluster: a slot of an address and of a token taken, the next
    refused at the cap, leases renewed, slots given back."""
    from events.connection import connect_async
    from server.streams.slots import StreamSlots

    redis = connect_async()
    slots = StreamSlots(redis, per_address=2, per_token=1, lease=5)
    claim = await slots.claim("127.0.0.1", "a-token")
    assert claim is not None and await slots.claim("127.0.0.1", "a-token") is None
    await slots.renew()
    await claim.release()
    await slots.stop()
    await redis.aclose()


def lobby_flow(app, queue) -> dict:
    """The lobby on the Cluster: tables in several buckets listed and followed in the feed, racers
    for a last seat (one wins), a seek pairing, a table nobody joined expiring with its creator told."""
    from datetime import datetime, timedelta, timezone

    from freezegun import freeze_time

    from events import keys
    from tests.server.people import PASSWORD, person, race_to_join
    from tests.workers.helpers import run_worker

    ann, racers = person(app, "ann"), [person(app, "racer") for _ in range(4)]
    wrong = ann.client.post("/accounts/session", json={"name": ann.name, "password": "not it at all"})
    assert wrong.status_code == 401                              # counted first, in the name's slot
    assert ann.client.post("/accounts/session", json={"name": ann.name, "password": PASSWORD}).status_code == 200
    feed = ann.get("/lobby/tables").json["feed"]
    tables = [ann.post("/lobby/tables", {"form": "duel", "rated": False}).json for _ in range(6)]
    assert len({keys.lobby_bucket(t["id"]) for t in tables}) > 1
    listed = {t["id"] for t in ann.get("/lobby/tables").json["tables"]}
    assert {t["id"] for t in tables} <= listed
    seen = [e["table"]["id"] for e in ann.get(f"/lobby/feed?after={feed}").json["entries"]]
    assert seen == [t["id"] for t in tables]                     # every bucket's change, in order
    assert race_to_join(racers, tables[0]["id"]) == [200, 409, 409, 409]
    tc = {"kind": "move", "seconds": 3600}
    racers[0].post("/lobby/seeks", {"form": "duel", "time_control": tc})
    assert racers[1].post("/lobby/seeks", {"form": "duel", "time_control": tc}).json["status"] == "matched"
    with freeze_time(datetime.now(timezone.utc) + timedelta(seconds=app.extensions["arena"].settings.lobby_table_ttl + 5)):
        run_worker(queue)                                        # the deadline loop's lobby sweep
        assert not {t["id"] for t in tables} & {t["id"] for t in ann.get("/lobby/tables").json["tables"]}
    told = {n["game_id"] for n in ann.get("/players/me/notifications").json["notifications"]
            if n["type"] == "table_expired"}
    assert told == {t["id"] for t in tables[1:]}
    return {"tables": [t["id"] for t in tables]}
