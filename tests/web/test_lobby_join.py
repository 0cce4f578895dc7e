"""Joining a fixed-schools table in a real Chromium, with the keyboard only: the in-row school
chooser (no prompt()), the school already played shown taken, Escape to back out, and the game
started with the school chosen; an invitation in the lobby that says who invites you to what; a
player muted in the chat; and an opponent's vacation shown on the game page, their clock standing still."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from .test_people import new_page, say, sign


def test_joining_a_fixed_schools_table_with_the_in_page_chooser(browser, live_server):
    ann_name, bob_name = (f"{n}{uuid.uuid4().hex[:6]}" for n in ("ann", "bob"))
    ann_ctx, ann = new_page(browser)
    bob_ctx, bob = new_page(browser)
    try:
        sign(ann, live_server.url, ann_name, "#sign-up-button")
        sign(bob, live_server.url, bob_name, "#sign-up-button")
        # an invitation says who invites you to what, and until when
        bob_id = bob.request.get(f"{live_server.url}/accounts/me").json()["id"]
        csrf = next(c["value"] for c in ann.context.cookies() if c["name"] == "arena_csrf")
        invited = ann.request.post(f"{live_server.url}/games", headers={"X-CSRF-Token": csrf}, data={
            "form": "duel", "players": [{"name": ann_name, "school": "northern"},
                                        {"name": bob_name, "school": "sylvan", "player": bob_id}]})
        assert invited.status == 201, invited.text()
        expect(bob.locator("#notifications")).to_contain_text("invites you")       # live, no reload
        expect(bob.locator("#invitations li")).to_contain_text(
            re.compile(f"{ann_name} invites you to .*duel.* as {bob_name} \\(seat 2 of 2\\); answer by"))
        ann.select_option("[name=table-schools]", "fixed")
        ann.select_option("[name=table-school]", "northern")
        ann.select_option("[name=table-clock]", "move:300")
        ann.click("#open-table-button")
        bob.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError(f"a dialog opened: {d.message}")))
        row = bob.locator(".table-item", has_text=ann_name)
        expect(row).to_be_visible()
        row.locator("button.join").focus()
        bob.keyboard.press("Enter")
        chooser = row.get_by_role("group", name="Choose your school")
        expect(chooser).to_be_visible()
        taken = chooser.get_by_role("radio", name=re.compile("Northern"))
        expect(taken).to_be_disabled()
        expect(taken).to_have_accessible_name(re.compile(f"{ann_name} plays it"))
        first = chooser.get_by_role("radio", checked=True)
        expect(first).to_be_focused()
        bob.keyboard.press("Escape")                                        # back out: focus returns to Join
        expect(row.locator(".school-chooser")).to_have_count(0)
        expect(row.locator("button.join")).to_be_focused()
        bob.keyboard.press("Enter")
        expect(row.get_by_role("radio", checked=True)).to_be_focused()
        bob.keyboard.press("ArrowRight")                                    # the radio group's own keys
        chosen = row.get_by_role("radio", checked=True).get_attribute("value")
        assert chosen not in (None, "northern")
        bob.keyboard.press("Tab")
        expect(row.get_by_role("button", name="Join with this school")).to_be_focused()
        bob.keyboard.press("Enter")
        bob.wait_for_url(re.compile(r"/play/[A-Za-z0-9]+$"))
        game_id = bob.url.rsplit("/", 1)[1]
        view = bob.request.get(f"{live_server.url}/games/{game_id}").json()
        schools = {p["name"]: view["seats"][p["seat"]]["school"] for p in view["players"]}
        assert schools == {ann_name: "northern", bob_name: chosen}

        # muting a player in the chat: their messages go, and the next ones never come
        say(bob, "players", "hello from Bob")
        expect(ann.locator("#chat-players")).to_contain_text("hello from Bob")
        ann.locator("#chat-players .mute").first.click()
        expect(ann.locator("#chat-players")).not_to_contain_text("hello from Bob")
        say(bob, "players", "can you hear me")
        expect(bob.locator("#chat-players")).to_contain_text("can you hear me")
        ann.wait_for_timeout(1500)
        expect(ann.locator("#chat-players")).not_to_contain_text("can you hear me")

        # the player to move goes on vacation: the other sees it on the game page, their clock stands still
        ann.wait_for_url(re.compile(f"/play/{game_id}$"))
        mover = next(p["name"] for p in view["players"] if p["seat"] == view["active_seat"])
        away, watcher = (ann, bob) if mover == ann_name else (bob, ann)
        token = next(c["value"] for c in away.context.cookies() if c["name"] == "arena_csrf")
        assert away.request.post(f"{live_server.url}/accounts/me/vacation", data={"days": 2},
                                 headers={"X-CSRF-Token": token}).status == 201
        watcher.reload()
        seat = watcher.locator(f'.seat[data-seat="{view["active_seat"]}"]')
        expect(seat.locator(".seat-vacation")).to_contain_text("On vacation until")
        shown = seat.locator(".clock").inner_text()
        watcher.wait_for_timeout(2200)
        assert seat.locator(".clock").inner_text() == shown
        assert bob.errors == [] and ann.errors == []
    finally:
        ann_ctx.close()
        bob_ctx.close()
