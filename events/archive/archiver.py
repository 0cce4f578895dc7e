"""Moving finished games out of Redis into the archive, crash-safe, and bringing one back.

Archiving a game is five steps, each safe to repeat, so a process killed anywhere (kill -9) leaves
the game readable and the next run finishes the work:

1. write   its signed record, chat and roster as one blob (codec.py), synced, under its name (the
           end-of-game job wrote it when the game ended: it is taken as it is, and written
           again only if the chat or the roster changed since);
2. verify  read the blob back: the same record, a consistent chain and replay (events/verify.py),
           the signature its provenance calls for (this server's key for a game played here);
3. stub    write the stub (keys.archived): where the record lives, its version and head hash, form,
           players, result and rules. Reads still use the log while it is there;
4. drop    delete the log, snapshots, moves index, chat and presence in one script, only while Redis
           holds exactly what was archived (a chat message written meanwhile: the next run archives
           again, with it);
5. tidy    take the game off the archive index (and delete the plain JSON record the end-of-game
           job of older versions wrote, which the blob replaces).

Before step 3 Redis is untouched; between 3 and 4 both are there (reads use the log); after 4 the
stub and the blob are. A read or a rematch racing the archiver sees the log or the stub: the stub
is written before the log is deleted, and a restore writes the log back before deleting the stub.

Games to archive are found in the archive index (keys.archive_due: a finished game is added when
its end-of-game work is done) by the workers' sweeps, and by `arena archive --older-than DAYS`,
which also walks every stored game (for games that ended before the index existed).
"""
from __future__ import annotations

import json
import logging
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .. import chat, crash_points, followup, keys, roster, signing
from ..clocks import parse_time
from ..errors import GameNotFound
from ..moves import HEADER, flags
from ..replies import text
from ..scripts import lua, run_script
from ..verify import verify_record
from . import codec, index, reader as archive_reader, storage

log = logging.getLogger("arena.archive")
DROP_LUA = lua("archive_drop.lua")
RESTORE_LUA = lua("archive_restore.lua")
DEFAULT_AFTER = 3 * 86400           # seconds after its end a finished game stays in Redis
CLAIM_SECONDS = 300                 # a sweep's claim on a game it archives; a dead sweep's lapses
BATCH = 50


class ArchiveFailed(RuntimeError):
    """The record read back from the storage is not the game's: nothing was deleted."""


def ended_at(redis: Any, game_id: str) -> float | None:
    """When a game in Redis ended (its GameEnded event's time); None when it has not, or is not in Redis."""
    last = redis.xrevrange(keys.log(game_id), "+", "-", count=1)
    if not last:
        return None
    env = json.loads(_field(last[0][1]))
    return parse_time(env["time"]) if env["type"] == "GameEnded" else None


def _field(fields: Any) -> Any:
    if isinstance(fields, dict):
        return fields.get("e", fields.get(b"e"))
    return fields[1]


def ready(redis: Any, game_id: str) -> bool:
    """Whether nothing more is owed to the finished game: its follow-up and end-of-game work are done
    (an imported game has none)."""
    if followup.owed(redis, game_id) is not None:
        return False
    return bool(redis.hexists(keys.finish_marks(game_id), "done") or redis.exists(keys.meta(game_id, "provenance")))


def archive_game(redis: Any, service: Any, game_id: str, *, store: storage.Storage | None = None,
                 plain_records: Path | None = None, now: float | None = None) -> str:
    """Archive one finished game; what happened: 'archived', 'not_finished' (running, or work still
    owed), 'busy' (another sweep has it), 'changed' (it changed meanwhile: next time), 'missing'."""
    reader = service.store.archive
    store = store if store is not None else reader.storage
    if not redis.set(keys.archiving(game_id), "1", nx=True, ex=CLAIM_SECONDS):
        return "busy"
    try:
        return _archive(redis, service, reader, store, game_id, plain_records, time.time() if now is None else now)
    finally:
        redis.delete(keys.archiving(game_id))


def _archive(redis: Any, service: Any, reader: archive_reader.ArchiveReader, store: storage.Storage, game_id: str,
             plain_records: Path | None, now: float) -> str:
    stub = reader.stub(redis, game_id)
    in_redis = bool(redis.exists(keys.log(game_id)))
    name = storage.name_of(game_id)
    written = None
    if in_redis:
        if ended_at(redis, game_id) is None or not ready(redis, game_id):
            return "not_finished"
        written = _written(store, name, service.store.head(game_id))
        record = written[1].record() if written is not None else service.export_record(game_id)
        kept = written[1].chat if written is not None else {}
    elif stub is not None:
        game = reader.game(redis, game_id, stub)
        record, kept = game.archived.record(), game.archived.chat
    else:
        return "missing"
    channels = {c: _live_chat(redis, game_id, c) for c in chat.CHANNELS}
    if stub is not None and not in_redis and not any(channels.values()):
        return "archived"                                       # done before: nothing new to take
    messages = {c: _union(kept.get(c, []), channels[c]) for c in chat.CHANNELS}
    blob = _encode(redis, record, messages)
    if written is None or blob != written[0]:
        store.put(name, blob)
    crash_points.reached("archive.written")
    _verify(store.get(name), record)
    crash_points.reached("archive.verified")
    final = record["final_state"]
    redis.hset(keys.archived(game_id), mapping={
        "name": name, "location": f"{store.describe()}/{name}", "version": record["version"],
        "head_hash": record["head_hash"], "form": final.get("form", ""), "bytes": len(blob),
        "players": json.dumps([{"seat": i, "name": s.get("name"), "player": s.get("player")}
                               for i, s in enumerate(roster.seats(redis, game_id))]),
        "result": json.dumps({k: (final.get("result") or {}).get(k) for k in ("winners", "reason")}),
        "rules": json.dumps({"rules": record["events"][0]["payload"].get("rules"), "engine": record.get("engine")}),
        "archived_at": repr(now)})
    crash_points.reached("archive.stubbed")
    last = [messages[c][-1][0] if messages[c] else "" for c in chat.CHANNELS]
    outcome = text(run_script(redis, DROP_LUA, [
        keys.archived(game_id), keys.head(game_id), keys.log(game_id), keys.follow_up(game_id),
        keys.chat(game_id, "players"), keys.chat(game_id, "spectators"),
        keys.snapshots(game_id), keys.moves(game_id), keys.presence(game_id), keys.meta(game_id, "unmoved")],
        [record["head_hash"], record["version"], *last]))
    if outcome != "dropped":
        log.info("archive: %s stays in Redis for now (%s)", game_id, outcome)
        return "changed"
    crash_points.reached("archive.dropped")
    index.unmark(redis, game_id)
    if plain_records is not None:
        (plain_records / f"{game_id}.json").unlink(missing_ok=True)
    return "archived"


def write_finished(redis: Any, store: storage.Storage, record: dict[str, Any]) -> str:
    """The end-of-game job's copy of a finished game: its signed record, chat and roster so far as
    the archive blob, durable once this returns (written again whole on a second run). The
    archiver later takes it as it is; its name in the storage is returned."""
    name = storage.name_of(record["game_id"])
    store.put(name, _encode(redis, record, {c: _live_chat(redis, record["game_id"], c) for c in chat.CHANNELS}))
    return name


def _encode(redis: Any, record: dict[str, Any], messages: dict[str, list[list[str]]]) -> bytes:
    """The blob of a finished game: its record, these chat messages, and its roster as Redis holds it."""
    game_id = record["game_id"]
    return codec.encode(record, messages, {"seats": roster.seats(redis, game_id), "info": roster.info(redis, game_id)})


def _written(store: storage.Storage, name: str, head: Any) -> tuple[bytes, codec.Archived] | None:
    """The blob the end-of-game job wrote, if there is one and it ends where the log in Redis does
    (decoding recomputes its chain: the same events); else None (the record is exported again)."""
    try:
        blob = store.get(name)
        archived = codec.decode(blob)
    except (storage.RecordMissing, codec.ArchiveDamaged):
        return None
    return (blob, archived) if (archived.version, archived.head_hash) == (head.version, head.hash) else None


def _live_chat(redis: Any, game_id: str, channel: str) -> list[list[str]]:
    """A channel's messages in Redis: [id, JSON as stored] each."""
    rows: list[list[str]] = []
    after = "-"
    while batch := [[text(sid), text(_data(fields))]
                    for sid, fields in redis.xrange(keys.chat(game_id, channel), after, "+", count=500)]:
        rows += batch
        after = f"({batch[-1][0]}"
    return rows


def _data(fields: Any) -> Any:
    if isinstance(fields, dict):
        return fields.get("data", fields.get(b"data"))
    return fields[1]


def _union(kept: list[list[str]], live: list[list[str]]) -> list[list[str]]:
    rows = {mid: data for mid, data in kept}
    rows.update((mid, data) for mid, data in live)
    return [[mid, rows[mid]] for mid in sorted(rows, key=lambda mid: tuple(int(p) for p in mid.split("-")))]


def _verify(blob: bytes, record: dict[str, Any]) -> None:
    """The blob read back must hold this very record, consistent and signed as its provenance says."""
    try:
        again = codec.decode(blob).record()
    except codec.ArchiveDamaged as exc:
        raise ArchiveFailed(str(exc)) from None
    if again != record:
        raise ArchiveFailed(f"game {record['game_id']}: the archived record read back differs")
    verdict = verify_record(again)
    if not verdict.ok:
        raise ArchiveFailed(f"game {record['game_id']}: archived record inconsistent: {verdict.reason}")
    expected = {"local": "trusted", "trusted": "trusted", "foreign": "unknown"}.get(record["provenance"]["origin"])
    if expected is not None and signing.check(again, signing.trusted_keys()).status != expected:
        raise ArchiveFailed(f"game {record['game_id']}: the archived record's signature does not check")


def restore_game(redis: Any, service: Any, game_id: str) -> str:
    """Bring an archived game back into Redis: 'restored', or 'not_archived'. The blob stays (the
    next archiving writes it again); the game leaves the archive index, so sweeps leave it be."""
    game = service.store.archived_game(game_id)
    if game is None:
        if redis.exists(keys.archived(game_id)):        # stubbed, not dropped: the log is still here
            redis.delete(keys.archived(game_id))
            return "restored"
        return "not_archived"
    envelopes = game.archived.envelopes
    messages = [m for c in chat.CHANNELS for m in game.archived.chat.get(c, [])]
    outcome = text(run_script(redis, RESTORE_LUA, [keys.archived(game_id), keys.log(game_id), keys.moves(game_id),
                                                   keys.chat(game_id, "players"), keys.chat(game_id, "spectators")],
                              [game.archived.head_hash, HEADER, flags(envelopes),
                               *(len(game.archived.chat.get(c, [])) for c in chat.CHANNELS),
                               *(env.to_stored() for env in envelopes), *(part for m in messages for part in m)]))
    index.unmark(redis, game_id)
    return outcome


def sweep(redis: Any, service: Any, now: float, older_than: float, *, limit: int = BATCH,
          plain_records: Path | None = None) -> Counter:
    """Archive the indexed games whose end-of-game work was done `older_than` seconds ago or more."""
    done: Counter = Counter()
    for shard in range(keys.DEADLINE_SHARDS):
        due = keys.archive_due(shard)
        for raw in redis.zrangebyscore(due, "-inf", now - older_than, start=0, num=limit):
            game_id = text(raw)
            outcome = _one(redis, service, game_id, plain_records, now)
            done[outcome] += 1
            if outcome in ("archived", "missing"):
                redis.zrem(due, game_id)
    return done


def walk(redis: Any, service: Any, now: float, older_than: float, *, plain_records: Path | None = None) -> Counter:
    """Every stored game in Redis (SCAN over the heads): archive the finished ones ended long enough ago."""
    done: Counter = Counter()
    for key in redis.scan_iter(match=keys.head_pattern(), count=500):
        game_id = keys.game_of_head(key)
        ended = ended_at(redis, game_id)
        if ended is not None and ended <= now - older_than:
            done[_one(redis, service, game_id, plain_records, now)] += 1
    return done


def _one(redis: Any, service: Any, game_id: str, plain_records: Path | None, now: float) -> str:
    try:
        return archive_game(redis, service, game_id, plain_records=plain_records, now=now)
    except GameNotFound:
        return "missing"
    except ArchiveFailed:
        log.exception("archive: %s was not archived", game_id)
        return "failed"
