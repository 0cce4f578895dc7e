"""Notifications to registered players: "your turn", "deadline soon", "opponent moved", "game over",
and invitations to a game with their answers (sent by server/invitations.py).

Each notification has an id made from what it is about (kind, game, wait or version, seat), so
sending it twice delivers it once: one Lua script checks the id in the player's `notified` set,
appends the notification to the player's inbox stream (read by GET /players/me/stream, resumable
by stream id) and answers with the player's webhook URL. If the player registered one, a webhook
job is enqueued on the notify queue (workers/webhooks.py signs and retries it); its delivery id is
the notification id.

    note = notification("your_turn", game_id, seat, ref=wait, version=v, text="...")
    send(redis, player_id, note, settings)
"""
from __future__ import annotations

import json
from typing import Any

from rq import Retry

from events import inbox

from . import email, queues, runtime
from .settings import Settings

KINDS = ("your_turn", "deadline_soon", "opponent_moved", "game_over", "invitation", "invitation_answered",
         "invitation_expired", "table_expired")
REMEMBER_SECONDS = 30 * 24 * 3600

def notification(kind: str, game_id: str, seat: int, ref: int, **data: Any) -> dict:
    """A notification body; `ref` (a wait or a version) makes its id unique for the seat."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    nid = f"{kind.replace('_', '')}-{game_id}-{ref}-{seat}"
    return {"id": nid, "type": kind, "game_id": game_id, "seat": seat, **data}


def send(redis: Any, player_id: str, note: dict, settings: Settings | None = None, now: float | None = None) -> bool:
    """Deliver `note` to the player's stream (and webhook) unless it was delivered; True if new."""
    settings = settings or runtime.settings()
    moment = runtime.now() if now is None else now
    note = {**note, "player": player_id}
    body = json.dumps(note, separators=(",", ":"), sort_keys=True)
    url = inbox.deliver_once(redis, player_id, note["id"], body, moment, settings.inbox_size,
                             moment - REMEMBER_SECONDS)
    if url is None:
        return False
    email.offer(redis, player_id, note, settings)
    if url:
        retry = Retry(max=len(settings.webhook_retries), interval=list(settings.webhook_retries)) \
            if settings.webhook_retries else None
        queues.enqueue(queues.notify_queue(redis, settings), "workers.jobs.deliver_webhook", player_id, note["id"],
                       body, job_id=f"hook-{note['id']}", retry=retry, job_timeout=int(settings.webhook_timeout) + 30)
    return True
