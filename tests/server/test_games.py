"""Playing over HTTP: every form end to end, every error class, rewind, and no leaked secrets."""
from __future__ import annotations

import json

import httpx
import pytest

import engine
from engine.views import hidden_cards
from events import GameService
from tests.server.conftest import bearer
from tests.server.play import play_over_http

FORMS = [("duel", ["northern", "sylvan"]), ("high_form", ["highland", "southern"]),
         ("melee", ["northern", "sylvan", "highland"]), ("melee", ["northern", "sylvan", "highland", "southern"])]


def _create(client, form, schools, seed="http"):
    players = [{"name": f"P{i}", "school": s} for i, s in enumerate(schools)]
    r = client.post("/games", json={"form": form, "players": players, "seed": seed})
    assert r.status_code == 201, r.json
    return r.json["id"], [s["token"] for s in r.json["seats"]]


@pytest.mark.parametrize("form,schools", FORMS)
def test_a_full_game_of_each_form_is_played_only_through_http(client, form, schools):
    game_id, tokens = _create(client, form, schools)
    final = play_over_http(client, game_id, tokens, seed=form)
    assert final["result"]["winners"]
    moves = client.get(f"/games/{game_id}/moves").json["moves"]
    assert moves[0]["text"] == "Setup" and len(moves) > 10
    log = client.get(f"/games/{game_id}/log").json["lines"]
    assert log[-1]["text"].startswith("The game is over")


def test_no_response_to_a_seat_shows_another_seats_hidden_cards(client, app):
    """Hidden: cards in other seats' hands and in any deck, unless the seat's own redacted events
    (checked card by card in tests/engine/test_views.py) showed them before: a flare invoked earlier
    may be shuffled back into its deck, a card you returned under a deck is one you know."""
    game_id, tokens = _create(client, "duel", ["northern", "highland"], seed="secrets")
    service: GameService = app.extensions["arena"].service
    leaks = []

    def secret_for(seat):
        state = service.load(game_id).state
        if state["phase"] == "over":
            return set()
        public = json.dumps(service.events(game_id, seat))
        return {c for c in hidden_cards(state, seat) if f'"{c}"' not in public}

    def check(seat, response):
        secret = secret_for(seat)
        texts = [response.get_data(as_text=True)]
        for path in ("events", "log", "moves", "record", ""):
            texts.append(client.get(f"/games/{game_id}/{path}".rstrip("/"), headers=bearer(tokens[seat])).get_data(as_text=True))
        leaks.extend((seat, c) for text in texts for c in secret if f'"{c}"' in text)

    play_over_http(client, game_id, tokens, seed="secrets", on_response=check, limit=300)
    assert leaks == []


def test_rewinding_to_every_move_equals_replaying_the_events_up_to_it(client, app):
    game_id, tokens = _create(client, "duel", ["northern", "sylvan"], seed="rewind")
    play_over_http(client, game_id, tokens, seed="rewind")
    service: GameService = app.extensions["arena"].service
    envelopes = service.events(game_id, None)
    stored = [env.event() for env in service.store.read(game_id)]
    moves = client.get(f"/games/{game_id}/moves").json["moves"]
    for move in moves[:: max(1, len(moves) // 25)] + moves[-1:]:
        seen = client.get(f"/games/{game_id}/moves/{move['move']}", headers=bearer(tokens[0])).json
        expected = engine.player_view(engine.replay(stored[: move["version"]]), 0)
        assert seen["version"] == move["version"]
        for option in (seen["pending"] or {}).get("options", []):
            option.pop("squares", None)             # added for display (test_pending_squares.py)
        assert {k: seen[k] for k in expected} == json.loads(json.dumps(expected))
    assert envelopes[-1]["type"] == "GameEnded"


def test_a_command_with_a_stale_expected_version_is_refused_with_the_current_version(client, duel):
    game_id, tokens = duel
    r = client.post(f"/games/{game_id}/commands", json={"type": "choose", "square": "c5", "expected_version": 3},
                    headers=bearer(tokens[1]))
    assert r.status_code == 409 and r.mimetype == "application/problem+json"
    assert r.json["code"] == "stale_version" and r.json["current_version"] > 3


@pytest.mark.parametrize("body,status,code", [
    ({"type": "choose", "square": 5}, 400, "malformed_request"),
    ({"type": "teleport"}, 400, "malformed_request"),
    ({"type": "choose", "square": "c5", "colour": "red"}, 400, "malformed_request"),
    ({"type": "choose", "square": "e5"}, 422, "not_an_option"),
    ({"type": "place", "square": "e5"}, 422, "decision_pending"),
])
def test_bad_commands_get_a_problem_naming_the_rule_or_field_and_append_nothing(client, duel, body, status, code):
    game_id, tokens = duel
    before = client.get(f"/games/{game_id}").json["version"]
    r = client.post(f"/games/{game_id}/commands", json=body, headers=bearer(tokens[1]))
    assert (r.status_code, r.json["code"]) == (status, code), r.json
    assert r.mimetype == "application/problem+json" and r.json["detail"]
    assert client.get(f"/games/{game_id}").json["version"] == before


def test_authentication_and_seat_errors(client, duel):
    game_id, tokens = duel
    cmd = {"type": "choose", "square": "c5"}
    assert client.post(f"/games/{game_id}/commands", json=cmd).status_code == 401
    assert client.post(f"/games/{game_id}/commands", json=cmd, headers=bearer("nope")).json["code"] == "bad_token"
    assert client.post(f"/games/{game_id}/commands", json=cmd, headers={"Authorization": "Basic x"}).status_code == 401
    r = client.post(f"/games/{game_id}/commands", json=cmd, headers=bearer(tokens[0]))
    assert (r.status_code, r.json["code"]) == (403, "not_your_decision")
    r = client.post(f"/games/{game_id}/commands", json={**cmd, "seat": 0}, headers=bearer(tokens[1]))
    assert (r.status_code, r.json["code"]) == (403, "not_your_seat")
    assert client.get("/games/nosuchgame").status_code == 404
    assert client.post("/games/nosuchgame/commands", json=cmd, headers=bearer(tokens[1])).status_code == 404


def test_an_idempotent_retry_returns_the_first_result_without_appending(client, duel):
    game_id, tokens = duel
    headers = {**bearer(tokens[1]), "Idempotency-Key": "k-123"}
    first = client.post(f"/games/{game_id}/commands", json={"type": "choose", "square": "c5"}, headers=headers)
    again = client.post(f"/games/{game_id}/commands", json={"type": "choose", "square": "c5"}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.json["version"] == first.json["version"] and again.json["replayed"] is True
    other = client.post(f"/games/{game_id}/commands", json={"type": "choose", "square": "g5"}, headers=headers)
    assert other.status_code == 422 and other.json["code"] == "idempotency_key_reused"


def test_a_seat_sees_its_hand_and_legal_commands_while_a_spectator_sees_neither(client, duel):
    game_id, tokens = duel
    mine = client.get(f"/games/{game_id}", headers=bearer(tokens[0])).json
    assert len(mine["seats"][0]["hand"]) == 6 and "hand" not in mine["seats"][1]
    spectator = client.get(f"/games/{game_id}").json
    assert all("hand" not in s for s in spectator["seats"]) and spectator["seat"] is None
    assert client.get(f"/games/{game_id}/legal").json["commands"] == []
    commands = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[1])).json["commands"]
    assert [{k: v for k, v in c.items() if k != "squares"} for c in commands] == [
        {"type": "choose", "square": "c5"}, {"type": "choose", "square": "g5"}, {"type": "resign"}]
    assert all(c["squares"]["affects"] for c in commands if c["type"] == "choose")     # what each choice places


def test_start_from_a_given_position(client):
    setup = {"board": "5/7/9/9/2a3b2/9/9/7/5", "hands": {"0": ["northern-swordmaster"]},
             "turn": {"seat": 0, "actions_left": 2}}
    r = client.post("/games", json={"form": "duel", "setup": setup,
                                    "players": [{"name": "A", "school": "northern"}, {"name": "B", "school": "sylvan"}]})
    assert r.status_code == 201
    view = client.get(f"/games/{r.json['id']}", headers=bearer(r.json["seats"][0]["token"])).json
    assert view["notation"] == "5/7/9/9/2a3b2/9/9/7/5" and view["seats"][0]["hand"] == ["northern-swordmaster"]


def test_resigning_ends_a_duel(client, duel):
    game_id, tokens = duel
    r = client.post(f"/games/{game_id}/resign", headers=bearer(tokens[0]))
    assert r.status_code == 200
    view = client.get(f"/games/{game_id}").json
    assert view["status"] == "finished" and view["result"]["winners"] == [1]


def test_the_board_picture_and_the_stream_which_the_flask_app_alone_does_not_serve(app, client, duel, front_for):
    game_id, tokens = duel
    client.post(f"/games/{game_id}/commands", json={"type": "choose", "square": "c5"}, headers=bearer(tokens[1]))
    svg = client.get(f"/games/{game_id}/board.svg?move=1")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and svg.data.count(b"<circle") >= 2
    path = f"/games/{game_id}/stream?follow=false"
    stream = httpx.get(front_for(app) + path, headers={"Last-Event-ID": "3"}, timeout=30)
    assert stream.text.startswith(": connected\n\nid: 4\n") and "event: CommandAccepted" in stream.text
    plain = client.get(path)                                   # plain WSGI: the opener's checks, then 501
    assert plain.status_code == 501 and plain.mimetype == "application/problem+json"
    assert plain.json["code"] == "streams_not_served_here" and "arena serve" in plain.json["detail"]
    assert client.get("/games/nosuchgame1/stream?follow=false").status_code == 404
    assert client.get("/players/me/stream?follow=0").status_code == 401


def test_a_finished_game_exports_and_a_tampered_record_is_refused_on_import(client, app, redis_server):
    from server import create_app
    game_id, tokens = _create(client, "duel", ["northern", "sylvan"], seed="export")
    play_over_http(client, game_id, tokens, seed="export")
    record = client.get(f"/games/{game_id}/record").json
    assert record["events"][-1]["type"] == "GameEnded"
    other = create_app({"REDIS_URL": redis_server.url, "TESTING": True}).test_client()
    tampered = json.loads(json.dumps(record))
    tampered["events"][9]["payload"]["cards"] = list(reversed(tampered["events"][9]["payload"].get("cards", ["x"])))
    bad = other.post("/games/import", json=tampered)
    assert bad.status_code == 422 and bad.json["code"] == "record_rejected"
    assert other.post("/games/import", json=record).json["code"] == "game_exists"
    app.extensions["arena"].service.store.delete_game(game_id)
    imported = other.post("/games/import", json=record)
    assert imported.status_code == 201 and imported.json["status"] == "finished"
