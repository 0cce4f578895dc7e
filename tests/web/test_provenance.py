"""The game page says when a game was imported without a trusted signature (and says nothing for a
game played here), as text: the note comes from GET /games/{id} `provenance`."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.server.test_signed_records import relabelled


def test_an_unsigned_import_is_marked_on_the_game_page_and_a_local_game_is_not(page, live_server):
    game = live_server.create({"form": "duel", "players": [{"name": "Ann", "school": "northern"},
                                                           {"name": "Bob", "school": "sylvan"}]})
    assert live_server.call("POST", f"/games/{game['id']}/resign", token=game["seats"][0]["token"])[0] == 200
    _, record = live_server.call("GET", f"/games/{game['id']}/record")
    status, imported = live_server.call("POST", "/games/import", relabelled(record, "copy" + game["id"][:10]))
    assert status == 201 and imported["provenance"]["origin"] == "unsigned", imported
    page.goto(f"{live_server.url}/play/{imported['id']}")
    expect(page.locator("#provenance")).to_have_text(
        "Imported record without a valid signature: nothing shows it was really played, and it is not rated.")
    page.goto(f"{live_server.url}/play/{game['id']}")
    expect(page.locator("#log")).to_contain_text("resign")
    expect(page.locator("#provenance")).to_be_hidden()
