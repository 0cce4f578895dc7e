"""A game's chat: two Redis streams beside its log (players', spectators'), never in its hash chain.

Messages are plain text and carry who wrote them; nothing here is read by the engine. Each
channel keeps its last MAX_KEPT messages. Mutes are per reader (a set of player ids not to show);
reports go to one moderators' stream with a copy of the message.

Once the game is archived (events/archive/), its channels are in its archived record: reads merge
those messages with any written since (by id, so a message archived and not yet deleted from Redis
is read once).
"""
from __future__ import annotations

import json
import re
import time
from typing import Any

from . import keys, stream_terms, unmoved
from .archive import index as archive_index, reader as archive_reader
from .replies import text

MAX_KEPT = 2000
CHANNELS = ("players", "spectators")


def _decode(fields: dict[str, Any] | list[Any]) -> dict[str, Any]:
    pairs = fields.items() if isinstance(fields, dict) else zip(fields[::2], fields[1::2])
    for key, value in pairs:
        if text(key) == "data":
            return json.loads(value)
    raise KeyError("data")


def post(redis: Any, game_id: str, channel: str, message: dict[str, Any]) -> dict[str, Any]:
    """Append a message ({player, name, seat, text}); it comes back with its id and time."""
    body = {**message, "time": round(time.time(), 3)}
    sid = text(redis.xadd(keys.chat(game_id, channel), {"data": json.dumps(body)}, maxlen=MAX_KEPT,
                           approximate=True))
    unmoved.expire_with(redis, game_id)     # a channel new to a game nobody moved in expires with it
    if redis.exists(keys.archived(game_id)):
        archive_index.mark(redis, game_id, body["time"])    # the sweeps archive the message with the game
    return {"id": sid, "channel": channel, **body}


def mentioned(message: str, names: dict[int, str]) -> list[int]:
    """The seats a message names with an @ before the seat's name ("@Bob", any case, the name not
    run on into more letters): those told they were mentioned (server/chat.py)."""
    lowered = message.casefold()
    return [seat for seat, name in sorted(names.items()) if name and re.search(
        r"@" + re.escape(name.casefold()) + r"(?![\w])", lowered)]


def message_ref(message_id: str) -> int:
    """A number unique to a message of a channel (from its stream id), to tell a mention by."""
    ms, seq = _order(message_id)
    return ms * 1000 + seq


def read(redis: Any, game_id: str, channel: str, after: str = "0", count: int = 200) -> list[dict]:
    """Messages after stream id `after`, oldest first."""
    start = "-" if after in ("", "0", "0-0") else f"({after}"
    pipe = redis.pipeline(transaction=True)
    pipe.xrange(keys.chat(game_id, channel), start, "+", count=count)
    pipe.exists(keys.archived(game_id))
    entries, archived = pipe.execute()
    rows = [{"id": text(sid), "channel": channel, **_decode(fields)} for sid, fields in entries]
    if archived:
        rows = _merged(_archived(redis, game_id, channel), rows, after)[:count]
    return rows


def _order(message_id: str) -> tuple[int, ...]:
    return tuple(int(part) for part in message_id.split("-"))


def _archived(redis: Any, game_id: str, channel: str) -> list[dict[str, Any]]:
    game = archive_reader.default().game(redis, game_id)
    return game.archived.messages(channel) if game is not None else []


def archived_entries(redis: Any, game_id: str, channel: str, after: str) -> list[tuple[str, dict[str, str]]]:
    """A channel's messages after stream id `after` that left Redis with the game's archive, as the
    channel's stream entries were: (id, {"data": the message's JSON})."""
    game = archive_reader.default().game(redis, game_id)
    floor = _order(after)
    return [(mid, {"data": data}) for mid, data in (game.archived.chat.get(channel, []) if game else [])
            if _order(mid) > floor]


def _merged(archived: list[dict[str, Any]], live: list[dict[str, Any]], after: str) -> list[dict[str, Any]]:
    """The archived messages after `after` and those still (or since) in Redis, each once, in order."""
    floor = _order(after) if after not in ("", "0", "0-0") else (0, 0)
    rows = {row["id"]: row for row in archived if _order(row["id"]) > floor}
    rows.update((row["id"], row) for row in live)
    return sorted(rows.values(), key=lambda row: _order(row["id"]))


def message(redis: Any, game_id: str, channel: str, message_id: str) -> dict[str, Any] | None:
    rows = redis.xrange(keys.chat(game_id, channel), message_id, message_id)
    if not rows:
        return next((row for row in _archived(redis, game_id, channel) if row["id"] == message_id), None)
    return {"id": message_id, "channel": channel, **_decode(rows[0][1])}


def report(redis: Any, game_id: str, found: dict[str, Any], reporter: str | None, reason: str) -> str:
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


def export(redis: Any, game_id: str, channels: tuple[str, ...] = CHANNELS) -> dict[str, list[dict[str, Any]]]:
    """Every kept message of the game's channels, for a record export that asks for its chat."""
    out = {}
    for channel in channels:
        rows, after = [], "0"
        while batch := read(redis, game_id, channel, after, count=500):
            rows += batch
            after = batch[-1]["id"]
        out[channel] = rows
    return out
