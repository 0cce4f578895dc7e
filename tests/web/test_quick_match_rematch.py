"""Two accounts on two browsers find each other by quick match, play to the end, both click Rematch and
each gets one new game holding only their own seat; both get back to the lobby (nothing drags them
into a game); a spectator without an account watches; the same account on a second browser sees
every game with the right status. Everything by clicks."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from .conftest import Shots
from .test_people import new_page, sign

GAME_URL = re.compile(r"/play/([A-Za-z0-9_-]+)$")


def _game_id(page) -> str:
    return GAME_URL.search(page.url).group(1)


def _own_tokens(page) -> dict:
    """What this browser keeps: game id -> (seat, token) of its own seats, and every join link."""
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('tash-kalar-arena') || '{}').games || {}")
    return {gid: (g.get("seat"), g.get("token"), len(g.get("links") or [])) for gid, g in kept.items()}


def test_quick_match_to_the_end_a_rematch_each_in_their_own_seat_and_back_to_the_lobby(browser, live_server):
    ann_name, bob_name = (f"{n}{uuid.uuid4().hex[:6]}" for n in ("ann", "bob"))
    contexts = []
    try:
        (ann_ctx, ann), (bob_ctx, bob), (eve_ctx, eve) = new_page(browser), new_page(browser), new_page(browser)
        contexts += [ann_ctx, bob_ctx, eve_ctx]
        sign(ann, live_server.url, ann_name, "#sign-up-button")
        sign(bob, live_server.url, bob_name, "#sign-up-button")
        for page in (ann, bob):                                          # both seek a duel
            page.select_option("#seek-form", "duel")
            page.click("#find-opponent")
        for page in (ann, bob):
            page.wait_for_url(GAME_URL)
            expect(page.locator(".board")).to_be_visible()
        game_id = _game_id(ann)
        assert _game_id(bob) == game_id

        eve.goto(live_server.url + "/")                                  # a spectator: no account needed
        for _ in range(10):
            if eve.locator(f'#live-games a[href="/play/{game_id}"]').count():
                break
            eve.wait_for_timeout(500)
            eve.reload()
        eve.locator(f'#live-games a[href="/play/{game_id}"]').click()
        expect(eve.locator(".board")).to_be_visible()

        bob.get_by_role("button", name="Resign…").click()                # to the end
        bob.get_by_role("button", name="Yes, resign").click()
        for page in (ann, bob, eve):
            expect(page.locator("#end-screen")).to_be_visible()
        expect(eve.locator("#rematch")).to_have_count(0)                 # a spectator has no say

        ann.click("#rematch")                                            # an offer, then Bob's acceptance
        expect(ann.locator("#rematch-offer")).to_contain_text(f"Waiting for {bob_name} to accept.")
        expect(bob.locator("#rematch-offer")).to_contain_text("A rematch is offered")
        Shots(ann, "quick-match-rematch")("offered")
        Shots(bob, "quick-match-rematch-bob")("offered-to-bob")
        expect(bob.locator("#rematch")).to_be_hidden()                 # while an offer is open, one answers it
        bob.click("#accept-rematch")
        for page in (ann, bob):
            page.wait_for_url(lambda url: "/play/" in url and game_id not in url)
        rematch_id = _game_id(ann)
        assert _game_id(bob) == rematch_id
        seats = {}
        for name, page in ((ann_name, ann), (bob_name, bob)):
            expect(page.locator(".board")).to_be_visible()
            expect(page.locator(".tag-you")).to_have_count(1)            # one seat, its own
            seat, token, links = _own_tokens(page)[rematch_id]
            assert links == 0
            status, view = live_server.call("GET", f"/games/{rematch_id}", token=token)
            assert status == 200 and view["players"][view["seat"]]["name"] == name
            seats[name] = view["seat"]
        assert sorted(seats.values()) == [0, 1]
        Shots(ann, "quick-match-rematch-new")("rematch-ann")

        for page in (ann, bob):                                          # back to the lobby, and it stays
            page.locator("header.top a.brand").click()
            page.wait_for_url(live_server.url + "/")
            expect(page.locator("#my-games")).to_contain_text("won by resignation")
            page.wait_for_timeout(2500)
            assert page.url == live_server.url + "/"

        home_ctx, home = new_page(browser)                               # Ann on a second browser
        contexts.append(home_ctx)
        sign(home, live_server.url, ann_name, "#sign-in-button")
        games = home.locator("#my-games .game-item")
        expect(games).to_have_count(2)
        over = home.locator(f'#my-games .game-item[data-game="{game_id}"]')
        expect(over).to_contain_text("you won by resignation")
        expect(over.locator(".game-badge")).to_have_text("Over")
        expect(over).to_contain_text(f"duel vs {bob_name}")
        now = home.locator(f'#my-games .game-item[data-game="{rematch_id}"]')
        _, view = live_server.call("GET", f"/games/{rematch_id}")
        ann_to_play = view["active_seat"] == seats[ann_name]
        expect(now.locator(".game-badge")).to_have_text("Your turn" if ann_to_play else "Playing")
        expect(now).to_contain_text("your turn" if ann_to_play else f"{bob_name} to play")
        Shots(home, "quick-match-rematch-home")("second-browser-lobby")
        for page in (ann, bob, eve, home):
            assert page.errors == [], page.errors
    finally:
        for ctx in contexts:
            ctx.close()
