"""A game nobody moved in expires whole (events/unmoved.py): keys first written after its expiry
was set (chat, presence, snapshots) expire no later than the game; once someone moved, they stay.

Real Redis, the real creation through the HTTP app (mark, create with its follow-up hook, arm)."""
from __future__ import annotations

import uuid

import pytest

import engine
from engine.state import active_seat
from events import chat, followup, keys, presence
from events.service import GameService
from events.store import EventStore
from server import create_app

TTL = 60                    # shorter than a viewer's own lapse (presence.TTL + 60 s): it must follow the game
DUEL = {"form": "duel", "players": [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]}
TIMED = {**DUEL, "time_control": {"kind": "move", "seconds": 30}}


@pytest.fixture
def app(redis_server):
    return create_app({"REDIS_URL": redis_server.url, "TESTING": True, "ARENA_UNMOVED_GAME_TTL": TTL})


def created(app, body: dict) -> dict:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "2001:db8::" + uuid.uuid4().hex[:4]
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.json
    return answer.json


def write_later(app, redis, game: dict) -> list[str]:
    """What a game is written after its creation without a move: the keys it had not had before."""
    game_id = game["id"]
    before = set(game_keys(redis, game_id))
    said = app.test_client().post(f"/games/{game_id}/chat", json={"text": "hello"},
                                  headers={"Authorization": f"Bearer {game['seats'][1]['token']}"})
    assert said.status_code in (200, 201), said.json
    chat.post(redis, game_id, "spectators", {"player": None, "seat": None, "name": "Cid", "text": "hi"})
    presence.touch(redis, game_id, "anon:1")
    EventStore(redis).put_snapshots(game_id, "fingerprint", {1: "{}"})        # as a load that folded far
    added = sorted(set(game_keys(redis, game_id)) - before)
    assert {keys.chat(game_id, "players"), keys.chat(game_id, "spectators"), keys.presence(game_id),
            keys.snapshots(game_id)} <= set(added)
    return added


def changed_unfollowed(redis, game_id: str) -> None:
    """A change no player made (a bot's move, a timeout), by a process that died before its hook:
    its append wrote the game's follow-up debt anew, and it stays until a loop catches up."""
    service = GameService(redis)
    state = service.load(game_id).state
    seat = active_seat(state)
    command = next(c for c in engine.legal_commands(state, seat) if c["type"] != "resign")
    service.execute(game_id, seat, {k: v for k, v in command.items() if k != "seat"})
    assert followup.owed(redis, game_id) is not None


def game_keys(redis, game_id: str) -> list[str]:
    return [k.decode() for k in redis.scan_iter(match=f"arena:{{{game_id}}}*", count=1000)]


@pytest.mark.parametrize("body", [DUEL, TIMED], ids=["untimed", "timed"])
def test_every_key_of_an_unmoved_game_written_later_expires_no_later_than_the_game(app, redis_client, body):
    game = created(app, body)
    game_left = redis_client.pttl(keys.log(game["id"]))         # read first: every later read is sooner
    assert 0 < game_left <= TTL * 1000 + body.get("time_control", {}).get("seconds", 0) * 1000
    write_later(app, redis_client, game)
    changed_unfollowed(redis_client, game["id"])               # a bot's move or a timeout keeps nothing
    lives = {k: redis_client.pttl(k) for k in game_keys(redis_client, game["id"])}
    assert lives and all(0 < left <= game_left for left in lives.values()), lives


def test_once_someone_moved_the_keys_written_later_stay(app, redis_client):
    game = created(app, DUEL)
    resigned = app.test_client().post(f"/games/{game['id']}/resign",
                                      headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
    assert resigned.status_code == 200
    lives = {k: redis_client.pttl(k) for k in write_later(app, redis_client, game)}
    assert 0 < lives.pop(keys.presence(game["id"])) <= (presence.TTL + 60) * 1000     # a viewer's own lapse
    assert lives and all(left == -1 for left in lives.values()), lives


def test_a_viewer_of_a_game_nobody_moved_in_expires_with_it_on_every_backend(any_redis, game_id):
    any_redis.set(keys.meta(game_id, "unmoved"), "[]", ex=TTL)          # as unmoved.mark leaves it
    presence.touch(any_redis, game_id, "anon:1")                        # a pipeline of the backend's kind
    game_left = any_redis.pttl(keys.meta(game_id, "unmoved"))           # read first: a later read is sooner
    assert 0 < any_redis.pttl(keys.presence(game_id)) <= game_left + 1         # PTTL rounds to whole ms
