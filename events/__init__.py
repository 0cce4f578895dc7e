"""The event store on Redis: append-only game logs, snapshots, idempotency, redaction, records.

    from events import GameService, connect
    service = GameService(connect())          # REDIS_CLUSTER_URL, REDIS_URL, or the embedded server

Modules, one job each: keys (every Redis key), envelope (the stored form and canonical JSON),
schemas (payload schemas and upcasters), hashchain (hashes and the seed commitment), store (the
log, lua/append.lua and lua/load.lua), idempotency, snapshots, redaction, service (load, decide,
append), record, export and verify (exported records), signing and provenance (who vouches for a
record, and where a stored game comes from), invitations (games waiting for invited players),
unmoved (games nobody moved in: expiry and caps), connection (which Redis holds what: a Cluster for
games and players when REDIS_CLUSTER_URL is set), replication (an append answered once a replica
has it), topology (arena cluster-check), embedded and redis_process (redis-server); settings
(every process's configuration, read once).
Other layers' data kept beside the games, each behind its module: roster (who sits where), tokens
(seat and player tokens), clocks (the fold), game_clock (the clock cached per game), pauses
(vacations on the clocks), inbox (notifications, webhook failures), ratings; scripts runs every
Lua script (all under lua/); crash_points holds test-only crash points.
Command lines: `python -m events.verify RECORD.json`, `python -m events.export GAME_ID`,
`python -m events.embedded start|stop|status`.
"""
from __future__ import annotations

from .envelope import SYSTEM, Envelope
from .errors import (ChainBroken, ConflictError, GameExists, GameNotFound, GameNotOver, IdempotencyKeyReused,
                     NotReplicated, StoreError, VersionNotFound)
from .service import CommandResult, Created, GameService, GameView, Loaded
from .store import EventStore

__all__ = [
    "SYSTEM", "ChainBroken", "CommandResult", "ConflictError", "Created", "Envelope", "EventStore", "GameExists",
    "GameNotFound", "GameNotOver", "GameService", "GameView", "IdempotencyKeyReused", "Loaded", "NotReplicated",
    "StoreError", "VersionNotFound", "connect",
]


def __getattr__(name: str):
    """`connect` is imported on first use, so `python -m events.embedded` runs the module once."""
    if name == "connect":
        from .connection import connect
        return connect
    raise AttributeError(f"module 'events' has no attribute {name!r}")
