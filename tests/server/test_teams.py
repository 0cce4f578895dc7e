"""Team play and school choice over HTTP: create a 2 vs 2 game, draft schools, play it to the end."""
from __future__ import annotations

import pytest

from events.verify import verify_record
from tests.server.conftest import bearer
from tests.server.play import play_over_http


def _create(client, form: str, schools: list[str], seed: str) -> tuple[str, list[str]]:
    players = [{"name": f"P{i}", "school": s} for i, s in enumerate(schools)]
    r = client.post("/games", json={"form": form, "teams": True, "players": players, "seed": seed})
    assert r.status_code == 201, r.json
    return r.json["id"], [s["token"] for s in r.json["seats"]]


@pytest.mark.parametrize("form", ["duel", "high_form"])
def test_a_team_game_with_drafted_and_random_schools_is_played_to_the_end_over_http(client, form):
    game_id, tokens = _create(client, form, ["draft", "random", "draft", "northern"], seed=f"teams-{form}")
    view = client.get(f"/games/{game_id}", headers=bearer(tokens[0])).json
    assert view["teams"] is True and view["status"] == "setup" and view["active_seat"] == 0
    assert [s["color"] for s in view["seats"]] == [0, 1, 0, 1]
    offered = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[0])).json["commands"]
    assert {c["type"] for c in offered} == {"choose", "resign"}
    school = next(c["school"] for c in offered if c["type"] == "choose")
    answer = client.post(f"/games/{game_id}/commands", json={"type": "choose", "school": school},
                         headers=bearer(tokens[0]))
    assert answer.status_code == 200, answer.json
    assert client.get(f"/games/{game_id}", headers=bearer(tokens[0])).json["seats"][0]["school"] == school
    seen = set()
    final = play_over_http(client, game_id, tokens, seed=form,
                           on_response=lambda seat, r: seen.update(c["type"] for c in r.json.get("commands", [])))
    assert "pass_control" in seen
    winners = final["result"]["winners"]
    assert sorted(winners) in ([0, 2], [1, 3], [0, 1, 2, 3])
    assert all(s["sideways"] <= 6 for s in final["seats"])
    verdict = verify_record(client.get(f"/games/{game_id}/record").json)
    assert verdict.ok, verdict                      # the drawn and drafted schools re-derive from the seed


def test_team_play_is_refused_for_a_melee_over_http(client):
    players = [{"name": f"P{i}", "school": s} for i, s in enumerate(["northern", "sylvan", "highland", "southern"])]
    r = client.post("/games", json={"form": "melee", "teams": True, "players": players})
    assert r.status_code in (400, 422) and r.json["code"] == "teams_not_available"
