"""A game's chat: two Redis streams beside its log (players', spectators'), never in its hash chain.

Messages are plain text and carry who wrote them; nothing here is read by the engine. Each
channel keeps its last MAX_KEPT messages. Mutes are per reader (a set of player ids not to show);
reports go to one moderators' stream with a copy of the message.
"""
from __future__ import annotations

import json
import time
from typing import Any

from . import keys, stream_terms, unmoved
from .replies import text

MAX_KEPT = 2000
CHANNELS = ("players", "spectators")


def _decode(fields: dict) -> dict:
    for key, value in fields.items():
        if text(key) == "data":
            return json.loads(value)
    raise KeyError("data")


def post(redis: Any, game_id: str, channel: str, message: dict) -> dict:
    """Append a message ({player, name, seat, text}); it comes back with its id and time."""
    body = {**message, "time": round(time.time(), 3)}
    sid = text(redis.xadd(keys.chat(game_id, channel), {"data": json.dumps(body)}, maxlen=MAX_KEPT,
                           approximate=True))
    unmoved.expire_with(redis, game_id)     # a channel new to a game nobody moved in expires with it
    return {"id": sid, "channel": channel, **body}


def read(redis: Any, game_id: str, channel: str, after: str = "0", count: int = 200) -> list[dict]:
    """Messages after stream id `after`, oldest first."""
    start = "-" if after in ("", "0", "0-0") else f"({after}"
    return [{"id": text(sid), "channel": channel, **_decode(fields)}
            for sid, fields in redis.xrange(keys.chat(game_id, channel), start, "+", count=count)]


def message(redis: Any, game_id: str, channel: str, message_id: str) -> dict | None:
    rows = redis.xrange(keys.chat(game_id, channel), message_id, message_id)
    return {"id": message_id, "channel": channel, **_decode(rows[0][1])} if rows else None


def report(redis: Any, game_id: str, found: dict, reporter: str | None, reason: str) -> str:
    body = {"game_id": game_id, "message": found, "reporter": reporter, "reason": reason, "time": time.time()}
    return text(redis.xadd(keys.chat_reports(), {"data": json.dumps(body)}, maxlen=100_000, approximate=True))


def mute(redis: Any, player_id: str, other: str) -> None:
    redis.sadd(keys.mutes(player_id), other)
    stream_terms.changed(redis, player_id)


def unmute(redis: Any, player_id: str, other: str) -> None:
    redis.srem(keys.mutes(player_id), other)
    stream_terms.changed(redis, player_id)


def muted(redis: Any, player_id: str | None) -> set[str]:
    if player_id is None:
        return set()
    return {text(m) for m in redis.smembers(keys.mutes(player_id))}


def export(redis: Any, game_id: str, channels: tuple[str, ...] = CHANNELS) -> dict[str, list[dict]]:
    """Every kept message of the game's channels, for a record export that asks for its chat."""
    out = {}
    for channel in channels:
        rows, after = [], "0"
        while batch := read(redis, game_id, channel, after, count=500):
            rows += batch
            after = batch[-1]["id"]
        out[channel] = rows
    return out
