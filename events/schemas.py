"""One marshmallow schema per engine event type, in a registry with upcasters.

The schemas are the wire contract of stored payloads (the envelope's `payload`, without `type`).
Each type has a current schema version equal to `engine.EVENT_VERSIONS[type]`; a payload stored
under an older version is upcast step by step (v1 -> v2 -> ...) on read, never rewritten in
place: the hash chain covers the bytes as they were stored.

Nested structures whose shape is the engine's business (an effect frame, a pending decision, a
whole state, a result) are free-form dicts here.

Writes use `check` (field names only, microseconds); `validate` runs the full schema, which costs
~60 µs an event and is for tests and debugging (see GameService(validate_events=...)).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from marshmallow import Schema, ValidationError, fields
from marshmallow.validate import OneOf, Range, Regexp

from engine.vocabulary import FORMS, RANKS

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

DECKS = ("school", "legends", "flares")


class SchemaError(ValueError):
    """An event whose type, version or fields the registry does not accept."""


# --- field kinds -------------------------------------------------------------------------------

def _seat(**kw) -> fields.Field:
    return fields.Int(strict=True, validate=Range(min=0, max=3), **kw)


_color = _seat


def _square(**kw) -> fields.Field:
    return fields.Str(validate=Regexp(r"[a-i][1-9]\Z"), **kw)


def _rank(**kw) -> fields.Field:
    return fields.Str(validate=OneOf(RANKS), **kw)


def _deck(**kw) -> fields.Field:
    return fields.Str(validate=OneOf(DECKS), **kw)


def _piece(**kw) -> fields.Field:
    return fields.Int(strict=True, validate=Range(min=1), **kw)


def _count(**kw) -> fields.Field:
    return fields.Int(strict=True, validate=Range(min=0), **kw)


def _cards(**kw) -> fields.Field:
    return fields.List(fields.Str(), **kw)


@dataclass(frozen=True)
class _Optional:
    """Marks a payload field the engine leaves out when it does not apply."""
    make: Callable[[], fields.Field]


def _optional(make: Callable[[], fields.Field]) -> _Optional:
    return _Optional(make)


class _SeatSetup(Schema):
    school = fields.Str(required=True)
    color = _color(required=True)


# --- the event types ---------------------------------------------------------------------------
# Fields are required unless wrapped in _optional; `allow_none` marks the ones the engine sets to
# null. A type's schema version is 1 unless VERSIONS says otherwise; a test keeps both in step
# with engine.EVENT_VERSIONS.

FieldSpec = Callable[[], fields.Field] | _Optional

PAYLOADS: dict[str, dict[str, FieldSpec]] = {
    "GameCreated": {
        "form": lambda: fields.Str(validate=OneOf(FORMS)), "teams": fields.Bool, "seed": fields.Str,
        "seats": lambda: fields.List(fields.Nested(_SeatSetup)),
        "capacity": lambda: fields.List(fields.List(fields.Int(strict=True))),
        "points": fields.Raw, "impro": lambda: fields.Raw(allow_none=True),
        "options": _optional(fields.Dict), "rules": _optional(fields.Dict),
    },
    "PositionSet": {"state": fields.Dict, "rules": _optional(fields.Dict)},
    "DeckShuffled": {
        "deck": _deck, "cards": _cards, "seat": _optional(_seat),
        "from_discard": _optional(fields.Bool),
    },
    "CardsDrawn": {"seat": _seat, "deck": _deck, "cards": _cards},
    "TasksDealt": {
        "current": _cards, "next": lambda: fields.Str(allow_none=True), "deck": _cards,
        "shuffled": _optional(fields.Bool),
    },
    "CommandAccepted": {"seat": _seat, "command": fields.Dict, "auto": _optional(fields.Bool)},
    "TurnStarted": {"seat": _seat, "number": _count, "actions": _count, "extra": fields.Bool,
                    "triggered": _optional(fields.Str)},
    "ActionTaken": {"seat": _seat, "action": fields.Str, "actions_left": lambda: fields.Int(strict=True)},
    "ActionsGained": {"seat": _seat, "count": _count, "actions_left": lambda: fields.Int(strict=True)},
    "ActionForfeited": {"seat": _seat, "actions_left": _count},
    "PiecePlaced": {"square": _square, "color": _color, "rank": _rank, "piece": _piece, "cause": fields.Str},
    "PiecePickedUp": {"square": _square, "piece": _piece, "color": _color, "rank": _rank, "cause": fields.Str},
    "BeingSummoned": {
        "seat": _seat, "card": fields.Str, "square": _square, "color": _color, "rank": _rank,
        "piece": _piece, "reused": fields.Bool,
    },
    "PieceMoved": {"from": _square, "to": _square, "piece": _piece, "leap": fields.Bool},
    "PieceDestroyed": {
        "square": _square, "piece": _piece, "color": _color, "rank": _rank,
        "by": lambda: _seat(allow_none=True), "credited": fields.Bool, "cause": fields.Str,
        "removed": _optional(fields.Bool), "weight": _optional(_count),
    },
    "PieceConverted": {
        "square": _square, "piece": _piece, "from_color": _color, "from_rank": _rank,
        "to_color": _color, "to_rank": _rank, "by": _seat, "credited": fields.Bool,
        "weight": _optional(_count),
    },
    "PieceRankChanged": {
        "square": _square, "piece": _piece, "color": _color, "from_rank": _rank, "to_rank": _rank,
        "cause": fields.Str,
    },
    "PiecesSwapped": {"first": _square, "second": _square},
    "CardDiscarded": {"seat": _seat, "card": fields.Str, "deck": _deck, "from_hand": fields.Bool},
    "CardsReturned": {"seat": _seat, "cards": lambda: fields.List(fields.List(fields.Str()))},
    "CardMovedToDeckTop": {"seat": _seat, "card": fields.Str},
    "CardPutUnderDeck": {"seat": _seat, "card": fields.Str},
    "SummoningCountedAsLegend": {"seat": _seat, "square": _square},
    "GatewayMarked": {
        "color": _color, "piece": _piece, "square": _square, "reason": fields.Str,
        "previous": lambda: _square(allow_none=True),
    },
    "GatewayLost": {"color": _color, "piece": _piece, "square": lambda: _square(allow_none=True), "reason": fields.Str},
    "CardFrozen": {
        "seat": _seat, "card": fields.Str, "source": lambda: fields.Str(validate=OneOf(("summon", "discard"))),
    },
    "CardUnfrozen": {
        "seat": _seat, "card": fields.Str, "reason": lambda: fields.Str(validate=OneOf(("thawed", "replaced"))),
    },
    "ActionLossImposed": {"seat": _seat, "colors": lambda: fields.List(_color()), "count": _count},
    "ActionsLost": {"seat": _seat, "count": _count, "actions_left": _count},
    "FlareInvoked": {
        "seat": _seat, "card": fields.Str, "against": _color, "upper": fields.Bool, "lower": fields.Bool,
    },
    "ExtraDrawGranted": {"seat": _seat, "deck": _deck},
    "ExtraTurnGranted": {"seat": _seat},
    "SummonModifierGranted": {"seat": _seat, "modifier": fields.Dict},
    "SummonModifierUsed": {"seat": _seat, "modifier": fields.Dict},
    "ImprovisationUsed": {"seat": _seat, "color": _color},
    "ResolutionAdvanced": {
        "effect": lambda: fields.Dict(allow_none=True), "pending": lambda: fields.Dict(allow_none=True),
    },
    "PointsScored": {
        "side": _seat, "points": lambda: fields.Int(strict=True), "reason": fields.Str,
        "track": lambda: _color(allow_none=True),
    },
    "TaskClaimed": {"seat": _seat, "color": _color, "task": fields.Str},
    "TurnEnded": {"seat": _seat, "number": _count},
    "FinalRoundStarted": {"seat": _seat, "turn": _count, "reason": fields.Str},
    "PlayerResigned": {"seat": _seat},
    "SchoolDrawn": {"seat": _seat, "school": fields.Str},
    "SchoolChosen": {"seat": _seat, "school": fields.Str, "by": _optional(_seat)},
    "SchoolBanned": {"seat": _seat, "school": fields.Str},
    "LegendsPassed": {"seat": _seat, "to": _seat, "cards": _cards},
    "ControlPassed": {"seat": _seat, "to": _seat},
    "TurnTimedOut": {"seat": _seat, "streak": _count},
    "TimeoutStreakEnded": {"seat": _seat},
    "SeatAbandoned": {"seat": _seat, "timeouts": _count},
    "SeatOptionsSet": {"seat": _seat, "confirm_turn_end": fields.Bool},
    "WarpPlayed": {"seat": _seat, "card": fields.Str},
    "PendingBeingCleared": {
        "seat": _seat, "card": fields.Str,
        "reason": lambda: fields.Str(validate=OneOf(("summoned", "discarded", "returned"))),
    },
    "WarpCopied": {"seat": _seat, "card": fields.Str, "by": fields.Str},
    "DestructionBonusGranted": {"seat": _seat},
    "PieceStored": {
        "seat": _seat, "square": _square, "piece": _piece, "color": _color, "rank": _rank, "gateway": fields.Bool,
    },
    "PieceReleased": {
        "seat": _seat, "square": lambda: _square(allow_none=True), "piece": _piece, "color": _color, "rank": _rank,
    },
    "GameEnded": {"result": fields.Dict, "seed": fields.Str},
    "TurnStepUndone": {"seat": _seat, "to_version": _count, "from_version": _count},
    "TurnStepRedone": {"seat": _seat, "to_version": _count, "from_version": _count},
}


VERSIONS: dict[str, int] = {name: 1 for name in PAYLOADS}


def _build(name: str, spec: dict[str, FieldSpec]) -> Schema:
    built = {}
    for key, make in spec.items():
        if isinstance(make, _Optional):
            built[key] = make.make()
        else:
            built[key] = make()
            built[key].required = True
    return Schema.from_dict(built, name=f"{name}Payload")()


# --- the registry ------------------------------------------------------------------------------

@dataclass(frozen=True)
class EventType:
    name: str
    version: int
    schema: Schema
    required: frozenset[str]
    allowed: frozenset[str]


class SchemaRegistry:
    """Event types by name: current version, schema, and upcasters from older versions."""

    def __init__(self) -> None:
        self._types: dict[str, EventType] = {}
        self._upcasters: dict[tuple[str, int], Upcaster] = {}

    def register(self, name: str, version: int, schema: Schema) -> None:
        declared = schema.fields
        required = frozenset(k for k, f in declared.items() if f.required)
        self._types[name] = EventType(name, version, schema, required, frozenset(declared))

    def upcaster(self, name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Register `fn(payload at from_version) -> payload at from_version + 1`."""
        def add(fn: Upcaster) -> Upcaster:
            self._upcasters[(name, from_version)] = fn
            return fn
        return add

    def types(self) -> frozenset[str]:
        return frozenset(self._types)

    def get(self, name: str) -> EventType:
        try:
            return self._types[name]
        except KeyError:
            raise SchemaError(f"no schema for event type {name!r}") from None

    def version_of(self, name: str) -> int:
        return self.get(name).version

    def check(self, event: dict[str, Any]) -> None:
        """Fast shape check of an engine event: known type, exactly the declared field names."""
        kind = self.get(event.get("type"))
        keys = event.keys() - {"type"}
        if not kind.required <= keys or not keys <= kind.allowed:
            raise SchemaError(f"{kind.name} fields: missing {sorted(kind.required - keys)}, "
                              f"unexpected {sorted(keys - kind.allowed)}")

    def validate(self, event: dict[str, Any]) -> None:
        """Full check of an engine event against its current schema."""
        kind = self.get(event.get("type"))
        errors = kind.schema.validate({k: v for k, v in event.items() if k != "type"})
        if errors:
            raise SchemaError(f"{kind.name}: {errors}")

    def dump(self, event: dict[str, Any]) -> dict[str, Any]:
        """The payload to store for an engine event (validated)."""
        kind = self.get(event.get("type"))
        payload = {k: v for k, v in event.items() if k != "type"}
        try:
            return kind.schema.load(kind.schema.dump(payload))
        except ValidationError as exc:
            raise SchemaError(f"{kind.name}: {exc.messages}") from None

    def upcast(self, name: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
        """The payload at the current schema version (the same object when already current)."""
        kind = self.get(name)
        if version > kind.version:
            raise SchemaError(f"{name} v{version} is newer than this server's v{kind.version}")
        while version < kind.version:
            step = self._upcasters.get((name, version))
            if step is None:
                raise SchemaError(f"no upcaster for {name} v{version}")
            payload = step(dict(payload))
            version += 1
        return payload

    def load(self, name: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
        """Upcast a stored payload and validate it against the current schema."""
        current = self.upcast(name, version, payload)
        try:
            return self.get(name).schema.load(current)
        except ValidationError as exc:
            raise SchemaError(f"{name}: {exc.messages}") from None


def default_registry() -> SchemaRegistry:
    """Every event type of the engine at its current version (no upcasters yet: all are v1)."""
    registry = SchemaRegistry()
    for name, spec in PAYLOADS.items():
        registry.register(name, VERSIONS[name], _build(name, spec))
    return registry


REGISTRY = default_registry()
