"""E-mail through a real SMTP server (aiosmtpd, in this process) and real RQ workers in burst mode:
"your turn" (once per game per interval, never while watching), the daily digest sorted by time
left, the one-click unsubscribe link, preferences, and failures recorded for the player."""
from __future__ import annotations

import email as stdlib_email
import html
import re
import time
import uuid
from email import policy

import pytest
from aiosmtpd.controller import Controller
from freezegun import freeze_time
from rq import Queue

from events import due, email_prefs, keys, presence
from events.redis_process import free_port
from workers import email as mail
from events.settings import Settings

from .helpers import run_worker

PASSWORD = "correct horse battery"


class Inbox:
    def __init__(self) -> None:
        self.messages: list = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(stdlib_email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@pytest.fixture
def smtp(monkeypatch):
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    monkeypatch.setenv("ARENA_SMTP_URL", f"smtp://127.0.0.1:{controller.port}")
    monkeypatch.setenv("ARENA_PUBLIC_URL", "http://arena.test")
    monkeypatch.setenv("ARENA_EMAIL_RETRIES", "0,0")
    yield inbox
    controller.stop()


class Person:
    def __init__(self, app, address: str | None = None) -> None:
        self.client = app.test_client()
        self.name = f"m{uuid.uuid4().hex[:10]}"
        made = self.client.post("/accounts", json={"name": self.name, "password": PASSWORD}).json
        self.id, self.csrf = made["id"], {"X-CSRF-Token": made["csrf"]}
        if address:
            r = self.client.put("/accounts/me/email", json={"address": address}, headers=self.csrf)
            assert r.status_code == 200, r.json
            # confirmed as its mailed link would (tests/server/test_recovery.py follows the link itself)
            assert email_prefs.confirm(app.extensions["arena"].redis, self.id, address)

    def post(self, path: str, body: dict | None = None):
        return self.client.post(path, json=body or {}, headers=self.csrf)


def table_game(ann: Person, bob: Person, **options) -> str:
    table = ann.post("/lobby/tables", {"form": "duel", **options}).json
    return bob.post(f"/lobby/tables/{table['id']}/join").json["game_id"]


def to_play(players: list[Person], game_id: str) -> Person:
    view = players[0].client.get(f"/games/{game_id}").json
    pid = view["players"][view["active_seat"]]["player"]
    return next(p for p in players if p.id == pid)


def end_turn(player: Person, game_id: str) -> None:
    """Play the first legal command until the game waits for someone else."""
    for _ in range(12):
        view = player.client.get(f"/games/{game_id}").json
        if view["players"][view["active_seat"]]["player"] != player.id:
            return
        command = player.client.get(f"/games/{game_id}/legal").json["commands"][0]
        assert player.post(f"/games/{game_id}/commands", command).status_code == 200
    raise AssertionError("the turn did not end")


def mails_to(inbox: Inbox, address: str) -> list:
    return [m for m in inbox.messages if m["To"] == address and m["Subject"] != "Confirm your e-mail address"]


def test_your_turn_once_per_game_per_interval_and_never_while_watching(app, redis_db, smtp, monkeypatch):
    monkeypatch.setenv("ARENA_EMAIL_TURN_INTERVAL", "3600")
    ann, bob = Person(app, "ann@example.test"), Person(app, "bob@example.test")
    game_id = table_game(ann, bob)
    run_worker(redis_db)
    first = to_play([ann, bob], game_id)
    other = bob if first is ann else ann
    first_address = "ann@example.test" if first is ann else "bob@example.test"
    other_address = "bob@example.test" if first is ann else "ann@example.test"
    [turn] = mails_to(smtp, first_address)
    assert game_id in turn["Subject"] and f"http://arena.test/play/{game_id}" in turn.get_content()
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    presence.touch(redis_db, game_id, other.id)            # the other player has the game open
    end_turn(first, game_id)
    run_worker(redis_db)
    assert mails_to(smtp, other_address) == []
    presence.leave(redis_db, game_id, other.id)
    end_turn(other, game_id)
    end_turn(first, game_id)                                  # their turn again, but within the hour
    run_worker(redis_db)
    assert len(mails_to(smtp, first_address)) == 1
    assert len(mails_to(smtp, other_address)) == 1            # not watching any more: told once


def test_the_unsubscribe_link_asks_first_and_a_post_unsubscribes(app, redis_db, smtp):
    ann, bob = Person(app, "ann2@example.test"), Person(app, "bob2@example.test")
    game_id = table_game(ann, bob)
    run_worker(redis_db)
    [turn] = [m for m in smtp.messages if game_id in m["Subject"]]
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = re.search(r"<(http://arena\.test(/email/unsubscribe\?token=[^>]+))>", turn["List-Unsubscribe"]).group(2)
    assert link in turn.get_content()
    receiver = ann if turn["To"] == "ann2@example.test" else bob
    for _ in range(2):                                        # a link scanner opening it changes nothing
        page = app.test_client().get(link)
        assert page.status_code == 200 and b"Stop your turn e-mails" in page.data
    assert receiver.client.get("/accounts/me/email").json["kinds"]["your_turn"] is True
    action = html.unescape(re.search(r'<form method=post action="([^"]+)"', page.data.decode()).group(1))
    done = app.test_client().post(action, data={"List-Unsubscribe": "One-Click"})        # the page's button
    assert done.status_code == 200 and b"no more your turn e-mails" in done.data
    prefs = receiver.client.get("/accounts/me/email").json
    assert prefs["kinds"]["your_turn"] is False and prefs["kinds"]["digest"] is True
    assert app.test_client().get("/email/unsubscribe?token=forged").status_code == 404
    assert app.test_client().post("/email/unsubscribe?token=forged").status_code == 404
    assert app.test_client().get("/email/unsubscribe").status_code == 400


def test_a_mail_clients_one_click_post_unsubscribes_without_the_page(app, redis_db, smtp):
    """RFC 8058: the client POSTs `List-Unsubscribe=One-Click`, form-encoded, to the header's URL."""
    ann, bob = Person(app, "ann4@example.test"), Person(app, "bob4@example.test")
    game_id = table_game(ann, bob)
    run_worker(redis_db)
    [turn] = [m for m in smtp.messages if game_id in m["Subject"]]
    link = re.search(r"<http://arena\.test(/email/unsubscribe\?token=[^>]+)>", turn["List-Unsubscribe"]).group(1)
    receiver = ann if turn["To"] == "ann4@example.test" else bob
    answer = app.test_client().post(link, data="List-Unsubscribe=One-Click",
                                    content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200
    assert receiver.client.get("/accounts/me/email").json["kinds"]["your_turn"] is False
    other = bob if receiver is ann else ann                     # the one-click form is no way around JSON elsewhere
    assert other.client.put("/accounts/me/email", data="kinds=x", headers=other.csrf,
                            content_type="application/x-www-form-urlencoded").status_code == 415


def test_the_daily_digest_lists_waiting_games_least_time_left_first(app, redis_db, smtp, monkeypatch):
    monkeypatch.setenv("ARENA_EMAIL_TURN_INTERVAL", "1")
    with freeze_time("2026-05-01 08:00:00") as clock:
        me = Person(app, "digest@example.test")
        rivals = [Person(app) for _ in range(3)]
        slow = table_game(me, rivals[0], time_control={"kind": "move", "seconds": 5 * 86400})
        fast = table_game(me, rivals[1], time_control={"kind": "move", "seconds": 2 * 86400})   # still waiting when the digest goes
        untimed = table_game(me, rivals[2])
        for game_id, rival in ((slow, rivals[0]), (fast, rivals[1]), (untimed, rivals[2])):
            if to_play([me, rival], game_id) is rival:
                end_turn(rival, game_id)
        member = due.member("digest", me.id)
        due_at = due.when(redis_db, member)
        assert due_at == pytest.approx(time.time() + 86400)
        clock.tick(86400 + 1)
        run_worker(redis_db)
        [digest] = [m for m in mails_to(smtp, "digest@example.test") if "waiting for you" in m["Subject"]]
        text = digest.get_content()
        order = [text.index(f"/play/{g}") for g in (fast, slow, untimed)]
        assert order == sorted(order) and "no time limit" in text
        assert due.when(redis_db, member) == pytest.approx(due_at + 86400, abs=2)      # the next one is planned
        me.client.put("/accounts/me/email", json={"kinds": {"digest": False}}, headers=me.csrf)
        assert due.when(redis_db, member) is None


def test_failures_are_retried_recorded_and_shown(app, redis_db, monkeypatch):
    monkeypatch.setenv("ARENA_SMTP_URL", f"smtp://127.0.0.1:{free_port()}")        # nobody listens
    monkeypatch.setenv("ARENA_EMAIL_RETRIES", "0,0")
    ann, bob = Person(app, "ann3@example.test"), Person(app, "bob3@example.test")
    table_game(ann, bob)
    for _ in range(3):
        run_worker(redis_db)                                      # the first try and two retries
    failures = [p.client.get("/accounts/me/email").json["failures"] for p in (ann, bob)]
    shown = next(f for f in failures if f)
    assert [f["attempt"] for f in shown] == [3, 2, 1] and "ConnectionRefusedError" in shown[0]["error"]
    failed = Queue(Settings.load().notify_queue, connection=redis_db).failed_job_registry.get_job_ids()
    assert len([j for j in failed if not j.startswith("account-")]) == 1      # (the addresses' confirmations too)


def test_preferences_are_validated_and_need_a_player(app, redis_db):
    p = Person(app)
    assert p.client.put("/accounts/me/email", json={"address": "not an address"}, headers=p.csrf).status_code == 400
    assert p.client.put("/accounts/me/email", json={"kinds": {"spam": True}}, headers=p.csrf).status_code == 400
    assert p.client.put("/accounts/me/email", json={"address": "p@example.test"}).status_code == 403     # no CSRF
    assert app.test_client().get("/accounts/me/email").status_code == 401
    assert p.client.get("/accounts/me/email").json == {"address": None, "verified": False, "sending": False, "failures": [],
                                                        "kinds": dict(email_prefs.DEFAULTS)}
    assert redis_db.exists(keys.email_settings(p.id)) == 0
