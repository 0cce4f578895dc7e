"""GET /games/{id}/changes: what a page following the stream applies to the log and move list it
has, instead of fetching everything again. Applied after each command (an undo among them), it
always gives what GET /log and /moves give; an old game without a moves index reads the same."""
from __future__ import annotations

from events import keys

from .conftest import bearer

STEPS = 14


def next_command(client, game_id: str, tokens: list[str], step: int) -> tuple[int, dict]:
    seat = client.get(f"/games/{game_id}").json["active_seat"]
    listed = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[seat])).json["commands"]
    undo = next((c for c in listed if c["type"] == "undo"), None)
    if undo is not None and step % 5 == 4:
        return seat, undo
    return seat, next(c for c in listed if c["type"] not in ("resign", "undo", "redo"))


def test_changes_applied_after_each_command_give_the_whole_log_and_move_list(client, duel):
    game_id, tokens = duel
    viewer = bearer(tokens[0])
    log = client.get(f"/games/{game_id}/log", headers=viewer).json["lines"]
    moves = client.get(f"/games/{game_id}/moves", headers=viewer).json["moves"]
    version = client.get(f"/games/{game_id}").json["version"]
    undone = 0
    for step in range(STEPS):
        seat, command = next_command(client, game_id, tokens, step)
        undone += command["type"] == "undo"
        assert client.post(f"/games/{game_id}/commands", json=command, headers=bearer(tokens[seat])).status_code == 200
        d = client.get(f"/games/{game_id}/changes?after={version}", headers=viewer).json
        log = [line for line in log if line["version"] <= d["log_after"]] + d["log"]
        moves = moves[:d["moves_from"]] + d["moves"]
        assert log == client.get(f"/games/{game_id}/log", headers=viewer).json["lines"]
        assert moves == client.get(f"/games/{game_id}/moves", headers=viewer).json["moves"]
        assert d["game"]["version"] == d["legal"]["version"] == d["version"] > version
        assert d["legal"]["commands"] == client.get(f"/games/{game_id}/legal", headers=viewer).json["commands"]
        version = d["version"]
    assert undone, "the game offered no undo to try"


def test_a_game_stored_before_the_moves_index_lists_the_same_moves(app, client, duel):
    game_id, tokens = duel
    for step in range(4):
        seat, command = next_command(client, game_id, tokens, 0)
        client.post(f"/games/{game_id}/commands", json=command, headers=bearer(tokens[seat]))
    listed = client.get(f"/games/{game_id}/moves").json["moves"]
    redis = app.extensions["arena"].redis
    redis.delete(keys.moves(game_id))                              # as an older version stored it
    assert client.get(f"/games/{game_id}/moves").json["moves"] == listed
    assert redis.exists(keys.moves(game_id))                       # indexed when first read
    assert client.get(f"/games/{game_id}/moves/2").json["version"] == listed[2]["version"]
