"""Playing the computer in a real browser: choosing its level, seeing it, and asking for a hint."""
from __future__ import annotations

import re

from playwright.sync_api import expect


def test_choose_the_computers_level_see_it_on_its_seat_and_ask_for_a_hint(page, live_server, shot):
    page.goto(live_server.url + "/")
    page.select_option("#form-select", "duel")
    page.locator('.seat-row[data-seat="0"] [name=name]').fill("Ann")
    expect(page.locator('.seat-row[data-seat="1"] [name=by]')).to_have_value("bot")
    page.locator('.seat-row[data-seat="1"] [name=level]').select_option("2")
    page.click("#create-game")
    page.wait_for_url(re.compile(r"/play/[0-9a-f]+$"))
    expect(page.locator('.seat[data-seat="1"] .tag-bot')).to_have_text("computer · level 2")
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"), timeout=30_000)    # it placed the start pieces
    page.click("#hint")
    expect(page.locator(".hint-text")).to_contain_text(re.compile(r"The computer \(level 5\) would (place|summon)"),
                                                       timeout=60_000)
    shot("hint")
