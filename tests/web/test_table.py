"""At the table (issue 13), in a real Chromium: an orientation chosen from the board, a summon with
its effect undone and redone, the end screen of a melee decided on a tie-break with a rematch, and
a whole game on a phone-sized screen. Positions are set up through the API so each test is short."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .test_play import open_seat, square

ANN_BOB = [{"name": "Ann", "school": "northern"}, {"name": "bob McKay", "school": "sylvan"}]
# Ann's Assassin fits on e5 two ways: one orientation destroys Bob's common on d4, the other his
# heroic on f4 (its marked square).
ASSASSIN = {"board": [{"square": s, "seat": 0, "rank": "common"} for s in ("d2", "c3", "b4", "h4", "g3", "f2")]
            + [{"square": "d4", "seat": 1, "rank": "common"}, {"square": "f4", "seat": 1, "rank": "heroic"}],
            "hands": {"0": ["northern-assassin", "northern-herald"]}, "turn": {"seat": 0, "actions_left": 2}}
MELEE_TIE = {"board": "5/7/9/9/9/9/9/7/5", "decks": {"0": [], "1": [], "2": []},
             "scores": {"0": {"1": 5, "2": 7}, "1": {"0": 5, "2": 6}, "2": {"0": 4, "1": 9}},
             "turn": {"seat": 0, "actions_left": 1}}


def test_an_orientation_chosen_from_the_board_then_the_summon_and_its_effect_undone_and_redone(page, live_server, shot):
    created = live_server.create({"form": "duel", "players": ANN_BOB, "setup": ASSASSIN})
    game_id, ann = created["id"], created["seats"][0]["token"]
    open_seat(page, live_server, game_id, ann)
    page.locator('#hand .card[data-card="northern-assassin"] .card-pick').click()
    square(page, "e5").hover()
    expect(square(page, "f4")).to_have_class(re.compile("pv-affects"))     # the summon's marked squares previewed
    expect(square(page, "d2")).to_have_class(re.compile("pv-pattern"))
    square(page, "e5").click()
    expect(page.locator("#status")).to_contain_text("orientation")
    option = page.locator('#prompt button[data-command="choose"]', has_text="marks f4")
    expect(option).to_be_visible()
    option.hover()
    expect(square(page, "f4")).to_have_class(re.compile("pv-affects"))
    expect(square(page, "d4")).not_to_have_class(re.compile("pv-affects"))
    shot("orientation-preview")
    expect(square(page, "f4")).to_have_class(re.compile("legal"))          # chosen by clicking what it destroys
    square(page, "f4").click()
    expect(square(page, "f4")).to_have_attribute("data-piece", "")
    expect(square(page, "d4")).to_have_attribute("data-piece", "1-common")
    expect(square(page, "e5")).to_have_attribute("data-piece", "0-heroic")
    expect(page.locator("#log")).to_contain_text("bob McKay's heroic piece on f4 is destroyed.")
    shot("after-summon")

    page.click("#undo-btn")                                                  # back to the orientation question
    expect(page.locator("#status")).to_contain_text("orientation")
    expect(page.locator("#cancel-action")).to_be_visible()
    page.click("#cancel-action")                                             # back to before the summon
    expect(square(page, "e5")).to_have_attribute("data-piece", "")
    expect(square(page, "f4")).to_have_attribute("data-piece", "1-heroic")
    expect(page.locator('#hand .card[data-card="northern-assassin"]')).to_be_visible()
    expect(page.locator("#log .undone").first).to_be_visible()
    shot("undone")
    page.click("#redo-btn")
    expect(page.locator("#status")).to_contain_text("orientation")
    page.click("#redo-btn")
    expect(square(page, "f4")).to_have_attribute("data-piece", "")
    expect(page.locator("#redo-btn")).to_have_count(0)
    view = live_server.view(game_id)
    assert view["turn"]["actions_left"] == 1 and view["active_seat"] == 0


def play_melee_to_its_end(server, game_id: str, tokens: list[str]) -> None:
    squares = iter(["a5", "b5", "c5", "d5", "e5", "f5", "g5"])
    for seat in (0, 1, 1, 2, 2, 0, 0):
        status, body = server.call("POST", f"/games/{game_id}/commands", {"type": "place", "square": next(squares)},
                                   token=tokens[seat])
        assert status == 200, body


def test_the_end_screen_of_a_melee_decided_on_a_tie_break_and_a_rematch(page, live_server, shot):
    players = [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}, {"name": "Cy", "school": "highland"}]
    created = live_server.create({"form": "melee", "players": players, "setup": MELEE_TIE})
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    play_melee_to_its_end(live_server, game_id, tokens)
    page.goto(f"{live_server.url}/play/{game_id}#token={tokens[0]}")
    end = page.locator("#end-screen")
    expect(end).to_be_visible()
    expect(end).to_contain_text("Ann wins at the end of the final round.")
    expect(end.locator(".tiebreak")).to_have_text("Ann and Bob tied on 5 (lowest colour); second-lowest colour decided it: Ann 7, Bob 6.")
    expect(end.locator('.standings tr[data-seat="0"] .weakest')).to_have_text("Red 5 (weakest)")
    expect(end.locator(".stats")).to_contain_text("Pieces placed")
    expect(end.locator(".stats tbody tr").first).to_contain_text("3")
    shot("melee-end-screen")
    page.goto(live_server.url + "/")                                          # "Your games" shows the result
    expect(page.locator("#my-games")).to_contain_text("finished: you won (5–5–4)")
    page.goto(f"{live_server.url}/play/{game_id}")
    page.click("#rematch")                                                    # an offer: the others accept it
    expect(page.locator("#rematch-offer")).to_contain_text("Waiting for Bob and Cy to accept.")
    shot("rematch-offered")
    assert live_server.call("POST", f"/games/{game_id}/rematch", token=tokens[1])[0] == 202
    status, started = live_server.call("POST", f"/games/{game_id}/rematch", token=tokens[2])
    assert status == 201 and started["seat"] == 1
    page.wait_for_url(lambda url: "/play/" in url and game_id not in url)
    new_id = page.url.rsplit("/", 1)[1]
    assert new_id != game_id
    new = live_server.view(new_id)
    assert [p["name"] for p in new["players"]] == ["Bob", "Cy", "Ann"]
    expect(page.locator('.seat[data-seat="2"] .tag-you')).to_be_visible()   # Ann moved one seat on; Bob starts
    shot("rematch")


def test_a_whole_game_on_a_phone(browser, live_server):
    from tests.web.conftest import NOTIFICATION_STUB, Shots
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    ctx.add_init_script(NOTIFICATION_STUB)
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    shot = Shots(page, "phone-game")
    # empty school decks: the end is triggered after Ann's first turn, Bob plays once more, then Ann
    setup = {"board": "5/7/9/9/9/9/9/7/5", "decks": {"0": [], "1": []}, "hands": {"0": ["northern-herald"]},
             "scores": {"0": 2}, "turn": {"seat": 0, "actions_left": 2}}
    created = live_server.create({"form": "duel", "players": ANN_BOB, "setup": setup,
                                  "time_control": {"kind": "move", "seconds": 3600}})
    game_id, (ann, bob) = created["id"], [s["token"] for s in created["seats"]]
    try:
        open_seat(page, live_server, game_id, ann)
        strip = page.locator("#strip")
        expect(strip).to_be_visible()
        strip_box, board_box = strip.bounding_box(), page.locator(".board").bounding_box()
        assert strip_box["y"] + strip_box["height"] <= board_box["y"] + 1, "the strip sits above the board"
        expect(strip).to_contain_text("2/18")
        assert board_box["y"] + board_box["height"] <= 844, "the whole board is on the first screen"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot("start", full_page=False)
        for sq in ("e5", "e6"):
            square(page, sq).tap()
            expect(square(page, sq)).to_have_attribute("data-piece", "0-common")
        page.locator('#prompt [data-command="end_turn"]').tap()            # the end of the turn, confirmed
        expect(page.locator("#status")).to_contain_text("bob McKay")
        for sq in ("a5", "b5"):
            status, body = live_server.call("POST", f"/games/{game_id}/commands", {"type": "place", "square": sq}, token=bob)
            assert status == 200, body
        expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
        for sq in ("d5", "f5"):
            square(page, sq).tap()
            expect(square(page, sq)).to_have_attribute("data-piece", "0-common")
        page.locator('#prompt [data-command="end_turn"]').tap()
        end = page.locator("#end-screen")
        expect(end).to_be_visible()
        expect(end).to_contain_text("Ann wins")
        expect(end.locator(".standings")).to_contain_text("2 / 18")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot("end", full_page=False)
        # a log line jumps the rewind slider to its move
        page.locator("#log .log-line", has_text="places a common piece on e6").first.tap()
        expect(page.locator("#rewind-slider")).to_have_value("2")
        expect(page.locator("#log li.shown").first).to_contain_text("places a common piece on e6")   # the entry shown
        page.keyboard.press("ArrowLeft")                                 # the arrow keys step through the moves
        expect(page.locator("#rewind-slider")).to_have_value("1")
        expect(page.locator("#log li.shown").first).to_contain_text("on e5")
        expect(page.locator(".rewind-caption")).to_have_text(re.compile(r"^Move 1 of \d+: Ann places a common piece on e5\."))
        expect(end).not_to_have_attribute("open", "")                    # the result folds away; the board stays put
        expect(square(page, "d5")).to_have_attribute("data-piece", "")
        shot("rewound")
        assert errors == []
    finally:
        ctx.close()


def test_the_lobby_creates_a_team_game_with_a_limit_in_seconds_and_copyable_join_links(page, context, live_server, shot):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto(live_server.url + "/")
    page.select_option("#form-select", "duel")
    page.check("#teams")
    expect(page.locator(".seat-row")).to_have_count(4)
    page.locator('.seat-row[data-seat="0"] [name=name]').fill("Ann")
    page.locator('.seat-row[data-seat="1"] [name=by]').select_option("human")
    page.locator('.seat-row[data-seat="1"] [name=name]').fill("Bob")
    page.select_option("#tc-kind", "move")
    page.fill("[name=tc-amount]", "45")
    page.select_option("[name=tc-unit]", label="seconds")
    shot("team-lobby")
    page.click("#create-game")
    copy = page.get_by_role("button", name="Copy the join link for Bob")
    expect(copy).to_be_visible()
    copy.click()
    expect(copy).to_have_text("Copied")
    link = page.evaluate("navigator.clipboard.readText()")
    assert "#token=" in link
    shot("team-links")
    game_id = re.search(r"/play/([0-9a-f]+)#", link).group(1)
    view = live_server.view(game_id)
    assert view["teams"] is True and len(view["seats"]) == 4
    assert view["time_control"]["kind"] == "move" and view["time_control"]["seconds"] == 45
    page.goto(f"{live_server.url}/play/{game_id}")
    expect(page.locator(".time-control")).to_have_text("45 s per move")
