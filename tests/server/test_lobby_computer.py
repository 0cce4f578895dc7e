"""A lobby table with a place for the computer: it is casual, the computer's level shows at the
table and on the seat, and the game starts when the people's places are taken."""
from __future__ import annotations

import pytest

from .conftest import bearer
from .people import fresh, registered


@pytest.fixture
def client(app):
    return fresh(app)


def test_a_melee_table_with_the_computer_starts_when_the_people_have_joined(client):
    ann, bob = registered(client, "Ann"), registered(client, "Bob")
    opened = client.post("/lobby/tables", json={"form": "melee", "seats": 3, "schools": "fixed", "school": "northern",
                                                "computers": [4]}, headers=bearer(ann["token"]))
    assert opened.status_code == 201, opened.json
    table = opened.json
    assert table["rated"] is False                                       # the computer never plays rated
    computer = table["players"][1]
    assert (computer["name"], computer["bot_level"], computer["player"]) == ("Computer", 4, None)
    assert computer["school"] not in (None, "northern")
    joined = client.post(f"/lobby/tables/{table['id']}/join", json={"school": "sylvan"}, headers=bearer(bob["token"]))
    assert joined.status_code == 200 and joined.json["status"] == "started", joined.json
    view = client.get(f"/games/{table['id']}").json
    seat = next(p for p in view["players"] if p["bot"])
    assert (seat["name"], seat["bot_level"], view["rated"]) == ("Computer", 4, False)


def test_a_table_leaves_a_place_for_a_person(client):
    ann = registered(client, "Ann")
    refused = client.post("/lobby/tables", json={"form": "duel", "computers": [3]}, headers=bearer(ann["token"]))
    assert refused.status_code == 400 and "computers" in str(refused.json)
