"""Server-Sent Events read from Redis streams: what a stream is, for the async tier that serves it.

A stream endpoint is an *opener*: a function run in a Flask request context (so the usual token
lookup and problem+json refusals apply) that answers with a `Source`: the Redis stream key to
follow, the entry id to resume after (from Last-Event-ID) and a `render` that turns stream
entries into SSE frames as this viewer may see them (per-seat redaction happens there). The async
tier (server/streams/) follows a Source with one shared blocking reader per process. The Flask
view of a stream URL (which documents it in the API) runs the same opener, so its refusals are
the same, then answers 501 `streams_not_served_here`: the Flask app alone serves no stream.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field as dataclass_field
from typing import Any, Callable, Hashable, Sequence

from .errors import ApiError

StreamId = tuple[int, int]                    # a Redis stream entry id "<ms>-<seq>" as numbers
Entry = tuple[Any, Any]                       # (entry id, fields) as redis-py returns them
CONNECTED = ": connected\n\n"                 # sent first, so headers and a first line go out at once
KEEP_ALIVE = ": keep-alive\n\n"
PAGE = 100                                    # entries per read
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@dataclass(frozen=True)
class Frame:
    id: StreamId
    text: str
    last: bool = False                        # the stream ends after this frame (a finished game)


Render = Callable[[Sequence[Entry], Hashable], list[Frame]]
# The entries after an id that left Redis for the archive (events/archive/), as XRANGE gave them,
# and whether the key is complete (nothing will ever follow them: an archived game's log)
Archived = Callable[[StreamId], tuple[Sequence[Entry], bool]]


@dataclass(frozen=True)
class Source:
    """What one viewer follows: `render(entries, viewer)` is pure, so viewers alike share its work."""
    key: str
    after: StreamId
    render: Render
    viewer: Hashable = None
    presence: tuple[str, str] | None = None   # (game id, viewer id): counted as watching while open
    # False once what it was opened with changed (a chat viewer's mutes): the stream then ends, and
    # the client resumes from its id (as Merged.unchanged); not part of what viewers alike share
    unchanged: Callable[[], bool] | None = dataclass_field(default=None, compare=False, hash=False)
    # a finished game's entries read from the archive before Redis (None: all are in Redis)
    archived: Archived | None = dataclass_field(default=None, compare=False, hash=False)


MAX_ID_PART = 2 ** 63 - 1


def valid_id(text: str | None) -> bool:
    """The one rule for a stream id a client resumes from (lobby, chat, notifications, any stream):
    '<ms>' or '<ms>-<seq>', each part at most 2^63 - 1, so Redis takes it as the start of any range,
    exclusive ones too (one past 2^64 - 1 would be refused)."""
    parts = text.split("-") if text else []
    return 1 <= len(parts) <= 2 and all(p.isascii() and p.isdigit() and len(p) <= 20 and int(p) <= MAX_ID_PART
                                        for p in parts)


def parse_id(raw: Any) -> StreamId:
    text = raw.decode() if isinstance(raw, bytes) else str(raw)
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


def format_id(sid: StreamId) -> str:
    return f"{sid[0]}-{sid[1]}"


def frame(event_id: Any, event: str, data: dict) -> str:
    return f"id: {event_id}\nevent: {event}\ndata: {json.dumps(data)}\n\n"


def field(fields: Any, name: str) -> Any:
    """One field of a stream entry (RESP2 gives a dict, RESP3 may give a flat list; bytes or str)."""
    if isinstance(fields, dict):
        return fields.get(name, fields.get(name.encode()))
    pairs = dict(zip(fields[::2], fields[1::2]))
    return pairs.get(name, pairs.get(name.encode()))


@dataclass
class Backlog:
    """Frames stored after some id, read a page at a time: `upto` is the last entry read (rendered
    or not), `over` that the stream has ended."""
    source: Source
    upto: StreamId
    frames: list[Frame] = dataclass_field(default_factory=list)
    over: bool = False

    def query(self) -> tuple[str, str, str]:
        """XRANGE arguments for the next page (with count=PAGE)."""
        return self.source.key, f"({format_id(self.upto)}", "+"

    def take(self, entries: Sequence[Entry]) -> bool:
        """Add a page; True when the backlog is complete."""
        if entries:
            for item in self.source.render(entries, self.source.viewer):
                self.frames.append(item)
                if item.last:
                    self.over = True
                    break
            self.upto = self.frames[-1].id if self.over else max(self.upto, parse_id(entries[-1][0]))
        return self.over or len(entries) < PAGE

    def take_archived(self) -> bool:
        """Start with the entries the archive holds (a game that left Redis); True when that is all
        there will ever be. Those in Redis come after them (written since, or not yet deleted)."""
        if self.source.archived is None:
            return False
        entries, complete = self.source.archived(self.upto)
        self.take(entries)
        self.over = self.over or complete
        return self.over


def read_after(redis: Any, source: Source, after: StreamId) -> Backlog:
    """Every frame stored after `after`, read with a synchronous client."""
    backlog = Backlog(source, after)
    if not backlog.take_archived():
        while not backlog.take(redis.xrange(*backlog.query(), count=PAGE)):
            pass
    return backlog


def not_served_here() -> ApiError:
    """What a stream URL answers from the Flask app alone (plain WSGI: `gunicorn 'server:create_app()'`,
    `arena web --gthread`), once its opener's checks passed: the streams are the async front's."""
    return ApiError(501, "streams_not_served_here", "This server runs the API without its stream tier, so it "
                    "serves no live streams; run it with `arena serve` or `arena web`, or route the stream paths "
                    "to `arena stream`.")
