"""Vacation: pause all your per-move and bank clocks for a while, up to ARENA_VACATION_DAYS a year.

A vacation starts now and is planned to last a number of days (within what is left of the year's
allowance, counted per calendar year, UTC); it can be ended early. While it lasts, every wait
for you stands still (events/pauses.py): deadlines move back, banks are not charged, and your
opponents see in the game's `clocks.vacation` until when you are away. Starting or ending one
re-indexes the timeouts of your games at their new deadlines.
"""
from __future__ import annotations

import time
from datetime import datetime, timezone

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from events import GameNotFound, desk, due, game_clock, keys, pauses, roster, vacations
from events.clocks import format_epoch

from . import auth, limits
from .context import Arena
from .errors import ApiError
from .games import problems
from .schemas import Strict

blp = Blueprint("vacation", __name__, url_prefix="/accounts/me/vacation", description="Vacation")
DAY = 86400.0


class VacationIn(Strict):
    days = fields.Float(required=True, validate=validate.Range(min=0.01, max=366),
                        metadata={"description": "how long, in days (fractions allowed)"})


class VacationOut(Schema):
    active = fields.Boolean()
    since = fields.String(allow_none=True)
    until = fields.String(allow_none=True)
    allowance_days = fields.Float()
    used_days = fields.Float(metadata={"description": "this calendar year (UTC)"})
    left_days = fields.Float()


def allowance_days() -> float:
    return Arena.of().settings.vacation_days


def _year(now: float) -> tuple[float, float]:
    year = datetime.fromtimestamp(now, timezone.utc).year
    start = datetime(year, 1, 1, tzinfo=timezone.utc).timestamp()
    return start, datetime(year + 1, 1, 1, tzinfo=timezone.utc).timestamp()


def _active(rows: list[list[float]], now: float) -> list[float] | None:
    return next((r for r in rows if r[0] <= now < r[1]), None)


def status(redis, player_id: str, now: float | None = None) -> dict:
    now = time.time() if now is None else now
    rows = vacations.intervals(redis, player_id)
    used = pauses.overlap(rows, *_year(now)) / DAY
    active = _active(rows, now)
    allowance = allowance_days()
    return {"active": active is not None, "since": format_epoch(active[0]) if active else None,
            "until": format_epoch(active[1]) if active else None, "allowance_days": allowance,
            "used_days": round(used, 4), "left_days": round(max(0.0, allowance - used), 4)}


def public(redis, player_id: str) -> dict | None:
    """What others see: until when the player is away, or None."""
    active = _active(vacations.intervals(redis, player_id), time.time())
    return {"until": format_epoch(active[1])} if active else None


def reindex(player_id: str) -> None:
    """Move the timeouts and "deadline soon" reminders of the player's games to their times as they
    are now (a reminder already sent is not sent again: its wait's member is gone or past)."""
    arena = Arena.of()
    items = {}
    for game_id in roster.player_games(arena.redis, player_id):
        seating = roster.seating_of(arena.redis, game_id)
        if not seating.tc.timed:
            continue
        try:
            clock = game_clock.current(arena.redis, arena.service, game_id, seating.tc)
        except GameNotFound:
            continue
        if clock.over or seating.players.get(clock.seat) != player_id:
            continue
        end = pauses.deadline(arena.redis, clock, seating)
        desk.set_deadline(arena.redis, player_id, game_id, end)
        if end is not None:
            items[due.member("timeout", game_id, clock.wait)] = end
            remind = due.member("remind", game_id, clock.wait)
            if due.when(arena.redis, remind) is not None:
                items[remind] = pauses.reminder(arena.redis, clock, seating, arena.settings.reminder_fraction)
    due.add(arena.redis, items)


@blp.route("")
@blp.response(200, VacationOut)
@problems(401)
def get_vacation():
    """Your vacation now and what is left of this year's allowance."""
    redis = Arena.of().redis
    return status(redis, auth.require_player(redis))


vacation_changes = limits.limited("vacation", "vacations started and ended", per_address="30/minute",
                                  per_player="5/minute;30/day")


@blp.route("", methods=["POST"])
@vacation_changes
@blp.arguments(VacationIn)
@blp.response(201, VacationOut)
@problems(400, 401, 403, 409, 429)
def start(data: dict):
    """Go on vacation now, for `days` (at most what is left of this year's allowance)."""
    redis = Arena.of().redis
    pid = auth.require_player(redis)
    now = time.time()
    current = status(redis, pid, now)
    if current["active"]:
        raise ApiError(409, "already_on_vacation", f"You are on vacation already, until {current['until']}; end it first to take another.")
    if data["days"] > current["left_days"]:
        raise ApiError(409, "vacation_allowance_exceeded",
                       f"You have only {current['left_days']:g} of your {current['allowance_days']:g} vacation days left this year; "
                       "ask for fewer days.")
    vacations.save(redis, pid, vacations.intervals(redis, pid) + [[now, now + data["days"] * DAY]])
    reindex(pid)
    return status(redis, pid, now)


@blp.route("", methods=["DELETE"])
@vacation_changes
@blp.response(200, VacationOut)
@problems(401, 403, 409, 429)
def end():
    """Come back now: your clocks run again (the days you did not use stay in the allowance)."""
    redis = Arena.of().redis
    pid = auth.require_player(redis)
    now = time.time()
    rows = vacations.intervals(redis, pid)
    active = _active(rows, now)
    if active is None:
        raise ApiError(409, "not_on_vacation", "You are not on vacation, so there is none to end.")
    vacations.save(redis, pid, [[a, now] if [a, b] == active else [a, b] for a, b in rows])
    reindex(pid)
    return status(redis, pid, now)
