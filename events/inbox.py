"""A registered player's inbox: notifications delivered once each, and the webhook failures.

The inbox is a Redis stream in the player's slot (keys.inbox), capped; its entry ids are the SSE
event ids of GET /players/me/stream. A notification is delivered once by its id (keys.notified
remembers the ids sent), in one script with the lookup of the player's webhook URL. What to send
and when is the workers' (workers/notify.py); this module only keeps it.
"""
from __future__ import annotations

import json
from typing import Any

from . import keys
from .scripts import lua, run_script

FAILURES_KEPT = 200
_DELIVER = lua("notify_once.lua")


def deliver_once(redis: Any, player_id: str, note_id: str, body: str, moment: float, size: int,
                 forget_before: float) -> str | None:
    """Append `body` to the inbox unless `note_id` was delivered; None if it was, else the player's
    webhook URL ('' for none)."""
    answer = run_script(redis, _DELIVER, [keys.notified(player_id), keys.inbox(player_id), keys.player(player_id)],
                        [note_id, f"{moment:.6f}", body, size, f"{forget_before:.6f}"])
    return _text(answer[1]) if answer else None


def read(redis: Any, player_id: str, after: str = "0", count: int = 100) -> list[tuple[str, dict]]:
    """(stream id, notification) after stream id `after`, oldest first."""
    start = "-" if after in ("", "0", "0-0") else f"({after}"
    return rows(redis.xrange(keys.inbox(player_id), start, "+", count=count))


def latest(redis: Any, player_id: str, count: int) -> list[tuple[str, dict]]:
    """The newest `count` notifications, oldest first (what a page shows when it opens)."""
    return rows(redis.xrevrange(keys.inbox(player_id), "+", "-", count=count))[::-1]


def rows(entries: Any) -> list[tuple[str, dict]]:
    """Inbox stream entries as (stream id, notification)."""
    return [(_text(sid), json.loads(_field(fields, "data"))) for sid, fields in entries]


def record_webhook_failure(redis: Any, player_id: str, fields: dict) -> None:
    redis.xadd(keys.webhook_failures(player_id), fields, maxlen=FAILURES_KEPT, approximate=True)


def webhook_failures(redis: Any, player_id: str, count: int = 50) -> list[dict]:
    """The player's latest recorded webhook failures, newest first."""
    out = []
    for _, fields in redis.xrevrange(keys.webhook_failures(player_id), "+", "-", count=count):
        item: dict[str, Any] = {_text(k): _text(v) for k, v in fields.items()}
        item["attempt"] = int(item.get("attempt", 0))
        out.append(item)
    return out


def _field(fields: Any, name: str) -> Any:
    for key, value in fields.items():
        if _text(key) == name:
            return value
    raise KeyError(name)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
