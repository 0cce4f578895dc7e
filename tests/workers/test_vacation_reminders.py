"""Vacation and the "deadline soon" reminder, through HTTP and a real worker's deadline loop
(freezegun moves the clock for the app, the worker and its loop alike): no reminder while the
player is away (one due before they left waits for their return), the reminder moved by the
clock's pause when the vacation starts and when it ends early, and a long vacation begun just
before a deadline holds that deadline back all the way (it used to give up after 64 rounds).
E-mail (a real SMTP server): no "your turn" while away and no digest until the player is back."""
from __future__ import annotations

from datetime import datetime

import pytest
from freezegun import freeze_time

from events import due, email_prefs
from events.clocks import parse_time
from events.pauses import running_until

from .helpers import run_worker
from .test_email import Person, end_turn, mails_to, smtp, table_game, to_play  # noqa: F401 - smtp: a fixture

HOUR, DAY = 3600.0, 86400.0
T0 = datetime(2026, 4, 1, 9, 0, 0)


def _hour_game(app) -> tuple[Person, Person, str, Person, dict]:
    """Two people at a one-hour-a-move game: (ann, bob, game id, the one to move, the game's view)."""
    ann, bob = Person(app), Person(app)
    game_id = table_game(ann, bob, time_control={"kind": "move", "seconds": HOUR})
    view = ann.client.get(f"/games/{game_id}").json
    pid = view["players"][view["active_seat"]]["player"]
    return ann, bob, game_id, next(p for p in (ann, bob) if p.id == pid), view


def _reminders(p: Person, game_id: str) -> list[dict]:
    notes = p.client.get("/players/me/notifications").json["notifications"]
    return [n for n in notes if n["type"] == "deadline_soon" and n["game_id"] == game_id]


def test_no_reminder_while_away_and_it_moves_with_the_vacation(app, redis_db):
    with freeze_time(T0) as clock:
        _, _, game_id, mover, view = _hour_game(app)
        since = parse_time(view["clocks"]["since"])
        member = due.member("remind", game_id, 1)
        assert due.when(redis_db, member) == pytest.approx(since + 0.8 * HOUR)
        clock.tick(600)
        assert mover.post("/accounts/me/vacation", {"days": 1}).status_code == 201
        assert due.when(redis_db, member) == pytest.approx(since + 0.8 * HOUR + DAY)
        due.add(redis_db, {member: since + 0.8 * HOUR})          # as if the move of the vacation was missed
        clock.tick(0.8 * HOUR)                                    # past the reminder's time without a vacation
        run_worker(redis_db)
        assert _reminders(mover, game_id) == []
        assert due.when(redis_db, member) == pytest.approx(since + 0.8 * HOUR + DAY)    # due again, later
        clock.tick(12 * HOUR)
        back = mover.client.delete("/accounts/me/vacation", headers=mover.csrf)    # home early: sooner
        assert back.status_code == 200 and back.json["active"] is False
        paused = 0.8 * HOUR + 12 * HOUR                           # away from since + 600 s until now
        assert due.when(redis_db, member) == pytest.approx(since + 0.8 * HOUR + paused, abs=0.01)
        clock.move_to(datetime.utcfromtimestamp(since + 0.8 * HOUR + paused - 60))
        run_worker(redis_db)
        assert _reminders(mover, game_id) == []
        clock.tick(61)
        run_worker(redis_db)
        [note] = _reminders(mover, game_id)
        assert note["remaining"] == pytest.approx(0.2 * HOUR, abs=2)


def test_a_long_vacation_begun_just_before_the_deadline_holds_it_all_the_way(app, redis_db):
    with freeze_time(T0) as clock:
        ann, _, game_id, mover, view = _hour_game(app)
        before = parse_time(view["clocks"]["deadline"])
        clock.tick(HOUR - 60)
        assert mover.post("/accounts/me/vacation", {"days": 3}).status_code == 201
        seen = ann.client.get(f"/games/{game_id}").json["clocks"]
        assert parse_time(seen["deadline"]) == pytest.approx(before + 3 * DAY, abs=0.01)
        assert due.when(redis_db, due.member("timeout", game_id, 1)) == pytest.approx(before + 3 * DAY, abs=0.01)
        clock.tick(2 * HOUR)
        run_worker(redis_db)
        types = [e["type"] for e in ann.client.get(f"/games/{game_id}/events").json["events"]]
        assert "TurnTimedOut" not in types
        assert _reminders(mover, game_id) == []                  # its time came before, but they are away
        assert due.when(redis_db, due.member("remind", game_id, 1)) == pytest.approx(parse_time(view["clocks"]["since"]) + HOUR - 60 + 3 * DAY)


def test_no_turn_mail_nor_digest_while_away_and_the_digest_comes_on_return(app, redis_db, smtp, monkeypatch):
    monkeypatch.setenv("ARENA_EMAIL_TURN_INTERVAL", "1")
    with freeze_time(T0) as clock:
        ann, bob = Person(app), Person(app, "home@example.test")
        game_id = table_game(ann, bob, time_control={"kind": "move", "seconds": DAY})
        if to_play([ann, bob], game_id) is ann:
            end_turn(ann, game_id)
        run_worker(redis_db)
        assert ann.client.put("/accounts/me/email", json={"address": "away@example.test"},
                              headers=ann.csrf).status_code == 200     # no mail to her yet, so none within the interval
        assert email_prefs.confirm(redis_db, ann.id, "away@example.test")     # as its mailed link would
        away = ann.post("/accounts/me/vacation", {"days": 2})
        assert away.status_code == 201
        back = parse_time(away.json["until"])
        clock.tick(60)
        end_turn(bob, game_id)                                    # Ann's turn, while she is away
        run_worker(redis_db)
        assert mails_to(smtp, "away@example.test") == []
        notes = ann.client.get("/players/me/notifications").json["notifications"]
        assert [n for n in notes if n["type"] == "your_turn" and n["game_id"] == game_id]    # in her inbox

        member = due.member("digest", ann.id)
        clock.move_to(datetime.utcfromtimestamp(due.when(redis_db, member) + 1))            # a day on: digest time
        run_worker(redis_db)
        assert not [m for m in mails_to(smtp, "away@example.test") if "waiting for you" in m["Subject"]]
        assert due.when(redis_db, member) == pytest.approx(back, abs=0.01)                # due on her return
        clock.move_to(datetime.utcfromtimestamp(back + 1))
        run_worker(redis_db)
        [digest] = [m for m in mails_to(smtp, "away@example.test") if "waiting for you" in m["Subject"]]
        assert f"/play/{game_id}" in digest.get_content() and "24.0 hours left" in digest.get_content()

        end_turn(ann, game_id)                                    # home: the next "your turn" is mailed
        end_turn(bob, game_id)
        run_worker(redis_db)
        assert [m["Subject"] for m in mails_to(smtp, "away@example.test") if m is not digest] == \
            [f"Your turn in game {game_id}"]


def test_running_time_skips_every_pause_whatever_its_length():
    assert running_until([], 100.0, 50.0) == 150.0
    assert running_until([[140.0, 140.0 + 30 * DAY]], 100.0, 50.0) == 150.0 + 30 * DAY
    assert running_until([[90.0, 120.0], [130.0, 200.0]], 100.0, 50.0) == 240.0
    assert running_until([[160.0, 300.0]], 100.0, 50.0) == 150.0
