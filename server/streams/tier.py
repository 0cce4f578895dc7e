"""The stream endpoints of one process: caps, opening through the Flask app, then following.

Opening runs the route's opener in a Flask request context on a worker thread (a few Redis round
trips: the token lookup, the existence check, the backlog), so authentication, redaction and every
refusal (problem+json, 503 when Redis is down) are the Flask app's own. Following is a coroutine:
it waits on its subscription to the hub and sends a heartbeat comment every heartbeat interval.
Before it delivers, it asks whether its credentials and terms still hold (standing.py: Redis is
asked at most every few seconds per stream).

Each stream beats on its own phase (`beat_phase`): streams opened in the same second (a thousand
spectators arriving with a link) would otherwise write their comments, and check their
credentials, in the same tick, every interval, for as long as they stay open.
"""
from __future__ import annotations

import asyncio
import io
import itertools
import json
import logging
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, AsyncIterator, Awaitable, Callable

from a2wsgi.wsgi import build_environ
from flask import Flask, request
from flask_smorest import Blueprint
from redis.exceptions import RedisError
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from .. import auth, sessions, sse
from ..context import Arena
from ..errors import PROBLEM, STORE_UNAVAILABLE, problem_body
from ..merged import Merged
from events.settings import Settings
from . import interleave
from .hub import StreamHub
from .presence import PresenceBook
from .routes import StreamRoute
from .slots import StreamSlots
from .standing import Standing, StandingNews

log = logging.getLogger("arena.streams")
OPENER_THREADS = 8                  # opening is a few Redis round trips and a render: short, GIL-bound
GOLDEN = (5 ** 0.5 - 1) / 2         # 1/φ: its multiples mod 1 spread any run of them evenly


@dataclass
class Opened:
    source: sse.Source | Merged                           # Merged: several keys in one stream (merged.py)
    follow: bool
    backlog: sse.Backlog | list[sse.Backlog] | None      # a single one is let go once sent (no copy kept)
    standing: Standing | None = None                      # its credentials and terms still hold (standing.py)
    beat_at: float = 0.0                                  # the loop time of the first heartbeat (beat_phase)


class StreamTier:
    def __init__(self, flask_app: Flask, redis_url: str, limits: Settings) -> None:
        self.flask_app = flask_app
        self.limits = limits
        self.hub = StreamHub(redis_url, max_pending=limits.stream_backlog, shard_keys=limits.stream_shard_keys)
        self.slots = StreamSlots(self.hub.redis, limits.streams_per_address, limits.streams_per_token,
                                 limits.stream_slot_lease)
        self.openers = ThreadPoolExecutor(max_workers=OPENER_THREADS, thread_name_prefix="stream-open")
        self.presence = PresenceBook(self.hub.redis)
        self.opened = itertools.count(1)                   # streams opened by this process: their phases
        self.news = StandingNews(None if self.hub.cluster else redis_url)     # a Cluster: the recheck bound only
        flask_app.extensions.setdefault("arena_health", {})["streams"] = self.hub.status

    async def stop(self) -> None:
        await self.slots.stop()
        await self.presence.stop()
        await self.news.stop()
        await self.hub.stop()
        self.openers.shutdown(wait=False)

    def route(self, stream: StreamRoute) -> Route:
        async def endpoint(request: Request) -> Response:
            return await self.serve(stream, request)
        return Route(stream.path, endpoint, methods=["GET"], name=stream.path)

    async def serve(self, stream: StreamRoute, request: Request) -> Response:
        address = request.client.host if request.client else "unknown"
        try:
            claim = await self.slots.claim(address, _token(request))
        except (RedisError, OSError):
            return problem_response(503, "store_unavailable", STORE_UNAVAILABLE, retry_after=self.limits.retry_after)
        if claim is None:
            return problem_response(429, "too_many_streams", "You have as many live streams open as allowed; close "
                                    "another tab of this site, or try again later.", retry_after=self.limits.retry_after)
        try:
            opened = await asyncio.get_running_loop().run_in_executor(self.openers, self._open, stream, request.scope)
        except BaseException:
            await claim.release()
            raise
        if not isinstance(opened, Opened):
            await claim.release()
            return opened
        opened.beat_at = asyncio.get_running_loop().time() + beat_phase(next(self.opened), self.limits.heartbeat_seconds)
        return SSEResponse(self._follow(opened), on_close=claim.release)

    def _open(self, stream: StreamRoute, scope: dict) -> Opened | Response:
        """Run on a thread: the opener in a Flask request context, then the backlog."""
        app = self.flask_app
        with app.request_context(build_environ(scope, io.BytesIO())):      # a GET: any body is ignored
            try:
                query = Blueprint.ARGUMENTS_PARSER.parse(stream.query(), request, location="query")
                source = stream.open(query, **scope.get("path_params", {}))
                redis = Arena.of().redis
                backlog = source.backlogs(redis) if isinstance(source, Merged) else \
                    sse.read_after(redis, source, source.after)
                return Opened(source, query.get("follow", True), backlog, self._standing(redis, source))
            except Exception as exc:
                try:
                    answer = app.handle_user_exception(exc)
                except Exception as unhandled:
                    answer = app.handle_exception(unhandled)
                flask_response = app.process_response(app.make_response(answer))
                return Response(flask_response.get_data(), status_code=flask_response.status_code,
                                headers=dict(flask_response.headers))

    def _standing(self, redis: Any, source: sse.Source | Merged) -> Standing:
        """Run in the opener's request context: what the stream checks before it delivers (its
        credentials, and a merged stream's terms too), and whose they are (for StandingNews)."""
        credentials = auth.still_standing(redis)
        unchanged = source.unchanged
        checks = [c for c in (credentials, unchanged) if c is not None]
        if not checks:
            return Standing(None, None, self.limits.stream_recheck_seconds)
        return Standing(checks[0] if len(checks) == 1 else lambda: all(check() for check in checks), auth.calling_player(redis),
                        self.limits.stream_recheck_seconds)

    async def _follow(self, opened: Opened) -> AsyncIterator[str]:
        """The frames, with the viewer counted as watching while the stream is open (presence.py)."""
        entry = opened.source.presence
        if entry is not None:
            self.presence.join(entry)
        if opened.standing is not None:
            self.news.join(opened.standing)
        try:
            frames = interleave.follow(opened, self._frames) if isinstance(opened.source, Merged) else self._frames(opened)
            async for text in frames:
                yield text
        finally:
            if entry is not None:
                self.presence.leave(entry)
            if opened.standing is not None:
                self.news.leave(opened.standing)

    async def _frames(self, opened: Opened) -> AsyncIterator[str]:
        assert isinstance(opened.backlog, sse.Backlog)
        upto, over = opened.backlog.upto, opened.backlog.over
        yield _first_chunk(opened)
        if over or not opened.follow:
            return
        sub = self.hub.subscribe(opened.source, upto)
        try:
            try:
                backlog = await self.hub.read_after(opened.source, upto)   # what came meanwhile
            except RedisError as exc:
                log.warning("stream of %s closed: %r", opened.source.key, exc)
                return                          # Redis went away just now: the client resumes from its last id
            last, over = backlog.upto, backlog.over
            if backlog.frames:
                yield "".join(item.text for item in backlog.frames)
            del backlog                         # nothing sent is kept while the stream waits
            if over:
                return
            beat_at = opened.beat_at
            while True:
                try:
                    async with asyncio.timeout_at(beat_at):         # no task per wait, as wait_for makes
                        frames = await sub.next()
                except TimeoutError:
                    frames = []
                    beat_at = next_beat(beat_at, asyncio.get_running_loop().time(), self.limits.heartbeat_seconds)
                if frames is None:
                    return                      # the client reads too slowly: it resumes with Last-Event-ID
                if opened.standing is not None and not await opened.standing.holds(self.openers):
                    return                      # its token was revoked, its session ended or its mutes changed
                if not frames:
                    yield sse.KEEP_ALIVE
                    continue
                fresh = [item for item in frames if item.id > last]
                if not fresh:
                    continue
                last = fresh[-1].id
                ended = next((i for i, item in enumerate(fresh) if item.last), None)
                yield "".join(item.text for item in fresh[: None if ended is None else ended + 1])
                if ended is not None:
                    return
        finally:
            self.hub.unsubscribe(sub)


def beat_phase(k: int, interval: float) -> float:
    """Seconds from the k-th stream's opening to its first heartbeat, within (0, interval]: the
    golden-ratio sequence puts any run of streams opened together evenly over the interval, and
    is the same in every run (a test can count on it). The stream then beats every interval on
    that phase, busy or quiet, so streams that receive the same event stay apart."""
    return interval * (1 - (k * GOLDEN) % 1)


def next_beat(beat_at: float, now: float, interval: float) -> float:
    """The stream's next heartbeat on its phase after `now` (a busy loop may have missed some)."""
    if beat_at > now:
        return beat_at
    return beat_at + interval * (math.floor((now - beat_at) / interval) + 1)


def _first_chunk(opened: Opened) -> str:
    """The stream's first chunk: the backlog, which the stream then lets go of (each open stream
    would else hold its game's whole history, several KB, for as long as it is open)."""
    backlog, opened.backlog = opened.backlog, None
    assert isinstance(backlog, sse.Backlog)
    return sse.CONNECTED + "".join(item.text for item in backlog.frames)


class SSEResponse(StreamingResponse):
    """A text/event-stream response that awaits `on_close` however it ends (even before it starts)."""

    def __init__(self, content: AsyncIterator[str], on_close: Callable[[], Awaitable[None]]) -> None:
        super().__init__(content, media_type="text/event-stream", headers=sse.HEADERS)
        self.on_close = on_close

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.on_close()


def problem_response(status: int, code: str, detail: str, retry_after: int | None = None) -> Response:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    return Response(json.dumps(problem_body(status, code, detail)), status_code=status, media_type=PROBLEM,
                    headers=headers)


def _token(request: Request) -> str | None:
    """The credential whose streams are capped together: the bearer token, else the session cookie
    (a signed-in browser's tabs share one cap, as a token's streams do)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        return token.strip() or None
    return request.cookies.get(sessions.COOKIE) or None
