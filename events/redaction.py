"""Reads for one seat (or a spectator, seat None): envelopes and states with the secrets removed.

The engine decides what a seat may see of an event payload (`engine.redact`) and of a state
(`engine.player_view`); this module applies that to envelopes. Envelope fields carry no secret:
the seed is committed (a hash) and the event hashes are keyed with it (see hashchain.py).
"""
from __future__ import annotations

from typing import Any, cast

import engine
from engine.shapes import GameEvent, GameState
from engine.view_shapes import PlayerView

from .envelope import Envelope
from .schemas import REGISTRY, SchemaRegistry

Seat = int | None


def engine_event(env: Envelope, registry: SchemaRegistry = REGISTRY) -> GameEvent:
    """The event as the engine replays it: its payload upcast to the current schema version."""
    return cast(GameEvent, {"type": env.type, **registry.upcast(env.type, env.schema_version, env.payload)})


def redact_envelope(env: Envelope, seat: Seat, registry: SchemaRegistry = REGISTRY) -> dict[str, Any]:
    """The envelope as `seat` may read it; its payload is upcast, so schema_version is current."""
    event = engine.redact(engine_event(env, registry), seat)
    out = env.to_dict()
    out["schema_version"] = registry.version_of(env.type)
    out["payload"] = {k: v for k, v in event.items() if k != "type"}
    return out


def state_view(state: GameState, seat: Seat) -> PlayerView:
    return engine.player_view(state, seat)
