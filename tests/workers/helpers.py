"""Helpers of the worker tests: a burst worker, playing over HTTP, reading clocks and logs."""
from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from pathlib import Path

from events.archive.storage import name_of
from events.settings import Settings
from workers.worker import make_worker


def run_worker(redis) -> bool:
    """A real RQ worker in burst mode: its deadline loop deals with what is due, queued jobs run,
    then it returns."""
    return make_worker(redis, Settings.load()).work(burst=True, logging_level="WARNING")


def record_file(archive: Path, game_id: str) -> Path:
    """Where the end-of-game job writes a game's signed record under the archive directory: its
    archive blob (events/archive/storage.py)."""
    return archive / "games" / name_of(game_id)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def parse(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def deadline(client, game_id: str) -> datetime:
    return parse(client.get(f"/games/{game_id}").json["clocks"]["deadline"])


def later(moment: datetime, seconds: float) -> datetime:
    return moment + timedelta(seconds=seconds)


_PLAYER_TOKENS: dict[str, str] = {}


def register(client, name: str, webhook_url: str | None = None) -> dict:
    body = {"name": name, **({"webhook_url": webhook_url} if webhook_url else {})}
    r = client.post("/players", json=body)
    assert r.status_code == 201, r.json
    _PLAYER_TOKENS[r.json["id"]] = r.json["token"]
    return r.json


def accept_invitations(client, created: dict) -> dict:
    """Each registered player named in a new game accepts their invitation; the creation answer
    then holds every seat's token, as if the players had been seated at once."""
    for seat in created["seats"]:
        if seat.get("status") == "invited":
            r = client.post(f"/players/me/invitations/{seat['invitation']}/accept",
                            headers=bearer(_PLAYER_TOKENS[seat["player"]]))
            assert r.status_code == 200, r.json
            seat["token"] = r.json["token"]
    return created


def new_game(client, *, time_control: dict | None = None, players: list[dict] | None = None,
             form: str = "duel", seed: str | None = "workers", creator: dict | None = None) -> dict:
    """A new game; `creator`, a registered player, creates it (taking their own seat, uninvited).
    A game whose ratings count needs `seed=None`: a creator-chosen seed makes it unrated."""
    players = players or [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]
    body = {"form": form, "players": players, **({"seed": seed} if seed is not None else {})}
    if time_control:
        body["time_control"] = time_control
    r = client.post("/games", json=body, headers=bearer(creator["token"]) if creator else {})
    assert r.status_code == 201, r.json
    return accept_invitations(client, r.json)


def play_legal(client, game: dict, seat: int, index: int = 0):
    """Send the seat's `index`th legal command."""
    token = game["seats"][seat]["token"]
    legal = client.get(f"/games/{game['id']}/legal", headers=bearer(token)).json
    command = legal["commands"][index]
    r = client.post(f"/games/{game['id']}/commands", json={**command, "expected_version": legal["version"]},
                    headers=bearer(token))
    assert r.status_code == 200, r.json
    return r.json


def log_lines(client, game_id: str) -> list[str]:
    return [line["text"] for line in client.get(f"/games/{game_id}/log").json["lines"]]


def event_types(client, game_id: str) -> list[str]:
    return [e["type"] for e in client.get(f"/games/{game_id}/events").json["events"]]


TWO_SECONDS = {"kind": "move", "seconds": 2}


def deadlines_of(client, games: list[dict]) -> dict[str, float]:
    return {g["id"]: parse(client.get(f"/games/{g['id']}").json["clocks"]["deadline"]).timestamp() for g in games}


def timed_out_at(client, game_id: str) -> float | None:
    for event in client.get(f"/games/{game_id}/events").json["events"]:
        if event["type"] == "TurnTimedOut":
            return parse(event["time"]).timestamp()
    return None


def all_timed_out(client, due: dict[str, float]) -> dict[str, float] | None:
    seen = {g: timed_out_at(client, g) for g in due}
    return seen if all(seen.values()) else None


class Receiver:
    """A local HTTP server that records each POST and answers with the next of `statuses`, after
    holding each request `hold` seconds (a slow receiver)."""

    def __init__(self, statuses: list[int], hold: float = 0.0) -> None:
        self.statuses, self.requests, self.times = list(statuses), [], []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:                              # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append((dict(self.headers), body))
                receiver.times.append(time.time())
                time.sleep(hold)
                status = receiver.statuses.pop(0) if len(receiver.statuses) > 1 else receiver.statuses[0]
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
