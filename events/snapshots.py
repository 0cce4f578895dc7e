"""Snapshots: the state at every N-th version, kept as a disposable cache.

Loading a game (or rewinding it to any version V) reads the snapshot at the largest multiple of N
at or below V and replays at most N-1 events after it, so a rewind costs what loading the latest
does. Snapshots are keyed by an engine fingerprint: when the reducers change, old snapshots are
simply never found again and the states are rebuilt from the log. Dropping every snapshot
changes nothing but the time the next load takes (a test proves snapshot + tail == full replay).
"""
from __future__ import annotations

import hashlib
import inspect
import json
from typing import Any

import engine
import engine.evolve

SNAPSHOT_FORMAT = 1
DEFAULT_EVERY = 50


def engine_fingerprint() -> str:
    """Changes whenever what a state means may change: the reducers' source or event versions."""
    try:
        source = inspect.getsource(engine.evolve)
    except OSError:                     # no source shipped: fall back on the event versions alone
        source = ""
    material = json.dumps([SNAPSHOT_FORMAT, sorted(engine.EVENT_VERSIONS.items()), source])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:16]


FINGERPRINT = engine_fingerprint()


def encode(version: int, head_hash: str, state: dict) -> str:
    return json.dumps({"version": version, "hash": head_hash, "state": state}, separators=(",", ":"))


def decode(data: str) -> tuple[int, str, dict]:
    snap: dict[str, Any] = json.loads(data)
    return snap["version"], snap["hash"], snap["state"]


def due(after: int, upto: int, every: int) -> list[int]:
    """The snapshot versions in (after, upto]."""
    first = (after // every + 1) * every
    return list(range(first, upto + 1, every))


def fold(state: dict | None, events: list[dict], first_version: int, every: int) -> tuple[dict, dict[int, dict]]:
    """Replay `events` (versions first_version, first_version + 1, ...) onto `state` (the state
    before them; None for nothing), returning the end state and the states at snapshot versions
    passed on the way."""
    last = first_version + len(events) - 1
    captured: dict[int, dict] = {}
    start = 0
    for version in due(first_version - 1, last, every):
        cut = version - first_version + 1
        state = engine.replay(events[start:cut], state)
        captured[version] = state
        start = cut
    if start < len(events) or state is None:
        state = engine.replay(events[start:], state)
    return state, captured
