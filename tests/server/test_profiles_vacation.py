"""Profiles, the list of live games, and vacation over HTTP against a real Redis.

The end-of-game job is run as a worker runs it (workers.endgame.finish) once a game is resigned;
time is moved with freezegun, which the recorded event times and the clocks both follow."""
from __future__ import annotations

import pytest
from freezegun import freeze_time

from events import keys, presence
from workers import endgame
from events.clocks import parse_time
from events.settings import Settings

from .conftest import reconfigure
from .people import fresh, person

DAY = 86400


def lobby_game(app, ann, bob, **table):
    made = ann.post("/lobby/tables", {"form": "duel", **table}).json
    return bob.post(f"/lobby/tables/{made['id']}/join").json["game_id"]


def finish(app, game_id, tmp_path):
    arena = app.extensions["arena"]
    return endgame.finish(arena.redis, arena.service, game_id, Settings(data_dir=tmp_path))


def test_a_profile_shows_ratings_history_results_stats_and_current_games(app, tmp_path):
    ann, bob = person(app, "ann"), person(app, "bob")
    first = lobby_game(app, ann, bob)
    assert ann.post(f"/games/{first}/resign").status_code == 200
    finish(app, first, tmp_path)
    finish(app, first, tmp_path)                                 # the job run twice changes nothing more
    casual = lobby_game(app, ann, bob, rated=False)
    bob.post(f"/games/{casual}/resign")
    finish(app, casual, tmp_path)
    running = lobby_game(app, ann, bob, form="high_form")

    prof = fresh(app).get(f"/profiles/{bob.name}").json
    assert prof["id"] == bob.id and prof["name"] == bob.name
    assert prof["ratings"]["duel"]["games"] == 1 and prof["ratings"]["duel"]["ordinal"] > 0
    assert [h["game_id"] for h in prof["history"]["duel"]] == [first]
    by_game = {g["game_id"]: g for g in prof["finished"]}
    assert by_game[first]["won"] and by_game[first]["result"] == "won" and by_game[first]["replay"] == f"/play/{first}"
    assert not by_game[casual]["won"] and not by_game[casual]["rated"]
    assert by_game[first]["opponents"][0]["name"] == ann.name
    assert prof["stats"]["by_form"]["duel"] == {"games": 2, "wins": 1}
    assert sum(s["games"] for s in prof["stats"]["by_school"].values()) == 2
    assert [g["game_id"] for g in prof["current"]] == [running]
    loser = fresh(app).get(f"/profiles/{ann.id}").json
    assert loser["ratings"]["duel"]["ordinal"] < prof["ratings"]["duel"]["ordinal"]
    assert fresh(app).get("/profiles/nobody-here").status_code == 404


def test_live_games_list_spectator_counts_and_drops_finished_games(app, tmp_path):
    ann, bob, cid = person(app), person(app), person(app)
    game_id = lobby_game(app, ann, bob)
    redis = app.extensions["arena"].redis
    presence.touch(redis, game_id, cid.id)                       # what an open stream does
    presence.touch(redis, game_id, ann.id)                       # a player watching is not a spectator
    live = {g["id"]: g for g in fresh(app).get("/games/live").json["games"]}
    assert live[game_id]["spectators"] == 1 and set(live[game_id]["players"]) == {ann.name, bob.name}
    ann.post(f"/games/{game_id}/resign")
    assert game_id not in {g["id"] for g in fresh(app).get("/games/live").json["games"]}
    assert fresh(app).get("/games/live?limit=0").status_code == 400


@pytest.fixture
def vacation_app(app):
    reconfigure(app, ARENA_VACATION_DAYS=3)
    return app


def waited_seat(p, game_id):
    view = p.get(f"/games/{game_id}").json
    return view["clocks"]["waiting_for"], view


def test_vacation_pauses_a_per_move_clock_and_opponents_see_it(vacation_app):
    app = vacation_app
    with freeze_time("2026-03-01 10:00:00") as clock:
        ann, bob = person(app), person(app)
        game_id = lobby_game(app, ann, bob, time_control={"kind": "move", "seconds": 3600})
        seat, view = waited_seat(ann, game_id)
        mover = {p.id: p for p in (ann, bob)}[view["players"][seat]["player"]]
        other = bob if mover is ann else ann
        before = parse_time(view["clocks"]["deadline"])
        assert mover.post("/accounts/me/vacation", {"days": 5}).status_code == 409     # allowance is 3
        r = mover.post("/accounts/me/vacation", {"days": 2})
        assert r.status_code == 201 and r.json["active"] and r.json["left_days"] == 1
        assert mover.post("/accounts/me/vacation", {"days": 0.5}).status_code == 409    # already away
        seen = other.get(f"/games/{game_id}").json["clocks"]
        assert seen["vacation"] == [{"seat": seat, "until": "2026-03-03T10:00:00.000000Z"}]
        assert parse_time(seen["deadline"]) == before + 2 * DAY
        redis = app.extensions["arena"].redis
        indexed = {m.decode(): s for m, s in redis.zrange(keys.deadlines(keys.deadline_shard(game_id)), 0, -1,
                                                         withscores=True)}
        assert [s for m, s in indexed.items() if m.startswith(f"timeout:{game_id}:")] == [before + 2 * DAY]
        clock.tick(DAY)                                          # a day away: the hour is still all there
        remaining = other.get(f"/games/{game_id}").json["clocks"]["seats"][seat]["remaining"]
        assert remaining == pytest.approx(3600, abs=1)
        back = mover.delete("/accounts/me/vacation")
        assert back.status_code == 200 and not back.json["active"] and back.json["used_days"] == pytest.approx(1)
        after = parse_time(other.get(f"/games/{game_id}").json["clocks"]["deadline"])
        assert after == pytest.approx(before + DAY, abs=0.01)
        indexed = {m.decode(): s for m, s in redis.zrange(keys.deadlines(keys.deadline_shard(game_id)), 0, -1,
                                                         withscores=True)}
        assert [s for m, s in indexed.items() if m.startswith(f"timeout:{game_id}:")] == [pytest.approx(after)]
        assert mover.delete("/accounts/me/vacation").status_code == 409
        assert fresh(app).get(f"/profiles/{mover.id}").json["vacation"] is None


def test_a_bank_is_not_charged_for_vacation_time(vacation_app):
    app = vacation_app
    with freeze_time("2026-03-01 10:00:00") as clock:
        ann, bob = person(app), person(app)
        game_id = lobby_game(app, ann, bob, time_control={"kind": "bank", "seconds": 3600})
        seat, view = waited_seat(ann, game_id)
        mover = {p.id: p for p in (ann, bob)}[view["players"][seat]["player"]]
        mover.post("/accounts/me/vacation", {"days": 1})
        assert fresh(app).get(f"/profiles/{mover.name}").json["vacation"]["until"].startswith("2026-03-02T10:00")
        clock.tick(DAY + 100)                                    # back for 100 s, then the turn ends
        for _ in range(12):
            now_seat, _ = waited_seat(mover, game_id)
            if now_seat != seat:
                break
            command = mover.get(f"/games/{game_id}/legal").json["commands"][0]
            assert mover.post(f"/games/{game_id}/commands", command).status_code == 200
        banks = mover.get(f"/games/{game_id}").json["clocks"]["seats"]
        assert banks[seat]["remaining"] == pytest.approx(3500, abs=1)


def test_vacation_needs_a_player_and_sane_days(app):
    assert fresh(app).get("/accounts/me/vacation").status_code == 401
    p = person(app)
    assert p.post("/accounts/me/vacation", {"days": 0}).status_code == 400
    assert p.post("/accounts/me/vacation", {"days": "x"}).status_code == 400
    status = p.get("/accounts/me/vacation").json
    assert status["active"] is False and status["left_days"] == status["allowance_days"]
