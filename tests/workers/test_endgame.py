"""End of game: standings, ratings (2 to 4 sides), the archive, notifications; running twice changes nothing."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from freezegun import freeze_time
from rq import Queue

from events import due
from events.verify import verify_text
from workers import endgame, queues, ratings

from .helpers import bearer, new_game, record_file, register, run_worker


def finished_duel(client, redis_db):
    ann, bob = register(client, "Ann"), register(client, "Bob")
    game = new_game(client, seed=None, players=[{"name": "Ann", "school": "northern", "player": ann["id"]},
                                                {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    r = client.post(f"/games/{game['id']}/resign", headers=bearer(game["seats"][1]["token"]))
    assert r.status_code == 200
    run_worker(redis_db)
    return game, ann, bob


def snapshot(client, redis_db, archive, game, players):
    return {"ratings": [client.get("/players/me/rating", headers=bearer(p["token"])).json for p in players],
            "files": {p.name: p.read_bytes() for p in sorted(archive.rglob("*")) if p.is_file()},
            "inbox": [client.get("/players/me/notifications", headers=bearer(p["token"])).json for p in players]}


def test_a_finished_game_is_scored_rated_archived_and_announced(client, redis_db, tmp_path):
    game, ann, bob = finished_duel(client, redis_db)
    archive = tmp_path / "data" / "archive"
    record = record_file(archive, game["id"]).read_bytes()
    assert verify_text(record).ok
    result = json.loads((archive / f"{game['id']}.result.json").read_text())
    assert [(r["name"], r["place"]) for r in result["standings"]] == [("Ann", 1), ("Bob", 2)]
    assert result["reason"] == "resignation"
    ann_rating = client.get("/players/me/rating", headers=bearer(ann["token"])).json
    bob_rating = client.get("/players/me/rating", headers=bearer(bob["token"])).json
    assert ann_rating["games"] == bob_rating["games"] == 1
    assert ann_rating["mu"] > 25 > bob_rating["mu"]
    over = [n for n in client.get("/players/me/notifications", headers=bearer(bob["token"])).json["notifications"]
            if n["type"] == "game_over"]
    assert len(over) == 1 and over[0]["place"] == 2 and over[0]["winners"] == [0]


def test_running_the_end_of_game_job_again_changes_nothing(client, redis_db, tmp_path):
    game, ann, bob = finished_duel(client, redis_db)
    archive = tmp_path / "data" / "archive"
    before = snapshot(client, redis_db, archive, game, [ann, bob])
    Queue("arena", connection=redis_db).enqueue("workers.jobs.finish_game", game["id"])
    run_worker(redis_db)
    assert snapshot(client, redis_db, archive, game, [ann, bob]) == before


def rows(places: list[int], players: list[str | None], colors: list[int] | None = None) -> list[dict]:
    colors = colors or list(range(len(places)))
    return [{"seat": i, "place": p, "player": pid, "color": c} for i, (p, pid, c) in enumerate(zip(places, players, colors))]


def test_a_four_player_melee_is_rated_by_place_with_ties(redis_db):
    change = ratings.rate(redis_db, "m4", rows([1, 2, 2, 4], ["p1", "p2", "p3", "p4"]))
    after = {pid: c["after"]["mu"] for pid, c in change["players"].items()}
    assert after["p1"] > after["p2"] == after["p3"] > after["p4"]
    assert ratings.rate(redis_db, "m4", rows([4, 3, 2, 1], ["p1", "p2", "p3", "p4"])) == change    # rated once


def test_a_three_player_melee_rates_only_registered_players(redis_db):
    change = ratings.rate(redis_db, "m3", rows([2, 1, 3], ["p1", None, "p3"]))
    assert set(change["players"]) == {"p1", "p3"}
    assert change["players"]["p1"]["after"]["mu"] > change["players"]["p3"]["after"]["mu"]


def test_team_play_rates_the_seats_of_one_colour_as_one_team(redis_db):
    change = ratings.rate(redis_db, "t4", rows([1, 2, 1, 2], ["a1", "b1", "a2", "b2"], colors=[0, 1, 0, 1]))
    after = {pid: c["after"]["mu"] for pid, c in change["players"].items()}
    assert after["a1"] == after["a2"] > 25 > after["b1"] == after["b2"]


def test_an_end_of_game_job_that_was_lost_is_enqueued_again_by_the_deadline_loop(client, redis_db, tmp_path):
    ann, bob = register(client, "Ann"), register(client, "Bob")
    game = new_game(client, seed=None, players=[{"name": "Ann", "school": "northern", "player": ann["id"]},
                                                {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    assert client.post(f"/games/{game['id']}/resign", headers=bearer(game["seats"][1]["token"])).status_code == 200
    pipe = redis_db.pipeline()
    queues.cancel(pipe, Queue("arena", connection=redis_db), [f"finish-{game['id']}"])      # the job is lost
    pipe.execute()
    look = due.when(redis_db, due.member("finish", game["id"]))
    run_worker(redis_db)
    assert not endgame.done(redis_db, game["id"])
    with freeze_time(datetime.fromtimestamp(look + 0.1, timezone.utc)):
        run_worker(redis_db)
    assert endgame.done(redis_db, game["id"])
    assert record_file(tmp_path / "data" / "archive", game["id"]).exists()
    assert due.when(redis_db, due.member("finish", game["id"])) is None
