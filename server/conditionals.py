"""Conditional replies over HTTP (events/conditionals.py): a waiting seat queues "if they ..., then I
..." rules for its next turn, reads them back with what became of its last ones, edits or withdraws
them. Only the seat itself ever reads them: no other seat, spectator, stream, log or export does.
"""
from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint
from marshmallow import Schema, fields

import engine
from engine.ai.knowledge import rehearsal
from engine.narrate import describe_command
from engine.state import current_turn
from events import Loaded, conditionals, roster
from events.redaction import engine_event, state_view

from . import auth, limits
from .context import Arena
from .errors import ApiError
from .games import listed_commands, problems
from .schemas import Strict

blp = Blueprint("conditionals", __name__, url_prefix="/games", description="Play a game")


class ConditionalsIn(Strict):
    rules = fields.List(fields.Dict(), required=True, metadata={
        "description": "in the order they are tried: each {\"when\": {\"kind\": one of GET /vocabulary's "
                       "conditionals.triggers, and the fields that narrow it}, \"then\": [commands, as /legal lists them]}"})


class RehearseIn(Strict):
    commands = fields.List(fields.Dict(), load_default=list, metadata={
        "description": "the commands of the reply chosen so far, in order"})


class RehearseOut(Schema):
    view = fields.Dict(metadata={"description": "the rehearsal position as your seat sees it (a game view)"})
    commands = fields.List(fields.Dict(), metadata={"description": "what you may play next there, as /legal "
                                                                   "lists it, each with its `text`"})
    ended = fields.Boolean(metadata={"description": "the commands so far end your turn"})


class RuleOut(Schema):
    when = fields.Dict()
    then = fields.List(fields.Dict())
    text = fields.String(metadata={"description": "the rule in words"})


class ToldOut(Schema):
    version = fields.Integer(allow_none=True, metadata={"description": "the version your turn stood at"})
    played = fields.Integer(allow_none=True, metadata={"description": "the rule played for you, if one was"})
    results = fields.List(fields.Dict(), metadata={"description": "each rule: played, no_match, refused, not_tried "
                                                                  "or too_late, with the reason"})


class ConditionalsOut(Schema):
    seat = fields.Integer()
    version = fields.Integer(metadata={"description": "the game's version now"})
    waiting = fields.Boolean(metadata={"description": "whether you may queue replies now (it is not your turn)"})
    queued_at = fields.Integer(allow_none=True)
    rules = fields.List(fields.Nested(RuleOut))
    told = fields.Nested(ToldOut, allow_none=True, metadata={"description": "what became of your last replies"})


def _seat(game_id: str) -> int:
    caller = auth.caller_for_game(Arena.of().redis, game_id, required=True)
    if caller.seat is None:
        raise ApiError(403, "not_your_seat", "Only a player of this game has conditional replies; you are watching it.")
    return int(caller.seat)


def _waiting(state: dict[str, Any], seat: int) -> bool:
    turn = state.get("turn")
    return state.get("phase") != "over" and not (turn and turn["seat"] == seat)


def _while_waiting(game_id: str, seat: int) -> Loaded:
    """The game, as long as the seat waits for the others (else 409)."""
    loaded = Arena.of().service.load(game_id)
    if not _waiting(loaded.state, seat):
        raise ApiError(409, "not_waiting", "Replies are made while the others play: it is your turn now, "
                                           "or the game is over.")
    return loaded


def _parsed(rules: Any) -> list[dict[str, Any]]:
    try:
        return conditionals.parse(rules)
    except conditionals.BadRules as bad:
        raise ApiError(422, "bad_conditionals", str(bad)) from None


def _words(rule: dict[str, Any], seat: int, names: dict[int, str]) -> str:
    said = "; ".join(describe_command({**c, "seat": seat}, names) for c in rule["then"])
    return f"If they {conditionals.describe_trigger(rule['when'])}: {said}"


def _answer(game_id: str, seat: int) -> dict[str, Any]:
    arena = Arena.of()
    loaded = arena.service.load(game_id)
    held = conditionals.queued(arena.redis, game_id, seat)
    rules = held.rules if held else []
    return {"seat": seat, "version": loaded.version, "waiting": _waiting(loaded.state, seat),
            "queued_at": held.version if held else None,
            "rules": [{**r, "text": _words(r, seat, roster.names(arena.redis, game_id))} for r in rules],
            "told": conditionals.told(arena.redis, game_id, seat)}


@blp.route("/<game_id>/conditionals")
@blp.response(200, ConditionalsOut)
@problems(401, 403, 404)
def get_conditionals(game_id: str):
    """Your conditional replies for your next turn, and what became of your last ones."""
    return _answer(game_id, _seat(game_id))


@blp.route("/<game_id>/conditionals", methods=["PUT"])
@limits.limited("conditionals", "conditional replies queued", per_address="60/minute", per_player="30/minute")
@blp.arguments(ConditionalsIn)
@blp.response(200, ConditionalsOut)
@problems(400, 401, 403, 404, 409, 422, 429)
def put_conditionals(data: dict, game_id: str):
    """Queue replies for your next turn, replacing those queued before (an empty list withdraws
    them). When your turn comes they are tried in order against the real position, hand included:
    the first whose trigger happened and whose every command is legal is played for you as your
    turn, in one step; every rule is then dropped, and GET tells you why each did or did not play.
    Only while you wait: refused on your own turn and once the game is over. Your own next move
    drops them too."""
    seat = _seat(game_id)
    rules = _parsed(data["rules"])
    loaded = _while_waiting(game_id, seat)
    conditionals.queue(Arena.of().redis, game_id, seat, rules, loaded.version,
                       (loaded.state["turn"] or {}).get("number", 0))
    return _answer(game_id, seat)


@blp.route("/<game_id>/conditionals", methods=["DELETE"])
@blp.response(200, ConditionalsOut)
@problems(401, 403, 404)
def delete_conditionals(game_id: str):
    """Withdraw your conditional replies."""
    seat = _seat(game_id)
    conditionals.withdraw(Arena.of().redis, game_id, seat)
    return _answer(game_id, seat)


@blp.route("/<game_id>/conditionals/rehearse", methods=["POST"])
@limits.limited("rehearse", "conditional replies rehearsed", per_address="600/minute", per_player="300/minute")
@blp.arguments(RehearseIn)
@blp.response(200, RehearseOut)
@problems(400, 401, 403, 404, 409, 422, 429)
def rehearse(data: dict, game_id: str):
    """Build a reply's commands on the board while you wait: the position as you know it, with
    the others' turn cut short and yours begun (every card you cannot see is dealt at random from
    the cards you have not seen: it tells you nothing), after the commands chosen so far, and
    what you may play next there. The real position decides when your turn comes."""
    seat = _seat(game_id)
    arena = Arena.of()
    loaded = _while_waiting(game_id, seat)
    seen = [engine.redact(engine_event(env), seat) for env in arena.service.store.read(game_id)]
    state = rehearsal(seen, seat, seed=f"{game_id}:{loaded.version}:{seat}")
    if state is None:
        raise ApiError(409, "not_waiting", "There is no position to rehearse on before the first turn; try again in a moment.")
    rules = _parsed([{"when": {"kind": "anything"}, "then": data["commands"]}]) if data["commands"] else []
    for command in rules[0]["then"] if rules else []:
        state = engine.replay(engine.decide(state, {**command, "seat": seat}), state)
    ended = state["phase"] == "over" or not state.get("turn") or current_turn(state)["seat"] != seat
    names = roster.names(arena.redis, game_id)
    listed = [] if ended else [c for c in listed_commands(state, seat) if c["type"] in conditionals.COMMANDS]
    return {"view": {"seat": seat, **state_view(state, seat)}, "ended": ended,
            "commands": [{**c, "text": describe_command({**c, "seat": seat}, names)} for c in listed]}
