"""The lobby's upkeep, run with its chores (about once a second) by the deadline loop of every
worker of the game queue (not by the notification queue's workers, which only deliver).

Open tables nobody joined in time expire and their creators are told in their inbox (and by
webhook); changes a web process recorded in a lobby bucket but died before relaying reach the
feed (events/lobby.py). Both are safe to run from any number of workers at once.
"""
from __future__ import annotations

from typing import Any

from events import lobby

from . import notify
from events.settings import Settings


def sweep(redis: Any, now: float, settings: Settings | None = None) -> int:
    """Expire the tables whose time ran out, tell their creators, relay what is left; tables expired."""
    told = lobby.expire_due(redis, now, lambda table: tell_creator(redis, table, now, settings))
    lobby.relay_all(redis)
    return len(told)


def tell_creator(redis: Any, table: dict[str, Any], now: float, settings: Settings | None = None) -> None:
    """The creator's inbox hears once that the table expired (a second sweep's note is the same note)."""
    note = notify.notification("table_expired", table["id"], 0, 0, table_id=table["id"], form=table["form"],
                               text=f"Your {table['form'].replace('_', ' ')} table expired: nobody joined it in time.")
    notify.send(redis, table["creator"], note, settings, now=now)
