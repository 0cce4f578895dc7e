"""The Redis event store: one append-only log per game, appended to atomically by a Lua script.

The connection is passed in (a `redis.Redis` or a `redis.cluster.RedisCluster`, RESP2 or RESP3,
with or without `decode_responses`: replies are decoded here), and every key comes from keys.py,
so one game's keys share a Cluster slot. The store knows envelopes and bytes, not game rules.
A log is never trimmed: its length (XLEN) is the game's version.

A finished game may have left Redis for the archive (events/archive/): its log is gone and its
stub (keys.archived) says so. Every read here then answers from the archived record, exactly as
from the log; each read sees either the log or the stub, since the archiver writes the stub before
it deletes the log and a restore writes the log before it deletes the stub.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from . import followup, keys, moves, unmoved
from .archive import reader as archive_reader
from .connection import is_cluster
from .envelope import Envelope
from .errors import ChainBroken, ConflictError, GameNotFound, VersionNotFound
from .hashchain import GENESIS
from .idempotency import TTL_SECONDS, IdempotencyRecord
from .replication import Replication
from .replication import default as replication_default
from .replies import text
from .scripts import lua, run_script

APPEND_LUA = lua("append.lua")
LOAD_LUA = lua("load.lua")
PUT_SNAPSHOTS_LUA = lua("put_snapshots.lua")
SNAPSHOTS_KEPT = 2          # a game keeps its newest snapshots only (put_snapshots.lua)


class DuplicateCommand(Exception):
    """The append was refused because its idempotency key already holds a record."""

    def __init__(self, record: IdempotencyRecord) -> None:
        super().__init__(f"idempotency key {record.key!r} already used")
        self.record = record


@dataclass(frozen=True)
class Head:
    version: int
    hash: str


@dataclass(frozen=True)
class Appended:
    version: int
    replies: dict[str, Any]         # the conditional replies queued after the append: seat -> stored JSON


@dataclass(frozen=True)
class StoredParts:
    """What rebuilding a state at `version` needs: a snapshot (maybe none) and the events after it."""
    latest: int
    version: int
    snapshot_version: int
    snapshot: str | None
    envelopes: list[Envelope]
    archived: bool = False          # read from the archive: states passed are kept with it, not in Redis


class EventStore:
    def __init__(self, redis: Any, idempotency_ttl: int = TTL_SECONDS, replication: Replication | None = None,
                 archive: archive_reader.ArchiveReader | None = None) -> None:
        self.redis = redis
        self.archive = archive if archive is not None else archive_reader.default()
        self.idempotency_ttl = idempotency_ttl
        self.replication = replication if replication is not None else replication_default()
        self.index_in_append = not is_cluster(redis)      # a Cluster keeps the follow-up index in other slots
        self._append = redis.register_script(APPEND_LUA)
        self._load = redis.register_script(LOAD_LUA)

    # --- writing ---------------------------------------------------------------------------------

    def append(self, game_id: str, expected_version: int, envelopes: Sequence[Envelope],
               idempotency: IdempotencyRecord | None = None, follow_up: bool = False) -> int:
        """Append the batch if the game is at `expected_version`; return the new version (`appended`
        says more)."""
        return self.appended(game_id, expected_version, envelopes, idempotency, follow_up).version

    def appended(self, game_id: str, expected_version: int, envelopes: Sequence[Envelope],
                 idempotency: IdempotencyRecord | None = None, follow_up: bool = False,
                 replies_of: int | None = None) -> Appended:
        """Append the batch if the game is at `expected_version`: the new version, and the
        conditional replies still queued then (events/conditionals.py), read in the same step.

        The envelopes that mark moves go to the moves index in the same script (events/moves.py).
        With `follow_up`, the batch owes follow-up work (events/followup.py): the append records the
        debt with the events and indexes the game for the deadline loops, all in one round trip on a
        single Redis (on a Cluster the game is indexed first, in a round trip of its own).
        `replies_of`: the seat that moved itself, whose queued replies go with the append.

        Raises ConflictError when it is not, DuplicateCommand when the idempotency key was used, and
        NotReplicated when no replica confirmed the append in time (events/replication.py); a
        duplicate is answered only once a replica holds the original too.
        """
        if not envelopes:
            raise ValueError("an append needs at least one event")
        prev_hash = envelopes[0].prev_hash
        for offset, env in enumerate(envelopes):
            if env.game_id != game_id or env.version != expected_version + 1 + offset:
                raise ValueError("envelopes must belong to the game and follow the expected version")
        idem_key = keys.idempotency(game_id, idempotency.key) if idempotency else keys.no_idempotency(game_id)
        script_keys = [keys.log(game_id), keys.head(game_id), idem_key, keys.follow_up(game_id), keys.moves(game_id),
                       keys.meta(game_id, unmoved.UNMOVED), keys.conditionals(game_id)]
        index_here = follow_up and self.index_in_append
        if index_here:
            script_keys.append(followup.index_key(game_id))
        elif follow_up:
            followup.owe(self.redis, game_id)
        args = [expected_version, prev_hash, envelopes[-1].hash, idempotency.to_json() if idempotency else "",
                self.idempotency_ttl, "1" if follow_up else "", moves.flags(envelopes), moves.HEADER,
                repr(followup.due_at()) if index_here else "", game_id, "" if replies_of is None else replies_of,
                *(env.to_stored() for env in envelopes)]
        reply, = self.replication.execute(
            self.redis, script_keys[0], lambda client: client.evalsha(self._append.sha, len(script_keys), *script_keys, *args),
            scripts=[APPEND_LUA])
        status, detail = text(reply[0]), reply[1]
        if status == "ok":
            return Appended(int(detail), {text(k): v for k, v in zip(reply[2::2], reply[3::2])})
        if status == "duplicate":
            raise DuplicateCommand(IdempotencyRecord.from_json(text(detail)))
        if status == "conflict":
            raise ConflictError(game_id, expected_version, int(text(detail)))
        raise ChainBroken(f"game {game_id!r}: batch starts from hash {prev_hash}, head is {text(detail)}")

    # --- reading ---------------------------------------------------------------------------------

    def version(self, game_id: str) -> int:
        pipe = self.redis.pipeline(transaction=True)
        pipe.xlen(keys.log(game_id))
        pipe.hget(keys.archived(game_id), "version")
        live, archived = pipe.execute()
        return int(live) or int(archived or 0)

    def head(self, game_id: str) -> Head:
        stored = self.redis.hgetall(keys.head(game_id))
        if not stored:
            return Head(0, GENESIS)
        fields = {text(k): text(v) for k, v in stored.items()}
        return Head(int(fields["version"]), fields["hash"])

    def exists(self, game_id: str) -> bool:
        return self.version(game_id) > 0

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]:
        """Envelopes with after < version <= upto (all after `after` when upto is None)."""
        end = f"{upto}-0" if upto is not None else "+"
        if upto is not None and upto <= after:
            return []
        pipe = self.redis.pipeline(transaction=True)
        pipe.xrange(keys.log(game_id), f"{after + 1}-0", end)
        pipe.exists(keys.archived(game_id))
        entries, archived = pipe.execute()
        if not entries and archived:
            return self._archived_read(game_id, after, upto)
        return Envelope.many_from_stored([_entry_value(fields) for _, fields in entries], game_id)

    def archived_game(self, game_id: str) -> archive_reader.ArchivedGame | None:
        """The game as archived, once its log has left Redis (None while it is in Redis, or no such game)."""
        if self.redis.exists(keys.log(game_id)):
            return None
        return self.archive.game(self.redis, game_id)

    def _archived_read(self, game_id: str, after: int, upto: int | None) -> list[Envelope]:
        game = self.archive.game(self.redis, game_id)
        if game is None:                    # restored meanwhile: the log is back
            return self.read(game_id, after, upto)
        return game.archived.envelopes[after:upto]

    def parts(self, game_id: str, at: int | None, every: int, fingerprint: str) -> StoredParts:
        """The snapshot nearest below `at` (None: the latest version) and the events after it."""
        if at is not None and at < 1:
            raise VersionNotFound(game_id, at, self.version(game_id))
        reply = self._load(keys=[keys.log(game_id), keys.snapshots(game_id)], args=[at or 0, every, fingerprint])
        latest, version, snap_version = int(reply[0]), int(reply[1]), int(reply[2])
        if latest == 0:
            return self._archived_parts(game_id, at, every, fingerprint)
        if version < 0:
            raise VersionNotFound(game_id, at or 0, latest)
        snapshot = text(reply[3]) or None
        return StoredParts(latest, version, snap_version, snapshot, Envelope.many_from_stored(reply[4:], game_id))

    def _archived_parts(self, game_id: str, at: int | None, every: int, fingerprint: str) -> StoredParts:
        """`parts` of an archived game: the nearest state folded before (kept with the archive) and the
        events after it."""
        game = self.archive.game(self.redis, game_id)
        if game is None:
            if self.redis.exists(keys.log(game_id)):        # restored meanwhile
                return self.parts(game_id, at, every, fingerprint)
            raise GameNotFound(game_id)
        envelopes = game.archived.envelopes
        latest = len(envelopes)
        target = at or latest
        if target > latest:
            raise VersionNotFound(game_id, target, latest)
        candidates = [target] + list(range(target - target % every, 0, -every))
        start = next((v for v in candidates if f"{fingerprint}:{v}" in game.states), 0)
        snapshot = game.states.get(f"{fingerprint}:{start}")
        return StoredParts(latest, target, start, snapshot, envelopes[start:target], archived=True)

    # --- snapshots (a cache: losing them costs time, never correctness) --------------------------

    def put_snapshots(self, game_id: str, fingerprint: str, snapshots: dict[int, str], archived: bool = False) -> None:
        if archived:                        # an archived game's states stay in this process, with its archive
            game = self.archive.game(self.redis, game_id)
            if game is not None:
                game.states.update({f"{fingerprint}:{v}": data for v, data in snapshots.items()})
            return
        if snapshots:
            newest = sorted(snapshots)[-SNAPSHOTS_KEPT:]
            run_script(self.redis, PUT_SNAPSHOTS_LUA, [keys.snapshots(game_id)],
                       [SNAPSHOTS_KEPT, fingerprint, *(part for v in newest for part in (f"{fingerprint}:{v}", snapshots[v]))])
            unmoved.expire_with(self.redis, game_id)         # a cache of a game nobody moved in goes with it

    def drop_snapshots(self, game_id: str) -> None:
        self.redis.delete(keys.snapshots(game_id))

    def snapshot_versions(self, game_id: str, fingerprint: str) -> list[int]:
        names = [text(k) for k in self.redis.hkeys(keys.snapshots(game_id))]
        return sorted(int(n.rsplit(":", 1)[1]) for n in names if n.startswith(fingerprint + ":"))

    # --- idempotency -----------------------------------------------------------------------------

    def idempotency_record(self, game_id: str, key: str) -> IdempotencyRecord | None:
        stored = self.redis.get(keys.idempotency(game_id, key))
        return IdempotencyRecord.from_json(text(stored)) if stored else None

    # --- housekeeping ----------------------------------------------------------------------------

    def delete_game(self, game_id: str) -> None:
        """Remove a game's log, head, snapshots, moves index, archive stub and the reservation of its
        id (tests and administrators only): its record may be imported again."""
        self.redis.delete(*keys.game_keys(game_id), keys.moves(game_id), keys.archived(game_id),
                          keys.game_reservation(game_id))


def _entry_value(fields: Any) -> str | bytes:
    """The envelope JSON of one stream entry (RESP2 gives a dict, RESP3 may give a list)."""
    if isinstance(fields, dict):
        return fields.get("e", fields.get(b"e"))
    return fields[1]
