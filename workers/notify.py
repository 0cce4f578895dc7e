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

from events import keys

from . import email, queues, runtime
from .settings import Settings

KINDS = ("your_turn", "deadline_soon", "opponent_moved", "game_over", "invitation", "invitation_answered")
REMEMBER_SECONDS = 30 * 24 * 3600

_SEND = runtime.lua("notify_once.lua")


def notification(kind: str, game_id: str, seat: int, ref: int, **data: Any) -> dict:
    """A notification body; `ref` (a wait or a version) makes its id unique for the seat."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    nid = f"{kind.replace('_', '')}-{game_id}-{ref}-{seat}"
    return {"id": nid, "type": kind, "game_id": game_id, "seat": seat, **data}


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def send(redis: Any, player_id: str, note: dict, settings: Settings | None = None, now: float | None = None) -> bool:
    """Deliver `note` to the player's stream (and webhook) unless it was delivered; True if new."""
    settings = settings or runtime.settings()
    moment = runtime.now() if now is None else now
    note = {**note, "player": player_id}
    body = json.dumps(note, separators=(",", ":"), sort_keys=True)
    answer = runtime.run_script(redis, _SEND, [keys.notified(player_id), keys.inbox(player_id), keys.player(player_id)],
                                [note["id"], f"{moment:.6f}", body, settings.inbox_size,
                                 f"{moment - REMEMBER_SECONDS:.6f}"])
    if not answer:
        return False
    email.offer(redis, player_id, note, settings)
    url = _text(answer[1])
    if url:
        retry = Retry(max=len(settings.webhook_retries), interval=list(settings.webhook_retries)) \
            if settings.webhook_retries else None
        queues.enqueue(queues.notify_queue(redis, settings), "workers.jobs.deliver_webhook", player_id, note["id"],
                       body, job_id=f"hook-{note['id']}", retry=retry, job_timeout=int(settings.webhook_timeout) + 30)
    return True


def inbox(redis: Any, player_id: str, after: str = "0", count: int = 100) -> list[tuple[str, dict]]:
    """(stream id, notification) after stream id `after`, oldest first."""
    start = "-" if after in ("", "0", "0-0") else f"({after}"
    return rows(redis.xrange(keys.inbox(player_id), start, "+", count=count))


def rows(entries: Any) -> list[tuple[str, dict]]:
    """Inbox stream entries as (stream id, notification)."""
    return [(_text(sid), json.loads(_field(fields, "data"))) for sid, fields in entries]


def _field(fields: Any, name: str) -> Any:
    for key, value in fields.items():
        if _text(key) == name:
            return value
    raise KeyError(name)
