"""Conditional replies through HTTP (events/conditionals.py): queued while waiting, private to their
seat, tried in order when its turn comes, the first legal one played as one marked step."""
from __future__ import annotations

import logging

from events.archive import codec
from events.verify import verify_record
from tests.server.conftest import bearer

from .reads import EVERY_READ

HOPED_FOR = "northern-swordmaster"      # in Ann's deck, not her hand: never seen by Bob nor a spectator


def ann_waits(client, created: dict | None = None) -> tuple[str, list[str]]:
    """A duel (`created`, else a new one of guests) where Ann (seat 0) has played her first turn
    and Bob's has begun (game seed 'fixture')."""
    created = created or client.post("/games", json={"form": "duel", "seed": "fixture", "players": [
        {"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]}).json
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    for seat, command in ((1, {"type": "choose", "square": "c5"}), (0, {"type": "place", "square": "c1"})):
        assert client.post(f"/games/{game_id}/commands", json=command, headers=bearer(tokens[seat])).status_code == 200
    return game_id, tokens


def put(client, game_id: str, token: str | None, rules: list) -> object:
    return client.put(f"/games/{game_id}/conditionals", json={"rules": rules}, headers=bearer(token) if token else {})


RULES = [
    {"when": {"kind": "summon"}, "then": [{"type": "place", "square": "a3"}, {"type": "place", "square": "b3"}]},
    {"when": {"kind": "anything"}, "then": [{"type": "summon", "card": HOPED_FOR, "square": "f1"}]},
    {"when": {"kind": "anything"}, "then": [{"type": "place", "square": "f1"}, {"type": "place", "square": "g1"}]},
    {"when": {"kind": "anything"}, "then": [{"type": "place", "square": "h1"}]},
]


def test_a_queued_reply_is_tried_in_order_and_the_first_legal_one_plays_the_turn_marked(client, app):
    game_id, tokens = ann_waits(client)
    assert put(client, game_id, tokens[1], RULES).json["code"] == "not_waiting"          # Bob's turn
    assert put(client, game_id, None, RULES).status_code == 401
    bad = put(client, game_id, tokens[0], [{"when": {"kind": "sneeze"}, "then": []}])
    assert bad.status_code == 422 and "rules[0].when.kind" in bad.json["detail"]
    queued = put(client, game_id, tokens[0], RULES)
    assert queued.status_code == 200, queued.json
    assert [r["text"] for r in queued.json["rules"]][2] == "If they do anything: Ann places on f1; Ann places on g1"
    edited = put(client, game_id, tokens[0], RULES[1:] + RULES[:1])                   # editable until played
    assert [r["when"]["kind"] for r in edited.json["rules"]] == ["anything", "anything", "anything", "summon"]
    put(client, game_id, tokens[0], RULES)

    for square in ("d1", "e1"):                                                        # Bob's turn ends
        assert client.post(f"/games/{game_id}/commands", json={"type": "place", "square": square},
                           headers=bearer(tokens[1])).status_code == 200
    game = client.get(f"/games/{game_id}", headers=bearer(tokens[1])).json
    assert game["active_seat"] == 1 and game["turn"]["number"] == 4                    # Ann's turn 3 was played
    mine = client.get(f"/games/{game_id}/conditionals", headers=bearer(tokens[0])).json
    assert mine["rules"] == [] and mine["told"]["played"] == 2
    results = mine["told"]["results"]
    assert [r["result"] for r in results] == ["no_match", "refused", "played", "not_tried"]
    assert results[0]["reason"] == "They did not summon a being."
    assert "Command 1 (summons Swordmaster on f1) was not legal" in results[1]["reason"]

    moves = client.get(f"/games/{game_id}/moves").json["moves"]
    assert [(m["text"], m.get("conditional", False)) for m in moves[-3:]] == [
        ("Bob places on e1", False), ("Ann places on f1", True), ("Ann places on g1", True)]
    marked = [line for line in client.get(f"/games/{game_id}/log").json["lines"] if line.get("conditional")]
    assert marked and all(line["move"] in (moves[-2]["move"], moves[-1]["move"]) for line in marked)
    events = client.get(f"/games/{game_id}/events").json["events"]
    assert {e["version"] for e in events if e.get("via") == "conditional"} == \
        set(range(moves[-3]["version"] + 1, moves[-1]["version"] + 1))
    put(client, game_id, tokens[0], RULES)
    assert client.post(f"/games/{game_id}/resign", headers=bearer(tokens[1])).status_code == 200
    ended = client.get(f"/games/{game_id}/conditionals", headers=bearer(tokens[0])).json
    assert ended["rules"] == [] and ended["told"]["results"][0]["reason"] == "The game ended before your turn came."
    record = app.extensions["arena"].service.export_record(game_id)
    assert verify_record(record).ok                                                     # the mark is in the chain
    assert codec.decode(codec.encode(record, {}, {})).record() == record                # and in the archive


def test_rules_never_reach_another_seat_or_a_spectator_and_go_at_the_seats_own_move(client, caplog):
    caplog.set_level(logging.DEBUG)
    game_id, tokens = ann_waits(client)
    assert put(client, game_id, tokens[0], RULES).status_code == 200
    for headers in (bearer(tokens[1]), {}):
        for path in EVERY_READ:
            answer = client.get(f"/games/{game_id}{path}", headers=headers)
            assert HOPED_FOR not in answer.get_data(as_text=True), (headers, path)
    assert client.get(f"/games/{game_id}/conditionals").status_code == 401
    assert client.get(f"/games/{game_id}/conditionals", headers=bearer(tokens[1])).json["rules"] == []
    assert HOPED_FOR not in caplog.text

    late = [{"when": {"kind": "summon"}, "then": [{"type": "place", "square": "a3"}]}]
    put(client, game_id, tokens[0], late)                     # never matches: dropped, and told why
    for square in ("d1", "e1"):
        client.post(f"/games/{game_id}/commands", json={"type": "place", "square": square}, headers=bearer(tokens[1]))
    told = client.get(f"/games/{game_id}/conditionals", headers=bearer(tokens[0])).json
    assert told["rules"] == [] and told["told"]["played"] is None and told["told"]["results"][0]["result"] == "no_match"
    assert told["waiting"] is False
    assert client.post(f"/games/{game_id}/commands", json={"type": "place", "square": "a3"},
                       headers=bearer(tokens[0])).status_code == 200
    assert put(client, game_id, tokens[0], late).json["code"] == "not_waiting"          # still Ann's turn
    client.post(f"/games/{game_id}/commands", json={"type": "place", "square": "b3"}, headers=bearer(tokens[0]))
    assert put(client, game_id, tokens[0], late).status_code == 200                    # Bob's turn: she waits
    assert client.post(f"/games/{game_id}/resign", headers=bearer(tokens[0])).status_code == 200
    gone = client.get(f"/games/{game_id}/conditionals", headers=bearer(tokens[0])).json
    assert gone["rules"] == [] and gone["told"] == told["told"]                          # dropped by her move, untold


def test_a_summon_taken_back_by_an_undo_never_matches(client):
    board = [{"square": s, "seat": 1, "rank": "common"} for s in ("d2", "e2", "f2", "d3", "e3", "f3", "d4", "e4", "f4", "c3", "g3")]
    r = client.post("/games", json={"form": "duel", "players": [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}],
                                    "setup": {"board": board, "hands": {"1": ["sylvan-sapling"]}, "turn": {"seat": 1, "actions_left": 2}}})
    game_id, tokens = r.json["id"], [s["token"] for s in r.json["seats"]]
    send = lambda seat, body: client.post(f"/games/{game_id}/commands", json=body, headers=bearer(tokens[seat]))
    sapling = {"when": {"kind": "summon", "card": "sylvan-sapling"}, "then": [{"type": "place", "square": "c1"}]}
    fallback = {"when": {"kind": "anything"}, "then": [{"type": "place", "square": "c1"}, {"type": "place", "square": "g1"}]}
    assert put(client, game_id, tokens[0], [sapling, fallback]).status_code == 200
    summoned = send(1, {"type": "summon", "card": "sylvan-sapling", "square": "e5"})
    assert summoned.status_code == 200
    assert send(1, {"type": "undo", "to_version": summoned.json["version"] - len(summoned.json["events"])}).status_code == 200
    for square in ("c5", "g5"):
        assert send(1, {"type": "place", "square": square}).status_code == 200
    told = client.get(f"/games/{game_id}/conditionals", headers=bearer(tokens[0])).json["told"]
    assert [r["result"] for r in told["results"]] == ["no_match", "played"]
    assert told["results"][0]["reason"] == "They did not summon Sapling."


def test_a_reply_is_rehearsed_from_what_the_seat_knows_until_its_turn_ends(client):
    game_id, tokens = ann_waits(client)
    rehearse = lambda commands, token=tokens[0]: client.post(f"/games/{game_id}/conditionals/rehearse",
                                                             json={"commands": commands}, headers=bearer(token))
    first = rehearse([])
    assert first.status_code == 200 and not first.json["ended"]
    assert {"type": "place", "square": "f1", "text": "Ann places on f1"} in [
        {k: c[k] for k in ("type", "square", "text")} for c in first.json["commands"] if c["type"] == "place"]
    assert first.json["view"]["turn"]["seat"] == 0 and first.json["view"]["seats"][1].get("hand") is None
    done = rehearse([{"type": "place", "square": "f1"}, {"type": "place", "square": "g1"}])
    assert done.json["ended"] and done.json["commands"] == []
    assert rehearse([{"type": "place", "square": "c1"}]).status_code == 422               # taken: not legal
    assert rehearse([], tokens[1]).json["code"] == "not_waiting"

