"""GET and PUT /accounts/me/time-zone: the account's time zone (an IANA name, events/time_zones.py).
A game with weekend rest stops the account's clock from Saturday 00:00 to Monday 00:00 there;
choosing another zone moves the deadlines of the account's running games (weekends already past
stay where they fell)."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from events import time_zones
from events.clocks import now

from . import auth, limits
from .context import Arena
from .errors import ApiError
from .games import problems
from .schemas import Strict
from .vacations import reindex

blp = Blueprint("time_zone", __name__, description="Your time zone")


class TimeZoneIn(Strict):
    time_zone = fields.String(required=True, validate=validate.Length(min=1, max=64),
                              metadata={"description": "an IANA time zone name, e.g. Europe/Prague"})


class TimeZoneOut(Schema):
    time_zone = fields.String(metadata={"description": "your zone (UTC until you choose one)"})
    chosen = fields.Boolean(metadata={"description": "false: never chosen, UTC is used"})


def _answer(pid: str) -> dict:
    rows = time_zones.history(Arena.of().redis, pid)
    return {"time_zone": time_zones.current(rows), "chosen": bool(rows)}


@blp.route("/accounts/me/time-zone")
@blp.response(200, TimeZoneOut)
@problems(401)
def get_time_zone():
    """Your time zone, where weekend rest falls for you."""
    return _answer(auth.require_player(Arena.of().redis))


@blp.route("/accounts/me/time-zone", methods=["PUT"])
@limits.limited("time_zone", "time zones chosen", per_address="30/minute", per_player="10/minute;50/day")
@blp.arguments(TimeZoneIn)
@blp.response(200, TimeZoneOut)
@problems(400, 401, 422, 429)
def put_time_zone(data: dict):
    """Choose your time zone (from now on; the deadlines of your running games move with it)."""
    redis = Arena.of().redis
    pid = auth.require_player(redis)
    try:
        time_zones.choose(redis, pid, data["time_zone"], now())
    except time_zones.UnknownZone as exc:
        raise ApiError(422, "unknown_time_zone", f"{exc}; choose a zone of the IANA database.") from None
    reindex(pid)
    return _answer(pid)
