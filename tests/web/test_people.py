"""People in a real Chromium: two sign up in two browser contexts, one opens a table, the other finds
it in the lobby and joins, they chat and play a few moves; the first signs in from a fresh context
and finds the game and the chat; a third context watches and chats with the spectators."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from .conftest import NOTIFICATION_STUB, TIMEOUT_MS

PASSWORD = "correct horse battery"


def new_page(browser, width: int = 1280, height: int = 900):
    """A fresh context and its page (a touch phone below 500 px wide), JavaScript errors kept in page.errors."""
    phone = width < 500
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone, locale="en-GB")
    ctx.add_init_script(NOTIFICATION_STUB)
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return ctx, page


def sign(page, url: str, name: str, button: str) -> None:
    page.goto(url + "/")
    page.fill("[name=account-name]", name)
    page.fill("[name=account-password]", PASSWORD)
    page.click(button)
    expect(page.locator("#signed-in")).to_contain_text(name)


def say(page, channel: str, text: str) -> None:
    page.fill(f"[name=chat-{channel}-text]", text)
    page.locator(f'.chat[data-channel="{channel}"] button[type=submit]').click()


def test_two_people_meet_in_the_lobby_play_chat_and_come_back_and_a_spectator_chats(browser, live_server):
    ann_name, bob_name, cid_name = (f"{n}{uuid.uuid4().hex[:6]}" for n in ("ann", "bob", "cid"))
    contexts = []
    try:
        ann_ctx, ann = new_page(browser)
        bob_ctx, bob = new_page(browser)
        contexts += [ann_ctx, bob_ctx]
        sign(ann, live_server.url, ann_name, "#sign-up-button")
        sign(bob, live_server.url, bob_name, "#sign-up-button")

        ann.select_option("#table-form", "duel")
        ann.select_option("[name=table-clock]", "move:86400")
        ann.click("#open-table-button")
        row = bob.locator(".table-item", has_text=ann_name)
        expect(row).to_be_visible()                                      # arrived live on Bob's lobby
        row.locator("button.join").click()
        bob.wait_for_url(re.compile(r"/play/[A-Za-z0-9]+$"))
        game_id = bob.url.rsplit("/", 1)[1]
        ann.wait_for_url(re.compile(f"/play/{game_id}$"))                # Ann's lobby saw the table start
        for page in (ann, bob):
            expect(page.locator(".board")).to_be_visible()
            expect(page.locator('.chat[data-channel="players"]')).to_be_visible()
            expect(page.locator('.chat[data-channel="spectators"]')).to_have_count(0)

        say(ann, "players", "Good luck, <b>Bob</b>!")
        expect(bob.locator("#chat-players")).to_contain_text("Good luck, <b>Bob</b>!")     # plain text, live
        assert bob.locator("#chat-players b").count() == 0
        say(bob, "players", "Thanks!")
        expect(ann.locator("#chat-players")).to_contain_text("Thanks!")

        moves = 0
        for _ in range(150):                                             # a few moves, whoever is to play
            for page in (ann, bob):
                confirm = page.locator('#prompt [data-command="end_turn"]')
                if page.locator("#status.your-turn").count() and confirm.count():      # the turn waits to be ended
                    confirm.click()
                    expect(confirm).to_have_count(0)
                    break
                if page.locator("#status.your-turn").count() and page.locator(".sq.legal").count():
                    before = page.locator("#log li").count()
                    # scrolled down to the chat, the pinned status bar once squeezed the board out of its column
                    assert page.locator(".board").bounding_box()["width"] > 400, "the board lost its column"
                    page.locator(".sq.legal").first.click()
                    expect(page.locator("#log li")).not_to_have_count(before)
                    moves += 1
                    break
            else:
                ann.wait_for_timeout(200)                                # the other page hears it on its stream
            if moves >= 3:
                break
        assert moves >= 3

        home_ctx, home = new_page(browser)                               # Ann on another device
        contexts.append(home_ctx)
        sign(home, live_server.url, ann_name, "#sign-in-button")
        home.locator(f'#my-games a[href="/play/{game_id}"]').click()
        expect(home.locator(".board")).to_be_visible()
        expect(home.locator("#chat-players")).to_contain_text("Thanks!")
        expect(home.locator("#chat-players")).to_contain_text("Good luck")

        cid_ctx, cid = new_page(browser)                                 # a spectator
        contexts.append(cid_ctx)
        sign(cid, live_server.url, cid_name, "#sign-up-button")
        expect(cid.locator("#live-games")).to_contain_text(ann_name)
        cid.locator(f'#live-games a[href="/play/{game_id}"]').click()
        expect(cid.locator(".board")).to_be_visible()
        expect(cid.locator('.chat[data-channel="players"]')).to_have_count(0)
        say(cid, "spectators", "What a game")
        expect(cid.locator("#chat-spectators")).to_contain_text("What a game")
        status, got = live_server.call("GET", f"/games/{game_id}/chat?channel=spectators")
        assert status == 200 and [m["text"] for m in got["messages"]] == ["What a game"]

        bob.get_by_role("button", name="Resign…").click()               # the end opens the spectators' chat
        bob.get_by_role("button", name="Yes, resign").click()
        for page in (ann, bob):                                          # to the seats, without a reload
            expect(page.locator("#chat-spectators")).to_contain_text("What a game")
            expect(page.locator('.chat[data-channel="spectators"] .chat-form')).to_have_count(0)
        say(cid, "spectators", "Well played")
        expect(ann.locator("#chat-spectators")).to_contain_text("Well played")       # live, on Ann's stream
        for page in (ann, bob, home, cid):
            assert page.errors == [], page.errors
    finally:
        for ctx in contexts:
            ctx.close()
