"""The moves index: a game's read model of moves, written by the append itself.

engine/moves.py says where a move starts. Besides the log, the append (events/lua/append.lua)
lists every envelope that marks moves (keys.moves): each command accepted (a move's start, or a
command autoplay played within one) and each undo or redo of a turn's steps. A move list, a rewind
to move n and the undone marks read these few envelopes instead of folding the whole log. The
index holds their versions (a few bytes each), read from the log in the same script; indexes
written by older versions hold the envelopes themselves, and read the same.

The index exists only for games it covers from creation: a game stored before it existed has
none, and is indexed from its log when first read (`read` does it, atomically, only while the
log is still as long as what it read). Entries are the log's own envelopes, so readers redact
them for a seat exactly as they redact the log.

    index = moves.read(store, game_id)        # MovesIndex(version, envelopes)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from . import keys
from .envelope import Envelope
from .errors import GameNotFound
from .scripts import lua, run_script

INDEXED = frozenset({"CommandAccepted", "TurnStepUndone", "TurnStepRedone"})
HEADER = '{"index":"moves","from":1}'
_REBUILD = lua("index_moves.lua")
_READ = lua("read_moves.lua")


@dataclass(frozen=True)
class MovesIndex:
    """The envelopes that mark a game's moves, and the version the game is at."""
    version: int
    envelopes: list[Envelope]


def indexed(event_type: str) -> bool:
    return event_type in INDEXED


def flags(envelopes: Sequence[Envelope]) -> str:
    """append.lua's ARGV: '1' for each envelope the index keeps, else '0'."""
    return "".join("1" if indexed(env.type) else "0" for env in envelopes)


def read(store: Any, game_id: str) -> MovesIndex:
    """The game's moves index and version (read together); an old game's is built from its log first."""
    reply = run_script(store.redis, _READ, [keys.log(game_id), keys.moves(game_id)], [])
    version, exists = int(reply[0]), int(reply[1])
    if version == 0:
        return _archived(store, game_id)
    if not exists:
        return _rebuild(store, game_id)
    return MovesIndex(version, Envelope.many_from_stored(reply[2:], game_id))


def _archived(store: Any, game_id: str) -> MovesIndex:
    """The index of a game that left Redis for the archive: the same envelopes, from its record."""
    game = store.archived_game(game_id)
    if game is None:
        raise GameNotFound(game_id)
    envelopes = game.archived.envelopes
    return MovesIndex(len(envelopes), [env for env in envelopes if indexed(env.type)])


def _rebuild(store: Any, game_id: str) -> MovesIndex:
    """Index a game stored before the index existed, from its log."""
    envelopes = store.read(game_id)
    kept = [env for env in envelopes if indexed(env.type)]
    run_script(store.redis, _REBUILD, [keys.log(game_id), keys.moves(game_id)],
               [len(envelopes), HEADER, *(env.version for env in kept)])
    return MovesIndex(len(envelopes), kept)
