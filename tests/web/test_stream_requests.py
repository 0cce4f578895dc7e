"""What a page following a game asks the server for each streamed event: it applies the stream's
news by one request for what changed (GET /games/{id}/changes), not by fetching the game, its
legal commands, its moves and its log again. Counted in real Chromium; the figures are printed."""
from __future__ import annotations

import time

from playwright.sync_api import expect

from .test_play import open_seat

COMMANDS = 8
PEOPLE = [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]


def play_one(server, game_id: str, tokens: list[str]) -> int:
    """The seat to act sends its first listed command (not a resignation or an undo); the version after."""
    view = server.view(game_id)
    seat = view["active_seat"]
    _, legal = server.call("GET", f"/games/{game_id}/legal", token=tokens[seat])
    command = next(c for c in legal["commands"] if c["type"] not in ("resign", "undo", "redo"))
    command = {k: v for k, v in command.items() if k != "squares"}
    status, answer = server.call("POST", f"/games/{game_id}/commands", command, token=tokens[seat])
    assert status == 200, answer
    return answer["version"]


def test_each_streamed_change_costs_the_page_one_request(page, live_server):
    created = live_server.create({"form": "duel", "players": PEOPLE})
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    asked: list[str] = []
    seen = {"version": 0}
    page.on("request", lambda r: asked.append(r.url) if f"/games/{game_id}" in r.url and "/stream" not in r.url
            else None)

    def answered(response) -> None:
        if f"/games/{game_id}" in response.url and "/stream" not in response.url and response.ok:
            try:
                body = response.json()
            except Exception:               # noqa: BLE001 - an SVG or an empty answer
                return
            seen["version"] = max(seen["version"], body.get("version", 0) if isinstance(body, dict) else 0)
    page.on("response", answered)
    open_seat(page, live_server, game_id, tokens[0])
    start = live_server.view(game_id)["version"]
    deadline = time.monotonic() + 30
    while seen["version"] < start and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    asked.clear()
    version = start
    for _ in range(COMMANDS):
        version = play_one(live_server, game_id, tokens)
        while seen["version"] < version and time.monotonic() < deadline + 60:
            page.wait_for_timeout(20)                   # the page caught up with this command
    expect(page.locator("#stream-status")).to_have_text("Live")
    events = version - start
    per_event, per_command = len(asked) / events, len(asked) / COMMANDS
    kinds = sorted({u.split(game_id, 1)[1].split("?")[0] or "/" for u in asked})
    print(f"\nstreamed: {COMMANDS} commands, {events} events; the page made {len(asked)} requests: "
          f"{per_event:.2f} per streamed event, {per_command:.2f} per command ({', '.join(kinds)})")
    assert per_command <= 2.0, asked
    _, log = live_server.call("GET", f"/games/{game_id}/log", token=tokens[0])       # what a fresh page shows
    shown = page.eval_on_selector_all("#log li", "els => els.map(e => [Number(e.dataset.version), e.innerText])")
    assert [v for v, _ in shown] == [line["version"] for line in log["lines"]]
    _, moves = live_server.call("GET", f"/games/{game_id}/moves", token=tokens[0])
    page.reload()                                       # the same page opened afresh shows the same log
    expect(page.locator("#log li")).to_have_count(len(log["lines"]))
    assert len(moves["moves"]) > COMMANDS // 2
