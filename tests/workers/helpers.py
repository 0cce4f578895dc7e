"""Helpers of the worker tests: a burst worker, playing over HTTP, reading clocks and logs."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from workers.settings import Settings
from workers.worker import make_worker


def run_worker(redis) -> bool:
    """A real RQ worker in burst mode: its deadline loop deals with what is due, queued jobs run,
    then it returns."""
    return make_worker(redis, Settings.from_env()).work(burst=True, logging_level="WARNING")


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def parse(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def deadline(client, game_id: str) -> datetime:
    return parse(client.get(f"/games/{game_id}").json["clocks"]["deadline"])


def later(moment: datetime, seconds: float) -> datetime:
    return moment + timedelta(seconds=seconds)


def register(client, name: str, webhook_url: str | None = None) -> dict:
    body = {"name": name, **({"webhook_url": webhook_url} if webhook_url else {})}
    r = client.post("/players", json=body)
    assert r.status_code == 201, r.json
    return r.json


def new_game(client, *, time_control: dict | None = None, players: list[dict] | None = None,
             form: str = "duel", seed: str = "workers") -> dict:
    players = players or [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]
    body = {"form": form, "seed": seed, "players": players}
    if time_control:
        body["time_control"] = time_control
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.json
    return r.json


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
