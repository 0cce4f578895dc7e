"""A registered player's inbox: notifications delivered once each, what is owed for them, and the
webhook failures.

The inbox is a Redis stream in the player's slot (keys.inbox), capped; its entry ids are the SSE
event ids of GET /players/me/stream. A notification is delivered once by its id (keys.notified
remembers the ids sent), in one script with the lookup of the player's webhook URL.

Its e-mail and webhook are owed from that moment: a transactional outbox, as for a game's
follow-up (events/followup.py).
1. Before the script, the player goes into the deadline index (`outbox:<player>`, events/due.py),
   due a grace (ARENA_FOLLOW_UP_GRACE) after their latest notification; only later, never sooner.
2. The script writes the notification to the player's outbox (keys.notify_outbox) with the inbox
   entry, when something may be owed (the player has a webhook URL, or the sender says an e-mail
   may be): both are stored or neither.
3. The fast path: the sender hands it over (workers/notify.py queues the e-mail and webhook once,
   by the notification's id) and settles the outbox entry.
4. The slow path: a deadline loop claims `outbox:<player>` when due and hands over what is left.

What to send and when is the workers' (workers/notify.py); this module only keeps it.
"""
from __future__ import annotations

import json
from typing import Any

from . import due, keys
from .followup import grace
from .replies import text
from .scripts import lua, run_script

FAILURES_KEPT = 200
_DELIVER = lua("notify_once.lua")


def deliver_once(redis: Any, player_id: str, note_id: str, body: str, moment: float, size: int,
                 forget_before: float, owed: bool) -> str | None:
    """Append `body` to the inbox unless `note_id` was delivered, and owe its webhook (if the
    player has a URL), its e-mail and pushes (if `owed`) until `settle`; None if it was delivered,
    else the player's webhook URL ('' for none)."""
    due.add(redis, {due.member("outbox", player_id): moment + grace()}, only_later=True)
    answer = run_script(redis, _DELIVER, [keys.notified(player_id), keys.inbox(player_id), keys.player(player_id),
                                          keys.notify_outbox(player_id)],
                        [note_id, f"{moment:.6f}", body, size, f"{forget_before:.6f}", "1" if owed else "0"])
    return text(answer[1]) if answer else None


def owed(redis: Any, player_id: str) -> dict[str, str]:
    """The player's notifications whose e-mail and webhook are not handed over: id -> JSON."""
    return {text(k): text(v) for k, v in redis.hgetall(keys.notify_outbox(player_id)).items()}


def is_owed(redis: Any, player_id: str, note_id: str) -> bool:
    return bool(redis.hexists(keys.notify_outbox(player_id), note_id))


def settle(client: Any, player_id: str, note_id: str) -> None:
    """The notification's e-mail and webhook are handed over; `client` may be a pipeline."""
    client.hdel(keys.notify_outbox(player_id), note_id)


def webhook_url(redis: Any, player_id: str) -> str:
    """The player's webhook URL now ('' for none)."""
    return text(redis.hget(keys.player(player_id), "webhook_url"))


def read(redis: Any, player_id: str, after: str = "0", count: int = 100) -> list[tuple[str, dict]]:
    """(stream id, notification) after stream id `after`, oldest first."""
    start = "-" if after in ("", "0", "0-0") else f"({after}"
    return rows(redis.xrange(keys.inbox(player_id), start, "+", count=count))


def latest(redis: Any, player_id: str, count: int) -> list[tuple[str, dict[str, Any]]]:
    """The newest `count` notifications, oldest first (what a page shows when it opens)."""
    return rows(redis.xrevrange(keys.inbox(player_id), "+", "-", count=count))[::-1]


def rows(entries: Any) -> list[tuple[str, dict[str, Any]]]:
    """Inbox stream entries as (stream id, notification)."""
    return [(text(sid), json.loads(_field(fields, "data"))) for sid, fields in entries]


def record_webhook_failure(redis: Any, player_id: str, fields: dict[str, Any]) -> None:
    redis.xadd(keys.webhook_failures(player_id), fields, maxlen=FAILURES_KEPT, approximate=True)


def webhook_failures(redis: Any, player_id: str, count: int = 50) -> list[dict[str, Any]]:
    """The player's latest recorded webhook failures, newest first."""
    out = []
    for _, fields in redis.xrevrange(keys.webhook_failures(player_id), "+", "-", count=count):
        item: dict[str, Any] = {text(k): text(v) for k, v in fields.items()}
        item["attempt"] = int(item.get("attempt", 0))
        out.append(item)
    return out


def _field(fields: Any, name: str) -> Any:
    for key, value in fields.items():
        if text(key) == name:
            return value
    raise KeyError(name)
