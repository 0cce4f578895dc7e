"""A bot account end to end: `arena bot` runs as a process of its own with the bot account's token
and nothing but the public API; a person invites it, a whole game is played (from near its end),
the bot greets in the chat, it never reads what its seat may not, and the page shows it as BOT."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid

from playwright.sync_api import expect

from .conftest import ROOT

# empty school decks: the end comes after Ann's turn, the bot's turn, and Ann's next turn
NEAR_THE_END = {"board": "5/7/9/9/9/9/9/7/5", "decks": {"0": [], "1": []}, "hands": {"0": ["northern-herald"]},
                "scores": {"0": 2}, "turn": {"seat": 0, "actions_left": 2}}


def _until(check, what: str, seconds: float = 30.0):
    end = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < end, f"not within {seconds} s: {what}"
        time.sleep(0.1)
    return found


def test_a_person_invites_a_bot_account_that_plays_a_whole_game_through_the_api(page, live_server, shot, tmp_path):
    call = live_server.call
    status, robo = call("POST", "/players", {"name": "Robo"})
    assert status == 201
    status, upgraded = call("POST", "/accounts/me/bot", {"irreversible": True}, token=robo["token"])
    assert (status, upgraded["title"]) == (200, "BOT"), upgraded
    _, ann = call("POST", "/players", {"name": "Ann"})
    log = open(tmp_path / "bot.log", "w")
    bot = subprocess.Popen([sys.executable, "-m", "server.cli", "bot", "--server", live_server.url,
                            "--token", robo["token"], "--level", "1", "--poll", "1"],
                           cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=log, stderr=subprocess.STDOUT)
    try:
        created = live_server.create({"form": "duel", "setup": NEAR_THE_END, "players": [
            {"name": "Ann", "school": "northern", "player": ann["id"]},
            {"name": "Robo", "school": "sylvan", "player": robo["id"]}]}, token=ann["token"])
        game_id, ann_seat = created["id"], created["seats"][0]["token"]
        _until(lambda: call("GET", f"/games/{game_id}")[1].get("status") == "playing", "the bot accepted")
        view = live_server.view(game_id)
        assert view["rated"] is False and view["players"][1]["name"] == "BOT Robo"

        # what the bot's token can read: its own seat's view, never Ann's hand nor her seat's token
        for path in (f"/games/{game_id}", f"/games/{game_id}/events", f"/games/{game_id}/legal"):
            status, seen = call("GET", path, token=robo["token"])
            assert status == 200
            assert "northern-herald" not in json.dumps(seen) and ann_seat not in json.dumps(seen), path
        assert call("POST", f"/games/{game_id}/commands", {"type": "place", "square": "e5", "seat": 0},
                    token=robo["token"])[0] == 403

        def ann_plays() -> None:
            """Ann's turn: two common pieces (and the confirmation of her turn's end, if her table asks for it)."""
            while live_server.view(game_id)["active_seat"] == 0:
                legal = call("GET", f"/games/{game_id}/legal", token=ann_seat)[1]["commands"]
                command = next((c for c in legal if c["type"] in ("place", "end_turn")), legal[0])
                assert call("POST", f"/games/{game_id}/commands", command, token=ann_seat)[0] == 200

        ann_plays()
        live_server.wait_for(game_id, lambda v: v["active_seat"] == 0 or v["status"] == "finished")     # the bot's turn
        ann_plays()
        assert live_server.view(game_id)["status"] == "finished"
        bots_moves = [m for m in call("GET", f"/games/{game_id}/moves")[1]["moves"] if m["seat"] == 1]
        assert bots_moves, "the bot played its turn"
        chat = _until(lambda: call("GET", f"/games/{game_id}/chat?channel=players", token=ann_seat)[1]["messages"],
                      "the bot's greeting")
        assert chat[0]["name"] == "BOT Robo" and "computer player" in chat[0]["text"]

        page.goto(f"{live_server.url}/play/{game_id}#token={ann_seat}")          # the finished game, as Ann
        seat = page.locator('.seat[data-seat="1"]')
        expect(seat.locator(".seat-name")).to_have_text("BOT Robo")
        expect(seat.locator(".tag-title")).to_have_text("bot account")
        expect(page.locator("#chat-players .chat-name").first).to_have_text("BOT Robo")
        shot("finished")
    finally:
        bot.terminate()
        bot.wait(timeout=15)
        log.close()


def test_the_owner_turns_a_new_account_into_a_bot_account_on_the_account_page(browser, live_server):
    from .conftest import Shots
    from .test_people import new_page, sign
    name = f"robo{uuid.uuid4().hex[:6]}"
    ctx, page = new_page(browser)
    try:
        sign(page, live_server.url, name, "#sign-up-button")
        page.goto(live_server.url + "/account")
        page.get_by_role("button", name="Make this a bot account…").click()
        page.get_by_role("button", name="Yes, for good").click()
        expect(page.locator("#bot-status")).to_contain_text("This is a bot account")
        Shots(page, "bot-account")("account")
        assert page.request.get(f"{live_server.url}/accounts/me").json()["bot"] is True
        page.goto(f"{live_server.url}/profile/{name}")
        expect(page.locator("#profile h1")).to_have_text(f"BOT {name}")
        assert page.errors == []
    finally:
        ctx.close()
