"""The reference client of a bot account: `arena bot`, a computer player that lives outside the server.

It plays as a bot account (POST /accounts/me/bot turned it into one) through nothing but the
public HTTP API, with the account's token: it accepts the invitations it receives (and, with
`tables`, joins open casual tables), and in each of its games where it is to play it reads the
events as its seat is shown them (GET /games/{id}/events, redacted for it), folds them into
engine/ai's knowledge, asks GET /games/{id}/legal for its options and sends the level's choice
(POST /games/{id}/commands); it greets its opponents in the game's chat once. Between rounds it
waits on its notification stream (GET /players/me/stream), so it answers at once. Write your own
the same way, in any language. Its seeds are keyed with its token, so its choices replay identically.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable

from engine.ai import Knowledge, play
from engine.setup import SUPPORTED_SCHOOLS

Send = Callable[[str, str, dict | None], tuple[int, Any]]       # (method, path, body) -> (status, JSON answer)
Wait = Callable[[float], None]                                  # until something happens, `seconds` at most
GREETING = "Hello! I am a computer player (level {level}). Good luck, and have fun."


class NotABotAccount(Exception):
    """The token is not a bot account's: the reference client plays only as one."""


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


def stream_wait(server: str, token: str, send: Send) -> Wait:
    """Waiting on the bot's notification stream: back as soon as a notification (its turn, an
    invitation, a table started) arrives, or after `seconds`."""
    last: list[str] = []

    def wait(seconds: float) -> None:
        if not last:
            status, answer = send("GET", "/players/me/notifications?newest=1", None)
            last.append(answer.get("last_id", "0") if status == 200 else "0")
        query = urllib.parse.urlencode({"after": last[0]})
        request = urllib.request.Request(f"{server.rstrip('/')}/players/me/stream?{query}",
                                         headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"})
        try:
            with urllib.request.urlopen(request, timeout=seconds) as stream:
                for raw in stream:
                    line = raw.decode().rstrip("\r\n")
                    if line.startswith("id:"):
                        last[0] = line[3:].strip()
                    elif not line and last[0]:
                        return                  # one whole event: something to do
        except (OSError, urllib.error.URLError):
            time.sleep(min(seconds, 1.0) if seconds else 0)     # timed out, or the server is away: look again
    return wait


class Bot:
    def __init__(self, send: Send, level: int, key: str, wait: Wait = time.sleep, tables: bool = False) -> None:
        self.send, self.level, self.key, self.wait, self.tables = send, level, key, wait, tables
        self.known: dict[str, Knowledge] = {}
        self.greeted: set[str] = set()
        self.account: dict = {}

    def check_account(self) -> dict:
        """The bot account the token acts for (GET /accounts/me); NotABotAccount when it is none."""
        status, me = self.send("GET", "/accounts/me", None)
        if status != 200:
            raise NotABotAccount(f"the server refused the token ({status}): {me.get('detail', '')}")
        if not me.get("bot"):
            raise NotABotAccount(f"{me['name']} is not a bot account: turn it into one first with "
                                 "POST /accounts/me/bot {\"irreversible\": true} (only an account that has played no game)")
        self.account = me
        return me

    def join_tables(self) -> int:
        """Take a free place at one open casual table the bot is not at; how many it joined (0 or 1)."""
        status, answer = self.send("GET", "/lobby/tables", None)
        for table in answer.get("tables", []) if status == 200 else []:
            seated = any(p["player"] == self.account.get("id") for p in table["players"])
            if table["rated"] or seated or len(table["players"]) >= table["seats"]:
                continue
            taken = {p["school"] for p in table["players"]}
            free = [s for s in SUPPORTED_SCHOOLS if s not in taken]
            body = {"school": free[0]} if table["schools"] == "fixed" else {}
            if self.send("POST", f"/lobby/tables/{table['id']}/join", body)[0] == 200:
                return 1
        return 0

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
        self.greet(game_id)
        return int(self.send("POST", f"/games/{game_id}/commands", command)[0] == 200)

    def greet(self, game_id: str) -> None:
        """Say hello in the game's chat, once per game."""
        if game_id not in self.greeted:
            self.greeted.add(game_id)
            self.send("POST", f"/games/{game_id}/chat", {"channel": "players", "text": GREETING.format(level=self.level)})

    def run(self, poll: float = 2.0, rounds: int | None = None) -> None:
        """Accept, play, and when there was nothing to do wait for news (`poll` seconds at most);
        forever unless `rounds` is given."""
        self.check_account()
        done = 0
        while rounds is None or done < rounds:
            busy = self.accept_invitations() + (self.join_tables() if self.tables else 0) + self.play_waiting()
            done += 1
            if not busy and (rounds is None or done < rounds):
                self.wait(poll)
