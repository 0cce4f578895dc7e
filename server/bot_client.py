"""The reference client of a computer player that lives outside the server: `arena bot`.

It plays as a registered player (a bot account) through nothing but the public HTTP API, with the
player's token: it accepts the invitations it receives, and in each of its games where it is to
play it reads the events as its seat is shown them (GET /games/{id}/events, redacted for it), folds
them into engine/ai's knowledge, asks GET /games/{id}/legal for its options and sends the level's
choice (POST /games/{id}/commands). Write your own the same way, in any language: these three
calls are all a bot needs. Its seeds are keyed with its token, so its choices replay identically.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
from typing import Any, Callable

from engine.ai import Knowledge, play

Send = Callable[[str, str, dict | None], tuple[int, Any]]       # (method, path, body) -> (status, JSON answer)


def http(server: str, token: str, timeout: float = 30.0) -> Send:
    """Requests to `server` with the bot's token."""
    def send(method: str, path: str, body: dict | None = None) -> tuple[int, Any]:
        request = urllib.request.Request(server.rstrip("/") + path, method=method,
                                         data=json.dumps(body).encode() if body is not None else None,
                                         headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")
    return send


class Bot:
    def __init__(self, send: Send, level: int, key: str) -> None:
        self.send, self.level, self.key = send, level, key
        self.known: dict[str, Knowledge] = {}

    def accept_invitations(self) -> int:
        status, answer = self.send("GET", "/players/me/invitations", None)
        accepted = 0
        for invitation in answer.get("invitations", []) if status == 200 else []:
            if invitation["status"] == "invited":
                accepted += self.send("POST", f"/players/me/invitations/{invitation['id']}/accept", {})[0] == 200
        return accepted

    def play_waiting(self) -> int:
        """One command in every game where the bot is to play; how many it sent."""
        status, answer = self.send("GET", "/players/me/games?waiting=1", None)
        sent = 0
        for game in answer.get("games", []) if status == 200 else []:
            sent += self.play(game["id"], game["seat"])
        return sent

    def play(self, game_id: str, seat: int) -> int:
        known = self.known.setdefault(game_id, Knowledge(seat))
        after = known.state.get("version", 0) if known.state else 0
        status, answer = self.send("GET", f"/games/{game_id}/events?after={after}", None)
        if status != 200:
            return 0
        known.observe({"type": e["type"], **e["payload"]} for e in answer["events"])
        status, legal = self.send("GET", f"/games/{game_id}/legal", None)
        options = [{k: v for k, v in c.items() if k != "squares"} for c in legal.get("commands", [])] if status == 200 else []
        if not options:
            return 0
        seed = hmac.new(self.key.encode(), f"{game_id}:{seat}:{legal['version']}".encode(), hashlib.sha256).hexdigest()
        command = {k: v for k, v in play(known, options, self.level, seed).items() if k != "seat"}
        return int(self.send("POST", f"/games/{game_id}/commands", command)[0] == 200)

    def run(self, poll: float = 2.0, rounds: int | None = None) -> None:
        """Accept, play, wait `poll` seconds when there was nothing to do; forever unless `rounds` is given."""
        done = 0
        while rounds is None or done < rounds:
            busy = self.accept_invitations() + self.play_waiting()
            done += 1
            if not busy and (rounds is None or done < rounds):
                time.sleep(poll)
