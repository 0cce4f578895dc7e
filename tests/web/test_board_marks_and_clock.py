"""The Deathmatch side's printed marks lie beneath the pieces, and the clock turns to its warning
colour under a fifth of its time (issue 13, points 4 and 7), in a real Chromium with screenshots.

Which element is painted on top is asked of the browser itself (elementFromPoint, with the mark
made hit-testable for the question). The clock is moved on by an injected page clock: Date.now
runs ahead by an offset the test sets, so nothing waits in real time.
"""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .test_play import open_seat, square
from .test_table import ASSASSIN

ANN_BOB = [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]
# A piece on one duel start mark (c5) and the other (g5) left empty; a melee symbol square (f2) taken.
ON_THE_MARKS = {"board": [{"square": "c5", "seat": 0, "rank": "common"}, {"square": "f2", "seat": 1, "rank": "heroic"}],
                "turn": {"seat": 0, "actions_left": 2}}
CLOCK_OFFSET = "window.__clockOffset = 0; { const real = Date.now; Date.now = () => real() + window.__clockOffset; }"
# What is painted at the centre of a square's printed mark (`selector`), the mark made hit-testable.
TOP_AT_MARK = """([square, selector]) => {
  const mark = document.querySelector(`.sq[data-square="${square}"] ${selector}`);
  mark.style.pointerEvents = "all";              // its outline and inside alike
  const box = mark.getBoundingClientRect();
  const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return top === mark ? "mark" : top.closest(".sq-content") ? "piece" : top.getAttribute("class");
}"""

# Whether a square's printed mark comes before its piece in the SVG, which paints in document order.
PAINTED_FIRST = """([square, selector]) => {
  const cell = document.querySelector(`.sq[data-square="${square}"]`);
  const mark = cell.querySelector(selector), piece = cell.querySelector(".piece-body");
  return Boolean(mark.compareDocumentPosition(piece) & Node.DOCUMENT_POSITION_FOLLOWING);
}"""


def test_duel_start_marks_and_melee_symbols_lie_beneath_the_pieces(page, live_server, shot):
    created = live_server.create({"form": "duel", "players": ANN_BOB, "setup": ON_THE_MARKS})
    open_seat(page, live_server, created["id"], created["seats"][0]["token"])
    expect(square(page, "c5")).to_have_attribute("data-piece", "0-common")
    expect(square(page, "c5").locator(".duel-start")).to_have_count(1)
    assert page.evaluate(TOP_AT_MARK, ["g5", ".duel-start"]) == "mark"        # the question sees the marks...
    assert page.evaluate(TOP_AT_MARK, ["c5", ".duel-start"]) == "piece"       # ...and the piece covers its own
    # the melee symbol sits in a corner the piece does not reach: it is painted first all the same
    assert page.evaluate(PAINTED_FIRST, ["f2", ".melee-start"]) and page.evaluate(PAINTED_FIRST, ["c5", ".duel-start"])
    shot("piece-over-duel-mark")


def test_the_clock_turns_to_the_warning_colour_under_a_fifth_of_its_time(context, live_server):
    from tests.web.conftest import Shots
    context.add_init_script(CLOCK_OFFSET)
    page = context.new_page()
    shot = Shots(page, "clock-warning")
    created = live_server.create({"form": "duel", "players": ANN_BOB, "setup": ON_THE_MARKS,
                                  "time_control": {"kind": "move", "seconds": 100}})
    open_seat(page, live_server, created["id"], created["seats"][0]["token"])
    clock = page.locator('.seat .clock[data-clock="0"]')
    expect(clock).to_have_class("clock big running")
    minutes, seconds = clock.inner_text().split(":")
    left = int(minutes) * 60 + int(seconds)                                   # less the time the page took
    page.evaluate(f"window.__clockOffset = {(left - 30) * 1000}")             # about 30 s of 100 left
    expect(clock).to_have_text(re.compile(r"^0:(2[5-9]|3\d)$"))
    expect(clock).to_have_class("clock big running")                         # no warning yet
    page.evaluate(f"window.__clockOffset = {(left - 12) * 1000}")             # about 12 s left: under 20 s
    expect(clock).to_have_class("clock big running low")
    expect(clock).to_have_text(re.compile(r"^0:(0[5-9]|1\d)$"))
    warning = "() => getComputedStyle(document.querySelector('.seat .clock.low')).backgroundColor"   # one JS task:
    assert page.evaluate(warning) == "rgb(200, 67, 43)"                       # the clock is redrawn each second
    shot("desktop")
    page.set_viewport_size({"width": 390, "height": 844})                     # the phone's strip warns too
    expect(page.locator(".strip .clock.low")).to_have_count(1)
    shot("phone", full_page=False)
    page.close()


# A melee where each seat's colours differ: Ann has 5 in red and 7 in yellow.
MELEE_SCORES = {"board": "5/7/9/9/9/9/9/7/5", "scores": {"0": {"1": 5, "2": 7}, "1": {"0": 3, "2": 6}, "2": {"0": 4, "1": 9}},
                "turn": {"seat": 0, "actions_left": 2}}


def test_a_melee_seat_shows_its_weakest_colour_as_the_score_and_its_best_against_the_target(context, live_server):
    from tests.web.conftest import Shots
    page = context.new_page()
    shot = Shots(page, "melee-scores")
    players = [{"name": n, "school": s} for n, s in (("Ann", "northern"), ("Bob", "sylvan"), ("cleo", "southern"))]
    created = live_server.create({"form": "melee", "players": players, "setup": MELEE_SCORES})
    open_seat(page, live_server, created["id"], created["seats"][0]["token"])
    expect(page.locator('.seat[data-seat="0"] .score')).to_have_text("5 · best 7 / 12")
    expect(page.locator('.seat[data-seat="2"] .score')).to_have_text("4 · best 9 / 12")
    expect(page.locator('.seat[data-seat="0"] .by-color .weakest')).to_have_text("Red 5 (weakest)")
    shot("desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator('[data-strip-seat="1"] .strip-score')).to_have_text("3 · best 6/12")
    shot("phone", full_page=False)
    page.close()


def test_on_a_touch_screen_a_first_tap_previews_what_a_summon_and_a_choice_affect_and_a_second_acts(browser, live_server):
    from tests.web.conftest import NOTIFICATION_STUB, Shots
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    ctx.add_init_script(NOTIFICATION_STUB)
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    shot = Shots(page, "touch-preview")
    try:
        created = live_server.create({"form": "duel", "players": ANN_BOB, "setup": ASSASSIN})
        open_seat(page, live_server, created["id"], created["seats"][0]["token"])
        page.locator('#hand [data-chip="northern-assassin"]').tap()           # the card's name in the hand drawer
        expect(page.locator("#prompt").get_by_role("button", name="Cancel", exact=True)).to_be_visible()  # no Esc key
        square(page, "e5").tap()                                            # first tap: shown, not sent
        expect(square(page, "e5")).to_have_class(re.compile("armed"))
        expect(square(page, "d2")).to_have_class(re.compile("pv-pattern"))
        expect(page.locator("#prompt")).to_contain_text("Tap e5 again to confirm")
        expect(square(page, "e5")).to_have_attribute("data-piece", "")
        shot("summon-armed", full_page=False)
        square(page, "e5").tap()                                            # second tap: summoned
        expect(page.locator("#status")).to_contain_text("orientation")
        square(page, "f4").tap()                                            # the choice: f4 shown as affected
        expect(square(page, "f4")).to_have_class(re.compile("pv-affects"))
        expect(square(page, "d4")).not_to_have_class(re.compile("pv-affects"))
        expect(square(page, "f4")).to_have_attribute("data-piece", "1-heroic")
        shot("choice-armed", full_page=False)
        square(page, "d4").tap()                                            # another square: armed there instead
        expect(square(page, "d4")).to_have_class(re.compile("pv-affects"))
        expect(square(page, "f4")).not_to_have_class(re.compile("armed"))
        square(page, "d4").tap()
        expect(square(page, "d4")).to_have_attribute("data-piece", "")
        expect(square(page, "f4")).to_have_attribute("data-piece", "1-heroic")
        expect(page.locator("#prompt")).not_to_contain_text("again to confirm")
    finally:
        ctx.close()


# Each answer to GET .../legal or .../changes waits for the next delay in window.__legalDelays (ms), none once it is empty.
SLOW_LEGAL = """window.__legalDelays = []; { const real = window.fetch;
  window.fetch = async (url, init) => {
    const wait = ["/legal", "/changes"].some((part) => String(url).includes(part)) ? window.__legalDelays.shift() : 0;
    if (wait) await new Promise((r) => setTimeout(r, wait));
    return real(url, init);
  }; }"""


def test_a_click_while_the_page_catches_up_after_a_move_is_not_sent_as_a_stale_command(context, live_server):
    """The page's own refresh after a move comes back after 0.5 s, but the refresh the stream started
    meanwhile (the move's own events) supersedes it and takes 2 s: a click in between used to go out
    for the old position and come back as 'the game moved on'."""
    from tests.web.conftest import Shots
    context.add_init_script(SLOW_LEGAL)
    page = context.new_page()
    shot = Shots(page, "no-stale-click")
    created = live_server.create({"form": "duel", "players": ANN_BOB, "setup": ON_THE_MARKS})
    open_seat(page, live_server, created["id"], created["seats"][0]["token"])
    page.evaluate("window.__legalDelays = [500, 2000, 2000, 2000]")
    square(page, "d5").click()
    page.wait_for_timeout(1000)                                   # ours is back, the stream's is not
    square(page, "e5").click()                                    # ignored while busy, or (a slow stream) valid
    expect(square(page, "d5")).to_have_attribute("data-piece", "0-common")
    expect(page.locator("#status")).to_have_text(re.compile(r"^Your turn · [01] actions? left$"))
    expect(page.locator("#error")).to_be_hidden()
    if square(page, "e5").get_attribute("data-piece") == "":
        square(page, "e5").click()                                # once caught up, the click counts
    expect(square(page, "e5")).to_have_attribute("data-piece", "0-common")
    expect(page.locator("#error")).to_be_hidden()
    shot("second-place")
    page.close()


def test_on_a_phone_high_forms_tasks_come_right_after_the_hand(browser, live_server):
    from tests.web.conftest import Shots
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    shot = Shots(page, "phone-tasks")
    try:
        created = live_server.create({"form": "high_form", "players": ANN_BOB, "seed": "tasks"})
        open_seat(page, live_server, created["id"], created["seats"][0]["token"])
        # the hand is the drawer along the bottom of the screen; the tasks are the first panel under the board
        tops = page.evaluate("""() => Object.fromEntries([".board", ".panel.tasks", "#players"].map(
            (s) => [s, document.querySelector(s).getBoundingClientRect().top + window.scrollY]))""")
        assert tops[".board"] < tops[".panel.tasks"] < tops["#players"], tops
        hand = page.locator("#hand").bounding_box()
        assert hand["y"] + hand["height"] <= 844.5, hand
        assert tops[".panel.tasks"] < 2 * 844, tops                        # one scroll from the first screen
        page.locator(".panel.tasks").scroll_into_view_if_needed()
        shot("tasks", full_page=False)
    finally:
        ctx.close()
