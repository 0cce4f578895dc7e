"""Push notifications in a real Chromium, as far as a browser goes offline: the site registers its
service worker, and the account page offers the opt-in and the kinds, at desktop and phone sizes.
(Subscribing needs the browser's push service, which cannot be reached here: the page says so;
delivery itself is proven against a local push service in tests/workers/test_push.py.)"""
from __future__ import annotations

import uuid

from playwright.sync_api import expect

from .conftest import Shots
from .test_people import new_page, sign


def test_the_site_registers_its_service_worker_and_the_account_page_offers_push(browser, live_server):
    ctx, page = new_page(browser)
    try:
        ctx.grant_permissions(["notifications"], origin=live_server.url)
        sign(page, live_server.url, f"push{uuid.uuid4().hex[:6]}", "#sign-up-button")
        page.goto(live_server.url + "/account")
        scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
        assert scope == live_server.url + "/"
        section = page.locator("section", has=page.get_by_role("heading", name="Push notifications"))
        section.scroll_into_view_if_needed()
        expect(section.get_by_role("button", name="Send push notifications to this browser")).to_be_in_viewport()
        expect(section.locator("#push-devices")).to_contain_text("No device yet.")
        labels = section.locator("label.check")
        pushed = [k for k in page.request.get(f"{live_server.url}/notices.json").json()["kinds"] if k["push"]]
        expect(labels).to_have_count(len(pushed))                             # every kind the registry pushes
        assert {"your_turn", "deadline_soon", "game_over", "chat_mention", "invitation", "rematch_offer"} <= \
            {k["kind"] for k in pushed}
        expect(labels.filter(has_text="Mentioned in chat").locator("input")).to_be_checked()
        labels.filter(has_text="Your turn").locator("input").uncheck()
        section.get_by_role("button", name="Save").click()
        expect(section.locator("#push-status")).to_have_text("Saved.")
        kinds = page.request.get(f"{live_server.url}/accounts/me/push").json()["kinds"]
        assert kinds["your_turn"] is False and kinds["chat_mention"] is True
        shots = Shots(page, "push-opt-in")
        shots("desktop", full_page=False)
        section.get_by_role("button", name="Send push notifications to this browser").click()
        expect(section.locator("#push-status")).to_contain_text("could not subscribe at its push service")
        page.set_viewport_size({"width": 390, "height": 844})
        section.scroll_into_view_if_needed()
        expect(section.get_by_role("button", name="Send push notifications to this browser")).to_be_in_viewport()
        shots("phone", full_page=False)
        assert page.errors == []
    finally:
        ctx.close()
