import ast
from pathlib import Path

import pytest

import engine
from events.schemas import REGISTRY, SchemaError, SchemaRegistry, default_registry

from .games import random_script

ENGINE_DIR = Path(engine.__file__).parent

# One hand-made payload per event type, for the types random games rarely or never reach.
SAMPLES = {
    "GameCreated": {"form": "duel", "teams": False, "seed": "s", "seats": [{"school": "northern", "color": 0},
                    {"school": "sylvan", "color": 1}], "capacity": [[16, 3], [16, 3]], "points": [0, 0], "impro": None},
    "PositionSet": {"state": {"form": "duel", "board": {"e5": [1, 0, 1]}}},
    "DeckShuffled": {"deck": "legends", "cards": ["legends-leviathan"], "from_discard": True},
    "CardsDrawn": {"seat": 1, "deck": "school", "cards": ["sylvan-elf"]},
    "TasksDealt": {"current": ["t1", "t2", "t3"], "next": None, "deck": [], "shuffled": True},
    "CommandAccepted": {"seat": 0, "command": {"type": "discard", "card": "northern-bomb", "returns": []}},
    "TurnStarted": {"seat": 0, "number": 1, "actions": 1, "extra": False},
    "ActionTaken": {"seat": 0, "action": "place", "actions_left": 1},
    "ActionsGained": {"seat": 0, "count": 1, "actions_left": 2},
    "ActionForfeited": {"seat": 0, "actions_left": 0},
    "PiecePlaced": {"square": "e5", "color": 0, "rank": "common", "piece": 1, "cause": "action"},
    "PiecePickedUp": {"square": "e5", "piece": 1, "color": 0, "rank": "common", "cause": "shortage"},
    "BeingSummoned": {"seat": 0, "card": "northern-knight", "square": "e5", "color": 0, "rank": "heroic",
                      "piece": 3, "reused": False},
    "PieceMoved": {"from": "e5", "to": "e6", "piece": 3, "leap": False},
    "PieceDestroyed": {"square": "e5", "piece": 1, "color": 1, "rank": "heroic", "by": 0, "credited": True,
                       "cause": "effect", "removed": True, "weight": 2},
    "PieceConverted": {"square": "e5", "piece": 1, "from_color": 1, "from_rank": "common", "to_color": 0,
                       "to_rank": "common", "by": 0, "credited": True, "weight": 2},
    "PieceRankChanged": {"square": "e5", "piece": 1, "color": 0, "from_rank": "common", "to_rank": "heroic",
                         "cause": "effect"},
    "PiecesSwapped": {"first": "e5", "second": "f5"},
    "CardDiscarded": {"seat": 0, "card": "northern-bomb", "deck": "school", "from_hand": True},
    "CardsReturned": {"seat": 0, "cards": [["legends", "legends-leviathan"]]},
    "CardMovedToDeckTop": {"seat": 0, "card": "northern-bomb"},
    "CardPutUnderDeck": {"seat": 0, "card": "nethervoid-hell-hound"},
    "SummoningCountedAsLegend": {"seat": 0, "square": "e5"},
    "GatewayMarked": {"color": 0, "piece": 7, "square": "e5", "reason": "higher_rank", "previous": "d4"},
    "GatewayLost": {"color": 0, "piece": 7, "square": "e5", "reason": "destroyed"},
    "CardFrozen": {"seat": 0, "card": "everfrost-ice-queen", "source": "discard"},
    "CardUnfrozen": {"seat": 0, "card": "everfrost-ice-queen", "reason": "thawed"},
    "ActionLossImposed": {"seat": 0, "colors": [1, 2], "count": 1},
    "ActionsLost": {"seat": 1, "count": 1, "actions_left": 1},
    "FlareInvoked": {"seat": 0, "card": "flares-01", "against": 1, "upper": True, "lower": False},
    "ExtraDrawGranted": {"seat": 0, "deck": "legends"},
    "ExtraTurnGranted": {"seat": 0},
    "SummonModifierGranted": {"seat": 0, "modifier": {"modifier": "war-summoning", "count": 1, "scope": None}},
    "SummonModifierUsed": {"seat": 0, "modifier": {"modifier": "war-summoning", "count": 1, "scope": None}},
    "ImprovisationUsed": {"seat": 0, "color": 2},
    "ResolutionAdvanced": {"effect": None, "pending": None},
    "PointsScored": {"side": 0, "points": 2, "reason": "destruction", "track": None},
    "TaskClaimed": {"seat": 0, "color": 0, "task": "task-1"},
    "TurnEnded": {"seat": 0, "number": 4},
    "FinalRoundStarted": {"seat": 1, "turn": 30, "reason": "threshold"},
    "PlayerResigned": {"seat": 1},
    "SchoolDrawn": {"seat": 2, "school": "highland"},
    "SchoolChosen": {"seat": 3, "school": "sylvan", "by": 2},
    "SchoolBanned": {"seat": 0, "school": "everfrost"},
    "LegendsPassed": {"seat": 0, "to": 2, "cards": ["legends-leviathan"]},
    "ControlPassed": {"seat": 1, "to": 3},
    "TurnTimedOut": {"seat": 0, "streak": 2},
    "TimeoutStreakEnded": {"seat": 0},
    "SeatAbandoned": {"seat": 0, "timeouts": 3},
    "SeatOptionsSet": {"seat": 1, "confirm_turn_end": True},
    "WarpPlayed": {"seat": 0, "card": "etherweave-paradox-worm"},
    "PendingBeingCleared": {"seat": 0, "card": "etherweave-paradox-worm", "reason": "discarded"},
    "WarpCopied": {"seat": 0, "card": "etherweave-paradox-worm", "by": "etherweave-doppelganger"},
    "DestructionBonusGranted": {"seat": 0},
    "PieceStored": {"seat": 0, "square": "e5", "piece": 4, "color": 1, "rank": "heroic", "gateway": False},
    "PieceReleased": {"seat": 0, "square": None, "piece": 4, "color": 1, "rank": "heroic"},
    "GameEnded": {"result": {"reason": "end_of_game", "winners": [0], "standings": []}, "seed": "s"},
    "TurnStepUndone": {"seat": 0, "to_version": 40, "from_version": 44},
    "TurnStepRedone": {"seat": 0, "to_version": 42, "from_version": 40},
}


def emitted_in_engine_source() -> dict[str, set[str] | None]:
    """Every `emit("Type", field=...)` in engine/: the type and its literal field names (None when
    the fields come from a dict the call unpacks, so only the type can be checked)."""
    found: dict[str, set[str] | None] = {}
    for path in ENGINE_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "emit" and node.args \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names = {k.arg for k in node.keywords if k.arg is not None}
                if any(k.arg is None for k in node.keywords):
                    unpacked = next(k.value for k in node.keywords if k.arg is None)
                    if isinstance(unpacked, ast.Dict):
                        names |= {k.value for k in unpacked.keys if isinstance(k, ast.Constant)}
                found.setdefault(node.args[0].value, set()).update(names)
    return found


def test_every_event_type_the_engine_registers_has_a_schema_at_its_version():
    assert set(engine.EVENT_VERSIONS) <= REGISTRY.types()
    for name, version in engine.EVENT_VERSIONS.items():
        assert REGISTRY.version_of(name) == version, name


def test_every_event_the_engine_source_emits_has_a_schema_declaring_its_fields():
    emitted = emitted_in_engine_source()
    assert emitted, "found no emit calls: has the engine's emit moved?"
    for name, fields in emitted.items():
        declared = REGISTRY.get(name).allowed
        assert fields <= declared, f"{name} emits {sorted(fields - declared)} that its schema lacks"


def test_the_samples_cover_every_schema_and_round_trip():
    assert set(SAMPLES) == REGISTRY.types()
    for name, payload in SAMPLES.items():
        event = {"type": name, **payload}
        REGISTRY.check(event)
        REGISTRY.validate(event)
        assert REGISTRY.dump(event) == payload
        assert REGISTRY.load(name, REGISTRY.version_of(name), payload) == payload


@pytest.mark.parametrize("form", ["duel", "high_form", "melee"])
def test_every_event_of_a_random_game_fits_its_schema_and_round_trips(form):
    for event in random_script(form, f"schemas-{form}").events:
        REGISTRY.validate(event)
        payload = {k: v for k, v in event.items() if k != "type"}
        assert REGISTRY.dump(event) == payload


def test_a_position_event_fits_its_schema():
    events = engine.from_position({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}],
                                   "board": "5/7/9/9/9/9/9/7/5", "seed": "p"})
    for event in events:
        REGISTRY.validate(event)


@pytest.mark.parametrize("event, problem", [
    ({"type": "TurnEnded", "seat": 0}, "missing"),
    ({"type": "TurnEnded", "seat": 0, "number": 1, "colour": 2}, "unexpected"),
    ({"type": "Exploded", "seat": 0}, "no schema"),
])
def test_the_fast_check_refuses_wrong_field_names_and_unknown_types(event, problem):
    with pytest.raises(SchemaError, match=problem):
        REGISTRY.check(event)


@pytest.mark.parametrize("event", [
    {"type": "PiecePlaced", "square": "z9", "color": 0, "rank": "common", "piece": 1, "cause": "x"},
    {"type": "PiecePlaced", "square": "e5", "color": "0", "rank": "common", "piece": 1, "cause": "x"},
    {"type": "PiecePlaced", "square": "e5", "color": 0, "rank": "huge", "piece": 1, "cause": "x"},
    {"type": "CardsDrawn", "seat": 0, "deck": "graveyard", "cards": []},
])
def test_full_validation_refuses_wrong_values(event):
    with pytest.raises(SchemaError):
        REGISTRY.validate(event)


def version_two_registry() -> SchemaRegistry:
    """TurnEnded v2 renames `number` to `turn`: the kind of change upcasters exist for."""
    from marshmallow import Schema, fields

    registry = default_registry()
    registry.register("TurnEnded", 2, Schema.from_dict({"seat": fields.Int(required=True),
                                                         "turn": fields.Int(required=True)})())

    @registry.upcaster("TurnEnded", 1)
    def rename_number(payload: dict) -> dict:
        payload["turn"] = payload.pop("number")
        return payload

    return registry


def test_an_old_payload_is_upcast_on_read_without_changing_the_stored_one():
    registry = version_two_registry()
    stored = {"seat": 1, "number": 7}
    assert registry.load("TurnEnded", 1, stored) == {"seat": 1, "turn": 7}
    assert stored == {"seat": 1, "number": 7}
    assert registry.upcast("TurnEnded", 2, {"seat": 1, "turn": 7}) == {"seat": 1, "turn": 7}


def test_a_version_without_upcaster_or_newer_than_the_server_is_refused():
    registry = version_two_registry()
    with pytest.raises(SchemaError, match="newer"):
        registry.upcast("TurnEnded", 3, {})
    registry.register("TurnStarted", 3, REGISTRY.get("TurnStarted").schema)
    with pytest.raises(SchemaError, match="no upcaster"):
        registry.upcast("TurnStarted", 1, SAMPLES["TurnStarted"])
