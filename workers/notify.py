"""Notifications to registered players: "your turn", "deadline soon", "opponent moved", "game over",
and invitations to a game with their answers (sent by server/invitations.py).

Each notification has an id made from what it is about (kind, game, wait or version, seat), so
sending it twice delivers it once: one Lua script checks the id in the player's `notified` set,
appends the notification to the player's inbox stream (read by GET /players/me/stream, resumable
by stream id), records in the player's outbox that its e-mail and webhook are owed (when the
player has a webhook URL or an e-mail may be wanted), and answers with the player's webhook URL
(events/inbox.py).

Then it is handed over: the e-mail (workers/email.py decides whether one is wanted), if the
player registered a URL, the webhook (workers/webhooks.py signs and retries it; its delivery id is
the notification id), and a push to each browser the player opted in on for that kind
(workers/push.py) are queued on the notify queue in one transaction on the queues' Redis,
which also sets the notification's `handed_over` marker; then the outbox entry and the marker go.
A process that dies in between leaves the outbox entry, and a deadline loop hands it over within
seconds (`hand_over_owed`). The marker, watched while the jobs are queued, makes each hand-over
happen once: a sender and a loop racing, or a loop finding an entry whose jobs were queued by a
process that died before it settled, queue nothing twice.

    note = notification("your_turn", game_id, seat, ref=wait, version=v, text="...")
    send(redis, player_id, note, settings)
"""
from __future__ import annotations

import json
from typing import Any

from redis.exceptions import WatchError
from rq import Retry

from events import crash_points, inbox, keys, notices, push
from events.connection import queue_for

from . import email, queues, runtime
from events.settings import Settings

KINDS = tuple(notices.KINDS)            # declared once, with their renderings, in events/notices.py
REMEMBER_SECONDS = 30 * 24 * 3600

def notification(kind: str, game_id: str, seat: int, ref: int, **data: Any) -> dict[str, Any]:
    """A notification body; `ref` (a wait or a version) makes its id unique for the seat."""
    notices.kind(kind)
    nid = f"{kind.replace('_', '')}-{game_id}-{ref}-{seat}"
    return {"id": nid, "type": kind, "game_id": game_id, "seat": seat, **data}


def mail_sent() -> bool:
    """Whether this server sends e-mail at all (ARENA_SMTP_URL is set): pages say so when it does not."""
    return bool(runtime.settings().smtp_url)


def stated(kind: str, game_id: str, seat: int, state: str, **data: Any) -> dict[str, Any]:
    """A notification of a kind whose text is declared per state (events/notices.py), one per state."""
    return notification(kind, game_id, seat, notices.ref(kind, state), state=state,
                        text=notices.text(kind, state, seat=seat, **data), **data)


def send(redis: Any, player_id: str, note: dict[str, Any], settings: Settings | None = None, now: float | None = None) -> bool:
    """Deliver `note` to the player's inbox, and hand over its e-mail and webhook, unless it was
    delivered; True if new."""
    settings = settings or runtime.settings()
    moment = runtime.now() if now is None else now
    note = {**note, "player": player_id}
    body = json.dumps(note, separators=(",", ":"), sort_keys=True)
    owed = email.may_offer(note, settings) or bool(push.targets(redis, player_id, note["type"]))
    url = inbox.deliver_once(redis, player_id, note["id"], body, moment, settings.inbox_size,
                             moment - REMEMBER_SECONDS, owed)
    if url is None:
        return False
    crash_points.reached("notify.stored")
    if url or owed:                     # else nothing was owed, nor written to the outbox
        hand_over(redis, player_id, body, settings, url, moment)
    return True


def hand_over(redis: Any, player_id: str, body: str, settings: Settings, url: str | None = None,
              now: float | None = None) -> None:
    """Queue the e-mail, webhook and pushes a notification in the player's outbox is owed, unless they
    were queued already, then settle the entry. `url`: the webhook URL the inbox script answered
    (None: read it now)."""
    note = json.loads(body)
    url = inbox.webhook_url(redis, player_id) if url is None else url
    browsers = push.targets(redis, player_id, note["type"])
    if not url and not email.may_offer(note, settings) and not browsers:
        inbox.settle(redis, player_id, note["id"])          # nothing to queue (any more)
        return
    jobs = queue_for(redis)
    marker = keys.handed_over(player_id, note["id"])
    with jobs.pipeline() as pipe:
        while True:
            try:
                pipe.watch(marker)
                if not pipe.exists(marker) and inbox.is_owed(redis, player_id, note["id"]):
                    pipe.multi()
                    email.offer(redis, player_id, note, settings, pipeline=pipe, now=now)
                    if url:
                        _enqueue_webhook(pipe, redis, player_id, note["id"], body, settings)
                    for sid in browsers:
                        _enqueue_push(pipe, redis, player_id, note["id"], sid, body, settings)
                    pipe.set(marker, "1", ex=REMEMBER_SECONDS)
                    pipe.execute()
                break
            except WatchError:
                continue                # another hand-over of this notification moved first: look again
    crash_points.reached("notify.handed")
    _settle(redis, jobs, player_id, note["id"])


def hand_over_owed(redis: Any, player_id: str, settings: Settings) -> int:
    """Hand over every notification still in the player's outbox (a deadline loop's `outbox:`
    member: its sender died before it did); how many there were."""
    owed = inbox.owed(redis, player_id)
    for body in owed.values():
        hand_over(redis, player_id, body, settings)
    return len(owed)


def _settle(redis: Any, jobs: Any, player_id: str, note_id: str) -> None:
    """The outbox entry goes, then the hand-over marker (never the other way round: a loop would
    queue the jobs again); one round trip when the queues share the game data's Redis."""
    if jobs is not redis:
        inbox.settle(redis, player_id, note_id)
        jobs.delete(keys.handed_over(player_id, note_id))
        return
    with redis.pipeline(transaction=False) as pipe:
        inbox.settle(pipe, player_id, note_id)
        pipe.delete(keys.handed_over(player_id, note_id))
        pipe.execute()


def _retry(settings: Settings) -> Retry | None:
    """Webhooks and pushes are retried alike: after the intervals of ARENA_WEBHOOK_RETRIES."""
    return Retry(max=len(settings.webhook_retries), interval=list(settings.webhook_retries)) \
        if settings.webhook_retries else None


def _enqueue_webhook(pipe: Any, redis: Any, player_id: str, note_id: str, body: str, settings: Settings) -> None:
    queues.enqueue(queues.notify_queue(redis, settings), "workers.jobs.deliver_webhook", player_id, note_id,
                   body, job_id=f"hook-{note_id}", retry=_retry(settings), job_timeout=int(settings.webhook_timeout) + 30,
                   pipeline=pipe)


def _enqueue_push(pipe: Any, redis: Any, player_id: str, note_id: str, sid: str, body: str,
                  settings: Settings) -> None:
    """One job per browser, so a retry pushes again only to the browser that did not take it."""
    queues.enqueue(queues.notify_queue(redis, settings), "workers.jobs.deliver_push", player_id, sid, body,
                   job_id=f"push-{note_id}-{sid}", retry=_retry(settings),
                   job_timeout=int(settings.webhook_timeout) + 30, pipeline=pipe)
