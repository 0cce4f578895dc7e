"""School bans in a real Chromium: the seat to ban sees the question with every school, clicks one,
and the seats show the bans and, once the other seat has banned, the schools drawn from the rest."""
from __future__ import annotations

from playwright.sync_api import expect

from .test_play import open_seat


def test_a_player_bans_a_school_on_the_game_page_and_sees_the_schools_drawn(page, live_server, shot):
    created = live_server.create({"form": "duel", "players": [{"name": "Ann", "school": "bans"},
                                                              {"name": "Bob", "school": "bans"}]})
    game_id, (ann, bob) = created["id"], [s["token"] for s in created["seats"]]
    open_seat(page, live_server, game_id, ann)
    expect(page.locator("#status")).to_contain_text("Ban a school")
    expect(page.locator('.seat[data-seat="0"] .seat-facts').first).to_contain_text("Random after bans")
    options = page.locator('#prompt button[data-command="choose"]')
    expect(options).to_have_count(7)
    shot("ban-asked")
    options.filter(has_text="Everfrost").click()
    expect(page.locator('.seat[data-seat="0"] .school-ban')).to_have_text("banned Everfrost")
    status, legal = live_server.call("GET", f"/games/{game_id}/legal", token=bob)
    assert status == 200 and "everfrost" not in [c.get("school") for c in legal["commands"]]
    status, _ = live_server.call("POST", f"/games/{game_id}/commands", {"type": "choose", "school": "sylvan"}, token=bob)
    assert status == 200
    expect(page.locator('.seat[data-seat="1"] .school-ban')).to_have_text("banned Sylvan")
    expect(page.locator("#log")).to_contain_text("Bob bans Sylvan: nobody will play it.")
    expect(page.locator("#log")).to_contain_text("drawn at random")
    schools = page.locator(".seat .seat-facts > span:first-child").all_inner_texts()
    assert not {"Everfrost", "Sylvan", "Random after bans"} & set(schools), schools
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_role("button", name="Close").click()                       # the phone's hand drawer
    page.locator('.seat[data-seat="0"] .school-ban').scroll_into_view_if_needed()
    expect(page.locator('.seat[data-seat="0"] .school-ban')).to_be_in_viewport()
    shot("drawn-phone", full_page=False)
