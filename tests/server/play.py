"""Playing whole games through HTTP only, as a client would."""
from __future__ import annotations

import random

from engine.selfplay import pick


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_over_http(client, game_id: str, tokens: list[str], seed: str, on_response=None, limit: int = 5000) -> dict:
    """Play random legal commands until the game ends; `on_response(seat, response)` sees every answer."""
    rng = random.Random(seed)
    seen = on_response or (lambda seat, response: None)
    for _ in range(limit):
        view = client.get(f"/games/{game_id}", headers=auth(tokens[0]))
        seen(0, view)
        if view.json["status"] == "finished":
            return view.json
        seat = view.json["active_seat"]
        legal = client.get(f"/games/{game_id}/legal", headers=auth(tokens[seat]))
        seen(seat, legal)
        command = pick(rng, legal.json["commands"])
        answer = client.post(f"/games/{game_id}/commands", json={**command, "expected_version": legal.json["version"]},
                             headers=auth(tokens[seat]))
        seen(seat, answer)
        assert answer.status_code == 200, answer.json
    raise AssertionError("the game did not end")
