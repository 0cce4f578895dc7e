"""Chat over HTTP against a real Redis: players' and spectators' channels, plain text, limits,
mutes, reports, and the record export that includes it only on request."""
from __future__ import annotations

import httpx
import pytest

from events import keys
from server import create_app, sse
from server.merged import Merged

from .conftest import bearer
from .people import fresh, person


def lobby_game(app):
    ann, bob = person(app, "ann"), person(app, "bob")
    table = ann.post("/lobby/tables", {"form": "duel"}).json
    game_id = bob.post(f"/lobby/tables/{table['id']}/join").json["game_id"]
    return game_id, ann, bob


def say(p, game_id, text, channel="players"):
    return p.post(f"/games/{game_id}/chat", {"channel": channel, "text": text})


def test_players_chat_is_for_the_players_and_the_spectators_chat_for_the_others(app, redis_client):
    game_id, ann, bob = lobby_game(app)
    watcher = person(app, "cid")
    sent = say(ann, game_id, "  good luck <b>Bob</b>\x07  ")
    assert sent.status_code == 201 and sent.json["text"] == "good luck <b>Bob</b>" and sent.json["name"] == ann.name
    got = bob.get(f"/games/{game_id}/chat?channel=players").json
    assert [m["text"] for m in got["messages"]] == ["good luck <b>Bob</b>"] and got["messages"][0]["seat"] is not None
    # spectators neither read nor write the players' chat; players do not see the spectators' while it runs
    assert watcher.get(f"/games/{game_id}/chat?channel=players").status_code == 403
    assert say(watcher, game_id, "hi").status_code == 403
    assert say(watcher, game_id, "nice opening", "spectators").status_code == 201
    assert fresh(app).get(f"/games/{game_id}/chat?channel=spectators").json["messages"][0]["text"] == "nice opening"
    assert ann.get(f"/games/{game_id}/chat?channel=spectators").status_code == 403
    assert say(ann, game_id, "help me", "spectators").status_code == 403
    assert fresh(app).post(f"/games/{game_id}/chat", json={"channel": "spectators", "text": "anon"}).status_code == 401
    # resuming after an id gives only what is new; chat is not in the game's log
    last = got["last_id"]
    say(bob, game_id, "thanks")
    assert [m["text"] for m in ann.get(f"/games/{game_id}/chat?after={last}").json["messages"]] == ["thanks"]
    assert not any(e["type"].lower().startswith("chat") for e in ann.get(f"/games/{game_id}/events").json["events"])


def test_guests_with_a_seat_link_chat_too(client):
    game = client.post("/games", json={"form": "duel", "players": [{"name": "Ann", "school": "northern"},
                                                                    {"name": "Bob", "school": "sylvan"}]}).json
    r = client.post(f"/games/{game['id']}/chat", json={"text": "hello"}, headers=bearer(game["seats"][1]["token"]))
    assert r.status_code == 201 and r.json["name"] == "Bob" and r.json["seat"] == 1
    assert client.get(f"/games/{game['id']}/chat", headers=bearer(game["seats"][0]["token"])).json["messages"][0]["text"] == "hello"


def test_length_is_limited_and_bad_input_is_a_400(app):
    game_id, ann, _ = lobby_game(app)
    assert say(ann, game_id, "x" * 501).status_code == 400
    assert say(ann, game_id, "\x00\x01 ").status_code == 400
    assert ann.post(f"/games/{game_id}/chat", {"channel": "everyone", "text": "hi"}).status_code == 400
    assert ann.get(f"/games/{game_id}/chat?after=zzz").status_code == 400
    assert ann.get("/games/nosuchgame/chat").status_code == 404


def test_chat_is_rate_limited_per_writer(redis_server):
    app = create_app({"REDIS_URL": redis_server.url, "TESTING": True, "ARENA_LIMIT_CHAT_PLAYER": "5 per 10 seconds"})
    game_id, ann, bob = lobby_game(app)
    codes = [say(ann, game_id, f"spam {i}").status_code for i in range(10)]
    assert codes[:5] == [201] * 5 and 429 in codes     # 5 in 10 s (a sliding window: the 6th or soon after)
    refused = say(ann, game_id, "one more")
    assert refused.status_code == 429 and refused.json["code"] == "rate_limited" and "Retry-After" in refused.headers
    assert say(bob, game_id, "I may still talk").status_code == 201


def test_mute_hides_a_players_messages_from_me_only_and_reports_are_kept(app, redis_client, front_for):
    game_id, ann, bob = lobby_game(app)
    rude = say(bob, game_id, "you are bad").json
    muted = ann.post("/accounts/me/mutes", {"player": bob.id}).json
    assert muted == {"players": [bob.id], "muted": [{"id": bob.id, "name": bob.name}]}
    assert ann.get(f"/games/{game_id}/chat").json["messages"] == []
    session = {"arena_session": ann.client.get_cookie("arena_session").value}
    stream = httpx.get(f"{front_for(app)}/games/{game_id}/chat/stream?follow=0", cookies=session, timeout=30)
    assert stream.status_code == 200 and "you are bad" not in stream.text
    assert ann.get(f"/games/{game_id}/record?chat=1").json["chat"]["players"] == []      # nor in the export
    assert [m["text"] for m in bob.get(f"/games/{game_id}/chat").json["messages"]] == ["you are bad"]
    r = ann.post(f"/games/{game_id}/chat/players/{rude['id']}/report", {"reason": "insult"})
    assert r.status_code == 202
    stored = redis_client.xrange(keys.chat_reports(), r.json["report"], r.json["report"])
    assert b"you are bad" in stored[0][1][b"data"] and b"insult" in stored[0][1][b"data"]
    assert ann.post(f"/games/{game_id}/chat/players/1-0/report", {}).status_code == 404
    assert ann.post(f"/games/{game_id}/chat/players/not-an-id/report", {}).status_code == 404
    assert ann.delete(f"/accounts/me/mutes/{bob.id}").json["players"] == []
    assert len(ann.get(f"/games/{game_id}/chat").json["messages"]) == 1
    assert ann.post("/accounts/me/mutes", {"player": "pnobody"}).status_code == 404


def test_the_record_includes_the_chat_only_when_asked(app):
    game_id, ann, bob = lobby_game(app)
    say(ann, game_id, "gg")
    plain = ann.get(f"/games/{game_id}/record").json
    assert "chat" not in plain
    with_chat = ann.get(f"/games/{game_id}/record?chat=1").json
    assert [m["text"] for m in with_chat["chat"]["players"]] == ["gg"] and "spectators" not in with_chat["chat"]
    spectator = fresh(app).get(f"/games/{game_id}/record?chat=1").json
    assert list(spectator["chat"]) == ["spectators"]


def test_a_merged_stream_keeps_to_one_slot():
    part = sse.Source(keys.log("g1"), (0, 0), lambda entries, viewer: [])
    assert Merged((part, sse.Source(keys.chat("g1", "players"), (0, 0), part.render)), str)
    with pytest.raises(ValueError):
        Merged((part, sse.Source(keys.chat("g2", "players"), (0, 0), part.render)), str)
