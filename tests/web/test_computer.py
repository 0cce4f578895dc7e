"""Playing the computer in a real browser: choosing its level, seeing it, and asking for a hint."""
from __future__ import annotations

import re
import uuid

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


def test_play_the_computer_now_from_the_home_page_and_find_its_level_in_your_games(page, live_server, shot):
    page.goto(live_server.url + "/")
    form = page.locator("#play-computer")
    expect(form).to_be_in_viewport()                                   # on the first screen
    form.locator("#computer-level").select_option("4")
    shot("play-now")
    form.get_by_role("button", name="Play the computer").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]+$"))
    expect(page.locator('.seat[data-seat="1"] .tag-bot')).to_have_text("computer · level 4")
    page.goto(live_server.url + "/")
    expect(page.locator("#my-games .game-item").first).to_contain_text("vs Computer (computer · level 4)")


def test_a_lobby_table_with_a_place_for_the_computer_at_a_level(browser, live_server):
    from .conftest import Shots
    from .test_people import new_page, sign
    ann_name = f"ann{uuid.uuid4().hex[:6]}"
    ctx, ann = new_page(browser)
    try:
        sign(ann, live_server.url, ann_name, "#sign-up-button")
        ann.select_option("#table-form", "melee")
        ann.select_option("#table-computers", "1")
        ann.select_option("#table-computer-level", "2")
        ann.click("#open-table-button")
        row = ann.locator(".table-item", has_text=ann_name)
        expect(row).to_contain_text("Computer (computer · level 2)")
        expect(row).to_contain_text("casual")
        Shots(ann, "lobby-computer")("table")
        table_id = row.get_attribute("data-table")
        _, bob = live_server.call("POST", "/players", {"name": "Bob"})
        status, joined = live_server.call("POST", f"/lobby/tables/{table_id}/join", {}, token=bob["token"])
        assert status == 200 and joined["status"] == "started", joined
        ann.wait_for_url(re.compile(r"/play/[A-Za-z0-9]+$"))                 # the lobby follows the table's start
        computer = ann.locator(".seat", has=ann.locator(".tag-bot"))
        expect(computer.locator(".tag-bot")).to_have_text("computer · level 2")
        assert ann.errors == []
    finally:
        ctx.close()
