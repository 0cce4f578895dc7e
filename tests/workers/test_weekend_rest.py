"""Weekend rest (events/pauses.py, events/time_zones.py) through HTTP and a real worker's deadline loop,
freezegun moving the clock for both: no clock runs from Saturday 00:00 to Monday 00:00 in its player's
own time zone; choosing a zone moves the deadline and the reminder; a bank is not charged for the
weekend; the digest counts the same time left; and a timeout claimed by a loop that died, with the
cached clock lost, is applied once, at the deadline and not before."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from freezegun import freeze_time

from events import due, keys
from events.clocks import parse_time
from workers import email
from workers.followup import service as service_of
from events.settings import Settings

from .helpers import run_worker
from .test_email import Person, end_turn, table_game, to_play

HOUR, DAY = 3600.0, 86400.0
BANK = {"kind": "bank", "seconds": int(DAY), "weekend_rest": True}


def utc(*parts: int) -> float:
    return datetime(*parts, tzinfo=timezone.utc).timestamp()


def at(moment: float) -> datetime:
    return datetime.fromtimestamp(moment, timezone.utc).replace(tzinfo=None)


def test_clocks_rest_at_each_players_weekend_through_a_crash(app, redis_db):
    with freeze_time(at(utc(2026, 4, 4, 2))) as clock:               # Saturday 02:00 UTC, Friday 22:00 in New York
        ann, bob = Person(app), Person(app)
        game_id = table_game(ann, bob, time_control=BANK)
        mover = to_play([ann, bob], game_id)
        other = bob if mover is ann else ann
        clocks = mover.client.get(f"/games/{game_id}").json["clocks"]
        seat = clocks["waiting_for"]
        assert parse_time(clocks["deadline"]) == utc(2026, 4, 7)      # UTC's weekend: from now to Monday, then a day
        assert clocks["weekend_rest"] and clocks["resting"] == [               # everyone's weekend in UTC
            {"seat": s, "until": "2026-04-06T00:00:00.000000Z", "time_zone": "UTC"} for s in (0, 1)]

        put = mover.client.put("/accounts/me/time-zone", json={"time_zone": "America/New_York"}, headers=mover.csrf)
        assert put.json == {"time_zone": "America/New_York", "chosen": True}
        assert mover.client.put("/accounts/me/time-zone", json={"time_zone": "Mars/Olympus"},
                                headers=mover.csrf).json["code"] == "unknown_time_zone"
        other.client.put("/accounts/me/time-zone", json={"time_zone": "Asia/Tokyo"}, headers=other.csrf)
        end = utc(2026, 4, 7, 2)            # 2 h of Friday evening in New York, then 22 h from Monday 04:00 UTC
        view = mover.client.get(f"/games/{game_id}").json
        assert parse_time(view["clocks"]["deadline"]) == end
        assert [(r["seat"], r["time_zone"]) for r in view["clocks"]["resting"]] == [(1 - seat, "Asia/Tokyo")]
        assert view["time_control"]["weekend_rest"] is True
        wait = next(int(m.split(":")[2]) for m in _members(redis_db, game_id) if m.startswith("timeout:"))
        assert due.when(redis_db, due.member("timeout", game_id, wait)) == pytest.approx(end)
        assert due.when(redis_db, due.member("remind", game_id, wait)) == pytest.approx(utc(2026, 4, 6, 21, 12))  # 80 % of the running day

        clock.move_to(at(utc(2026, 4, 6, 3)))                          # Monday 03:00 UTC: still the weekend in New York
        run_worker(redis_db)
        assert mover.client.get(f"/games/{game_id}").json["clocks"]["resting"][0]["until"] == "2026-04-06T04:00:00.000000Z"
        [waiting] = email.waiting_games(redis_db, service_of(redis_db), mover.id, utc(2026, 4, 6, 3))
        assert waiting["left"] == pytest.approx(23 * HOUR)             # the digest's time left

        clock.move_to(at(utc(2026, 4, 6, 14)))                         # 10 h after the weekend: 12 h used in all
        end_turn(mover, game_id)
        seats = mover.client.get(f"/games/{game_id}").json["clocks"]["seats"]
        assert seats[seat]["remaining"] == pytest.approx(12 * HOUR, abs=1)     # the weekend was not charged
        end_turn(other, game_id)
        clocks = mover.client.get(f"/games/{game_id}").json["clocks"]
        end = parse_time(clocks["since"]) + 12 * HOUR

        # the crash: a loop claims the timeout and dies; the cached clock is lost too
        clock.move_to(at(end - 1))
        run_worker(redis_db)
        assert _timeouts(mover, game_id) == 0
        lease = Settings.load().deadline_lease
        assert due.claim(redis_db, end + 0.1, lease, 10).items              # ... never released
        redis_db.delete(keys.clock(game_id))
        clock.move_to(at(end + 0.2 + lease / 2))
        run_worker(redis_db)
        assert _timeouts(mover, game_id) == 0
        clock.move_to(at(end + 0.2 + lease))
        run_worker(redis_db)
        assert _timeouts(mover, game_id) == 1


def _members(redis, game_id: str) -> list[str]:
    shard = keys.deadlines(keys.deadline_shard(game_id))
    return [m.decode() if isinstance(m, bytes) else m for m in redis.zrange(shard, 0, -1) if game_id in str(m)]


def _timeouts(person: Person, game_id: str) -> int:
    return sum(e["type"] == "TurnTimedOut" for e in person.client.get(f"/games/{game_id}/events").json["events"])
