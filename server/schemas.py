"""Marshmallow schemas for every request and response of the HTTP API.

Requests are loaded strictly (unknown fields are refused as malformed); what the rules say about a
well-formed request is the engine's business, not the schema's.
"""
from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint
from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema
from webargs.flaskparser import FlaskParser

from engine.ai.levels import LEVELS
from engine.vocabulary import COMMAND_TYPES, DIRECTIONS, FORMS, RANKS

from .plain_text import Name

MAX_VERSION = 10 ** 9


class OneSchemaEach(FlaskParser):
    """The parser of every view's arguments. webargs makes a new schema from a view's schema class
    on every request, and marshmallow deep-copies every declared field to make one (a third of a
    millisecond for a command); one instance of each class serves every request instead, since
    loading keeps nothing on the schema. Set here, where the views get their schemas from, before
    any of them is declared."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[type, Schema] = {}

    def _get_schema(self, argmap: Any, req: Any) -> Schema:
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            made = self._made.get(argmap)
            return made if made is not None else self._made.setdefault(argmap, argmap())
        return super()._get_schema(argmap, req)


Blueprint.ARGUMENTS_PARSER = OneSchemaEach()
Square = fields.String(validate=validate.Length(min=2, max=3))


class Strict(Schema):
    class Meta:
        unknown = RAISE


class PlayerSeatIn(Strict):
    name = Name(required=True)
    school = fields.String(required=True, validate=validate.Length(min=1, max=32),
                           metadata={"description": "a school id, or 'random' or 'draft'; or 'bans' or 'mutual' "
                                                     "for every seat (engine/setup.py)"})
    player = fields.String(validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,64}$"),
                           metadata={"description": "id of a registered player to seat here"})
    bot = fields.Boolean(load_default=False, metadata={"description": "the computer plays this seat (at the cheapest "
                                                                       "level unless bot_level says another)"})
    bot_level = fields.Integer(validate=validate.OneOf(sorted(LEVELS)),
                               metadata={"description": "the computer plays this seat at this level (GET /vocabulary: "
                                                        "bot_levels); implies bot"})


class TimeControlIn(Strict):
    kind = fields.String(required=True, validate=validate.OneOf(("none", "move", "bank")))
    seconds = fields.Integer(validate=validate.Range(min=1, max=60 * 60 * 24 * 30),
                             metadata={"description": "per-move limit (kind=move) or initial bank (kind=bank)"})
    increment = fields.Integer(validate=validate.Range(min=0, max=60 * 60 * 24 * 7),
                               metadata={"description": "seconds added to the bank at each turn (kind=bank)"})
    policy = fields.String(load_default="autoplay", validate=validate.OneOf(("autoplay",)))
    zombie_after = fields.Integer(load_default=3, validate=validate.Range(min=1, max=100))
    weekend_rest = fields.Boolean(metadata={"description": "no clock runs on Saturday and Sunday, in each player's "
                                                           "own time zone (PUT /accounts/me/time-zone; UTC for a guest)"})

    @validates_schema
    def _needs_seconds(self, data: dict, **_: object) -> None:
        if data["kind"] != "none" and "seconds" not in data:
            raise ValidationError("a time control of kind 'move' or 'bank' needs 'seconds'", "seconds")


class BoardPieceIn(Strict):
    square = Square
    seat = fields.Integer(required=True, validate=validate.Range(min=0, max=3))
    rank = fields.String(required=True, validate=validate.OneOf(RANKS))


class TurnIn(Strict):
    seat = fields.Integer(required=True, validate=validate.Range(min=0, max=3))
    actions_left = fields.Integer(load_default=2, validate=validate.Range(min=0, max=20))


class SetupIn(Strict):
    """A starting position (engine.position): board, hands, supplies, decks, scores, tasks, turn."""
    board = fields.Raw(metadata={"description": "board notation string or a list of {square, seat, rank}"})
    hands = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))
    decks = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))
    discards = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))
    supply = fields.Dict(keys=fields.String(), values=fields.Dict(keys=fields.String(), values=fields.Integer()))
    scores = fields.Dict(keys=fields.String(), values=fields.Raw())
    legends = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))
    flares = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))
    tasks = fields.Dict(keys=fields.String(), values=fields.Raw())
    gateways = fields.Dict(keys=fields.String(), values=fields.String(allow_none=True),
                           metadata={"description": "Nethervoid Gateway square by seat"})
    frozen = fields.Dict(keys=fields.String(), values=fields.String(allow_none=True),
                         metadata={"description": "Everfrost frozen card in play by seat"})
    turn = fields.Nested(TurnIn)


class CreateGameIn(Strict):
    form = fields.String(required=True, validate=validate.OneOf(FORMS))
    players = fields.List(fields.Nested(PlayerSeatIn), required=True, validate=validate.Length(min=2, max=4))
    seed = fields.String(validate=validate.Length(min=1, max=128))
    teams = fields.Boolean(load_default=False, metadata={"description": "2 vs 2 (High Form or duel, 4 players): "
                                                         "seats 0 and 2 against 1 and 3"})
    time_control = fields.Nested(TimeControlIn)
    setup = fields.Nested(SetupIn)


class SeatOut(Schema):
    seat = fields.Integer()
    name = fields.String()
    token = fields.String(metadata={"description": "the seat's secret token; absent for an invited seat"})
    player = fields.String(allow_none=True)
    status = fields.String(metadata={"description": "claimed (token here), or invited (its player must accept)"})
    invitation = fields.String(metadata={"description": "id of the invitation sent for an invited seat"})


class CreatedOut(Schema):
    id = fields.String()
    version = fields.Integer()
    status = fields.String(metadata={"description": "playing, or waiting_for_players (invitations sent)"})
    invitations_expire = fields.String(metadata={"description": "when unanswered invitations cancel the game"})
    seats = fields.List(fields.Nested(SeatOut))
    rated = fields.Boolean(metadata={"description": "whether the game counts for ratings: only a game asked to be "
                                                   "rated, with the rules' own start and a seed the server drew"})
    start_chosen_by_creator = fields.Boolean(metadata={"description": "the creator chose the seed or the starting "
                                                                      "position (then the game is unrated)"})
    start_text = fields.String(allow_none=True, metadata={"description": "that, in words, for every seat"})


class CommandIn(Strict):
    """A command: what legal commands list, optionally with expected_version."""
    type = fields.String(required=True, validate=validate.OneOf(COMMAND_TYPES))
    seat = fields.Integer(validate=validate.Range(min=0, max=3))
    square = Square
    card = fields.String(validate=validate.Length(min=1, max=64))
    returns = fields.List(fields.String(validate=validate.Length(min=1, max=64)), validate=validate.Length(max=20))
    against = fields.Integer(validate=validate.Range(min=0, max=3))
    improvise = fields.Integer(validate=validate.Range(min=0, max=3))
    task = fields.String(validate=validate.Length(min=1, max=64))
    option = fields.String(validate=validate.Length(min=1, max=64))
    orientation = fields.Integer(validate=validate.Range(min=0, max=7))
    color = fields.Integer(validate=validate.Range(min=0, max=3))
    direction = fields.String(validate=validate.OneOf(DIRECTIONS))
    rank = fields.String(validate=validate.OneOf(RANKS))
    school = fields.String(validate=validate.Length(min=1, max=32), metadata={"description": "a drafted school"})
    from_ = fields.String(data_key="from", attribute="from", validate=validate.Length(min=2, max=3))
    to = fields.String(validate=validate.Length(min=2, max=3))
    to_version = fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION),
                                metadata={"description": "undo / redo: the version to step back or forward to"})
    squares = fields.Dict(metadata={"description": "display only, as /legal lists it (pattern, affects, destroys, path); "
                                                   "ignored by the rules"})
    expected_version = fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION))
    confirm_turn_end = fields.Boolean(metadata={"description": "seat_options: true to end each of your turns yourself, "
                                                                "with end_turn (undo stays open until then)"})


class CommandOut(Schema):
    version = fields.Integer()
    events = fields.List(fields.Dict())
    replayed = fields.Boolean()


class StatsOut(Schema):
    version = fields.Integer()
    players = fields.List(fields.Dict(), metadata={"description": "per seat: name, pieces_placed, beings_summoned, "
                                                   "legends_summoned, destroyed {common, heroic, legendary}, upgrades, "
                                                   "flares, tasks, timeouts, undos, points by reason (melee: by colour)"})
    result = fields.Dict(allow_none=True, metadata={"description": "once over: the result with target, each standing's "
                                                    "breakdown and the tie-break that decided (null while playing)"})


class HintOut(Schema):
    version = fields.Integer(metadata={"description": "the game's version the hint is for"})
    level = fields.Integer(metadata={"description": "the computer level that chose it: the strongest"})
    command = fields.Dict(metadata={"description": "the command it would send, as /legal lists it"})


class LegalOut(Schema):
    version = fields.Integer()
    seat = fields.Integer(allow_none=True)
    commands = fields.List(fields.Dict())


class EventsQuery(Schema):
    class Meta:
        unknown = EXCLUDE
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION))


class EventsOut(Schema):
    version = fields.Integer()
    events = fields.List(fields.Dict())


class PieceOut(Schema):
    square = fields.String()
    seat = fields.Integer()
    color = fields.Integer()
    rank = fields.String()


class ProvenanceOut(Schema):
    """Where the game comes from: played here, or imported with or without a trusted signature."""
    origin = fields.String(metadata={"description": "local | trusted | foreign | unsigned"})
    key_id = fields.String(allow_none=True, metadata={"description": "the key that signed an imported record"})
    rated = fields.Boolean(metadata={"description": "false: the game never counts for ratings"})


class GameOut(Schema):
    """A game as one seat (or a spectator) sees it."""
    id = fields.String()
    version = fields.Integer()
    latest = fields.Integer()
    seat = fields.Integer(allow_none=True)
    status = fields.String()
    form = fields.String()
    teams = fields.Boolean()
    turn = fields.Dict(allow_none=True)
    active_seat = fields.Integer(allow_none=True)
    board = fields.List(fields.Nested(PieceOut))
    notation = fields.String()
    gateway = fields.String(allow_none=True, metadata={"description": "square of the Nethervoid Gateway, if any"})
    gateways = fields.Dict(keys=fields.String(), values=fields.String(),
                           metadata={"description": "colour -> square of its Nethervoid Gateway"})
    seats = fields.List(fields.Dict())
    scores = fields.List(fields.Dict())
    legends = fields.Dict()
    flares = fields.Dict()
    tasks = fields.Dict()
    pending = fields.Dict(allow_none=True)
    effect = fields.Dict(allow_none=True)
    final_round = fields.Dict(allow_none=True)
    result = fields.Dict(allow_none=True, metadata={"description": "once over: reason, winners, standings (each with "
                                                    "its breakdown), target and the tie-break that decided"})
    target = fields.Integer(metadata={"description": "the score that triggers the final round (RULES 10.1)"})
    deck_tracker = fields.List(fields.Dict(), metadata={"description": (
        "the deck tracker: per school deck in play (seat order), then 'legends' and 'flares': size (cards in its "
        "public list, GET /cards), seen (the list's cards this view shows: discards, your hand, frozen, waiting or "
        "being played), unseen (how many it shows nowhere), in_deck and in_hands (where those lie)")})
    players = fields.List(fields.Dict())
    time_control = fields.Dict(allow_none=True)
    clocks = fields.Dict(allow_none=True, metadata={"description": (
        "deadlines and banks now (null without a time control): kind, now, waiting_for, since, deadline, seats "
        "[{seat, remaining}], vacation [{seat, until}]; with weekend rest also weekend_rest (true) and resting "
        "[{seat, until, time_zone}], the seats whose weekend it is now")})
    provenance = fields.Nested(ProvenanceOut)
    status_text = fields.String(metadata={"description": "a game not started: why ('cancelled: invitation "
                                                         "declined', 'waiting for 1 invited player to accept')"})
    invitations = fields.Dict(allow_none=True, metadata={"description": "a game not started: when its "
                                                                        "invitations expire, why it was cancelled"})
    rated = fields.Boolean(metadata={"description": "whether the game counts for ratings: only a game asked to be "
                                                   "rated, with the rules' own start and a seed the server drew"})
    start_chosen_by_creator = fields.Boolean(metadata={"description": "the creator chose the seed or the starting "
                                                                      "position (then the game is unrated)"})
    start_text = fields.String(allow_none=True, metadata={"description": "that, in words, for every seat"})


class MoveOut(Schema):
    move = fields.Integer()
    version = fields.Integer()
    seat = fields.Raw(allow_none=True)
    text = fields.String()
    undone = fields.Boolean(metadata={"description": "taken back by an undo (and not redone)"})
    conditional = fields.Boolean(metadata={"description": "present (true) when played for its seat by a "
                                                          "conditional reply (PUT /games/{id}/conditionals)"})


class MovesOut(Schema):
    moves = fields.List(fields.Nested(MoveOut))
    provenance = fields.Nested(ProvenanceOut)


class LogLineOut(Schema):
    version = fields.Integer()
    time = fields.String()
    text = fields.String()
    move = fields.Integer(metadata={"description": "the move this line belongs to (rewind to it)"})
    undone = fields.Boolean(metadata={"description": "part of a move taken back by an undo"})
    conditional = fields.Boolean(metadata={"description": "present (true) when part of a move played by a "
                                                          "conditional reply"})


class LogOut(Schema):
    lines = fields.List(fields.Nested(LogLineOut))
    provenance = fields.Nested(ProvenanceOut)


class BoardQuery(Schema):
    class Meta:
        unknown = EXCLUDE
    move = fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION))


class PlayerIn(Strict):
    name = Name(required=True)
    webhook_url = fields.String(metadata={"format": "uri", "description": "http(s) URL of a public address (see README)"})


class PlayerOut(Schema):
    id = fields.String()
    name = fields.String()
    token = fields.String()
    webhook_secret = fields.String()


class MyGamesQuery(Schema):
    class Meta:
        unknown = EXCLUDE
    waiting = fields.Boolean(load_default=False)


class MyGameOut(Schema):
    id = fields.String()
    seat = fields.Integer()
    form = fields.String()
    status = fields.String()
    your_turn = fields.Boolean()
    version = fields.Integer()
    form_text = fields.String(metadata={"description": "the form in words: duel, High Form, 2 v 2, 3-player melee"})
    opponents = fields.List(fields.String(), metadata={"description": "the other side's names (never yours)"})
    partners = fields.List(fields.String(), metadata={"description": "your teammates' names (2 v 2)"})
    status_text = fields.String(metadata={"description": "how it stands, in words: 'your turn, 2 days left', "
                                                         "'Bob to play', 'you won on the tie-break'"})
    seconds_left = fields.Integer(allow_none=True, metadata={"description": "your turn against a clock: time left"})


class MyGamesOut(Schema):
    games = fields.List(fields.Nested(MyGameOut))


class ReplicationOut(Schema):
    mode = fields.String(metadata={"description": "replicated | degraded (a master has no replica) | off"})
    wait_replicas = fields.Integer()
    wait_ms = fields.Integer()
    masters = fields.Integer()
    masters_without_replica = fields.List(fields.String())


class HealthOut(Schema):
    status = fields.String(metadata={"description": "ok, or degraded when something is down"})
    redis = fields.Boolean()
    down = fields.List(fields.String(), metadata={"description": "what is down: redis, workers, streams"})
    checks = fields.Dict(metadata={"description": "each part's state: ok, and a count or the error (operator only)"})
    replication = fields.Nested(ReplicationOut, allow_none=True,
                                metadata={"description": "how acknowledged writes are kept (WAIT for a replica; operator only)"})


class ProblemOut(Schema):
    """application/problem+json (RFC 9457): `code` is stable, `detail` says what is wrong; a refusal
    may add fields of its own."""
    class Meta:
        unknown = INCLUDE
    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    code = fields.String()
    detail = fields.String()
    rule = fields.String(metadata={"description": "the rule a refused command breaks"})
    current_version = fields.Integer(metadata={"description": "409 stale_version: the game's version"})
    errors = fields.Dict(metadata={"description": "400 malformed_request: the messages by field"})
    limit = fields.Integer(metadata={"description": "413 body_too_large: the largest body accepted, in bytes"})
    retry_after = fields.Integer(metadata={"description": "429: seconds to wait, as in Retry-After"})


class StreamQuery(Schema):
    class Meta:
        unknown = EXCLUDE
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION))
    follow = fields.Boolean(load_default=True, metadata={"description": "keep the stream open for new events"})


class RecordIn(Schema):
    """A game record to import (events/record.py): its header is checked here, the rest by
    events/verify.py."""
    class Meta:
        unknown = INCLUDE
    format = fields.String(required=True, validate=validate.Length(max=64))
    game_id = fields.String(required=True, validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,64}$"))
    events = fields.List(fields.Dict(), required=True, validate=validate.Length(min=1, max=20000))


class ChangesOut(Schema):
    """GET /games/{id}/changes: what a client following the stream needs after version `after`."""
    version = fields.Integer(metadata={"description": "the game's version when answered"})
    game = fields.Nested(GameOut)
    legal = fields.Nested(LegalOut)
    log_after = fields.Integer(metadata={"description": "`log` holds the lines after this version (0: all)"})
    log = fields.List(fields.Nested(LogLineOut))
    moves_from = fields.Integer(metadata={"description": "`moves` starts at this move (0: all of them)"})
    moves = fields.List(fields.Nested(MoveOut))
