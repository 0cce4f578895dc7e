"""Private notes (events/notes.py) through HTTP: a seat writes and reads its own; no other seat, no
spectator, no read endpoint, stream, record or log ever shows them; the seat's own export does."""
from __future__ import annotations

import logging

from events.verify import verify_record
from tests.server.conftest import bearer

from .people import person
from .reads import EVERY_READ as READS

SECRET = "NOTE-7f3a: they hoard the centre, go for the corners"


def test_a_note_is_its_seats_alone_and_leaves_only_in_its_own_export(app, client, caplog):
    caplog.set_level(logging.DEBUG)
    made = client.post("/games", json={"form": "duel", "players": [{"name": "Ann", "school": "northern"},
                                                                   {"name": "Bob", "school": "sylvan"}]}).json
    game_id, (ann, bob) = made["id"], [bearer(s["token"]) for s in made["seats"]]
    notes = f"/games/{game_id}/notes"
    assert client.get(notes, headers=ann).json == {"seat": 0, "text": "", "updated": None}
    saved = client.put(notes, json={"text": SECRET + "\u0007"}, headers=ann).json
    assert saved["text"] == SECRET and saved["updated"]                      # control characters dropped
    assert client.get(notes, headers=ann).json["text"] == SECRET

    carol = person(app, "carol")                                             # signed in, not seated
    assert client.get(notes).status_code == 401 and carol.get(notes).status_code == 403
    assert client.get(notes, headers=bob).json["text"] == ""
    assert client.put(notes, json={"text": "x" * 10_001}, headers=ann).status_code == 400
    assert client.get("/games/nosuchgame/notes", headers=ann).status_code in (401, 404)

    client.post(f"/games/{game_id}/resign", headers=bob)                     # over: the full record too
    for who in (bob, {}, carol):
        get = carol.get if who is carol else (lambda path, w=who: client.get(path, headers=w))
        for path in READS:
            assert SECRET not in get(f"/games/{game_id}{path}").get_data(as_text=True), (who, path)
    assert SECRET not in carol.get("/players/me/desk").get_data(as_text=True)
    own = client.get(f"/games/{game_id}/record", headers=ann).json
    assert own["notes"] == {"seat": 0, "text": SECRET} and verify_record(own).ok
    assert SECRET not in caplog.text

    client.put(notes, json={"text": "  "}, headers=ann)                      # emptied: gone
    assert client.get(notes, headers=ann).json["updated"] is None
    assert "notes" not in client.get(f"/games/{game_id}/record", headers=ann).json
