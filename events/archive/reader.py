"""Reading an archived game: its stub in Redis says where the record lives; the decoded record is
kept in a bounded per-process cache, so a game being studied costs one storage read.

The cache holds at most ARENA_ARCHIVE_CACHE games (default 128), the least recently read leaving
first; an entry is keyed by the stub's `archived_at`, so a game archived again (its chat grew) or
restored and archived again is read afresh. States folded while rewinding an archived game are
kept with it (they would be snapshots in Redis for a live game).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from .. import keys
from ..memo import Memo
from ..replies import text
from . import codec, storage
from ..settings import current

CACHE_SIZE = 128


@dataclass
class ArchivedGame:
    """A decoded archive as the store reads it, with the states folded from it so far."""
    archived: codec.Archived
    stub: dict[str, str]
    # "<fingerprint>:<version>" -> snapshot JSON, folded here (the record's final state is not used:
    # a fold keeps the engine's key order, so answers are the same bytes as from Redis)
    states: dict[str, str] = field(default_factory=dict)


class ArchiveReader:
    def __init__(self, store: storage.Storage, size: int = CACHE_SIZE) -> None:
        self.storage = store
        self._games: Memo[ArchivedGame] = Memo(size=size, ttl=float("inf"))
        self._loading = threading.Lock()

    def stub(self, redis: Any, game_id: str) -> dict[str, str] | None:
        raw = redis.hgetall(keys.archived(game_id))
        return {text(k): text(v) for k, v in raw.items()} if raw else None

    def game(self, redis: Any, game_id: str, stub: dict[str, str] | None = None) -> ArchivedGame | None:
        """The archived game (None when the game is not archived): from the cache, else the storage."""
        stub = stub if stub is not None else self.stub(redis, game_id)
        if stub is None:
            return None
        key = (game_id, stub.get("archived_at"))
        known = self._games.get(key)
        if known is not None:
            return known
        with self._loading:                 # one storage read per game, however many threads ask at once
            known = self._games.get(key)
            if known is None:
                known = ArchivedGame(codec.decode(self.storage.get(stub["name"])), stub)
                self._games.put(key, known)
        return known


_readers: dict[tuple[str, int], ArchiveReader] = {}


def default() -> ArchiveReader:
    """This process's reader of the archive its environment names (one cache for every service and
    helper of the process)."""
    store = storage.configured()
    where = (store.describe(), current().archive_cache)
    reader = _readers.get(where)
    if reader is None:
        reader = _readers.setdefault(where, ArchiveReader(store, where[1]))
    return reader
