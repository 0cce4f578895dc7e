"""A notification's e-mail and webhook survive kill -9 of the process that sent it: killed after the
inbox write and before the hand-over, or after the hand-over and before its outbox entry was
settled, a worker's deadline loop hands over what is owed, and the player gets the mail and the
webhook once each. The sender is a real process of this test, held at a named point and killed by
its pid; the mail goes to a real SMTP server (aiosmtpd), the webhook to a real HTTP receiver.
Hand-overs of one notification racing each other queue its mail and webhook once."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from rq import Queue

from events import due, email_prefs, inbox, keys
from workers import notify
from events.settings import Settings

from .helpers import register, run_worker
from .processes import ROOT, START_SECONDS, wait_for
from .test_email import smtp  # noqa: F401 - the SMTP server fixture

SENDER = """
import os, redis
from workers import notify
note = notify.notification("deadline_soon", "g1", 0, 7, text="Your time in game g1 runs out soon.")
notify.send(redis.Redis.from_url(os.environ["REDIS_URL"]), os.environ["ARENA_TEST_PLAYER"], note)
"""


def send_and_kill(redis_url: str, player_id: str, point: str, flag) -> None:
    """Run SENDER in a process of its own until it halts at `point`, then kill -9 it."""
    env = {**os.environ, "REDIS_URL": redis_url, "ARENA_TEST_PLAYER": player_id, "ARENA_PAUSE_AT": point,
           "ARENA_PAUSE_FLAG": str(flag), "ARENA_FOLLOW_UP_GRACE": "1",
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    sender = subprocess.Popen([sys.executable, "-c", SENDER], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(flag.exists, START_SECONDS, f"the sender to reach {point}")
    finally:
        os.kill(sender.pid, signal.SIGKILL)
        sender.wait()


@pytest.mark.parametrize("point", ["notify.stored", "notify.handed"])
def test_mail_and_webhook_go_once_though_the_sender_was_killed(point, durable_client, durable_redis, smtp, hook,
                                                                 tmp_path):
    server = durable_redis.client()
    player = register(durable_client, "Ann", webhook_url=hook.url)["id"]
    email_prefs.set_preferences(server, player, "ann@example.test", {})
    email_prefs.confirm(server, player, "ann@example.test")
    note_id = notify.notification("deadline_soon", "g1", 0, 7)["id"]
    send_and_kill(durable_redis.url, player, point, tmp_path / "paused")

    assert [n["id"] for _, n in inbox.read(server, player)] == [note_id]       # the inbox entry is stored
    assert list(inbox.owed(server, player)) == [note_id]                       # and so is the debt
    outbox = due.member("outbox", player)
    due_at = due.when(server, outbox)
    assert due_at is not None, "the outbox was not indexed before the notification was stored"
    queued = Queue(Settings.load().notify_queue, connection=server).count
    assert queued == (0 if point == "notify.stored" else 2)                    # nothing yet / mail and webhook

    time.sleep(max(0.0, due_at - time.time()))
    run_worker(server)                      # its deadline loop hands over the debt; then the jobs run
    assert len(smtp.messages) == 1 and smtp.messages[0]["To"] == "ann@example.test"
    assert [headers["X-Arena-Delivery"] for headers, _ in hook.requests] == [note_id]
    assert json.loads(hook.requests[0][1])["id"] == note_id
    assert inbox.owed(server, player) == {} and not server.exists(keys.handed_over(player, note_id))

    note = notify.notification("deadline_soon", "g1", 0, 7, text="again")
    assert notify.send(server, player, note) is False                           # a re-announcement: delivered once
    run_worker(server)
    assert len(smtp.messages) == 1 and len(hook.requests) == 1


def test_hand_overs_racing_for_one_notification_queue_its_mail_and_webhook_once(client, redis_db, smtp, hook):
    """A sender late past the grace and deadline loops all handing over the same notification."""
    player = register(client, "Bea", webhook_url=hook.url)["id"]
    email_prefs.set_preferences(redis_db, player, "bea@example.test", {})
    email_prefs.confirm(redis_db, player, "bea@example.test")
    note = {**notify.notification("deadline_soon", "g2", 1, 3, text="Soon."), "player": player}
    body = json.dumps(note, separators=(",", ":"), sort_keys=True)
    assert inbox.deliver_once(redis_db, player, note["id"], body, time.time(), 100, 0.0, True) == hook.url
    start = threading.Barrier(6)
    failures: list[BaseException] = []

    def hand_over() -> None:
        try:
            start.wait(5)
            notify.hand_over(redis_db, player, body, Settings.load())
        except BaseException as exc:             # a racer that fails must fail the test, not vanish
            failures.append(exc)
    racers = [threading.Thread(target=hand_over) for _ in range(6)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(10)
    assert not any(r.is_alive() for r in racers) and failures == []
    assert Queue(Settings.load().notify_queue, connection=redis_db).count == 2         # one mail, one webhook
    assert inbox.owed(redis_db, player) == {}
    run_worker(redis_db)
    assert len(smtp.messages) == 1 and [h["X-Arena-Delivery"] for h, _ in hook.requests] == [note["id"]]
