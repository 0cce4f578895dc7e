"""A player's time zone (an IANA name, checked against the zone database through `zoneinfo`; the
tzdata package supplies it where the system has none), and the weekends it makes.

A game with weekend rest (events/pauses.py) stops each seat's clock from Saturday 00:00 to Monday
00:00 in its player's zone. The zone is kept with the time it was chosen (keys.time_zone), so a
weekend already past stays where it fell when the player later moves to another zone: clocks
folded over it give the same banks on every fold. A player who never chose one lives in UTC, as
do guest seats.

    time_zones.choose(redis, player_id, "Europe/Prague", now)
    time_zones.weekends(time_zones.history(redis, player_id), start, end)   # [[sat, mon], ...] epoch seconds
"""
from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from . import keys

UTC = "UTC"
History = list[tuple[float, str]]           # (since, zone), the earliest first
SATURDAY = 5


class UnknownZone(ValueError):
    """Not a name of the IANA time zone database."""


@lru_cache(maxsize=1)
def names() -> frozenset[str]:
    return frozenset(available_timezones())


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    if name not in names() and name != UTC:
        raise UnknownZone(f"{name!r} is not a time zone of the IANA database (e.g. Europe/Prague, America/New_York)")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise UnknownZone(str(exc)) from None


def history(redis: Any, player_id: str) -> History:
    raw = redis.get(keys.time_zone(player_id))
    return [(float(since), name) for since, name in json.loads(raw)] if raw else []


def current(rows: History) -> str:
    return rows[-1][1] if rows else UTC


def choose(redis: Any, player_id: str, name: str, now: float) -> None:
    """The player lives in zone `name` from `now` on (UnknownZone: no such zone)."""
    zone(name)
    rows = history(redis, player_id)
    if current(rows) != name:
        redis.set(keys.time_zone(player_id), json.dumps([*rows, (now, name)]))


def weekends(rows: History, start: float, end: float) -> list[list[float]]:
    """The weekends (Saturday 00:00 to Monday 00:00, local time of the zone each then fell in) that
    meet [start, end], whole but for the spans each zone held."""
    spans = [(since, rows[i + 1][0] if i + 1 < len(rows) else float("inf"), name)
             for i, (since, name) in enumerate(rows)] or [(float("-inf"), float("inf"), UTC)]
    if spans[0][0] > float("-inf"):
        spans.insert(0, (float("-inf"), spans[0][0], UTC))
    out = []
    for begin, until, name in spans:
        lo, hi = max(start, begin), min(end, until)
        if lo < hi:
            out += [[max(a, begin), min(b, until)] for a, b in _local_weekends(name, lo, hi)]
    return [w for w in out if w[0] < w[1]]


def _local_weekends(name: str, start: float, end: float) -> list[tuple[float, float]]:
    tz = zone(name)
    day = datetime.fromtimestamp(start, tz).date() - timedelta(days=2)
    last = datetime.fromtimestamp(end, tz).date()
    day += timedelta(days=(SATURDAY - day.weekday()) % 7)
    out = []
    while day <= last:
        out.append((_midnight(day, tz), _midnight(day + timedelta(days=2), tz)))
        day += timedelta(days=7)
    return [(a, b) for a, b in out if b > start and a < end]


def _midnight(day: date, tz: ZoneInfo) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=tz).timestamp()
