"""Server-Sent Events read from Redis streams: one description of a stream for both servers.

A stream endpoint is an *opener*: a function run in a Flask request context (so the usual token
lookup and problem+json refusals apply) that answers with a `Source`: the Redis stream key to
follow, the entry id to resume after (from Last-Event-ID) and a `render` that turns stream
entries into SSE frames as this viewer may see them (per-seat redaction happens there). The async
tier (server/streams/) follows a Source with one shared blocking reader per process; the Flask
view (`flask_response`) follows it with a blocking read per request and is kept for the test
client and a plain WSGI deployment.
"""
from __future__ import annotations

import json
import time
from contextlib import contextmanager
from dataclasses import dataclass, field as dataclass_field
from typing import Any, Callable, Hashable, Iterator, Sequence

from flask import Response, stream_with_context

from events import presence

from .context import Arena

StreamId = tuple[int, int]                    # a Redis stream entry id "<ms>-<seq>" as numbers
Entry = tuple[Any, Any]                       # (entry id, fields) as redis-py returns them
CONNECTED = ": connected\n\n"                 # sent first, so headers and a first line go out at once
KEEP_ALIVE = ": keep-alive\n\n"
PAGE = 100                                    # entries per read
FALLBACK_BLOCK_SECONDS = 3                    # the Flask fallback's wait, under redis-py's socket timeout
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


def flask_response(source: Source, follow: bool) -> Response:
    """The stream served by Flask itself: one blocking read per request (holds a thread)."""
    return Response(stream_with_context(_follow(Arena.of().redis, source, follow)), mimetype="text/event-stream",
                    headers=HEADERS)


def _follow(redis: Any, source: Source, follow: bool) -> Iterator[str]:
    after, opening = source.after, CONNECTED
    with watching(redis, source) as beat:
        yield from _follow_watched(redis, source, follow, after, opening, beat)


def _follow_watched(redis: Any, source: Source, follow: bool, after: StreamId, opening: str,
                    beat: Callable[[], None]) -> Iterator[str]:
    while True:
        beat()
        if source.unchanged is not None and not source.unchanged():
            return                            # a mute since the opening: the client resumes from its id
        backlog = read_after(redis, source, after)
        text = opening + "".join(item.text for item in backlog.frames)
        if text:
            yield text
        opening = ""
        if backlog.over or not follow:
            return
        after = backlog.upto
        if not redis.xread({source.key: format_id(after)}, count=1, block=FALLBACK_BLOCK_SECONDS * 1000):
            yield KEEP_ALIVE


@contextmanager
def watching(redis: Any, source: Source, clock: Callable[[], float] = time.monotonic) -> Iterator[Callable[[], None]]:
    """While the stream is open its viewer counts as watching (events/presence.py): `beat()`
    refreshes that now and then (call it often; it touches Redis a few times per TTL). The async
    tier counts its viewers for the whole process instead (streams/presence.py)."""
    if source.presence is None:
        yield lambda: None
        return
    last = [float("-inf")]

    def beat() -> None:
        if clock() - last[0] >= presence.TTL / 3:
            last[0] = clock()
            presence.touch(redis, *source.presence)

    try:
        yield beat
    finally:
        presence.leave(redis, *source.presence)
