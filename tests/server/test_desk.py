"""The desk (GET /players/me/desk): every game of yours, those to play first by time left, then those
waiting on others, then the finished ones by end; what changed since you looked; the next game
waiting; filters. Served from the per-player index the follow-up hook writes (events/desk.py)."""
from __future__ import annotations

from events import keys
from tests.server.conftest import bearer

from .people import person

DAY, HOUR = {"kind": "move", "seconds": 86400}, {"kind": "move", "seconds": 3600}


def _game(ann, tc=None, opponent="Bob", ann_plays_first=True) -> tuple[str, str]:
    """A duel of Ann's against a guest seat; (its id, the guest seat's token). Seat 2 plays first."""
    seats = [{"name": opponent, "school": "northern"}, {"name": ann.name, "school": "sylvan", "player": ann.id}]
    seats = seats if ann_plays_first else seats[::-1]
    made = ann.post("/games", {"form": "duel", "players": seats, **({"time_control": tc} if tc else {})})
    assert made.status_code == 201, made.json
    return made.json["id"], next(s["token"] for s in made.json["seats"] if s["name"] == opponent)


def _play_once(client, game_id: str, token: str) -> None:
    command = next(c for c in client.get(f"/games/{game_id}/legal", headers=bearer(token)).json["commands"]
                   if c["type"] != "resign")
    assert client.post(f"/games/{game_id}/commands", json=command, headers=bearer(token)).status_code == 200


def test_the_desk_puts_my_turn_first_by_time_left_then_others_then_finished_and_says_what_changed(app, client, redis_client):
    ann = person(app, "ann")
    day, _ = _game(ann, DAY)
    hour, _ = _game(ann, HOUR)
    untimed, _ = _game(ann, opponent="Cy")
    over, over_bob = _game(ann, DAY)
    client.post(f"/games/{over}/resign", headers=bearer(over_bob))
    theirs, theirs_bob = _game(ann, DAY, ann_plays_first=False)
    mine = ann.get("/players/me/desk").json
    rows = {g["id"]: g for g in mine["games"]}
    assert all(set(g) >= set(ann.get("/players/me/games").json["games"][0]) for g in mine["games"])   # a superset
    turn = [g["id"] for g in mine["games"] if g["section"] == "your_turn"]
    assert turn == [hour, day, untimed]                               # the least time left first, no clock last
    assert [g["section"] for g in mine["games"]] == ["your_turn"] * 3 + ["waiting", "finished"]
    assert mine["next"] == hour and rows[theirs]["status_text"] == "Bob to play" and mine["games"][-1]["id"] == over
    assert rows[day]["deadline"] and rows[hour]["seconds_left"] <= 3600 and rows[untimed]["seconds_left"] is None
    assert rows[day]["changed"] and rows[day]["seen_version"] == 0    # never looked at

    ann.get(f"/games/{day}")                                          # looking at it
    ann.get(f"/games/{theirs}")
    rows = {g["id"]: g for g in ann.get("/players/me/desk").json["games"]}
    assert not rows[day]["changed"] and not rows[theirs]["changed"]
    _play_once(client, theirs, theirs_bob)                            # Bob moves on: changed since Ann looked
    assert {g["id"]: g for g in ann.get("/players/me/desk").json["games"]}[theirs]["changed"]

    # filters, and their choices from all the games
    assert {g["id"] for g in ann.get("/players/me/desk?opponent=cy").json["games"]} == {untimed}
    assert ann.get("/players/me/desk?form=melee").json["games"] == []
    assert ann.get("/players/me/desk?rated=false").json["counts"] == {"your_turn": 0, "waiting": 0, "finished": 0}
    assert mine["opponents"] == ["Bob", "Cy"] and mine["forms"] == ["duel"]
    assert ann.get("/players/me/desk?form=chess").status_code == 400
    assert app.test_client().get("/players/me/desk").status_code == 401

    # served from the index the follow-up hook writes; a game missing from it is read from the game
    assert redis_client.hget(keys.desk(ann.id), day)
    def facts():
        return [(g["id"], g["section"], g["deadline"], g["changed_at"], g["changed"], g["status_text"])
                for g in ann.get("/players/me/desk").json["games"]]
    before = facts()
    redis_client.delete(keys.desk(ann.id))
    assert facts() == before
