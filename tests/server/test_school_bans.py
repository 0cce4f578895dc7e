"""School bans and mutual selection over HTTP against a real Redis: a lobby table that bans, a game
whose players choose each other's schools, each choice a pending decision offered by /legal, and
the records verified (the schools drawn after the bans re-derive from the revealed seed)."""
from __future__ import annotations

from events.verify import verify_record
from tests.server.conftest import bearer

from .people import person


def choices(legal: dict) -> list[str]:
    return [c["school"] for c in legal["commands"] if c["type"] == "choose"]


def test_at_a_table_with_bans_each_player_bans_in_seat_order_and_no_banned_school_is_drawn(app, client):
    ann, bob = person(app, "ann"), person(app, "bob")
    modes = {m["id"]: m["name"] for m in client.get("/vocabulary").json["school_modes"]}
    assert modes["bans"] == "Random after bans" and modes["mutual"] == "Mutual selection"
    four = ann.post("/lobby/tables", {"form": "melee", "seats": 4, "schools": "bans"})
    assert four.status_code == 400 and "bans need two schools per player" in str(four.json)
    table = ann.post("/lobby/tables", {"form": "duel", "schools": "bans", "rated": False}).json
    assert [t["schools"] for t in bob.get("/lobby/tables").json["tables"] if t["id"] == table["id"]] == ["bans"]
    game_id = bob.post(f"/lobby/tables/{table['id']}/join").json["game_id"]
    by_seat = {p.get(f"/games/{game_id}").json["seat"]: p for p in (ann, bob)}
    banned: list[str] = []
    for seat in (0, 1):
        legal = by_seat[seat].get(f"/games/{game_id}/legal").json
        assert choices(by_seat[1 - seat].get(f"/games/{game_id}/legal").json) == []
        view = by_seat[seat].get(f"/games/{game_id}").json
        assert view["pending"]["kind"] == "ban" and [s["school"] for s in view["seats"]] == ["bans", "bans"]
        assert not set(banned) & set(choices(legal)) and len(choices(legal)) == 7 - seat
        school = choices(legal)[-1 - seat]
        r = by_seat[seat].post(f"/games/{game_id}/commands", {"type": "choose", "school": school,
                                                              "expected_version": legal["version"]})
        assert r.status_code == 200, r.json
        banned.append(school)
    seats = by_seat[0].get(f"/games/{game_id}").json["seats"]
    assert [s["banned"] for s in seats] == banned
    drawn = [s["school"] for s in seats]
    assert len(set(drawn)) == 2 and not set(drawn) & set(banned)
    lines = [line["text"] for line in client.get(f"/games/{game_id}/log").json["lines"]]
    assert sum(" bans " in line for line in lines) == 2 and sum("drawn at random" in line for line in lines) == 2
    assert by_seat[0].post(f"/games/{game_id}/resign", {}).status_code == 200
    record = client.get(f"/games/{game_id}/record").json
    assert [e["type"] for e in record["events"] if e["type"].startswith("School")] == \
        ["SchoolBanned", "SchoolBanned", "SchoolDrawn", "SchoolDrawn"]
    assert verify_record(record).ok


def test_with_mutual_selection_each_player_chooses_the_next_players_school_in_seat_order(client):
    players = [{"name": n, "school": "mutual"} for n in ("Ann", "Bob")]
    created = client.post("/games", json={"form": "duel", "players": players})
    assert created.status_code == 201, created.json
    game_id, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    given: list[str] = []
    for chooser in range(2):
        legal = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[chooser])).json
        assert not set(given) & set(choices(legal)) and len(choices(legal)) == 7 - chooser
        view = client.get(f"/games/{game_id}", headers=bearer(tokens[chooser])).json
        assert [s["school"] for s in view["seats"]][1:chooser + 1] == given          # the earlier choices, seen
        assert view["pending"]["prompt"] == "Choose the school the next player plays"
        given.append(choices(legal)[chooser])
        r = client.post(f"/games/{game_id}/commands", json={"type": "choose", "school": given[-1],
                                                            "expected_version": legal["version"]},
                        headers=bearer(tokens[chooser]))
        assert r.status_code == 200, r.json
    seats = client.get(f"/games/{game_id}").json["seats"]
    assert [(s["school"], s["chosen_by"]) for s in seats] == [(given[1], 1), (given[0], 0)]
    lines = [line["text"] for line in client.get(f"/games/{game_id}/log").json["lines"]]
    assert f"Ann chooses {given[0].capitalize()} for Bob to play." in lines
    assert f"Bob chooses {given[1].capitalize()} for Ann to play." in lines
    assert client.post(f"/games/{game_id}/resign", json={}, headers=bearer(tokens[0])).status_code == 200
    assert verify_record(client.get(f"/games/{game_id}/record").json).ok
