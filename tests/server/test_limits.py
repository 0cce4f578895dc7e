"""Limits against abuse, counted in the real Redis: rates per address and per player across app
processes, body sizes, the cap on games nobody moved in, and their expiry.

Each test calls from its own address (REMOTE_ADDR, never contacted), so counters do not mix."""
from __future__ import annotations

import json
import time
import uuid

import pytest

from events import keys
from server import create_app
from tests.server.conftest import bearer
from tests.server.people import person

DUEL = {"form": "duel", "players": [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]}


def _address() -> str:
    return "2001:db8::" + uuid.uuid4().hex[:4]


def _from(app, address: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def _client(redis_server, address: str, **config):
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True, **config})
    return app, _from(app, address)


def test_game_creation_is_limited_per_address_across_processes_with_retry_after(redis_server):
    address = _address()
    limits = {"ARENA_LIMIT_CREATE_ADDRESS": "3/minute"}
    _, one = _client(redis_server, address, **limits)
    _, other = _client(redis_server, address, **limits)            # another process, the same Redis
    assert [c.post("/games", json=DUEL).status_code for c in (one, other, one)] == [201, 201, 201]
    refused = other.post("/games", json=DUEL)
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    assert refused.json["code"] == "rate_limited" and "3 per 1 minute" in refused.json["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    _, elsewhere = _client(redis_server, _address(), **limits)
    assert elsewhere.post("/games", json=DUEL).status_code == 201


def test_commands_are_limited_per_player_whatever_the_address(redis_server):
    app, client = _client(redis_server, _address(), ARENA_LIMIT_COMMAND_PLAYER="2/minute")
    created = client.post("/games", json=DUEL).json
    token = created["seats"][1]["token"]
    codes = []
    for _ in range(3):
        moving = _from(app, _address())
        codes.append(moving.post(f"/games/{created['id']}/commands", json={"type": "end_turn"},
                                 headers=bearer(token)).status_code)
    assert 429 not in codes[:2] and codes[2] == 429


def test_registration_is_limited_per_address(redis_server):
    _, client = _client(redis_server, _address(), ARENA_LIMIT_REGISTER_ADDRESS="2/hour")
    codes = [client.post("/players", json={"name": f"P{i}"}).status_code for i in range(3)]
    assert codes == [201, 201, 429]


def test_bodies_are_small_except_imports(client):
    padded = {**DUEL, "seed": "s", "setup": {"hands": {"0": ["x" * 60] * 1200}}}
    r = client.post("/games", data=json.dumps(padded), content_type="application/json")
    assert r.status_code == 413 and r.json["code"] == "body_too_large" and r.json["limit"] == 65536
    record = {"game_id": "big", "events": [{"pad": "x" * 1000}] * 300}
    r = client.post("/games/import", data=json.dumps(record), content_type="application/json")
    assert r.status_code not in (413, 500)
    r = client.post("/games/import", data=b"[" * (2 * 1024 * 1024 + 1), content_type="application/json")
    assert r.status_code == 413


def test_a_player_or_address_may_have_only_so_many_games_nobody_moved_in(redis_server):
    _, client = _client(redis_server, _address(), ARENA_MAX_UNMOVED_GAMES=2)
    first, _ = client.post("/games", json=DUEL).json, client.post("/games", json=DUEL).json
    refused = client.post("/games", json=DUEL)
    assert (refused.status_code, refused.json["code"]) == (429, "too_many_unmoved_games")
    assert 7 * 24 * 3600 - 60 < int(refused.headers["Retry-After"]) <= 7 * 24 * 3600
    moved = client.post(f"/games/{first['id']}/commands", json={"type": "end_turn"},
                        headers=bearer(first["seats"][1]["token"]))
    assert moved.status_code in (200, 422)
    client.post(f"/games/{first['id']}/resign", headers=bearer(first["seats"][1]["token"]))
    assert client.post("/games", json=DUEL).status_code == 201


def test_a_game_nobody_moved_in_expires_and_the_first_move_keeps_it(redis_server, redis_client):
    _, client = _client(redis_server, _address(), ARENA_UNMOVED_GAME_TTL=1)
    idle, played = client.post("/games", json=DUEL).json, client.post("/games", json=DUEL).json
    assert 0 < redis_client.ttl(keys.log(idle["id"])) <= 1
    assert 0 < redis_client.ttl(keys.meta(idle["id"], "tokens")) <= 1
    r = client.post(f"/games/{played['id']}/resign", headers=bearer(played["seats"][0]["token"]))
    assert r.status_code == 200
    assert all(redis_client.ttl(k) == -1 for k in keys.all_game_keys(played["id"]) if redis_client.exists(k))
    time.sleep(1.2)
    assert client.get(f"/games/{idle['id']}").status_code == 404
    assert not any(redis_client.exists(k) for k in keys.all_game_keys(idle["id"]))
    assert client.get(f"/games/{played['id']}").json["status"] == "finished"


def test_a_game_that_ends_without_a_move_stays(app, client, redis_client):
    """Bots or timeouts may end a game nobody moved in: the end-of-game job keeps it."""
    from workers import endgame, runtime
    created = client.post("/games", json=DUEL).json
    service = app.extensions["arena"].service
    service.execute(created["id"], 0, {"type": "resign"})              # as a worker would, not over HTTP
    assert redis_client.ttl(keys.log(created["id"])) > 0
    endgame.finish(redis_client, service, created["id"], runtime.settings())
    assert redis_client.ttl(keys.log(created["id"])) == -1


def test_an_anonymous_caller_counts_by_its_address_only(redis_server):
    _, client = _client(redis_server, _address(), ARENA_LIMIT_CREATE_PLAYER="1/minute")
    assert [client.post("/games", json=DUEL).status_code for _ in range(3)] == [201, 201, 201]


def test_a_game_waiting_for_invitations_counts_until_they_expire(redis_server):
    from datetime import datetime, timedelta, timezone

    from freezegun import freeze_time
    app, client = _client(redis_server, _address(), ARENA_MAX_UNMOVED_GAMES=1, ARENA_INVITATION_TIMEOUT=600)
    bob = client.post("/players", json={"name": "Bob"}).json
    inviting = {"form": "duel", "players": [{"name": "Ann", "school": "northern"},
                                            {"name": "Bob", "school": "sylvan", "player": bob["id"]}]}
    start = datetime.now(timezone.utc)
    with freeze_time(start):
        assert client.post("/games", json=inviting).status_code == 201
        assert client.post("/games", json=DUEL).json["code"] == "too_many_unmoved_games"
    with freeze_time(start + timedelta(seconds=601)):
        assert client.post("/games", json=DUEL).status_code == 201



WRITES_LIMITED = [   # (a limit set to 2/minute, three calls of one session): the third is a 429
    ("ARENA_LIMIT_TOKEN_PLAYER", ["/accounts/me/tokens"] * 3),
    ("ARENA_LIMIT_REPORT_PLAYER", ["/games/{game}/chat/players/{message}/report"] * 3),
    ("ARENA_LIMIT_SEAT_PLAYER", ["/lobby/tables/{table}/join", "/lobby/tables/{table}/leave", "/lobby/tables/{table}/join"]),
]


@pytest.mark.parametrize("limit, calls", WRITES_LIMITED, ids=[w[0] for w in WRITES_LIMITED])
def test_writes_that_cost_others_something_are_limited_too(redis_server, limit, calls):
    app, _ = _client(redis_server, _address(), **{limit: "2/minute"})
    ann, bob, cid = person(app, "ann"), person(app, "bob"), person(app, "cid")
    table = ann.post("/lobby/tables", {"form": "melee", "seats": 4}).json
    duel = ann.post("/lobby/tables", {"form": "duel"}).json
    game_id = cid.post(f"/lobby/tables/{duel['id']}/join").json["game_id"]
    message = ann.post(f"/games/{game_id}/chat", {"text": "buy gold"}).json["id"]
    caller = cid if "report" in calls[0] else bob                  # reports come from the other player
    answers = [caller.post(c.format(game=game_id, message=message, table=table["id"]), {"reason": "spam"})
               if "report" in c else caller.post(c.format(table=table["id"])) for c in calls]
    assert [a.status_code < 400 for a in answers] == [True, True, False], [a.json for a in answers]
    assert answers[2].status_code == 429 and answers[2].json["code"] == "rate_limited"
    assert int(answers[2].headers["Retry-After"]) >= 1


def test_a_move_made_while_the_game_is_being_created_keeps_it(app, client, redis_client):
    """The first move may land between the log's creation and its expiry being set: it wins."""
    from events import unmoved
    created = client.post("/games", json=DUEL).json
    game_id = created["id"]
    unmoved.mark(redis_client, game_id, ["a:192.0.2.1"], 60)       # as if this game were being created now
    r = client.post(f"/games/{game_id}/resign", headers=bearer(created["seats"][0]["token"]))
    assert r.status_code == 200
    assert unmoved.arm(redis_client, game_id, 60) is False
    assert redis_client.ttl(keys.log(game_id)) == -1
