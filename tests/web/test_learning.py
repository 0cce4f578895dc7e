"""Learning to play in the product (issue 20): the rules page one click from a game, and the
tutorial played to its end by clicks, each lesson moving on only once the move it teaches is on
the board."""
from __future__ import annotations

import re

from playwright.sync_api import expect


def square(page, sq: str):
    return page.locator(f'.sq[data-square="{sq}"]')


def lesson(page, n: int) -> None:
    expect(page.locator("#lesson [data-lesson]")).to_have_attribute("data-lesson", str(n), timeout=20_000)


def test_the_rules_are_one_click_from_a_game_and_show_pattern_pictures(page, live_server, shot):
    created = live_server.create({"form": "duel", "players": [{"name": "Ann", "school": "northern"},
                                                              {"name": "Bob", "school": "sylvan"}]})
    page.goto(f"{live_server.url}/play/{created['id']}")
    expect(page.locator("#rules-link")).to_have_attribute("href", "/rules")
    page.goto(live_server.url + "/rules")                    # the link opens a new tab; the same address here
    expect(page.locator("h1")).to_have_text("How to play Tash-Kalar")
    expect(page.locator(".rules-figure svg.pattern")).to_have_count(4)
    expect(page.locator("#summon")).to_contain_text("framed square")
    shot("rules")


def test_the_tutorial_is_completed_by_clicks(page, live_server, shot):
    page.goto(live_server.url + "/rules")
    page.click("#start-tutorial")
    expect(page).to_have_url(re.compile("/learn$"))
    lesson(page, 1)
    shot("lesson-1")
    square(page, "b6").click()                               # any place teaches placing
    lesson(page, 2)
    expect(square(page, "b6")).to_have_attribute("data-piece", "0-common")
    page.locator('#hand .card[data-card="northern-assassin"] .card-summary').click()
    square(page, "e5").click()
    expect(page.locator("#status")).to_contain_text("orientation")
    shot("orientation")
    page.locator('#prompt button[data-command="choose"]', has_text="d4").click()
    lesson(page, 3)
    expect(square(page, "d4")).to_have_attribute("data-piece", "")
    page.click("#undo-btn")                                  # the orientation question comes back
    lesson(page, 4)
    expect(square(page, "d4")).to_have_attribute("data-piece", "1-common")
    shot("after-undo")
    page.locator('#prompt button[data-command="choose"]', has_text="f4").click()
    lesson(page, 5)
    page.locator('#prompt [data-command="end_turn"]').click()
    lesson(page, 7)                                          # the Tutor's turn went by (lesson 6)
    expect(page.locator('.seat[data-seat="0"] .score')).to_contain_text("1")
    expect(page.locator('[data-score-why="0"]')).to_have_text("scored 1 for destroyed pieces")
    page.locator('#hand .card[data-card="flares-00"] .card-body').click()
    page.locator("#prompt button", has_text="Invoke").first.click()
    page.locator(".sq.legal").first.click()
    lesson(page, 8)
    for left in ("1 action left", "0 actions left"):
        page.locator(".sq.legal").first.click()
        expect(page.locator("#status")).to_contain_text(left)
    page.locator('#prompt [data-command="end_turn"]').click()
    expect(page.locator("#tutorial-done")).to_be_visible(timeout=20_000)
    shot("done")
