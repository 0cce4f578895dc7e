"""The lobby: open tables to join, quick match, and the feed the live list follows.

A table names a form, its number of players, how schools are chosen (each player's own, random,
drafted, random after bans or by mutual selection: events/lobby.py SCHOOL_MODES), a time control, rated or casual, and optionally the range of form ratings (openskill
ordinals) that may join. Its creator holds the first place; others join free places and may
leave before the start. When the last place is taken the game starts: the table's id is the
game's id, and seat order is drawn at random. The creator of a 4-player melee may start it with 3.
A table nobody joins for ARENA_LOBBY_TABLE_TTL seconds (each join renews it) expires: it leaves the
list at once, and a worker's lobby sweep closes it and tells its creator (workers/lobby_sweep.py).
An account, and a client address, may have only ARENA_MAX_OPEN_TABLES open at once, so nobody fills
the list; the list shows the newest first, a page at a time (or those that fit the caller best).

Quick match: a seek names a form and a time control. Seeks of the same kind are paired when their
ordinals are close enough: the allowed gap widens the longer a seek waits (LOBBY_SEEK_WINDOW,
LOBBY_SEEK_WIDENING per second), so nobody waits for ever. Pairing runs when a seek is made and
whenever one is looked at, so a waiting page that polls (or follows the feed) is paired in time.
"""
from __future__ import annotations

import json
import math
import secrets
import time
from typing import Any

from flask import current_app, request
from flask_smorest import Blueprint
from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates_schema

from engine.ai import LEVELS
from engine.schools import BANS, CHOICES
from engine.setup import SUPPORTED_SCHOOLS
from engine.vocabulary import SEATS, TEAM_FORMS, TEAM_SEATS
from events import accounts, keys, lobby, ratings, results, roster

from . import auth, limits, sse, starting
from .words import form_words
from .context import Arena, settings
from .errors import ApiError
from .games import problems
from .schemas import FORMS, Strict, TimeControlIn

blp = Blueprint("lobby", __name__, url_prefix="/lobby", description="Open tables and quick match")


def seat_range(form: str, teams: bool = False) -> tuple[int, int]:
    """How many players a table of `form` seats: (fewest it may start with, most)."""
    counts = (TEAM_SEATS,) if teams else SEATS[form]
    return min(counts), max(counts)
SEEK_WINDOW, SEEK_WIDENING = 3.0, 0.25         # ordinal points; and more per second waited


BOT_CASUAL = "A bot account plays casual games only: open or join a table that is not rated."


def _now() -> float:
    return time.time()


class TableIn(Strict):
    form = fields.String(required=True, validate=validate.OneOf(FORMS))
    seats = fields.Integer(validate=validate.Range(min=2, max=4), metadata={"description": "defaults to the form's"})
    schools = fields.String(load_default="random", validate=validate.OneOf(list(lobby.SCHOOL_MODES)))
    school = fields.String(validate=validate.OneOf(SUPPORTED_SCHOOLS),
                           metadata={"description": "your school when schools are 'fixed'"})
    time_control = fields.Nested(TimeControlIn)
    rated = fields.Boolean(load_default=True)
    rating_min = fields.Float(validate=validate.Range(min=-1000, max=1000), allow_none=True)
    rating_max = fields.Float(validate=validate.Range(min=-1000, max=1000), allow_none=True)
    teams = fields.Boolean(load_default=False, metadata={"description": "2 v 2 (duel or High Form, 4 players): seats "
                                                                       "0 and 2 against 1 and 3"})
    computers = fields.List(fields.Integer(validate=validate.OneOf(sorted(LEVELS))), load_default=list,
                            validate=validate.Length(max=2),
                            metadata={"description": "the computer's level (GET /vocabulary: bot_levels) for each place "
                                                     "it takes at the table; such a table is casual"})

    @validates_schema
    def _consistent(self, data: dict, **_: object) -> None:
        if data["teams"] and data["form"] not in TEAM_FORMS:
            raise ValidationError("team games (2 v 2) are played in the duel or High Form, not in a melee", "teams")
        seats = data.get("seats", seat_range(data["form"], data["teams"])[0])
        if 1 + len(data["computers"]) >= seats:
            raise ValidationError("leave at least one place for another person: a game with only you and the "
                                  "computer is made with POST /games", "computers")
        low, high = seat_range(data["form"], data["teams"])
        if not low <= data.get("seats", low) <= high:
            raise ValidationError(f"{'a 2 v 2 game' if data['teams'] else data['form'].replace('_', ' ')} is played by "
                                  f"{low}" + (f" to {high}" if high > low else "") + " players", "seats")
        if data["schools"] == "fixed" and "school" not in data:
            raise ValidationError("with schools 'fixed', say which school you play", "school")
        if data["schools"] == BANS and 2 * seats > len(SUPPORTED_SCHOOLS):
            raise ValidationError(f"bans need two schools per player among the {len(SUPPORTED_SCHOOLS)}: choose them "
                                  "for 2 or 3 players, or choose the schools another way", "schools")
        low, high = data.get("rating_min"), data.get("rating_max")
        if low is not None and high is not None and low > high:
            raise ValidationError("rating_min is above rating_max", "rating_min")


class JoinIn(Strict):
    school = fields.String(validate=validate.OneOf(SUPPORTED_SCHOOLS),
                           metadata={"description": "your school when the table's schools are 'fixed'"})


class SeekIn(Strict):
    form = fields.String(required=True, validate=validate.OneOf(FORMS))
    time_control = fields.Nested(TimeControlIn)


def stream_id(text: str) -> None:
    """A feed id by the one stream-id rule (sse.valid_id)."""
    if not sse.valid_id(text):
        raise ValidationError("not a feed id: '<milliseconds>-<sequence>'")


class FeedQuery(Schema):
    after = fields.String(load_default="0", validate=stream_id, metadata={"description": "a feed id (last_id)"})


class TableOut(Schema):
    id = fields.String()
    form = fields.String()
    teams = fields.Boolean(metadata={"description": "2 v 2"})
    form_text = fields.String(metadata={"description": "the form in words: duel, High Form, 2 v 2, 3-player melee"})
    seats = fields.Integer()
    schools = fields.String()
    time_control = fields.Dict(allow_none=True)
    rated = fields.Boolean()
    rating_min = fields.Float(allow_none=True)
    rating_max = fields.Float(allow_none=True)
    creator = fields.String()
    players = fields.List(fields.Dict())
    status = fields.String(metadata={"description": "open, started, closed or expired (nobody joined in time)"})
    game_id = fields.String(allow_none=True)
    created = fields.Float()
    expires = fields.Float(allow_none=True, metadata={"description": "when an open table expires unless a player "
                                                                      "joins (epoch seconds; each join renews it)"})
    can_start = fields.Boolean(metadata={"description": "a melee of 4 with 3 seated: its creator may start it"})


class TablesOut(Schema):
    tables = fields.List(fields.Nested(TableOut))
    feed = fields.String(metadata={"description": "the feed id this list is up to date with"})
    next = fields.Float(allow_none=True, metadata={"description": "the next page: send it as `before` (null: no more)"})


class TablesQuery(Schema):
    class Meta:
        unknown = EXCLUDE
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200), metadata={"description": "tables per page"})
    before = fields.Float(load_default=None, allow_nan=False, validate=validate.Range(min=0, max=1e11),
                          metadata={"description": "only tables opened before this (a page's `next`)"})
    order = fields.String(load_default="newest", validate=validate.OneOf(["newest", "fit"]),
                          metadata={"description": "newest first; or `fit`: of the page, the tables you may join "
                                                   "first, those whose rating range fits yours best first"})


class FeedOut(Schema):
    entries = fields.List(fields.Dict())
    last_id = fields.String()


class SeekOut(Schema):
    player = fields.String()
    form = fields.String()
    time_control = fields.Dict(allow_none=True)
    ordinal = fields.Float()
    since = fields.Float()
    status = fields.String(metadata={"description": "waiting, matched or none"})
    game_id = fields.String(allow_none=True)
    window = fields.Float(metadata={"description": "the rating gap accepted now"})
    window_text = fields.String(metadata={"description": "that gap in words, on the 1500-centred scale"})


# --- tables ----------------------------------------------------------------------------------------

def _me() -> accounts.Account:
    return auth.require_account(Arena.of().redis)


def _out(table: dict) -> dict:
    """The table as a client sees it: one whose time ran out is expired even before a sweep closed it."""
    low = seat_range(table["form"], table.get("teams", False))[0]
    if lobby.expired(table, _now()):
        table = {**table, "status": "expired"}
    return {**table, "teams": table.get("teams", False),
            "form_text": form_words(table["form"], table["seats"], table.get("teams", False)),
            "can_start": table["status"] == "open" and low <= len(table["players"]) < table["seats"]}


def _table_or_404(table_id: str) -> dict:
    found = lobby.table(Arena.of().redis, table_id)
    if found is None:
        raise ApiError(404, "table_not_found", f"There is no table {table_id!r}; it may have started or closed. Look at the lobby again.")
    return found


@blp.route("/tables")
@blp.arguments(TablesQuery, location="query")
@blp.response(200, TablesOut)
@problems(400, 401)
def list_tables(query: dict):
    """The open tables, newest first, a page at a time (`limit`, then `before` = the last page's
    `next`); `feed` is where to follow changes from (GET /lobby/feed)."""
    redis = Arena.of().redis
    feed = lobby.feed_head(redis)
    page = lobby.open_tables(redis, query["limit"], now=_now(), before=query["before"])
    more = page[-1]["created"] if len(page) == query["limit"] else None
    if query["order"] == "fit":
        page = _best_fitting(redis, page)
    return {"tables": [_out(t) for t in page], "feed": feed, "next": more}


def _best_fitting(redis: Any, tables: list[dict]) -> list[dict]:
    """Tables the caller may join first, those whose rating range is centred nearest the caller's
    rating (of the table's form) first, newest first among equals."""
    me = auth.optional_player(redis)
    ordinals = {form: results.ordinal(redis, me, form) if me else 0.0 for form in {t["form"] for t in tables}}

    def fit(t: dict) -> tuple:
        mine, low, high = ordinals[t["form"]], t["rating_min"], t["rating_max"]
        joinable = (low is None or mine >= low) and (high is None or mine <= high)
        centre = ((low if low is not None else mine) + (high if high is not None else mine)) / 2
        return (not joinable, abs(centre - mine), -t["created"])
    return sorted(tables, key=fit)


@blp.route("/feed")
@blp.arguments(FeedQuery, location="query")
@blp.response(200, FeedOut)
@problems(400)
def feed(query: dict):
    """Changes to the lobby after `after` (tables opened, changed, started, closed, expired; seeks paired)."""
    rows = lobby.feed_after(Arena.of().redis, query["after"])
    return {"entries": [{"id": sid, **entry} for sid, entry in rows], "last_id": rows[-1][0] if rows else query["after"]}


class LobbyStreamQuery(Schema):
    class Meta:
        unknown = EXCLUDE
    after = fields.String(load_default="0", validate=stream_id, metadata={"description": "a feed id (SSE: Last-Event-ID)"})
    follow = fields.Boolean(load_default=True, metadata={"description": "keep the stream open for new changes"})


@blp.route("/stream")
@blp.arguments(LobbyStreamQuery, location="query")
@blp.response(200, content_type="text/event-stream")
@problems(400, 501)
def stream(query: dict):
    """Server-Sent Events of the lobby's changes: opened, changed, started, closed, expired (a table), matched."""
    open_stream(query)
    raise sse.not_served_here()


def open_stream(query: dict) -> sse.Source:
    after = request.headers.get("Last-Event-ID", query["after"])
    try:
        stream_id(after)
    except ValidationError:
        raise ApiError(400, "malformed_request", "The lobby cannot resume from there; reconnect without Last-Event-ID to start again.") from None
    return sse.Source(keys.lobby_feed(), sse.parse_id(after), render_feed)


def render_feed(entries, viewer: None = None) -> list[sse.Frame]:
    frames = []
    for sid, fields in entries:
        text = sid.decode() if isinstance(sid, bytes) else sid
        entry = json.loads(sse.field(fields, "data"))
        frames.append(sse.Frame(sse.parse_id(text), sse.frame(text, entry["kind"], {"id": text, **entry})))
    return frames


# Opening a table and making a seek share one set of counters.
table_limit = limits.limited("table", "tables opened and seeks made", per_address="30/minute",
                              per_player="10/minute;100/hour")


@blp.route("/tables", methods=["POST"])
@table_limit
@blp.arguments(TableIn)
@blp.response(201, TableOut)
@problems(400, 401, 403, 429)
def open_table(data: dict):
    """Open a table; you take its first place. An account, and an address, may have only
    ARENA_MAX_OPEN_TABLES open at once (429 too_many_open_tables)."""
    me = _me()
    if me.bot and data["rated"]:
        raise ApiError(403, "bot_account", BOT_CASUAL)
    table = {"id": lobby.new_id(), "form": data["form"], "teams": data["teams"],
             "seats": data.get("seats", seat_range(data["form"], data["teams"])[0]),
             "schools": data["schools"], "time_control": data.get("time_control"),
             "rated": data["rated"] and not data["computers"],
             "rating_min": data.get("rating_min"), "rating_max": data.get("rating_max"), "creator": me.id,
             "players": [_place(me, data), *_computers(data)], "status": "open", "game_id": None, "created": _now(),
             "expires": _now() + settings().lobby_table_ttl}
    _claim_place(table, [limits.address_owner(), f"p:{me.id}"])
    return _out(lobby.open_table(Arena.of().redis, table))


def _claim_place(table: dict, owners: list[str]) -> None:
    redis, cap, now = Arena.of().redis, settings().max_open_tables, _now()
    full = lobby.claim_place(redis, owners, table, cap, now)
    if full is not None:
        wait = max(1, math.ceil(lobby.place_frees_in(redis, full, now)))
        who = "You have" if full.startswith("p:") else "Your address has"
        raise ApiError(429, "too_many_open_tables", f"{who} {cap} open tables already: wait for players there, or "
                       "leave one, before opening another.", headers={"Retry-After": str(wait)}, retry_after=wait)


def _computers(data: dict) -> list[dict]:
    """The table's places the computer takes, at their levels (each with a school of its own when
    every player picks one)."""
    free = iter(school for school in SUPPORTED_SCHOOLS if school != data.get("school"))
    return [{"player": None, "name": f"Computer {i + 1}" if len(data["computers"]) > 1 else "Computer",
             "school": next(free) if data["schools"] == "fixed" else None, "bot_level": level}
            for i, level in enumerate(data["computers"])]


def _place(account: accounts.Account, data: dict) -> dict:
    name = roster.titled(account.name, accounts.BOT_TITLE) if account.bot else account.name
    return {"player": account.id, "name": name, "school": data.get("school")}


@blp.route("/tables/<table_id>")
@blp.response(200, TableOut)
@problems(404)
def get_table(table_id: str):
    return _out(_table_or_404(table_id))


# joins and leaves each tell every lobby watcher: one limit on both, against churn
seat_changes = limits.limited("seat", "lobby places taken and given up", per_address="120/minute", per_player="30/minute")


@blp.route("/tables/<table_id>/join", methods=["POST"])
@seat_changes
@blp.arguments(JoinIn)
@blp.response(200, TableOut)
@problems(400, 401, 403, 404, 409, 429)
def join(data: dict, table_id: str):
    """Take a free place; the game starts when the table is full (then `game_id` names it)."""
    me = _me()
    limits.bot_has_room(Arena.of().redis, me.id)
    ordinal = results.ordinal(Arena.of().redis, me.id, _table_or_404(table_id)["form"])

    def take(table: dict) -> dict:
        _check_open(table)
        if any(p["player"] == me.id for p in table["players"]):
            return table
        if me.bot and table["rated"]:
            raise ApiError(403, "bot_account", BOT_CASUAL)
        if len(table["players"]) >= table["seats"]:
            raise ApiError(409, "table_full", "Every place at this table is taken; choose another table or open your own.")
        low, high = table["rating_min"], table["rating_max"]
        if (low is not None and ordinal < low) or (high is not None and ordinal > high):
            raise ApiError(403, "rating_out_of_range", f"This table is for ratings {low} to {high} and yours is {ordinal}; choose another table.")
        if table["schools"] == "fixed":
            if "school" not in data:
                raise ApiError(400, "malformed_request", "At this table each player chooses a school; choose one to join.")
            if any(p["school"] == data["school"] for p in table["players"]):
                raise ApiError(409, "school_taken", f"Another player at this table plays {data['school']}; choose another school.")
        table = {**table, "players": table["players"] + [_place(me, data)],
                 "expires": _now() + settings().lobby_table_ttl}
        return _starting(table) if len(table["players"]) == table["seats"] else table

    return _out(_finish_start(lobby.change_table(Arena.of().redis, table_id, take)))


def _check_open(table: dict) -> None:
    status = "expired" if lobby.expired(table, _now()) else table["status"]
    if status != "open":
        raise ApiError(409, "table_not_open", f"This table is {status} and no longer open; choose another table.")


def _starting(table: dict) -> dict:
    """The table as it starts: seat order drawn, the game named after the table."""
    order = list(table["players"])
    secrets.SystemRandom().shuffle(order)
    return {**table, "players": order, "status": "started", "game_id": table["id"]}


def _finish_start(table: dict | None) -> dict:
    if table is None:
        raise ApiError(404, "table_not_found", "There is no such table; it may have closed. Look at the lobby again.")
    if table["status"] == "started":
        start_game(table["game_id"], table["form"], table["players"], table["time_control"], table["rated"],
                   table["schools"], teams=table.get("teams", False))
    return table


def start_game(game_id: str, form: str, players: list[dict], time_control: dict | None, rated: bool,
               schools: str, origin: str = "table", teams: bool = False) -> None:
    """Create the game of a full table or of paired seeks: every player agreed by their own call."""
    seats = [starting.Seat(p["name"], p["school"] if schools == "fixed" else schools, p["player"],
                           bot=p.get("bot_level") is not None, bot_level=p.get("bot_level")) for p in players]
    starting.start(starting.GameSpec(form, tuple(seats), teams=teams, time_control=time_control, rated=rated,
                                     agreed=frozenset(p["player"] for p in players if p["player"]), origin=origin,
                                     game_id=game_id, extra={"lobby": True}))


@blp.route("/tables/<table_id>/leave", methods=["POST"])
@seat_changes
@blp.response(200, TableOut)
@problems(401, 403, 404, 409, 429)
def leave(table_id: str):
    """Give up your place before the start; a table its creator leaves closes."""
    me = _me()

    def drop(table: dict) -> dict:
        _check_open(table)
        if table["creator"] == me.id:
            return {**table, "status": "closed"}
        return {**table, "players": [p for p in table["players"] if p["player"] != me.id]}

    found = lobby.change_table(Arena.of().redis, table_id, drop)
    if found is None:
        raise ApiError(404, "table_not_found", f"There is no table {table_id!r}; it may have started or closed. Look at the lobby again.")
    return _out(found)


@blp.route("/tables/<table_id>/start", methods=["POST"])
@blp.response(200, TableOut)
@problems(401, 403, 404, 409)
def start(table_id: str):
    """The creator starts a 4-player melee with 3 players seated (a full table starts by itself)."""
    me = _me()

    def go(table: dict) -> dict:
        _check_open(table)
        if table["creator"] != me.id:
            raise ApiError(403, "not_the_creator", "Only the table's creator may start it early; wait for them, or for the table to fill.")
        if not _out(table)["can_start"]:
            raise ApiError(409, "not_enough_players", "This table cannot start with the players it has; wait for more players to join.")
        return _starting({**table, "seats": len(table["players"])})

    return _out(_finish_start(lobby.change_table(Arena.of().redis, table_id, go)))


# --- quick match -------------------------------------------------------------------------------------

def _window(seek: dict, now: float) -> float:
    base = current_app.config.get("LOBBY_SEEK_WINDOW", SEEK_WINDOW)
    widening = current_app.config.get("LOBBY_SEEK_WIDENING", SEEK_WIDENING)
    return base + widening * max(0.0, now - seek["since"])


def _groups(waiting: list[dict], now: float) -> list[list[dict]]:
    """Groups of seeks to pair now: same form and time control, every gap within every window.
    The longest-waiting seek is served first, with the nearest ratings."""
    taken: set[str] = set()
    groups = []
    for seek in sorted(waiting, key=lambda s: s["since"]):
        if seek["player"] in taken:
            continue
        kind = (seek["form"], _tc_key(seek["time_control"]))
        near = sorted((s for s in waiting if s["player"] not in taken and s["player"] != seek["player"]
                       and (s["form"], _tc_key(s["time_control"])) == kind),
                      key=lambda s: abs(s["ordinal"] - seek["ordinal"]))
        size = min(SEATS[seek["form"]])             # quick match fills the fewest seats the form allows
        group = [seek] + near[:size - 1]
        if len(group) < size:
            continue
        spread = max(s["ordinal"] for s in group) - min(s["ordinal"] for s in group)
        if spread <= min(_window(s, now) for s in group):
            groups.append(group)
            taken.update(s["player"] for s in group)
    return groups


def _tc_key(tc: dict | None) -> tuple:
    if not tc or tc.get("kind", "none") == "none":
        return ("none",)
    return (tc["kind"], tc.get("seconds"), tc.get("increment", 0), bool(tc.get("weekend_rest")))


def pair_now(pool: str | None) -> None:
    """Pair the seeks of the pool that can be paired now, and start their games."""
    if pool is None:
        return
    redis = Arena.of().redis
    now = _now()
    for group in lobby.pair_seeks(redis, pool, lambda waiting: _groups(waiting, now)):
        game_id = lobby.new_id()
        seek = group[0]
        start_game(game_id, seek["form"], [{"player": s["player"], "name": s["name"], "school": None} for s in group],
                   seek["time_control"], True, "random", origin="match")
        lobby.matched(redis, [s["player"] for s in group], game_id, seek["form"])


def _seek_out(redis: Any, player_id: str) -> dict:
    waiting = lobby.seek(redis, player_id)
    if waiting is not None:
        window = _window(waiting, _now())
        return {**waiting, "status": "waiting", "game_id": None, "window": round(window, 3),
                "window_text": f"ratings within {ratings.display_points(window)} points of yours"}
    match = lobby.match_of(redis, player_id)
    if match is not None:
        return {"player": player_id, "form": match["form"], "status": "matched", "game_id": match["game_id"]}
    return {"player": player_id, "status": "none", "game_id": None}


@blp.route("/seeks", methods=["POST"])
@table_limit
@blp.arguments(SeekIn)
@blp.response(201, SeekOut)
@problems(400, 401, 403, 409)
def make_seek(data: dict):
    """Seek a rated game of a form and time control; you are paired with a player of close rating.
    One seek per player: a new one replaces the last; one made while another is being made is a 409."""
    me = _me()
    if me.bot:
        raise ApiError(403, "bot_account", "A bot account never plays quick match; people invite it, or it joins "
                                           "casual tables.")
    redis = Arena.of().redis
    if not lobby.start_seeking(redis, me.id):
        raise ApiError(409, "seek_in_progress", "Your other seek is being made right now; look at GET /lobby/seeks/me.")
    try:
        tc = data.get("time_control")
        pool = lobby.put_seek(redis, {"player": me.id, "name": me.name, "form": data["form"],
                                      "time_control": tc if tc and tc.get("kind") != "none" else None,
                                      "ordinal": results.ordinal(redis, me.id, data["form"]), "since": _now()})
        lobby.forget_match(redis, me.id)
        pair_now(pool)
    finally:
        lobby.done_seeking(redis, me.id)
    return _seek_out(redis, me.id)


@blp.route("/seeks/me")
@blp.response(200, SeekOut)
@problems(401)
def my_seek():
    """Your seek: waiting (with the rating gap accepted now), matched (with the game), or none."""
    me = _me()
    redis = Arena.of().redis
    if lobby.start_seeking(redis, me.id):          # else a seek of the player's is being made: it pairs
        try:
            pair_now(lobby.seek_pool(redis, me.id))
        finally:
            lobby.done_seeking(redis, me.id)
    return _seek_out(redis, me.id)


@blp.route("/seeks/me", methods=["DELETE"])
@blp.response(204)
@problems(401, 403)
def cancel_seek():
    """Stop seeking; a match already made is forgotten too (its game stays in your games)."""
    me = _me()
    lobby.drop_seek(Arena.of().redis, me.id)
    lobby.forget_match(Arena.of().redis, me.id)
    return ""
