"""Everyone can play (issue 25 points 5, 6 and 8): a whole game against the computer by keyboard
alone, and another through the accessibility tree alone (what a screen reader reads and the keys it
sends: get_by_role and the keyboard, no CSS selector for any action), each started near its end
through `setup`. axe-core checks every page on the way (home, lobby, game at each kind of decision,
the keys' help, replay, profile and account) for serious or critical violations.

Ann holds the Swordmaster, which fits on d5 between her commons on d4 and d6 and may then destroy
Bob's common on c4; the decks are empty, so Ann's first turn starts the final round: she plays,
the computer plays once, she plays again and the game is over.
"""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from .axe import no_serious_violations
from .conftest import Shots
from .test_people import new_page

NEAR_THE_END = {"board": [{"square": "d4", "seat": 0, "rank": "common"}, {"square": "d6", "seat": 0, "rank": "common"},
                          {"square": "c4", "seat": 1, "rank": "common"}, {"square": "g5", "seat": 1, "rank": "common"}],
                "decks": {"0": [], "1": []}, "hands": {"0": ["northern-swordmaster"]}, "turn": {"seat": 0, "actions_left": 2}}
PLAYERS = [{"name": "Ann", "school": "northern"}, {"name": "Computer", "school": "southern", "bot": True}]


def _focused_square(page) -> str:
    return page.evaluate("() => document.activeElement.closest('.sq')?.dataset.square || ''")


def _key_to_square(page, target: str) -> None:
    """From the focused square to `target` with the arrow keys only (the board skips cut corners)."""
    for _ in range(20):
        here = _focused_square(page)
        if here == target:
            return
        (fx, fy), (tx, ty) = (("abcdefghi".index(q[0]), int(q[1])) for q in (here, target))
        page.keyboard.press("ArrowRight" if tx > fx else "ArrowLeft" if tx < fx else "ArrowDown" if ty > fy else "ArrowUp")
    raise AssertionError(f"the arrows did not reach {target} (at {_focused_square(page)})")


def test_a_whole_game_by_keyboard_alone_against_the_computer(browser, live_server):
    ctx, page = new_page(browser, 1280, 900)
    shot = Shots(page, "keyboard-game")
    try:
        page.goto(live_server.url + "/")
        expect(page.get_by_role("button", name="Play the computer")).to_be_visible()
        no_serious_violations(page, "home")
        created = live_server.create({"form": "duel", "players": PLAYERS, "setup": NEAR_THE_END})
        game_id = created["id"]
        page.goto(f"{live_server.url}/play/{game_id}#token={created['seats'][0]['token']}")
        status = page.locator("#status")
        expect(status).to_have_text(re.compile("Your turn"))
        expect(page.get_by_text("Live", exact=True)).to_be_visible()        # the page follows the game: keys work

        page.keyboard.press("?")                                          # the keys, listed
        keys = page.get_by_role("dialog", name="Keys")
        expect(keys).to_be_visible()
        expect(keys).to_contain_text("End your turn")
        shot("keys-help", full_page=False)
        no_serious_violations(page, "game-keys-help")
        page.keyboard.press("Escape")
        expect(keys).to_be_hidden()
        no_serious_violations(page, "game-your-turn")

        page.keyboard.press("h")                                          # the hand: Enter selects the card
        expect(page.get_by_role("button", name="Summon Swordmaster")).to_be_focused()
        page.keyboard.press("Enter")
        assert _focused_square(page) == "d5"                              # the board, on the only place it fits
        shot("summon-focus", full_page=False)
        no_serious_violations(page, "game-summon")
        page.keyboard.press("Enter")
        expect(status).to_have_text(re.compile("destroy", re.I))           # the Swordmaster's choice
        no_serious_violations(page, "game-choice")
        page.keyboard.press("b")
        _key_to_square(page, "c4")
        page.keyboard.press("Enter")
        expect(page.locator('.sq[data-square="c4"]')).to_have_attribute("data-piece", "")
        expect(status).to_have_text(re.compile("1 action left"))

        page.keyboard.press("b")
        _key_to_square(page, "f5")
        page.keyboard.press("Enter")
        expect(page.locator('.sq[data-square="f5"]')).to_have_attribute("data-piece", "0-common")
        shot("confirm-end", full_page=False)
        no_serious_violations(page, "game-confirm-end")
        page.keyboard.press("e")                                          # the turn's end, confirmed
        expect(status).to_have_text(re.compile("Your turn · 2 actions"), timeout=60_000)     # the computer has played

        for undo in (True, False, False):          # B goes to the first square where a piece can go; U takes it back
            page.keyboard.press("b")
            target = _focused_square(page)
            page.keyboard.press("Enter")
            expect(page.locator(f'.sq[data-square="{target}"]')).to_have_attribute("data-piece", "0-common")
            if undo:
                page.keyboard.press("u")
                expect(page.locator(f'.sq[data-square="{target}"]')).to_have_attribute("data-piece", "")
        page.keyboard.press("e")
        expect(status).to_have_text(re.compile("Game over"))
        shot("over", full_page=False)
        no_serious_violations(page, "game-over")

        page.keyboard.press("l")                                          # the log; ← replays the moves
        page.keyboard.press("ArrowLeft")
        expect(status).to_have_text(re.compile("Replay"))
        shot("replay", full_page=False)
        no_serious_violations(page, "replay")

        page.keyboard.press("?")                                          # the one-letter keys turned off
        expect(page.get_by_role("checkbox", name=re.compile("Use the one-letter keys"))).to_be_focused()
        page.keyboard.press("Space")
        page.keyboard.press("Escape")
        page.keyboard.press("b")
        assert _focused_square(page) == ""
        assert page.errors == []
    finally:
        ctx.close()


def _say(page, text: str, expected: str | re.Pattern) -> str:
    """Type into the command box, press Enter, and read the answer (the Answers log region)."""
    box = page.get_by_role("textbox", name="Command")
    box.fill(text)
    box.press("Enter")
    answers = page.get_by_role("log", name="Answers")
    expect(answers).to_contain_text(expected)
    return answers.inner_text()


def _until_said(page, text: str, expected: str, timeout_s: float = 60) -> None:
    """Ask again every half second until the answer says `expected` (the computer is thinking)."""
    for _ in range(int(timeout_s * 2)):
        box = page.get_by_role("textbox", name="Command")
        box.fill(text)
        box.press("Enter")
        if expected in page.get_by_role("log", name="Answers").inner_text():
            return
        page.wait_for_timeout(500)
    raise AssertionError(f"“{text}” never answered “{expected}”")


def test_a_whole_game_in_words_through_the_accessibility_tree_on_a_phone(browser, live_server):
    ctx, page = new_page(browser, 390, 844)
    shot = Shots(page, "words-game")
    try:
        name = f"ann{uuid.uuid4().hex[:6]}"
        page.goto(live_server.url + "/")                                   # signed up: lobby, account, profile
        signing = page.get_by_role("form", name="Sign in or sign up")
        signing.get_by_label("Name").fill(name)
        signing.get_by_label("Password").fill("correct horse battery")
        signing.get_by_role("button", name="Sign up").click()
        expect(page.get_by_role("link", name="profile")).to_be_visible()
        no_serious_violations(page, "lobby-phone")
        page.goto(live_server.url + "/account")
        expect(page.get_by_role("link", name="Your public profile")).to_be_visible()
        no_serious_violations(page, "account-phone")
        page.get_by_role("link", name="Your public profile").click()
        expect(page.get_by_role("heading", name=re.compile(name))).to_be_visible()
        no_serious_violations(page, "profile-phone")

        created = live_server.create({"form": "duel", "players": PLAYERS, "setup": NEAR_THE_END})
        page.goto(f"{live_server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
        expect(page.get_by_text("Live", exact=True)).to_be_attached()
        _say(page, "status", "Your turn · 2 actions left")
        _say(page, "board", "Your pieces (blue): common on d4 and d6. Computer’s pieces (red): common on c4 and g5.")
        _say(page, "what can I summon?", "Swordmaster on d5")
        said = _say(page, "which squares does the Swordmaster need?", "on d5 it uses")
        assert "d4" in said and "d6" in said, said
        _say(page, "what is on c4?", "c4, Computer’s common piece (red)")
        _say(page, "summon swordmaster on d5", "sent")
        expect(page.get_by_role("log", name="Announcements")).to_contain_text("Swordmaster")
        said = _say(page, "what can I do?", "c4")
        assert "Skip" in said, said
        shot("choice")
        no_serious_violations(page, "game-phone-choice")
        _say(page, "choose c4", "sent")
        _until_said(page, "what is on c4?", "c4, empty", 10)
        _say(page, "place", "Which one?")
        _say(page, "1", "sent")
        _until_said(page, "status", "Your turn · 0 actions left", 10)
        _say(page, "end turn", "sent")
        _until_said(page, "status", "Your turn · 2 actions left")           # the computer has played
        for left in ("1 action left", "0 actions left"):
            _say(page, "place", "Which one?")
            _say(page, "1", "sent")
            _until_said(page, "status", left, 10)
        _say(page, "end turn", "sent")
        _until_said(page, "status", "Game over", 20)
        shot("over")
        no_serious_violations(page, "game-phone-over")
        assert page.errors == []
    finally:
        ctx.close()
