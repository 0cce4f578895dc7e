"""Two accounts on two browsers, and a spectator: a game by invitation played to its end by clicks
(it starts near its end through `setup`), both click Rematch and each gets one new game holding
only their own seat; they find each other by quick match, play that game to its end (its long middle through the
API with their own seat tokens, the final round by clicks) and get back to the lobby (nothing drags
them into a game); a 2 v 2 table opened in the lobby; the same account on a second browser sees
every game with the right status. The header's count of games waiting and the rematch offer
arrive live, from the streams (their fallbacks look only every 30 s or more)."""
from __future__ import annotations

import random
import re
import uuid

from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from .conftest import Shots
from .test_people import new_page, sign

GAME_URL = re.compile(r"/play/([A-Za-z0-9_-]+)$")
# empty decks: Ann's first turn starts the final round; Bob plays once more, then Ann, and it is over
NEAR_THE_END = {"board": "5/7/9/9/9/9/9/7/5", "decks": {"0": [], "1": []}, "hands": {"0": ["northern-herald"]},
                "scores": {"0": 2}, "turn": {"seat": 0, "actions_left": 2}}


def _game_id(page) -> str:
    return GAME_URL.search(page.url).group(1)


def _own_tokens(page) -> dict:
    """What this browser keeps: game id -> (seat, token) of its own seats, and every join link."""
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('tash-kalar-arena') || '{}').games || {}")
    return {gid: (g.get("seat"), g.get("token"), len(g.get("links") or [])) for gid, g in kept.items()}


def _play_turn(page, squares: tuple[str, ...]) -> None:
    """Place a common piece on each square by a click, then confirm the end of the turn."""
    for sq in squares:
        page.locator(f'.sq[data-square="{sq}"]').click()
        expect(page.locator(f'.sq[data-square="{sq}"]')).to_have_attribute("data-piece", re.compile("-common$"))
    page.locator('#prompt [data-command="end_turn"]').click()


def _call(page, method: str, path: str, body: dict | None = None) -> dict:
    """An API call as the page's signed-in player (its session cookie and CSRF token)."""
    url = re.match(r"https?://[^/]+", page.url).group(0) + path
    csrf = next((c["value"] for c in page.context.cookies() if c["name"] == "arena_csrf"), "")
    answer = page.request.fetch(url, method=method, data=body, headers={"X-CSRF-Token": csrf})
    assert answer.status in (200, 201), answer.text()
    return answer.json()


def _legal(game_id: str, page) -> list[dict]:
    commands = _call(page, "GET", f"/games/{game_id}/legal")["commands"]
    return [c for c in commands if c["type"] not in ("resign", "claim_win", "undo", "redo", "seat_options")]


def _play_to_the_final_round(game_id: str, by_seat: dict) -> None:
    """The long middle of the matched game through the API as each signed-in player, as any client
    would (random legal commands, seeded by the game), until the final round starts."""
    rng = random.Random(game_id)
    for _ in range(400):
        view = _call(by_seat[0], "GET", f"/games/{game_id}")
        if view["final_round"] or view["status"] == "finished":
            return
        page = by_seat[view["active_seat"]]
        _call(page, "POST", f"/games/{game_id}/commands", rng.choice(_legal(game_id, page)))
    raise AssertionError("400 commands and the final round has not started")


def _finish_by_clicks(game_id: str, by_seat: dict) -> None:
    """The final round on the pages: each player clicks the squares of their places and choices
    and ends the turn with the status bar's button (a decision with no square goes by the API).
    A page a step behind the API's moves says "the game moved on" and the player clicks again."""
    for _ in range(60):
        view = _call(by_seat[0], "GET", f"/games/{game_id}")
        if view["status"] == "finished":
            return
        page = by_seat[view["active_seat"]]
        commands = _legal(game_id, page)
        on_square = next((c for c in commands if c["type"] in ("place", "choose") and "square" in c), None)
        if not on_square and "end_turn" not in [c["type"] for c in commands]:
            _call(page, "POST", f"/games/{game_id}/commands", commands[0])
            continue
        for _attempt in range(3):
            if on_square:
                page.locator(f'.sq[data-square="{on_square["square"]}"]').click()
                if _own_destroyed(_call(page, "GET", f"/games/{game_id}"), on_square):  # the page asks first ...
                    try:
                        page.locator("#capture-yes").click(timeout=5_000)
                    except PlaywrightTimeout:       # ... unless it was a step behind: then it is clicked again
                        pass
            else:
                page.locator('#prompt [data-command="end_turn"]').click()
            if _moved_on(page, game_id, view["version"]):
                break
        else:
            raise AssertionError(f"nothing happened after {on_square or 'end_turn'} on the page")
    raise AssertionError("the final round did not end")


def _own_destroyed(view: dict, command: dict) -> list[str]:
    """The squares of the player's own pieces the command destroys: only those make the page ask."""
    colour = next(s["color"] for s in view["seats"] if s["seat"] == view["seat"])
    mine = {p["square"] for p in view["board"] if p["color"] == colour}
    return [sq for sq in command.get("squares", {}).get("destroys", []) if sq in mine]


def _moved_on(page, game_id: str, version: int) -> bool:
    for _ in range(30):
        if _call(page, "GET", f"/games/{game_id}")["version"] != version:
            return True
        page.wait_for_timeout(100)
    return False


def _back_to_the_lobby(page, url: str) -> None:
    page.locator("header.top a.brand").click()
    page.wait_for_url(url + "/")


def test_played_to_the_end_a_rematch_each_in_their_own_seat_quick_match_a_team_table_and_back_to_the_lobby(browser, live_server):
    ann_name, bob_name = (f"{n}{uuid.uuid4().hex[:6]}" for n in ("ann", "bob"))
    contexts = []
    try:
        (ann_ctx, ann), (bob_ctx, bob), (eve_ctx, eve) = new_page(browser), new_page(browser), new_page(browser)
        contexts += [ann_ctx, bob_ctx, eve_ctx]
        sign(ann, live_server.url, ann_name, "#sign-up-button")
        sign(bob, live_server.url, bob_name, "#sign-up-button")
        ann_shot, bob_shot = Shots(ann, "rematch-ann"), Shots(bob, "rematch-bob")

        # Ann invites Bob to a game near its end; Bob accepts in his lobby; Ann's header says it is her turn
        bob_id = bob.request.get(f"{live_server.url}/accounts/me").json()["id"]
        ann_id = ann.request.get(f"{live_server.url}/accounts/me").json()["id"]
        csrf = next(c["value"] for c in ann_ctx.cookies() if c["name"] == "arena_csrf")
        made = ann.request.post(f"{live_server.url}/games", headers={"X-CSRF-Token": csrf}, data={
            "form": "duel", "setup": NEAR_THE_END, "players": [{"name": ann_name, "school": "northern", "player": ann_id},
                                                               {"name": bob_name, "school": "sylvan", "player": bob_id}]})
        assert made.status == 201, made.text()
        game_id = made.json()["id"]
        bob.locator("#invitations li", has_text=ann_name).get_by_role("button", name="Accept").click()
        bob.wait_for_url(re.compile(f"/play/{game_id}$"))
        waiting = ann.locator("#waiting-games")                      # live, from Ann's own stream
        expect(waiting).to_have_text("Your turn in 1 game")
        waiting.click()
        ann.wait_for_url(re.compile(f"/play/{game_id}$"))

        eve.goto(live_server.url + "/")                              # a spectator: no account needed
        for _ in range(10):
            if eve.locator(f'#live-games a[href="/play/{game_id}"]').count():
                break
            eve.wait_for_timeout(500)
            eve.reload()
        eve.locator(f'#live-games a[href="/play/{game_id}"]').click()
        expect(eve.locator(".board")).to_be_visible()

        _play_turn(ann, ("e5", "e6"))                                # to the end, by clicks
        expect(bob.locator("#status")).to_have_text(re.compile("Your turn"))
        _play_turn(bob, ("a5", "b5"))
        expect(ann.locator("#status")).to_have_text(re.compile("Your turn"))
        _play_turn(ann, ("d5", "f5"))
        for page in (ann, bob, eve):
            expect(page.locator("#end-screen")).to_contain_text(f"{ann_name} wins")
        expect(eve.locator("#rematch")).to_have_count(0)             # a spectator has no say
        ann_shot("end")

        ann.click("#rematch")                                        # an offer, then Bob's acceptance
        expect(ann.locator("#rematch-offer")).to_contain_text(f"Waiting for {bob_name} to accept.")
        expect(bob.locator("#rematch-offer")).to_contain_text("A rematch is offered", timeout=10_000)  # the stream
        ann_shot("offered")
        bob_shot("offered-to-bob")
        expect(bob.locator("#rematch")).to_be_hidden()               # while an offer is open, one answers it
        accept = bob.locator("#accept-rematch").bounding_box()       # in the status bar: in view, no scrolling
        assert accept["y"] >= 0 and accept["y"] + accept["height"] <= bob.viewport_size["height"], accept
        bob.click("#accept-rematch")
        for page in (ann, bob):
            page.wait_for_url(lambda url: "/play/" in url and game_id not in url)
        rematch_id = _game_id(ann)
        assert _game_id(bob) == rematch_id
        seats = {}
        for name, page in ((ann_name, ann), (bob_name, bob)):
            expect(page.locator(".board")).to_be_visible()
            expect(page.locator(".tag-you")).to_have_count(1)        # one seat, its own
            seat, token, links = _own_tokens(page)[rematch_id]
            assert links == 0
            status, view = live_server.call("GET", f"/games/{rematch_id}", token=token)
            assert status == 200 and view["players"][view["seat"]]["name"] == name
            seats[name] = view["seat"]
        assert sorted(seats.values()) == [0, 1]
        ann_shot("rematch")

        # quick match: they find each other, and the lobby stays reachable afterwards
        for page in (ann, bob):
            _back_to_the_lobby(page, live_server.url)
            page.select_option("#seek-form", "duel")
            page.click("#find-opponent")
        for page in (ann, bob):
            page.wait_for_url(GAME_URL)
            expect(page.locator(".board")).to_be_visible()
        matched_id = _game_id(ann)
        assert _game_id(bob) == matched_id and matched_id not in (game_id, rematch_id)
        by_seat = {_call(page, "GET", f"/games/{matched_id}")["seat"]: page for page in (ann, bob)}
        assert sorted(by_seat) == [0, 1]
        _play_to_the_final_round(matched_id, by_seat)
        _finish_by_clicks(matched_id, by_seat)
        for page in (ann, bob):
            expect(page.locator("#end-screen")).to_be_visible()
        ann_shot("quick-match-over")
        for page in (ann, bob):
            _back_to_the_lobby(page, live_server.url)
            expect(page.locator(f'#my-games .game-item[data-game="{matched_id}"] .game-badge')).to_have_text("Over")
            expect(page.locator(f'#my-games .game-item[data-game="{game_id}"]')).to_contain_text(
                "you won" if page is ann else f"{ann_name} won")
            page.wait_for_timeout(1000)
            assert page.url == live_server.url + "/"

        # a 2 v 2 table opened in the lobby: Bob joins by a click, two more players by the API
        ann.select_option("[name=table-form]", "duel")
        ann.check("#table-teams")
        expect(ann.locator("#table-seats")).to_have_value("4")
        ann.click("#open-table-button")
        row = bob.locator(".table-item", has_text=ann_name)
        row.locator("button.join").click()
        table_id = next(t["id"] for t in live_server.call("GET", "/lobby/tables")[1]["tables"] if t.get("teams")
                        and any(p["name"] == ann_name for p in t["players"]))
        for name in ("Cy", "Dee"):
            status, player = live_server.call("POST", "/players", {"name": f"{name}{uuid.uuid4().hex[:6]}"})
            assert status == 201, player
            status, joined = live_server.call("POST", f"/lobby/tables/{table_id}/join", {}, token=player["token"])
            assert status == 200, joined
        team_id = joined["game_id"]
        for page in (ann, bob):
            page.wait_for_url(re.compile(f"/play/{team_id}$"))
            expect(page.locator(".game-title")).to_contain_text("2 v 2")
            expect(page.locator(".team-score")).to_have_count(2)     # the scores grouped by team
            expect(page.locator(".team-score", has_text="Your team")).to_have_count(1)
        ann_shot("team-game")

        home_ctx, home = new_page(browser)                           # Ann on a second browser
        contexts.append(home_ctx)
        sign(home, live_server.url, ann_name, "#sign-in-button")
        games = home.locator("#my-games .game-item")
        expect(games).to_have_count(4)
        over = home.locator(f'#my-games .game-item[data-game="{game_id}"]')
        expect(over).to_contain_text("you won")
        expect(over.locator(".game-badge")).to_have_text("Over")
        expect(over).to_contain_text(f"duel vs {bob_name}")
        expect(home.locator(f'#my-games .game-item[data-game="{team_id}"]')).to_contain_text("2 v 2")
        now = home.locator(f'#my-games .game-item[data-game="{rematch_id}"]')
        _, view = live_server.call("GET", f"/games/{rematch_id}")
        ann_to_play = view["active_seat"] == seats[ann_name]
        expect(now.locator(".game-badge")).to_have_text("Your turn" if ann_to_play else "Playing")
        expect(now).to_contain_text("your turn" if ann_to_play else f"{bob_name} to play")
        Shots(home, "rematch-home")("second-browser-lobby")
        for page in (ann, bob, eve, home):
            assert page.errors == [], page.errors
    finally:
        for ctx in contexts:
            ctx.close()
