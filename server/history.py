"""A game's history: its events, moves, log in words, rewind, record, picture and live stream."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any, Callable

from flask import Response, request
from flask_smorest import Blueprint

from engine.moves import MOVE_EVENT, starts_move
from engine.narrate import Narrator, describe_command
from engine.undo import undone_moves
from events import Envelope, GameNotFound, desk, keys, notes, roster
from events.envelope import VIA_CONDITIONAL
from events import moves as moves_index
from events.redaction import redact_envelope

from . import auth, chat, rematch, sse, svg
from . import limits
from .context import Arena
from .errors import ApiError
from .games import game_view, legal_answer, problems
from .merged import Merged
from .schemas import MAX_VERSION, BoardQuery, ChangesOut, EventsOut, EventsQuery, GameOut, LogOut, MovesOut, RecordIn

blp = Blueprint("history", __name__, url_prefix="/games", description="Watch, rewind and audit a game")


def _events(game_id: str, seat: int | None, after: int = 0) -> list[dict]:
    return Arena.of().service.events(game_id, seat, after=after)


def move_marks(game_id: str, seat: int | None) -> tuple[int, list[dict]]:
    """The game's version and the envelopes that mark its moves, redacted for `seat`: read from
    the moves index (events/moves.py), not by folding the log."""
    index = moves_index.read(Arena.of().service.store, game_id)
    return index.version, [redact_envelope(env, seat) for env in index.envelopes]


def move_versions(events: list[dict], version: int) -> list[tuple[int, dict]]:
    """(version after the move, its CommandAccepted envelope) for each move, in order, from the
    game's envelopes (all, or those of the moves index) and its version.

    Move 0 is the game's creation; move n ends just before the (n+1)th command. Commands autoplay
    played for a timed-out seat belong to the move of the timeout (engine/moves.py says where a
    move starts, for history, clocks and verification alike)."""
    starts = [e for e in events if starts_move(e["type"], e["payload"])]
    ends = [s["version"] - 1 for s in starts] + [version]
    return [(ends[0], {})] + [(ends[i + 1], s) for i, s in enumerate(starts)]


def undone_starts(events: list[dict]) -> set[int]:
    """Versions of the CommandAccepted envelopes whose moves stand undone."""
    return undone_moves([(e["version"], {"type": e["type"], **e["payload"]}) for e in events])


def conditional_mark(envelope: dict) -> dict:
    """`conditional: true` for an envelope of a command a conditional reply played (events/envelope.py)."""
    return {"conditional": True} if envelope.get("via") == VIA_CONDITIONAL else {}


def version_after_move(game_id: str, seat: int | None, n: int) -> int:
    latest, marks = move_marks(game_id, seat)
    versions = move_versions(marks, latest)
    if n >= len(versions):
        raise ApiError(404, "move_not_found", f"That move is not in this game: it has {len(versions) - 1} moves so far; choose one of those.")
    return versions[n][0]


@blp.route("/<game_id>/events")
@blp.arguments(EventsQuery, location="query")
@blp.response(200, EventsOut)
@problems(401, 404)
def events(query: dict, game_id: str):
    """Stored events after version `after`, redacted for the caller."""
    caller = auth.caller_for_game(Arena.of().redis, game_id)
    out = _events(game_id, caller.seat, query["after"])
    return {"version": Arena.of().service.store.version(game_id), "events": out}


def move_rows(game_id: str, seat: int | None, marks: tuple[int, list[dict]] | None = None,
              names: dict[int, str] | None = None) -> list[dict]:
    """One row per move, in English; move 0 is the setup (from the moves index)."""
    names = names if names is not None else roster.names(Arena.of().redis, game_id)
    latest, envelopes = marks or move_marks(game_id, seat)
    undone = undone_starts(envelopes)
    out = []
    for n, (version, start) in enumerate(move_versions(envelopes, latest)):
        if n == 0:
            out.append({"move": 0, "version": version, "seat": None, "text": "Setup", "undone": False})
            continue
        command = {**start["payload"]["command"], "seat": start["payload"]["seat"]}
        out.append({"move": n, "version": version, "seat": command["seat"], "text": describe_command(command, names),
                    "undone": start["version"] in undone, **conditional_mark(start)})
    return out


@blp.route("/<game_id>/moves")
@blp.response(200, MovesOut)
@problems(401, 404)
def moves(game_id: str):
    """One line per move, in English; move 0 is the setup."""
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id)
    return {"moves": move_rows(game_id, caller.seat), "provenance": arena.service.provenance(game_id).view()}


@blp.route("/<game_id>/moves/<int:n>")
@blp.response(200, GameOut)
@problems(401, 404)
def position_after(game_id: str, n: int):
    """The caller's view of the position after move n (read-only rewind)."""
    caller = auth.caller_for_game(Arena.of().redis, game_id)
    return game_view(game_id, caller.seat, at=version_after_move(game_id, caller.seat, n))


@blp.route("/<game_id>/log")
@blp.response(200, LogOut)
@problems(401, 404)
def log(game_id: str):
    """The game log in words, as the caller may read it."""
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id)
    return {"lines": log_lines(game_id, caller.seat), "provenance": arena.service.provenance(game_id).view()}


def log_lines(game_id: str, seat: int | None, after: int = 0, names: dict[int, str] | None = None) -> list[dict]:
    """The log in words as `seat` may read it: the lines of the events after version `after`
    (narrating needs every event before them too)."""
    events = _events(game_id, seat)
    undone = undone_starts(events)
    lines, move, start = [], 0, 0
    narrator = Narrator(names if names is not None else roster.names(Arena.of().redis, game_id))
    for env in events:
        if starts_move(env["type"], env["payload"]):
            move, start = move + 1, env["version"]
        text = narrator.line(env["version"], {"type": env["type"], **env["payload"]})
        if text and env["version"] > after:
            lines.append({"version": env["version"], "time": env["time"], "text": text, "move": move,
                          "undone": start in undone, **conditional_mark(env)})
    return lines


@blp.route("/<game_id>/changes")
@blp.arguments(EventsQuery, location="query")
@blp.response(200, ChangesOut)
@problems(401, 404)
def changes(query: dict, game_id: str):
    """What changed since version `after`, in one answer for a client following the game's stream:
    the game as the caller sees it, the caller's legal commands, the log lines after `after` and
    the moves from the one under way at `after` on. When an undo or redo came since (earlier
    lines and moves change their `undone` mark), the whole log and move list (`log_after` and
    `moves_from` 0). Each part is what GET /games/{id}, /legal, /log and /moves answer."""
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id)
    after = query["after"]
    marks = move_marks(game_id, caller.seat)
    if any(m["version"] > after and m["type"] != MOVE_EVENT for m in marks[1]):
        after = 0                                   # an undo or a redo: every undone mark may have changed
    names = roster.names(arena.redis, game_id)      # once, for the moves and the log
    rows = move_rows(game_id, caller.seat, marks, names)
    # the first move not over before `after` (its end may have grown): those before it stand as they were
    moves_from = next((i for i, row in enumerate(rows) if row["version"] >= after), len(rows) - 1) if after else 0
    loaded = arena.service.load(game_id)           # one load for the game and its legal commands
    desk.saw(arena.redis, game_id, caller.seat, loaded.version)
    return {"version": marks[0], "game": game_view(game_id, caller.seat, loaded=loaded),
            "legal": legal_answer(game_id, caller.seat, loaded),
            "log_after": after, "log": log_lines(game_id, caller.seat, after, names),
            "moves_from": moves_from, "moves": rows[moves_from:]}


@blp.route("/<game_id>/record")
@blp.response(200)
@problems(401, 404)
def record(game_id: str):
    """The exportable record: complete once the game has ended, redacted for the caller before.
    `?chat=1` adds the chat channels the caller may read, and `notes` holds the caller's own private
    notes on the game, if any (neither is part of the hash chain)."""
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id)
    loaded = arena.service.load(game_id)
    if loaded.state["phase"] == "over":
        out = arena.service.export_record(game_id)
    else:
        out = {"game_id": game_id, "complete": False, "seat": caller.seat, "events": _events(game_id, caller.seat),
               "provenance": arena.service.provenance(game_id).view()}
    if request.args.get("chat") in ("1", "true", "yes"):
        out["chat"] = chat.export_for(game_id, caller)     # outside the hash chain: verify ignores it
    note = notes.read(arena.redis, game_id, caller.seat) if caller.seat is not None else None
    if note is not None:
        out["notes"] = {"seat": caller.seat, "text": note.text}     # the caller's own, outside the chain too
    return out


@blp.route("/import", methods=["POST"])
@limits.large_body
@limits.limited("import", "records imported", per_address="10/minute;60/hour", per_player="10/minute;60/hour")
@blp.arguments(RecordIn)
@blp.response(201, GameOut)
@problems(400, 409, 422)
def import_record(body: dict):
    """Load a finished game's record after verifying its hash chain, seed and replay.

    An unfinished record is refused (422 record_unfinished). A record not signed by a trusted key
    (this server's, see GET /keys, or ARENA_TRUSTED_KEYS) is stored as `unsigned` or `foreign`
    (`provenance` in every view of it) and never counts for ratings."""
    created = Arena.of().service.import_record(body)
    return game_view(created.game_id, None)


@blp.route("/<game_id>/board.svg")
@blp.arguments(BoardQuery, location="query")
@blp.response(200, content_type="image/svg+xml")
@problems(401, 404)
def board_svg(query: dict, game_id: str):
    """A picture of the position (after move `move`, else now)."""
    caller = auth.caller_for_game(Arena.of().redis, game_id)
    at = version_after_move(game_id, caller.seat, query["move"]) if "move" in query else None
    view = game_view(game_id, caller.seat, at)
    return Response(svg.render(view), mimetype="image/svg+xml")


@blp.route("/<game_id>/stream")
@blp.arguments(chat.GameStreamQuery, location="query")
@blp.response(200, content_type="text/event-stream")
@problems(400, 401, 404, 501)
def stream(query: dict, game_id: str):
    """Server-Sent Events, one per stored event (id = version); resume with Last-Event-ID.

    `chat=1` interleaves `chat` events of the channels the caller may read, and once the game is
    over `rematch` events, each time its rematch offer changes (as GET /games/{id}/rematch shows it,
    without a token); every id is then a cursor ("12;players=<message id>") that resumes the game,
    its chat and its rematch news alike (server/chat.py).
    Served by the async tier (server/streams/); the Flask app alone answers 501."""
    open_stream(query, game_id)
    raise sse.not_served_here()


def open_stream(query: dict, game_id: str) -> sse.Source | Merged:
    """The game's log as the caller's seat may read it, after Last-Event-ID (or `after`); with
    its chat when `chat` is asked for."""
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id)
    if query.get("chat"):
        return chat.game_stream(query, game_id, caller, _log_source(game_id, caller, 0, render_events_on),
                                after_end=(("rematch", lambda at: rematch.news_source(game_id, at)),))
    last = request.headers.get("Last-Event-ID", query.get("after", 0))
    try:
        after = int(last)
        if not 0 <= after <= MAX_VERSION:
            raise ValueError
    except (TypeError, ValueError):
        raise ApiError(400, "malformed_request", "The stream cannot resume from there; reconnect "
                       "without Last-Event-ID to start again.") from None
    return _log_source(game_id, caller, after, render_events)


def _log_source(game_id: str, caller: auth.Caller, after: int, render: sse.Render) -> sse.Source:
    arena = Arena.of()
    if not arena.service.store.exists(game_id):
        raise GameNotFound(game_id)                 # 404 before the stream starts
    # who is watching (spectator counts, e-mail): a player, or an address (its streams are one viewer)
    viewer = caller.player or "anon:" + hashlib.sha256(limits.client_address().encode()).hexdigest()[:12]
    archived = ArchivedLog(arena.service.store, game_id, render is render_events) \
        if arena.redis.exists(keys.archived(game_id)) else None
    return sse.Source(keys.log(game_id), (after, 0), GameRender(render, game_id), caller.seat,
                      presence=(game_id, viewer), archived=archived)


@dataclass(frozen=True)
class ArchivedLog:
    """The log of a game that left Redis, as the log's entries were (sse.Source.archived): a stream
    resuming on it, or opened on it, gets what it is owed from the archive, then ends when `ends`
    (a stream that goes on with the chat does not)."""
    store: Any
    game_id: str
    ends: bool

    def __call__(self, after: sse.StreamId) -> tuple[list[sse.Entry], bool]:
        game = self.store.archived_game(self.game_id)
        if game is None:
            return [], False                        # not deleted yet, or restored: the log is in Redis
        return [(f"{env.version}-0", {"e": env.to_stored()}) for env in game.archived.envelopes[after[0]:]], self.ends


@dataclass(frozen=True)
class GameRender:
    """A renderer of log entries bound to their game (stored envelopes leave the game id to their
    key): equal for one game, so the stream tier renders once for every viewer alike."""
    render: Callable[[Any, int | None, str], list[sse.Frame]]
    game_id: str

    def __call__(self, entries: Any, seat: int | None) -> list[sse.Frame]:
        return self.render(entries, seat, self.game_id)


def render_events(entries, seat: int | None, game_id: str) -> list[sse.Frame]:
    """Log entries of `game_id` as SSE frames for `seat`: each envelope redacted as the store's reads do."""
    frames = []
    for env in Envelope.many_from_stored([sse.field(fields, "e") for _, fields in entries], game_id):
        out = redact_envelope(env, seat)
        frames.append(sse.Frame((out["version"], 0), sse.frame(out["version"], out["type"], out),
                                last=out["type"] == "GameEnded"))
    return frames


def render_events_on(entries, seat: int | None, game_id: str) -> list[sse.Frame]:
    """As render_events, but the stream goes on after GameEnded (for the chat after the game)."""
    return [replace(item, last=False) for item in render_events(entries, seat, game_id)]
