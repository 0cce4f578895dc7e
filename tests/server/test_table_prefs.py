"""An account's preferences at the table (GET/PUT /accounts/me/table): never set until chosen, the
same on every device, refused in words when malformed, and nothing without an account."""
from __future__ import annotations

from .people import fresh, person


def test_confirm_turn_end_is_unset_until_chosen_then_kept_for_the_account(app):
    ann = person(app, "ann")
    assert ann.get("/accounts/me/table").json == {"confirm_turn_end": None}
    changed = ann.client.put("/accounts/me/table", json={"confirm_turn_end": False}, headers=ann.csrf)
    assert changed.status_code == 200 and changed.json == {"confirm_turn_end": False}
    assert ann.get("/accounts/me/table").json == {"confirm_turn_end": False}
    wrong = ann.client.put("/accounts/me/table", json={"confirm_turn_end": "maybe"}, headers=ann.csrf)
    assert wrong.status_code == 400 and wrong.mimetype == "application/problem+json"
    assert ann.get("/accounts/me/table").json == {"confirm_turn_end": False}


def test_a_guest_has_no_table_preferences(app):
    assert fresh(app).get("/accounts/me/table").status_code == 401
