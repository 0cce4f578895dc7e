"""At the table as on Board Game Arena (issue 20): the status bar, the board and the hand in view
at every decision, at two desktop sizes and on a phone; a card selected by a click on it; a misclick
explained; the end of the turn waiting for the player's confirmation, with undo open until then.

Ann plays by clicks (taps on the phone); Bob, a guest, is played through the API so that nothing
moves unless the test says so. The games start near the point through `setup`.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import sized_page

ANN_BOB = [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "southern"}]
# The Swordmaster fits on d5 (Ann's commons on d4 and d6) and may then destroy Bob's common on c4.
SWORDMASTER = {"board": [{"square": "d4", "seat": 0, "rank": "common"}, {"square": "d6", "seat": 0, "rank": "common"},
                         {"square": "c4", "seat": 1, "rank": "common"}, {"square": "g5", "seat": 1, "rank": "common"}],
               "hands": {"0": ["northern-swordmaster", "northern-herald", "flares-04"]},
               "turn": {"seat": 0, "actions_left": 2}}
SIZES = [(1280, 800), (1366, 768), (390, 844)]


def square(page, sq: str):
    return page.locator(f'.sq[data-square="{sq}"]')


def in_view(page, selector: str) -> None:
    """The element's whole bounding box lies inside the viewport (as the page is scrolled now)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None, f"{selector} is not shown"
    assert box["x"] >= -0.5 and box["y"] >= -0.5, f"{selector} starts off screen: {box}"
    assert box["x"] + box["width"] <= size["width"] + 0.5, f"{selector} runs off the right edge: {box}"
    assert box["y"] + box["height"] <= size["height"] + 0.5, f"{selector} runs below the fold: {box} in {size}"


def apart(page, first: str, second: str) -> None:
    """The two elements' boxes do not overlap (the hand drawer never covers the board)."""
    a, b = page.locator(first).first.bounding_box(), page.locator(second).first.bounding_box()
    assert (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
            or a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5), f"{first} {a} overlaps {second} {b}"


def decision(page, shot, name: str) -> None:
    """At a decision: the status bar, the whole board and the hand all in view, none covering
    another; a screenshot of the screen. Measured after two frames: the board is fitted to the
    status bar by a ResizeObserver, whose callback runs before the next paint, not at once."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    for selector in ("#status-bar", ".board", "#hand"):
        in_view(page, selector)
    apart(page, "#status-bar", ".board")
    apart(page, "#hand", ".board")
    shot(name, full_page=False)


def act(page, sq: str, touch: bool) -> None:
    """A click, or on a touch screen a tap (a second tap where the first only showed what it affects)."""
    if not touch:
        square(page, sq).click()
        return
    square(page, sq).tap()
    if "armed" in (square(page, sq).get_attribute("class") or ""):
        square(page, sq).tap()


@pytest.mark.parametrize("width,height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_decision_in_view_a_card_click_a_misclick_explained_and_the_turn_end_confirmed(browser, live_server, width, height):
    with sized_page(browser, width, height, "table") as (page, shot, touch):
        created = live_server.create({"form": "duel", "players": ANN_BOB, "setup": SWORDMASTER, "seed": "table"})
        game_id, ann, bob = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
        page.goto(f"{live_server.url}/play/{game_id}#token={ann}")
        expect(page.locator("#stream-status")).to_have_text("Live")
        expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
        expect(page.locator("#confirm-turn-end")).to_be_checked()
        # the page asked for the confirmation on Ann's seat when it opened (the seat's own option)
        live_server.wait_for(game_id, lambda v: v["seats"][0]["confirm_turn_end"], timeout=10)
        expect(page.locator(".game-title")).to_contain_text("Ann vs Bob")
        decision(page, shot, "turn-start")

        # a click on the card itself (not its button) selects it; its square lights up. On the phone
        # the closed hand drawer names the cards, and a tap on a name does the same.
        card = page.locator('#hand .card[data-card="northern-swordmaster"]')
        if touch:
            page.locator('#hand [data-chip="northern-swordmaster"]').tap()
            expect(page.locator('#hand [data-chip="northern-swordmaster"]')).to_have_class(re.compile("selected"))
        else:
            card.locator(".card-summary").click()
        expect(card).to_have_class(re.compile("selected"))
        expect(page.locator("#prompt")).to_contain_text("Summon Swordmaster: choose a highlighted square")
        expect(square(page, "d5")).to_have_class(re.compile("legal"))
        decision(page, shot, "card-selected")

        # a misclick says why, and keeps the card selected
        act(page, "h5", touch)
        expect(page.locator("#misclick")).to_contain_text("Swordmaster cannot be summoned")
        expect(card).to_have_class(re.compile("selected"))
        decision(page, shot, "misclick-explained")

        act(page, "d5", touch)
        expect(page.locator("#prompt")).to_contain_text("Choose a piece to destroy")
        expect(page.locator("#misclick")).to_be_hidden()
        decision(page, shot, "effect-choice")
        act(page, "c4", touch)
        expect(square(page, "c4")).to_have_attribute("data-piece", "")

        act(page, "e5", touch)                                   # the second action: a common piece
        expect(square(page, "e5")).to_have_attribute("data-piece", "0-common")
        # the turn waits for Ann: Bob is not to play yet, and Undo is still there
        expect(page.locator('#prompt [data-command="end_turn"]')).to_have_text("Confirm: end my turn")
        expect(page.locator("#undo-btn")).to_be_visible()
        assert live_server.view(game_id, bob)["active_seat"] == 0
        decision(page, shot, "confirm-turn-end")

        page.locator("#undo-btn").tap() if touch else page.locator("#undo-btn").click()    # undo stays open
        expect(square(page, "e5")).to_have_attribute("data-piece", "")
        act(page, "f5", touch)
        expect(square(page, "f5")).to_have_attribute("data-piece", "0-common")
        confirm = page.locator('#prompt [data-command="end_turn"]')
        confirm.tap() if touch else confirm.click()
        expect(page.locator("#status")).to_contain_text("Bob to play")
        assert live_server.view(game_id, bob)["active_seat"] == 1
        expect(page.locator("#undo-btn")).to_have_count(0)
        decision(page, shot, "waiting-for-bob")


# The Assassin lands on e5 either way round: one way marks Ann's own piece on d4, the other Bob's on f4.
OWN_TARGET = {"board": [{"square": s, "seat": 0, "rank": "common"} for s in ("d2", "c3", "b4", "h4", "g3", "f2", "d4")]
              + [{"square": "f4", "seat": 1, "rank": "heroic"}],
              "hands": {"0": ["northern-assassin"]}, "turn": {"seat": 0, "actions_left": 2}}


def test_a_choice_that_destroys_your_own_piece_asks_first(page, live_server, shot):
    created = live_server.create({"form": "duel", "players": ANN_BOB, "setup": OWN_TARGET})
    page.goto(f"{live_server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.locator('#hand .card[data-card="northern-assassin"] .card-summary').click()
    square(page, "e5").click()
    page.locator('#prompt button[data-command="choose"]', has_text="d4").click()
    expect(page.locator("#capture-warning")).to_have_text("This destroys your own piece on d4. Do it anyway?")
    expect(square(page, "d4")).to_have_attribute("data-piece", "0-common")          # nothing sent yet
    shot("own-piece-warning", full_page=False)
    page.click("#capture-no")
    page.locator('#prompt button[data-command="choose"]', has_text="f4").click()     # the enemy: no question
    expect(square(page, "f4")).to_have_attribute("data-piece", "")
    expect(square(page, "d4")).to_have_attribute("data-piece", "0-common")
