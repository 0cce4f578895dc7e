"""A guest's pages log nothing in red: the lobby, a new game and the account link load without a
single console error (a guest has no session, so the page does not ask who is signed in). Then
the guest signs up, and the game made as a guest is the account's, listed for every device."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from .test_people import sign


def test_a_guest_sees_no_console_error_from_lobby_to_game_and_keeps_it_on_signing_up(page, live_server, shot):
    failures: list[str] = []
    page.on("console", lambda m: failures.append(m.text) if m.type == "error" else None)

    page.goto(live_server.url + "/")
    expect(page.locator("#account-link")).to_have_text("Sign in")
    page.click("#create-game")
    page.wait_for_url(re.compile(r"/play/[0-9a-f]+$"))
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"), timeout=30_000)
    shot("guest-game")
    assert failures == [], f"console errors: {failures}"

    game_id = page.url.rsplit("/", 1)[1]
    name = f"gus{uuid.uuid4().hex[:6]}"
    sign(page, live_server.url, name, "#sign-up-button")
    mine = page.request.get(live_server.url + "/players/me/games").json()["games"]     # what every device reads
    assert [g["id"] for g in mine] == [game_id] and mine[0]["opponents"][0].startswith("Computer")
    page.set_viewport_size({"width": 390, "height": 844})     # the signed-in lobby fits a phone's width
    expect(page.locator("#waiting-games")).to_have_text("Your turn in 1 game")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot("signed-in-lobby-phone")
