"""Every malformed request gets a 4xx problem+json naming what is wrong, and nothing changes.

One line per case: (name, method, path, body, headers, status, code). In paths and headers,
{game} is a running duel, {seat} its seat 1 token, {player} a registered player's token. A body
is sent as given (str or bytes) with Content-Type: application/json unless the headers say
otherwise. After each case, no key was added to Redis (rate-limit counters aside) and the game is
at the version it was at.
"""
from __future__ import annotations

import pytest

from events import keys
from server import create_app
from tests.server.plain import faults

DEEP = "[" * 1000 + "]" * 1000
HUGE_INT = "1" + "0" * 4400
PLAYERS = '[{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]'
NEW_GAME = '{"form": "duel", "players": ' + PLAYERS + "%s}"
COMMAND = '{"type": "choose", "square": "c5"%s}'
SEAT = {"Authorization": "Bearer {seat}"}
PLAYER = {"Authorization": "Bearer {player}"}
ABOVE_2_64 = str(2 ** 64)

CASES = [
    # the 13 of the issue ---------------------------------------------------------------------------------------
    ("game nested 1000 deep", "POST", "/games", DEEP, {}, 400, "malformed_json"),
    ("command nested 1000 deep", "POST", "/games/{game}/commands", COMMAND % (', "x": ' + DEEP), SEAT, 400,
     "malformed_json"),
    ("integer of 4401 digits", "POST", "/games/{game}/commands", COMMAND % (', "seat": ' + HUGE_INT), SEAT, 400,
     "malformed_json"),
    ("lone surrogate in a seed", "POST", "/games", NEW_GAME % ', "seed": "\\ud800"', {}, 400, "malformed_json"),
    ("lone surrogate in a seat name", "POST", "/games",
     '{"form": "duel", "players": [{"name": "\\udc00", "school": "northern"}, {"name": "B", "school": "sylvan"}]}',
     {}, 400, "malformed_json"),
    ("lone surrogate in a player name", "POST", "/players", '{"name": "\\udfff"}', {}, 400, "malformed_json"),
    ("lone surrogate in a webhook URL", "POST", "/players", '{"name": "x", "webhook_url": "http://a\\ud800.io/"}',
     {}, 400, "malformed_json"),
    ("?after= above 2^64 on notifications", "GET", "/players/me/notifications?after=" + ABOVE_2_64, None, PLAYER,
     400, "malformed_request"),
    ("?after= seq above 2^64 on notifications", "GET", f"/players/me/notifications?after=1-{ABOVE_2_64}", None,
     PLAYER, 400, "malformed_request"),
    ("Last-Event-ID above 2^64 on notifications", "GET", "/players/me/notifications", None,
     {**PLAYER, "Last-Event-ID": ABOVE_2_64 + "-0"}, 400, "malformed_request"),
    ("?after= above 2^64 on the stream", "GET", f"/players/me/stream?follow=0&after={ABOVE_2_64}", None, PLAYER,
     400, "malformed_request"),
    ("Last-Event-ID above 2^64 on the stream", "GET", "/players/me/stream?follow=0", None,
     {**PLAYER, "Last-Event-ID": "99999999999999999999"}, 400, "malformed_request"),
    ("import without game_id", "POST", "/games/import", '{"format": "tash-kalar-record/1", "events": [{}]}', {},
     400, "malformed_request"),
    # more --------------------------------------------------------------------------------------------------------
    ("import without events", "POST", "/games/import", '{"format": "x", "game_id": "g1"}', {}, 400,
     "malformed_request"),
    ("import of a list", "POST", "/games/import", "[1, 2]", {}, 400, "malformed_request"),
    ("import nested 40 deep", "POST", "/games/import", '{"game_id": "g", "events": ' + "[" * 40 + "]" * 40 + "}",
     {}, 400, "malformed_json"),
    ("import with a lone surrogate", "POST", "/games/import",
     '{"format": "f", "game_id": "g1", "events": [{"\\ud83d": 1}]}', {}, 400, "malformed_json"),
    ("game as a form", "POST", "/games", "form=duel", {"Content-Type": "application/x-www-form-urlencoded"}, 415,
     "unsupported_media_type"),
    ("game as text", "POST", "/games", NEW_GAME % "", {"Content-Type": "text/plain"}, 415, "unsupported_media_type"),
    ("command without a content type", "POST", "/games/{game}/commands", COMMAND % "", {**SEAT, "Content-Type": ""},
     415, "unsupported_media_type"),
    ("not UTF-8", "POST", "/games", b'{"form": "\xff"}', {}, 400, "malformed_json"),
    ("not JSON", "POST", "/games", '{"form": ', {}, 400, "malformed_json"),
    ("NaN", "POST", "/games/{game}/commands", COMMAND % ', "seat": NaN', SEAT, 400, "malformed_json"),
    ("Infinity", "POST", "/games/{game}/commands", COMMAND % ', "seat": -Infinity', SEAT, 400, "malformed_json"),
    ("a float too large", "POST", "/games/{game}/commands", COMMAND % ', "seat": 1e400', SEAT, 400,
     "malformed_json"),
    ("a command that is a list", "POST", "/games/{game}/commands", "[]", SEAT, 400, "malformed_request"),
    ("an empty command", "POST", "/games/{game}/commands", "", SEAT, 400, "malformed_request"),
    ("a command missing its type", "POST", "/games/{game}/commands", '{"square": "c5"}', SEAT, 400,
     "malformed_request"),
    ("a seat out of range", "POST", "/games/{game}/commands", COMMAND % ', "seat": 99', SEAT, 400,
     "malformed_request"),
    ("a game missing its players", "POST", "/games", '{"form": "duel"}', {}, 400, "malformed_request"),
    ("an unknown field", "POST", "/games", NEW_GAME % ', "colour": "red"', {}, 400, "malformed_request"),
    ("a time control without seconds", "POST", "/games", NEW_GAME % ', "time_control": {"kind": "move"}', {}, 400,
     "malformed_request"),
    ("a player id with a brace", "POST", "/games",
     '{"form": "duel", "players": [{"name": "A", "school": "northern", "player": "{x}"}, '
     '{"name": "B", "school": "sylvan"}]}', {}, 400, "malformed_request"),
    ("one player in two seats", "POST", "/games",
     '{"form": "duel", "players": [{"name": "A", "school": "northern", "player": "p1"}, '
     '{"name": "B", "school": "sylvan", "player": "p1"}]}', {}, 400, "malformed_request"),
    ("?after= of 5000 digits on events", "GET", "/games/{game}/events?after=" + "9" * 5000, None, {}, 400,
     "malformed_request"),
    ("Last-Event-ID of 5000 digits on a game stream", "GET", "/games/{game}/stream?follow=0", None,
     {"Last-Event-ID": "9" * 5000}, 400, "malformed_request"),
    ("Last-Event-ID that is a word", "GET", "/players/me/stream?follow=0", None, {**PLAYER, "Last-Event-ID": "x"},
     400, "malformed_request"),
    ("an Idempotency-Key with spaces", "POST", "/games/{game}/commands", COMMAND % "",
     {**SEAT, "Idempotency-Key": "a b"}, 400, "malformed_request"),
    ("an expected_version of 30 digits", "POST", "/games/{game}/commands",
     COMMAND % ', "expected_version": 100000000000000000000000000000', SEAT, 400, "malformed_json"),
    ("a bearer without a token", "POST", "/games/{game}/commands", COMMAND % "", {"Authorization": "Bearer "},
     401, "bad_token"),
    ("a game id too long", "GET", "/games/" + "g" * 65, None, {}, 400, "malformed_request"),
    ("an invitation id that is none", "POST", "/players/me/invitations/nothing/accept", None, PLAYER, 404,
     "invitation_not_found"),
    ("a body too large", "POST", "/games", '{"seed": "' + "x" * 70000 + '"}', {}, 413, "body_too_large"),
    ("a method the path does not take", "DELETE", "/games/{game}", None, {}, 405, "method_not_allowed"),
    # issue 21's routes and fields ---------------------------------------------------------------------------------
    ("a name of invisible characters only", "POST", "/players", '{"name": "\u2060\ufeff\u202e"}', {}, 400,
     "malformed_request"),
    ("a seat name of a bidi override only", "POST", "/games",
     '{"form": "duel", "players": [{"name": "\u202e", "school": "northern"}, {"name": "B", "school": "sylvan"}]}',
     {}, 400, "malformed_request"),
    ("a reset asked with neither name nor address", "POST", "/accounts/password-reset", "{}", {}, 400,
     "malformed_request"),
    ("a reset asked with both", "POST", "/accounts/password-reset", '{"name": "a", "address": "a@example.test"}', {},
     400, "malformed_request"),
    ("a reset asked for a non-address", "POST", "/accounts/password-reset", '{"address": "not one"}', {}, 400,
     "malformed_request"),
    ("a reset asked nested 1000 deep", "POST", "/accounts/password-reset", DEEP, {}, 400, "malformed_json"),
    ("a reset without its token", "POST", "/accounts/password-reset/confirm", '{"password": "long enough"}', {},
     400, "malformed_request"),
    ("a reset with a forged token", "POST", "/accounts/password-reset/confirm",
     '{"token": "forged.token.here", "password": "long enough"}', {}, 400, "link_not_valid"),
    ("a reset with a short password", "POST", "/accounts/password-reset/confirm", '{"token": "x", "password": "s"}',
     {}, 400, "malformed_request"),
    ("a reset as text", "POST", "/accounts/password-reset/confirm", "token=x", {"Content-Type": "text/plain"}, 415,
     "unsupported_media_type"),
    ("a confirmation link without a token", "GET", "/email/confirm", None, {}, 400, "malformed_request"),
    ("tables paged by a word", "GET", "/lobby/tables?before=yesterday", None, {}, 400, "malformed_request"),
    ("tables paged by zero", "GET", "/lobby/tables?limit=0", None, {}, 400, "malformed_request"),
    ("tables in an unknown order", "GET", "/lobby/tables?order=random", None, {}, 400, "malformed_request"),
    ("tables paged by infinity", "GET", "/lobby/tables?before=inf", None, {}, 400, "malformed_request"),
]


@pytest.fixture(scope="module")
def client(redis_server):
    """One app for the whole table (each case still checks that it changed nothing)."""
    return create_app({"REDIS_URL": redis_server.url, "TESTING": True}).test_client()


@pytest.fixture(scope="module")
def world(client):
    game = client.post("/games", json={"form": "duel", "seed": "malformed", "players": [
        {"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]}).json
    player = client.post("/players", json={"name": "Pat"}).json
    return {"game": game["id"], "seat": game["seats"][1]["token"], "player": player["token"]}


def _keys(redis) -> set[bytes]:
    return {k for k in redis.scan_iter(count=1000) if keys.rate_limits().encode() not in k}


@pytest.mark.parametrize("name, method, path, body, headers, status, code", CASES, ids=[c[0] for c in CASES])
def test_a_malformed_request_is_a_4xx_problem_naming_what_is_wrong_and_changes_nothing(
        client, redis_client, world, name, method, path, body, headers, status, code):  # noqa: ARG001 - name: the id
    headers = {"Content-Type": "application/json", **{k: v.format(**world) for k, v in headers.items()}}
    before_keys, before_version = _keys(redis_client), redis_client.xlen(keys.log(world["game"]))
    r = client.open(path.format(**world), method=method, data=body, headers=headers)
    assert (r.status_code, r.mimetype) == (status, "application/problem+json"), r.get_data(as_text=True)[:300]
    assert r.json["code"] == code and faults(r.json["detail"]) == [], r.json
    if status == 405:
        assert "GET" in r.headers["Allow"]
    assert _keys(redis_client) - before_keys == set()
    assert redis_client.xlen(keys.log(world["game"])) == before_version
