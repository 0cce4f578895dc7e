"""The desk in a real Chromium, at desktop and phone sizes: a signed-in player's games in the desk's
order, one click to the next game waiting, the header's link on to the one after, and the games
looked at no longer marked as changed; the desk following an opponent's move live; a private note
written beside the game."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from .conftest import NOTIFICATION_STUB, TIMEOUT_MS, Shots

PASSWORD = "correct horse battery"


def _signed_up(browser, viewport: dict):
    ctx = browser.new_context(viewport=viewport, locale="en-GB")
    ctx.add_init_script(NOTIFICATION_STUB)
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx


def _game(ctx, url: str, me: dict, tc: dict, opponent: str, first: bool) -> tuple[str, str]:
    csrf = next(c["value"] for c in ctx.cookies() if c["name"] == "arena_csrf")
    seats = [{"name": opponent, "school": "northern"}, {"name": me["name"], "school": "sylvan", "player": me["id"]}]
    made = ctx.request.post(url + "/games", headers={"X-CSRF-Token": csrf},
                            data={"form": "duel", "time_control": tc, "players": seats if first else seats[::-1]})
    assert made.status == 201, made.text()
    return made.json()["id"], next(s["token"] for s in made.json()["seats"] if s["name"] == opponent)


def test_the_desk_orders_my_games_and_takes_me_to_the_next_one_waiting(browser, live_server):
    ctx = _signed_up(browser, {"width": 1280, "height": 900})
    phone = None
    try:
        name = f"desk{uuid.uuid4().hex[:6]}"
        me = ctx.request.post(live_server.url + "/accounts", data={"name": name, "password": PASSWORD}).json()
        day, _ = _game(ctx, live_server.url, me, {"kind": "move", "seconds": 86400}, "Bob", True)
        hour, _ = _game(ctx, live_server.url, me, {"kind": "move", "seconds": 3600}, "Cy", True)
        theirs, dee = _game(ctx, live_server.url, me, {"kind": "move", "seconds": 86400}, "Dee", False)
        page = ctx.new_page()
        shot = Shots(page, "desk")
        page.goto(live_server.url + "/desk")
        expect(page.locator(".desk-your_turn .game-item")).to_have_count(2)
        order = page.locator(".desk .game-item").evaluate_all("els => els.map(e => e.dataset.game)")
        assert order == [hour, day, theirs]                            # the least time left first
        expect(page.locator(".desk-your_turn .changed-dot")).to_have_count(2)       # never looked at
        expect(page.locator(".desk-waiting")).to_contain_text("Dee to play")
        shot("desktop")
        _, legal = live_server.call("GET", f"/games/{theirs}/legal", token=dee)      # Dee plays: the desk follows live
        live_server.call("POST", f"/games/{theirs}/commands", next(c for c in legal["commands"] if c["type"] != "resign"), token=dee)
        expect(page.locator(f'.desk-your_turn [data-game="{theirs}"]')).to_have_count(1)

        page.select_option("select[name=opponent]", "Cy")               # a filter, kept in the address
        expect(page.locator(".desk .game-item")).to_have_count(1)
        assert page.url.endswith("/desk?opponent=Cy")
        page.select_option("select[name=opponent]", "")

        page.click("#next-game")                                         # one click: the most urgent game
        page.wait_for_url(re.compile(f"/play/{hour}$"))
        expect(page.locator(".board")).to_be_visible()
        page.fill("#notes textarea", "Cy opens on the left")                # private notes beside the game
        page.click("#save-notes")
        expect(page.locator(".notes-status")).to_have_text("Saved")
        page.locator("#notes").scroll_into_view_if_needed()
        shot("game-notes", full_page=False)
        expect(page.locator("#waiting-games")).to_have_attribute("href", f"/play/{day}")   # and on from there

        phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB", is_mobile=True,
                                    storage_state=ctx.storage_state())
        small = phone.new_page()
        small.set_default_timeout(TIMEOUT_MS)
        small.goto(live_server.url + "/desk")
        expect(small.locator("#next-game")).to_be_in_viewport()
        expect(small.locator(f'[data-game="{hour}"] .changed-dot')).to_have_count(0)     # looked at now
        width = small.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the desk is {width} px wide on a phone"
        Shots(small, "desk")("phone", full_page=False)
        small.click("#next-game")
        small.wait_for_url(re.compile(f"/play/{hour}$"))
        expect(small.locator("#notes textarea")).to_have_value("Cy opens on the left")
    finally:
        ctx.close()
        if phone is not None:
            phone.close()
