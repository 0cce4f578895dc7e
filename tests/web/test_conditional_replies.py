"""A conditional reply built on the board while the other player moves (issue 24.1): Ann, waiting,
builds "if they do anything, then I place on e5 and f5" by clicking the board, queues it, and sees
it played for her when Bob's turn ends (marked in the log), with why each reply did or did not play.
Bob is played through the API. At a desktop size and on a phone."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import sized_page

PLAYERS = [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "southern"}]
BOBS_TURN = {"board": [{"square": "d4", "seat": 0, "rank": "common"}, {"square": "g5", "seat": 1, "rank": "common"}],
             "hands": {"0": ["northern-swordmaster", "northern-herald", "flares-04"]},
             "turn": {"seat": 1, "actions_left": 2}}


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_a_reply_built_on_the_board_is_played_when_the_turn_comes(browser, live_server, width, height):
    with sized_page(browser, width, height, "replies") as (page, shot, touch):
        created = live_server.create({"form": "duel", "players": PLAYERS, "setup": BOBS_TURN, "seed": "replies"})
        game_id, ann, bob = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
        page.goto(f"{live_server.url}/play/{game_id}#token={ann}")
        expect(page.locator("#stream-status")).to_have_text("Live")
        page.click("#new-reply")
        expect(page.locator("#reply-builder")).to_contain_text("Click a marked square on the board")
        for sq in ("e5", "f5"):
            cell = page.locator(f'.sq[data-square="{sq}"]')
            expect(cell).to_have_class(re.compile("legal"))
            cell.tap() if touch else cell.click()
            expect(page.locator("#reply-then")).to_contain_text(f"Ann places on {sq}")
        page.locator("#reply-options button", has_text="end turn").click()      # the seat confirms its turn's end
        expect(page.locator("#reply-builder")).to_contain_text("That is your whole turn.")
        expect(page.locator('.sq[data-square="e5"]')).to_have_attribute("data-piece", re.compile("^0-"))   # rehearsed
        page.locator("#reply-builder").scroll_into_view_if_needed()
        shot("built", full_page=False)
        page.click("#reply-queue")
        expect(page.locator("#replies-list")).to_contain_text("If they do anything: Ann places on e5; Ann places on f5; Ann: end turn")
        expect(page.locator('.sq[data-square="e5"]')).to_have_attribute("data-piece", "")               # live again
        shot("queued", full_page=False)

        for sq in ("c5", "c6"):
            status, answer = live_server.call("POST", f"/games/{game_id}/commands", {"type": "place", "square": sq}, token=bob)
            assert status == 200, answer
        expect(page.locator("#replies-told")).to_contain_text("Reply 1: played.")
        expect(page.locator('.sq[data-square="e5"]')).to_have_attribute("data-piece", re.compile("^0-"))
        expect(page.locator("#log .tag-conditional").first).to_be_visible()
        page.locator("#replies").scroll_into_view_if_needed()
        shot("played", full_page=False)
