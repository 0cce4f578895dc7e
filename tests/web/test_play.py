"""Playing in a real browser: the page at / drives the HTTP API as a person would.

Every test works through the page (clicks, keys, reloads) and checks what it shows; the API is
called directly only to set a game up or to act as the other, human, player.
"""
from __future__ import annotations

import re

from playwright.sync_api import expect

ANN_VS_COMPUTER = [{"name": "Ann", "school": "northern"}, {"name": "Computer", "school": "southern", "bot": True}]
# Ann can summon the Swordmaster on d5 (her commons on d4 and d6), whose effect may then destroy the
# enemy common on c4, diagonally next to it.
SWORDMASTER = {"board": [{"square": "d4", "seat": 0, "rank": "common"}, {"square": "d6", "seat": 0, "rank": "common"},
                         {"square": "c4", "seat": 1, "rank": "common"}, {"square": "g5", "seat": 1, "rank": "common"}],
               "hands": {"0": ["northern-swordmaster", "northern-herald", "flares-04"]},
               "turn": {"seat": 0, "actions_left": 2}}


def square(page, sq: str):
    return page.locator(f'.sq[data-square="{sq}"]')


def pieces(page, colour: int) -> list[str]:
    return page.eval_on_selector_all(f'.sq[data-piece^="{colour}-"]', "els => els.map(e => e.dataset.square)")


def open_seat(page, server, game_id: str, token: str | None = None) -> None:
    page.goto(f"{server.url}/play/{game_id}" + (f"#token={token}" if token else ""))
    expect(page.locator(".board")).to_be_visible()
    expect(page.locator("#stream-status")).to_have_text("Live")


def end_turn(page) -> None:
    """Confirm the end of the turn; a player whose confirmation was not taken (the button still
    there, with the turn's actions spent, a few seconds later: once seen on a loaded CI machine)
    presses it again, and any refusal the page shows is part of the failure."""
    button = page.locator('#prompt [data-command="end_turn"]')
    for _ in range(3):
        button.click()
        try:
            expect(button).to_have_count(0, timeout=8_000)
            return
        except AssertionError:
            continue
    raise AssertionError(f"the end of the turn was not taken; the page says: {page.locator('#status-bar').inner_text()}")


def test_create_a_game_against_the_computer_place_and_see_it_answer(page, live_server, shot):
    page.goto(live_server.url + "/")
    expect(page.locator("#new-game")).to_be_visible()
    page.select_option("#form-select", "high_form")
    page.locator('.seat-row[data-seat="0"] [name=name]').fill("Ann")
    page.locator('.seat-row[data-seat="0"] [name=school]').select_option("sylvan")
    expect(page.locator('.seat-row[data-seat="1"] [name=by]')).to_have_value("bot")
    shot("lobby")
    page.click("#create-game")
    page.wait_for_url(re.compile(r"/play/[0-9a-f]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
    expect(page.locator("#hand .card")).to_have_count(6)
    expect(page.locator(".tasks .card")).to_have_count(3)
    shot("first-turn")

    target = page.locator(".sq.legal").first
    placed = target.get_attribute("data-square")
    target.click()
    expect(square(page, placed)).to_have_attribute("data-piece", "0-common")
    end_turn(page)                                                      # the page waits for the confirmation
    # the computer answers through the worker; the page learns it from the stream
    expect(page.locator("#status")).to_have_text(re.compile("Your turn · 2 actions left"), timeout=30_000)
    expect(page.locator("#log")).to_contain_text("Computer places")
    assert len(pieces(page, 1)) >= 1
    assert page.evaluate("window.__notifications.length") >= 1
    assert page.evaluate("window.__notifications[0].title") == "Tash-Kalar: your turn"
    shot("computer-answered")

    # Ann's games: this one (her turn) first, then one waiting for Bob, then one that is over
    me = page.evaluate("JSON.parse(localStorage.getItem('tash-kalar-arena')).player")
    ann = me["id"]
    bobs = live_server.create({"form": "high_form", "players": [{"name": "Bob", "school": "northern"},
                                                           {"name": "Ann", "school": "sylvan", "player": ann}]},
                              token=me["token"])
    over = live_server.create({"form": "duel", "players": [{"name": "Ann", "school": "sylvan", "player": ann},
                                                           {"name": "Cid", "school": "highland"}]}, token=me["token"])
    assert live_server.call("POST", f"/games/{over['id']}/resign", token=over["seats"][0]["token"])[0] == 200
    page.goto(live_server.url + "/")
    games = page.locator(".game-item")
    expect(games).to_have_count(3)
    expect(games.nth(0)).to_have_class(re.compile("waiting"))
    expect(games.nth(0).locator("a")).to_have_attribute("href", f"/play/{game_id}")
    expect(games.nth(0)).to_contain_text("High Form vs Computer")
    expect(games.nth(1).locator("a")).to_have_attribute("href", f"/play/{bobs['id']}")
    expect(games.nth(1)).to_contain_text("Bob to play")
    expect(games.nth(2).locator("a")).to_have_attribute("href", f"/play/{over['id']}")
    expect(games.nth(2)).to_have_class(re.compile("finished"))
    shot("my-games")


def test_summon_resolve_a_choice_place_rewind_and_reload(page, live_server, shot):
    created = live_server.create({"form": "duel", "players": ANN_VS_COMPUTER, "setup": SWORDMASTER, "seed": "sword"})
    game_id, token = created["id"], created["seats"][0]["token"]
    open_seat(page, live_server, game_id, token)
    assert "#token" not in page.url                      # the secret leaves the address bar
    card = page.locator('#hand .card[data-card="northern-swordmaster"]')
    expect(card).to_contain_text("Swordmaster")
    expect(card).to_contain_text("Common")
    expect(card.locator("svg.pattern")).to_be_visible()
    expect(page.locator('#hand .card[data-card="flares-04"]')).to_contain_text("more upgraded")
    shot("hand")

    card.click()                                          # pick the card, then its square
    expect(card).to_have_class(re.compile("selected"))
    expect(page.locator(".sq.legal")).to_have_count(1)
    expect(square(page, "d5")).to_have_class(re.compile("legal"))
    shot("summon-target")
    square(page, "d5").click()

    expect(page.locator("#prompt")).to_contain_text("Choose a piece to destroy")
    expect(page.locator('#prompt [data-command="skip"]')).to_have_text("Skip this step")
    expect(square(page, "c4")).to_have_class(re.compile("legal"))
    shot("choice")
    square(page, "c4").click()
    expect(square(page, "c4")).to_have_attribute("data-piece", "")
    expect(square(page, "d5")).to_have_attribute("data-piece", "0-heroic")

    # the second action with the keyboard: from the board's tab stop, arrows to e5, then Enter
    page.locator('.sq[tabindex="0"]').focus()
    start = page.evaluate("document.activeElement.dataset.square")
    cols, rows = "abcdefghi", "123456789"
    dx, dy = cols.index("e") - cols.index(start[0]), rows.index("5") - rows.index(start[1])
    for _ in range(abs(dx)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    assert page.evaluate("document.activeElement.dataset.square") == "e5"
    page.keyboard.press("Enter")
    expect(square(page, "e5")).to_have_attribute("data-piece", "0-common")
    page.locator('#prompt [data-command="end_turn"]').click()

    # the computer's turn: it places pieces, and the page shows them as they come
    expect(page.locator("#status")).to_have_text(re.compile("Your turn · 2 actions left"), timeout=30_000)
    expect(page.locator("#log")).to_contain_text("Computer places")
    assert set(pieces(page, 1)) > {"g5"}, "the computer's move is not on the board"
    assert page.locator(".sq.recent").count() >= 1       # what the computer changed is marked
    shot("computer-moved")

    # rewind to the start and step forward, read-only; then back to live
    live_board = {sq: square(page, sq).get_attribute("data-piece") for sq in ("c4", "d5", "e5")}
    page.get_by_role("button", name="First move").click()
    expect(page.locator("#status")).to_have_text("Replay, read-only: before the first move")
    expect(square(page, "c4")).to_have_attribute("data-piece", "1-common")
    expect(square(page, "d5")).to_have_attribute("data-piece", "")
    expect(page.locator(".sq.legal")).to_have_count(0)
    shot("rewound-start")
    page.get_by_role("button", name="Next move").click()
    expect(page.locator(".rewind-caption")).to_contain_text(re.compile("Move 1 of [0-9]+: Ann summons Swordmaster"))
    expect(square(page, "d5")).to_have_attribute("data-piece", "0-common")
    page.locator("#rewind-slider").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator(".rewind-caption")).to_contain_text("Move 2")
    expect(square(page, "c4")).to_have_attribute("data-piece", "")
    shot("rewound-move-2")
    page.get_by_role("button", name="Back to live").first.click()
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
    for sq, value in live_board.items():
        expect(square(page, sq)).to_have_attribute("data-piece", value or "")

    # reload in the middle of the game: the seat, hand and position come back, and so does the stream
    version = page.evaluate("document.querySelector('#log li:last-child').dataset.version")
    page.reload()
    expect(page.locator("#stream-status")).to_have_text("Live")
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
    expect(page.locator("#log li:last-child")).to_have_attribute("data-version", version)
    for sq, value in live_board.items():
        expect(square(page, sq)).to_have_attribute("data-piece", value or "")
    expect(page.locator("#hand .card").first).to_be_visible()
    shot("reloaded")


def test_join_links_a_lost_connection_and_a_stale_command_shown_as_the_api_error(page, browser, live_server, cable, shot):
    # Ann creates a game against a person through a cable the test can pull, and sends Bob his link
    page.goto(cable.url + "/")
    page.locator('.seat-row[data-seat="0"] [name=name]').fill("Ann")
    page.locator('.seat-row[data-seat="1"] [name=name]').fill("Bob")
    page.locator('.seat-row[data-seat="1"] [name=by]').select_option("human")
    page.click("#create-game")
    links = page.locator("#created .links input")
    expect(links).to_have_count(2)
    bob_link = links.nth(1).input_value()
    assert re.fullmatch(re.escape(cable.url) + r"/play/[0-9a-f]+#token=[\w-]{40,}", bob_link)
    shot("join-links")
    page.get_by_role("link", name="Open your seat").click()
    expect(page.locator("#stream-status")).to_have_text("Live")
    expect(page.locator("#status")).to_have_text("Waiting for Bob: Choose where the start pieces go")
    game_id = page.url.rsplit("/", 1)[1]

    bob_context = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        bob = bob_context.new_page()
        bob.goto(bob_link.replace(cable.url, live_server.url))       # Bob's own connection
        expect(bob.locator("#status")).to_have_text("Choose where the start pieces go")
        expect(bob.locator(".sq.legal")).to_have_count(2)

        cable.unplug()                                    # Ann loses her connection; Bob plays on
        expect(page.locator("#stream-status")).to_have_text("Reconnecting…")
        square(bob, "c5").click()
        expect(square(bob, "c5")).to_have_attribute("data-piece", "1-common")
        shot("connection-lost")
        cable.plug()
        expect(page.locator("#stream-status")).to_have_text("Live", timeout=30_000)
        expect(square(page, "c5")).to_have_attribute("data-piece", "1-common")
        expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
    finally:
        bob_context.close()
    ann = page.evaluate(f"JSON.parse(localStorage.getItem('tash-kalar-arena')).games['{game_id}'].token")

    # Ann's page stops hearing news; meanwhile a command of hers lands from elsewhere (another tab)
    page.route("**/stream*", lambda route: route.abort())
    cable.unplug()                                                       # drops the open stream
    expect(page.locator("#stream-status")).to_have_text("Reconnecting…")
    cable.plug()
    stale = page.locator(".sq.legal").nth(3).get_attribute("data-square")
    elsewhere = page.locator(".sq.legal").nth(5).get_attribute("data-square")
    status, _ = live_server.call("POST", f"/games/{game_id}/commands", {"type": "place", "square": elsewhere}, token=ann)
    assert status == 200
    square(page, stale).click()
    error = page.locator("#error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("The game moved on while you were choosing; here is the new position.")
    expect(square(page, elsewhere)).to_have_attribute("data-piece", "0-common")      # and it caught up
    expect(square(page, stale)).to_have_attribute("data-piece", "")
    shot("stale-error")
    page.get_by_role("button", name="Dismiss").click()
    expect(error).to_be_hidden()


def test_a_phone_sized_screen_creates_and_plays(browser, live_server):
    from tests.web.conftest import NOTIFICATION_STUB, Shots
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    ctx.add_init_script(NOTIFICATION_STUB)
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    shot = Shots(page, "phone")
    try:
        page.goto(live_server.url + "/")
        page.locator('.seat-row[data-seat="0"] [name=name]').fill("Ann")
        page.select_option("#form-select", "melee")             # three seats: Ann and two computers
        expect(page.locator(".seat-row")).to_have_count(3)
        expect(page.locator('.seat-row[data-seat="2"] [name=by]')).to_have_value("bot")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot("lobby")
        page.click("#create-game")
        expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        board = page.locator(".board").bounding_box()
        assert board["width"] >= 340
        target = page.locator(".sq.legal").first
        placed = target.get_attribute("data-square")
        target.tap()
        expect(square(page, placed)).to_have_attribute("data-piece", "0-common")
        page.locator('#prompt [data-command="end_turn"]').tap()               # the end of the turn, confirmed
        expect(page.locator("#status")).to_have_text(re.compile("Your turn · 2 actions left"), timeout=30_000)
        expect(page.locator("#log")).to_contain_text("Computer 2 places")
        expect(page.locator(".seat")).to_have_count(3)
        shot("game", full_page=False)
        shot("game-full")
    finally:
        ctx.close()


# Ann is three upgraded pieces behind, so Flare 3/6 a is hers to invoke; five of her pieces stand
# around the enemy piece on e5, one short of the Imprisonment task.
TASK_AND_FLARE = {
    "board": [{"square": s, "seat": 0, "rank": "common"} for s in ("d4", "e4", "f4", "d5", "f5")]
    + [{"square": "e5", "seat": 1, "rank": "common"}]
    + [{"square": s, "seat": 1, "rank": "heroic"} for s in ("b7", "c7", "h3")],
    "hands": {"0": ["flares-00", "northern-herald", "northern-messenger"]},
    "tasks": {"current": ["tasks-imprisonment", "tasks-destruction", "tasks-red-conquest"], "next": "tasks-center-cross",
              "deck": ["tasks-diagonals", "tasks-side-chain"]},
    "turn": {"seat": 0, "actions_left": 2},
}


def test_flare_discard_with_returns_claim_a_task_clocks_and_resign(page, live_server, shot):
    created = live_server.create({"form": "high_form", "players": ANN_VS_COMPUTER, "setup": TASK_AND_FLARE,
                                  "time_control": {"kind": "move", "seconds": 86400}})
    game_id, token = created["id"], created["seats"][0]["token"]
    open_seat(page, live_server, game_id, token)
    expect(page.locator('.clock[data-clock="0"]')).to_have_text(re.compile(r"^(23h 59m|1d 0h)$"))
    expect(page.locator(".time-control")).to_have_text("1 day per move")
    expect(page.locator(".deadline")).to_contain_text("Deadline for Ann")
    expect(page.locator(".tasks .card")).to_have_count(3)
    expect(page.locator('.tasks .card[data-card="tasks-imprisonment"]')).to_contain_text("six or more of your pieces")

    page.locator('#hand .card[data-card="flares-00"]').get_by_role("button", name="Invoke flare").click()
    expect(page.locator("#prompt")).to_contain_text("Choose an empty square to place a piece on")
    expect(page.locator('#prompt [data-command="skip"]')).to_have_count(0)
    square(page, "a4").click()
    expect(square(page, "a4")).to_have_attribute("data-piece", "0-common")

    page.locator('#hand .card[data-card="northern-herald"]').get_by_role("button", name="Discard…").click()
    expect(page.locator("#prompt")).to_contain_text("Return cards to the bottom of their decks")
    page.get_by_role("checkbox", name="Messenger").check()
    shot("discard")
    page.locator("#prompt").get_by_role("button", name="Discard", exact=True).click()
    expect(page.locator("#hand .card")).to_have_count(0)
    expect(page.locator("#hand")).to_contain_text("Discard pile: Herald")

    square(page, "d6").click()
    claim = page.locator('.tasks .card[data-card="tasks-imprisonment"]').get_by_role("button", name="Claim")
    expect(claim).to_be_visible()
    expect(page.locator('#prompt [data-command="end_turn"]')).to_have_text("Confirm: end my turn")
    shot("claim")
    claim.click()
    expect(page.locator('.seat[data-seat="0"] .score')).to_have_text("1 / 9")
    expect(page.locator('.seat[data-seat="0"]')).to_contain_text("tasks: Imprisonment")
    expect(page.locator('.tasks .card[data-card="tasks-imprisonment"]')).to_have_count(0)
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"), timeout=30_000)
    expect(page.locator("#hand .card")).to_have_count(6)          # the hand was refilled at the end of the turn
    shot("after-claim")

    page.get_by_role("button", name="Resign…").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#status")).to_have_text(re.compile("Game over: Computer wins"))
    expect(page.locator("#stream-status")).to_have_text("Game over")
    shot("resigned")


def test_move_pieces_with_the_herald_then_skip_the_rest(page, live_server, shot):
    herald = {"board": [{"square": s, "seat": 0, "rank": "common"} for s in ("d4", "e4", "d5")]
              + [{"square": "g7", "seat": 1, "rank": "common"}],
              "hands": {"0": ["northern-herald"]}, "turn": {"seat": 0, "actions_left": 2}}
    created = live_server.create({"form": "duel", "setup": herald, "players": [
        {"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "southern"}]})
    open_seat(page, live_server, created["id"], created["seats"][0]["token"])
    page.locator('#hand .card[data-card="northern-herald"]').get_by_role("button", name="Summon").click()
    square(page, "c3").click()
    expect(page.locator("#prompt")).to_contain_text("Move a piece")
    expect(square(page, "e4")).to_have_class(re.compile("legal"))

    square(page, "d4").click()                            # pick a piece, think better of it
    expect(square(page, "d4")).to_have_class(re.compile("selected"))
    page.keyboard.press("Escape")
    expect(square(page, "d4")).not_to_have_class(re.compile("selected"))

    square(page, "e4").click()
    expect(page.locator("#prompt")).to_contain_text("Move the piece on e4: choose where.")
    expect(page.locator(".sq.legal")).to_have_count(7)    # six squares to go to, and e4 to put it back
    shot("move-targets")
    square(page, "f5").click()
    expect(square(page, "f5")).to_have_attribute("data-piece", "0-common")
    expect(square(page, "e4")).to_have_attribute("data-piece", "")
    expect(page.locator("#prompt")).to_contain_text("Move a piece")
    page.get_by_role("button", name="Skip this step").click()
    expect(page.locator("#prompt")).to_contain_text("Your turn.")
    expect(page.locator("#log")).to_contain_text("Ann's common piece on e4 moves to f5.")


def test_the_gateway_and_a_frozen_card_are_shown_to_a_spectator(page, live_server, shot):
    # POST /games takes no Gateway or frozen card in a set-up yet: store this position directly
    from events import roster
    arena = live_server.app.extensions["arena"]
    created = arena.service.create_from_position({
        "form": "duel", "seats": [{"school": "nethervoid"}, {"school": "everfrost"}],
        "board": [{"square": "d4", "seat": 0, "rank": "common"}, {"square": "f6", "seat": 1, "rank": "heroic"}],
        "gateways": {"0": "d4"}, "frozen": {"1": "everfrost-ice-queen"}})
    roster.save(arena.redis, created.game_id, [{"name": "Ann"}, {"name": "Bob"}], {"form": "duel"})
    open_seat(page, live_server, created.game_id)               # no token: a spectator
    expect(square(page, "d4").locator(".gateway")).to_have_count(1)
    expect(square(page, "d4")).to_have_attribute("aria-label", re.compile(r"Ann’s common piece \(blue\), the Gateway"))
    expect(square(page, "f6")).to_have_attribute("data-piece", "1-heroic")
    expect(page.locator('.seat[data-seat="1"]')).to_contain_text("frozen: Ice Queen")
    expect(page.locator("#hand")).to_contain_text("You are a spectator")
    expect(page.locator(".sq.legal")).to_have_count(0)
    expect(page.locator("#prompt")).to_contain_text("You are watching.")
    shot("spectator")
