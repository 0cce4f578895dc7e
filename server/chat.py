"""Chat beside a game: the players' channel and the spectators' channel, with mutes and reports.

Who reads and writes what (as on Lichess, so nobody at the table gets outside help):

    players     read and write: the game's seats (a seat token, or an account holding a seat)
    spectators  read: anyone without a seat (and everyone once the game is over);
                write: signed-in players without a seat

Messages are plain text (control characters dropped, at most MAX_LENGTH characters), shown with
textContent by the page; a writer may send 5 messages in 10 seconds (ARENA_LIMIT_CHAT_PLAYER).
Chat never touches the game's log or hash chain; GET /games/{id}/record?chat=1 adds it to an export.

Live, chat rides on the game's own stream: GET /games/{id}/stream?chat=1 interleaves `chat`
events (the channels the caller may read, without players it muted) with the game's events, and
stays open after GameEnded for the chat after the game (and the news of a rematch offer, as
`rematch` events: server/rematch.py). There every frame's id is a cursor
naming the game's version and each channel's last message, "12;players=1717171717171-0"; sent back
as Last-Event-ID (or `cursor=`) it resumes all of them exactly. Without chat=1 the stream is as it
always was (ids are versions). A viewer's mutes apply from the opening; when they change, the open
stream ends (on the async tier: at its next delivery when the change was published, else within
ARENA_STREAM_RECHECK_SECONDS) and the client resumes, filtered anew. The channels are those
readable at the opening, and a seat's open stream adds the spectators' chat right after GameEnded
(from its start, as a reconnection would).
GET /games/{id}/chat/stream follows one channel alone.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Callable

from flask import request
from flask_smorest import Blueprint
from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate

from events import GameNotFound, accounts, chat, keys, roster
from workers import notify

from . import auth, limits, plain_text, sse
from .context import Arena
from .errors import ApiError
from .games import problems
from .lobby import stream_id
from .merged import Merged
from .schemas import MAX_VERSION, StreamQuery, Strict

blp = Blueprint("chat", __name__, description="Chat beside a game, mutes and reports")
MAX_LENGTH = 500
Channel = fields.String(load_default="players", validate=validate.OneOf(chat.CHANNELS))


class ChatIn(Strict):
    channel = Channel
    text = fields.String(required=True, validate=validate.Length(min=1, max=MAX_LENGTH))


class ChatQuery(Schema):
    channel = Channel
    after = fields.String(load_default="0", validate=stream_id)


class ChatStreamQuery(Schema):
    class Meta:
        unknown = EXCLUDE
    channel = Channel
    after = fields.String(load_default="0", validate=stream_id,
                          metadata={"description": "the id of the last message seen (SSE: Last-Event-ID)"})
    follow = fields.Boolean(load_default=True, metadata={"description": "keep the stream open for new messages"})


class GameStreamQuery(StreamQuery):
    chat = fields.Boolean(load_default=False, metadata={"description": "also send the chat channels you may "
                          "read, as `chat` events; every id is then a cursor such as '12;players=<message id>'"})
    cursor = fields.String(validate=validate.Length(max=200), metadata={
        "description": "with chat=1: where to resume, the id of the last frame seen (Last-Event-ID wins)"})


class ReportIn(Strict):
    reason = fields.String(load_default="", validate=validate.Length(max=300))


class MuteIn(Strict):
    player = fields.String(required=True, validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,64}$"))


class MessageOut(Schema):
    id = fields.String()
    channel = fields.String()
    player = fields.String(allow_none=True)
    seat = fields.Integer(allow_none=True)
    name = fields.String()
    text = fields.String()
    time = fields.Float()


class ChatOut(Schema):
    channel = fields.String()
    messages = fields.List(fields.Nested(MessageOut))
    last_id = fields.String()


class ReportOut(Schema):
    report = fields.String(metadata={"description": "the report's id"})


class MutedOut(Schema):
    id = fields.String()
    name = fields.String()


class MutesOut(Schema):
    players = fields.List(fields.String(), metadata={"description": "their ids"})
    muted = fields.List(fields.Nested(MutedOut), metadata={"description": "the same players with their names"})


def _over(game_id: str) -> bool:
    return Arena.of().service.load(game_id).state.get("phase") == "over"


def _caller(game_id: str, channel: str, writing: bool) -> auth.Caller:
    """The caller, if they may read (or write) the channel; else a 401/403 that says why."""
    redis = Arena.of().redis
    caller = auth.caller_for_game(redis, game_id, required=writing)
    if not Arena.of().service.store.exists(game_id):
        raise GameNotFound(game_id)
    if channel == "players":
        if caller.seat is None:
            raise ApiError(403, "not_your_seat", "The players' chat is for the game's players; spectators have their own chat.")
    elif caller.seat is not None and not _over(game_id):
        raise ApiError(403, "players_cannot_read_spectators",
                       "Players see the spectators' chat once the game is over; until then, use the players' chat.")
    elif writing and caller.player is None:
        raise ApiError(401, "token_required", "Sign in to write in the spectators' chat.")
    return caller


def export_for(game_id: str, caller: auth.Caller) -> dict[str, list[dict]]:
    """The channels the caller may read, whole but for the players it muted, for
    GET /games/{id}/record?chat=1."""
    redis = Arena.of().redis
    hidden = chat.muted(redis, caller.player)
    return {channel: [m for m in rows if m.get("player") not in hidden]
            for channel, rows in chat.export(redis, game_id, readable(game_id, caller)).items()}


def clean(text: str) -> str:
    return plain_text.clean(text, keep_newlines=True)


@blp.route("/games/<game_id>/chat")
@blp.arguments(ChatQuery, location="query")
@blp.response(200, ChatOut)
@problems(400, 401, 403, 404)
def read(query: dict, game_id: str):
    """Messages of one channel after `after` (oldest first), without those of players you muted."""
    caller = _caller(game_id, query["channel"], writing=False)
    redis = Arena.of().redis
    rows = chat.read(redis, game_id, query["channel"], query["after"])
    hidden = chat.muted(redis, caller.player)
    return {"channel": query["channel"], "last_id": rows[-1]["id"] if rows else query["after"],
            "messages": [m for m in rows if m.get("player") not in hidden]}


@blp.route("/games/<game_id>/chat/stream")
@blp.arguments(ChatStreamQuery, location="query")
@blp.response(200, content_type="text/event-stream")
@problems(400, 401, 403, 404, 501)
def stream(query: dict, game_id: str):
    """Server-Sent Events, one `chat` event per message of the channel (id = the message's id)."""
    open_stream(query, game_id)
    raise sse.not_served_here()


def open_stream(query: dict, game_id: str) -> sse.Source:
    """The channel's messages for the caller (muted players left out), after Last-Event-ID or `after`;
    a mute or unmute ends it at once (the client resumes from its id, with the new mutes)."""
    caller = _caller(game_id, query["channel"], writing=False)
    muted, unchanged = _mutes_as_now(caller.player)
    after = request.headers.get("Last-Event-ID", query["after"])
    try:
        stream_id(after)
    except ValidationError:
        raise ApiError(400, "malformed_request", "The chat cannot resume from there; reconnect without Last-Event-ID to start again.") from None
    return sse.Source(keys.chat(game_id, query["channel"]), sse.parse_id(after), render_messages,
                      (query["channel"], tuple(sorted(muted))), unchanged=unchanged,
                      archived=archived_chat(game_id, query["channel"]))


def archived_chat(game_id: str, channel: str) -> sse.Archived | None:
    """The channel's messages that left Redis with the game's archive (None while the game is in Redis):
    a stream reads them first; messages written since are in Redis."""
    redis = Arena.of().redis
    if not redis.exists(keys.archived(game_id)):
        return None
    return lambda after: (chat.archived_entries(redis, game_id, channel, sse.format_id(after)), False)


def readable(game_id: str, caller: auth.Caller) -> tuple[str, ...]:
    """The channels the caller may read now."""
    return readable_when(_over(game_id), caller)


def readable_when(over: bool, caller: auth.Caller) -> tuple[str, ...]:
    """The channels the caller may read: the players' for a seat, the spectators' for anyone else
    (and for everybody once the game is over)."""
    return tuple(c for c in chat.CHANNELS
                 if (c == "players" and caller.seat is not None) or (c == "spectators" and (over or caller.seat is None)))


def parse_cursor(text: str, more: tuple[str, ...] = ()) -> tuple[int, dict[str, str]]:
    """'12;players=1717171717171-0' -> (12, {'players': '1717171717171-0'}); a plain '12' is a version.
    `more`: the names of parts other than chat channels the cursor may name."""
    version, *rest = text.split(";")
    try:
        number = int(version)
        if not (version.isascii() and version.isdigit() and number <= MAX_VERSION):
            raise ValueError
        channels = dict(part.split("=", 1) for part in rest)
        for channel, at in channels.items():
            if channel not in chat.CHANNELS and channel not in more:
                raise ValueError
            stream_id(at)
    except (ValueError, ValidationError):
        raise ApiError(400, "malformed_request", "The stream cannot resume from there; reconnect without Last-Event-ID "
                       "or give a cursor such as '12;players=1717171717171-0'.") from None
    return number, channels


def game_stream(query: dict, game_id: str, caller: auth.Caller, log: sse.Source,
                after_end: tuple[tuple[str, Callable[[sse.StreamId], sse.Source]], ...] = ()) -> Merged:
    """The game's log (`log`, as history.open_stream made it, without an end: the stream stays open
    after GameEnded for the chat) with the caller's chat channels; `after_end` names more parts
    (name, source after a position) that join after GameEnded, as the spectators' chat does."""
    given = request.headers.get("Last-Event-ID")
    more = tuple(name for name, _ in after_end)
    version, at = parse_cursor(given, more) if given else (query["after"], {})
    if "cursor" in query:
        from_query = parse_cursor(query["cursor"], more)
        version = version if given else from_query[0]
        at = at or from_query[1]
    channels = readable(game_id, caller)
    later = tuple(c for c in readable_when(True, caller) if c not in channels)     # once the game is over
    muted, unchanged = _mutes_as_now(caller.player)
    hidden = tuple(sorted(muted))

    def channel(c: str) -> sse.Source:
        return sse.Source(keys.chat(game_id, c), sse.parse_id(at.get(c, "0")), render_messages, (c, hidden),
                          archived=archived_chat(game_id, c))
    parts = (replace(log, after=(version, 0), presence=None), *(channel(c) for c in channels))
    named = channels + later + more             # a joining part is named once it has joined

    def cursor(positions) -> str:
        return ";".join([str(positions[0][0]), *(f"{c}={sse.format_id(p)}" for c, p in zip(named, positions[1:]))])
    return Merged(parts, cursor, presence=log.presence, unchanged=unchanged,
                  joining=(*(channel(c) for c in later), *(make(sse.parse_id(at.get(name, "0"))) for name, make in after_end)))


def _mutes_as_now(player: str | None) -> tuple[set, Callable[[], bool] | None]:
    """The viewer's mutes, and a check that they are still those (None for a viewer who cannot mute)."""
    redis = Arena.of().redis
    muted = chat.muted(redis, player)
    if player is None:
        return muted, None
    return muted, lambda: chat.muted(redis, player) == muted


def render_messages(entries, viewer: tuple[str, tuple[str, ...]]) -> list[sse.Frame]:
    channel, hidden = viewer
    frames = []
    for sid, fields in entries:
        message = json.loads(sse.field(fields, "data"))
        if message.get("player") in hidden:
            continue
        text = sid.decode() if isinstance(sid, bytes) else sid
        frames.append(sse.Frame(sse.parse_id(text), sse.frame(text, "chat", {"id": text, "channel": channel, **message})))
    return frames


@blp.route("/games/<game_id>/chat", methods=["POST"])
@limits.limited("chat", "chat messages", per_address="60/minute", per_player="5 per 10 seconds;30/minute")
@blp.arguments(ChatIn)
@blp.response(201, MessageOut)
@problems(400, 401, 403, 404, 429)
def write(data: dict, game_id: str):
    """Say something in a channel (plain text)."""
    caller = _caller(game_id, data["channel"], writing=True)
    text = clean(data["text"])
    if not text:
        raise ApiError(400, "malformed_request", "The message is empty; write something (control characters are left out).")
    redis = Arena.of().redis
    name = _name(game_id, caller)
    posted = chat.post(redis, game_id, data["channel"], {"player": caller.player, "seat": caller.seat, "name": name,
                                                         "text": text})
    if data["channel"] == "players":
        _tell_mentioned(game_id, caller, posted)
    return posted


def _tell_mentioned(game_id: str, caller: auth.Caller, posted: dict) -> None:
    """Each registered player at the table whom the message names with an @ (not the writer, nor one
    who muted the writer) gets a `chat_mention` notification (in their inbox, pushed if they want)."""
    redis = Arena.of().redis
    seating = roster.seating_of(redis, game_id)
    players = seating.players
    for seat in chat.mentioned(posted["text"], {i: seating.name(i) for i in players if i != caller.seat}):
        if caller.player is not None and caller.player in chat.muted(redis, players[seat]):
            continue
        note = notify.notification("chat_mention", game_id, seat, chat.message_ref(posted["id"]), who=posted["name"],
                                   message=posted["id"], text=f"{posted['name']}: {posted['text'][:300]}")
        notify.send(redis, players[seat], note)


def _name(game_id: str, caller: auth.Caller) -> str:
    redis = Arena.of().redis
    if caller.player is not None:
        account = accounts.load(redis, caller.player)
        if account is not None and account.name:
            return roster.titled(account.name, accounts.BOT_TITLE) if account.bot else account.name
    return roster.names(redis, game_id).get(caller.seat, "Spectator")


@blp.route("/games/<game_id>/chat/<channel>/<message_id>/report", methods=["POST"])
@limits.limited("report", "chat messages reported", per_address="30/minute", per_player="10/minute;100/day")
@blp.arguments(ReportIn)
@blp.response(202, ReportOut)
@problems(400, 401, 403, 404, 429)
def report(data: dict, game_id: str, channel: str, message_id: str):
    """Report a message to the moderators (a copy of it is kept with the report)."""
    if channel not in chat.CHANNELS:
        raise ApiError(404, "channel_not_found", "There is no such chat; the chats are 'players' and 'spectators'.")
    caller = _caller(game_id, channel, writing=True)
    try:
        stream_id(message_id)
    except ValidationError:
        found = None
    else:
        found = chat.message(Arena.of().redis, game_id, channel, message_id)
    if found is None:
        raise ApiError(404, "message_not_found", f"There is no message {message_id!r} in this chat; it may have been removed.")
    rid = chat.report(Arena.of().redis, game_id, found, caller.player or f"seat {caller.seat}", data["reason"])
    return {"report": rid}


@blp.route("/accounts/me/mutes")
@blp.response(200, MutesOut)
@problems(401)
def list_mutes():
    """The players whose messages you do not see."""
    pid = auth.require_player(Arena.of().redis)
    return _mutes(pid)


mute_changes = limits.limited("mute", "mutes and unmutes", per_address="60/minute", per_player="30/minute;300/day")


@blp.route("/accounts/me/mutes", methods=["POST"])
@mute_changes
@blp.arguments(MuteIn)
@blp.response(200, MutesOut)
@problems(400, 401, 403, 404, 429)
def mute(data: dict):
    """Stop seeing a player's chat messages, in every game."""
    redis = Arena.of().redis
    pid = auth.require_player(redis)
    if not redis.exists(keys.player(data["player"])):
        raise ApiError(404, "player_not_found", f"There is no player {data['player']!r}; check the name.")
    chat.mute(redis, pid, data["player"])
    return _mutes(pid)


@blp.route("/accounts/me/mutes/<player_id>", methods=["DELETE"])
@mute_changes
@blp.response(200, MutesOut)
@problems(401, 403, 429)
def unmute(player_id: str):
    redis = Arena.of().redis
    pid = auth.require_player(redis)
    chat.unmute(redis, pid, player_id)
    return _mutes(pid)


def _mutes(pid: str) -> dict:
    redis = Arena.of().redis
    players = sorted(chat.muted(redis, pid))
    found = {p: accounts.load(redis, p) for p in players}
    return {"players": players, "muted": [{"id": p, "name": found[p].name if found[p] and found[p].name else p}
                                          for p in players]}
