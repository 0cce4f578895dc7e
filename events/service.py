"""The application service: the one path by which anything changes a game (load, decide, append).

The HTTP layer and the RQ workers call it; both pass in their Redis connection. Every read it
offers is made for a seat (None: a spectator) and redacted; `load` returns the full state, secrets
and all, for trusted callers (workers) and must never be serialised to a client.

    service = GameService(redis)
    game = service.create_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}]})
    result = service.execute(game.game_id, seat=1, command={"type": "choose", "square": "c5"},
                             expected_version=game.version, idempotency_key="c2f0...")
    service.events(game.game_id, seat=0, after=result.version - len(result.events))

`engine.RuleError` propagates unchanged and nothing is appended. A version conflict is retried
(re-deciding against the new state) unless the caller named the version it expects.

Post-commit work (clocks, bots, notifications, the end of the game) is one hook, given once by
whoever makes the service (the web app's factory, the workers' runtime: workers/followup.py):
`follow_up(service, game_id, result)` runs after every append that changed a game, with the
command's CommandResult (None after a creation). Each such append also records that follow-up is
owed (events/followup.py), so the hook is only the fast path: if this process dies before the hook
is done, or the hook fails, a worker's deadline loop runs `catch_up` for the game a little later.
"""
from __future__ import annotations

import logging
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable

import engine

from . import crash_points, followup, game_ids, keys, provenance, signing, snapshots
from .envelope import SYSTEM, Actor, Envelope, format_time, utc_now
from .errors import (ConflictError, GameExists, GameNotFound, GameNotOver, IdempotencyKeyReused, RecordMalformed,
                     RecordRejected, RecordUnfinished)
from .hashchain import GENESIS, event_hash, seed_commitment
from .idempotency import TTL_SECONDS, IdempotencyRecord, fingerprint
from .record import build_record
from .redaction import Seat, engine_event, redact_envelope, state_view
from .replication import Replication
from .schemas import REGISTRY, SchemaRegistry
from .store import SNAPSHOTS_KEPT, DuplicateCommand, EventStore
from .verify import verify_record

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 8
CACHED_GAMES = 1024
SETTLE_DELAY = 0.25                 # seconds a web process waits to clear settled debts together (settle_later)
APPENDED = "service.appended"       # the crash point between an append and its follow-up (events/crash_points.py)


@dataclass(frozen=True)
class Loaded:
    """A game's full state at a version. Secret: for rules and workers, never for clients."""
    game_id: str
    version: int
    state: dict[str, Any] = field(repr=False)
    head_hash: str
    latest: int


@dataclass(frozen=True)
class Created:
    game_id: str
    version: int


@dataclass(frozen=True)
class GameView:
    """A state as one seat may see it."""
    game_id: str
    version: int
    latest: int
    seat: Seat
    view: dict[str, Any]


@dataclass(frozen=True)
class CommandResult:
    """What a command did: the version after it and its events as the caller may read them.

    `replayed` is True when an idempotent retry was answered with the first result.
    `state` is the full state after the command (None when replayed), for trusted callers only (a
    worker scheduling the next deadline), never for clients: the very state this process caches
    for the game's next command, so it is read, never changed.
    """
    game_id: str
    version: int
    events: list[dict[str, Any]]
    replayed: bool = False
    state: dict[str, Any] | None = field(default=None, repr=False)
    replies: dict[str, Any] | None = field(default=None, repr=False)   # conditional replies queued after it (None: not read)


@dataclass(frozen=True)
class _Batch:
    envelopes: list[Envelope]
    state: dict[str, Any]
    snapshots: dict[int, dict[str, Any]]


FollowUp = Callable[["GameService", str, "CommandResult | None"], None]


class GameService:
    def __init__(self, redis: Any, *, follow_up: FollowUp | None = None, snapshot_every: int = snapshots.DEFAULT_EVERY,
                 clock: Callable[[], datetime] = utc_now, registry: SchemaRegistry = REGISTRY,
                 validate_events: bool = False, idempotency_ttl: int = TTL_SECONDS,
                 max_attempts: int = MAX_ATTEMPTS, cached_games: int = CACHED_GAMES,
                 replication: Replication | None = None, settle_later: bool = False) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self.store = EventStore(redis, idempotency_ttl=idempotency_ttl, replication=replication)
        self.snapshot_every = snapshot_every
        self.clock = clock
        self.registry = registry
        self.validate_events = validate_events
        self.max_attempts = max_attempts
        self.fingerprint = snapshots.FINGERPRINT
        self.follow_up = follow_up
        self._latest = LatestStates(cached_games)
        self._settler = followup.Settler(redis, min(SETTLE_DELAY, followup.grace() / 4)) if settle_later else None

    # --- creating ----------------------------------------------------------------------------------

    def create_game(self, options: dict[str, Any], *, game_id: str | None = None) -> Created:
        """A new game from engine options; the seed is made here unless the options name one."""
        if isinstance(options, dict) and "seed" not in options:
            options = {**options, "seed": secrets.token_hex(16)}
        return self._create(engine.new_game(options), game_id)

    def create_from_position(self, position: dict[str, Any], *, game_id: str | None = None) -> Created:
        """A new game from a position description (see engine.position)."""
        if isinstance(position, dict) and "seed" not in position:
            position = {**position, "seed": secrets.token_hex(16)}
        return self._create(engine.from_position(position), game_id)

    def _create(self, events: list[dict[str, Any]], game_id: str | None) -> Created:
        game_id = game_id or secrets.token_hex(8)
        if not keys.valid_game_id(game_id):
            raise keys.InvalidKeyPart(f"invalid game id {game_id!r}")
        empty = Loaded(game_id, 0, {}, GENESIS, 0)
        batch = self._seal(empty, events, SYSTEM, state_before=None)
        try:
            version = self.store.append(game_id, 0, batch.envelopes, follow_up=True)
        except ConflictError:
            raise GameExists(game_id) from None
        self._keep_snapshots(game_id, batch)
        self._follow(game_id, None, version)
        return Created(game_id, version)

    # --- reading -----------------------------------------------------------------------------------

    def load(self, game_id: str, at: int | None = None) -> Loaded:
        """The full state at version `at` (None: the latest): nearest snapshot plus the tail."""
        parts = self.store.parts(game_id, at, self.snapshot_every, self.fingerprint)
        state, head = None, GENESIS
        if parts.snapshot is not None:
            _, head, state = snapshots.decode(parts.snapshot)
        events = [engine_event(env, self.registry) for env in parts.envelopes]
        kept = snapshots.due(0, parts.latest, self.snapshot_every)[-SNAPSHOTS_KEPT:]
        state, passed = snapshots.fold(state, events, parts.snapshot_version + 1, self.snapshot_every,
                                       kept[0] if kept else parts.latest + 1)
        if parts.envelopes:
            head = parts.envelopes[-1].hash
        if passed:                      # snapshots missing (dropped, or a new engine): put them back
            self._store_snapshots(game_id, passed, parts.envelopes, parts.snapshot_version + 1, parts.archived)
        return Loaded(game_id, parts.version, state, head, parts.latest)

    def view(self, game_id: str, seat: Seat, at: int | None = None) -> GameView:
        """The state at `at` (None: the latest) as `seat` may see it."""
        loaded = self.load(game_id, at)
        return GameView(game_id, loaded.version, loaded.latest, seat, state_view(loaded.state, seat))

    def events(self, game_id: str, seat: Seat, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
        """Envelopes after version `after` (up to `upto`), redacted for `seat`."""
        envelopes = self.store.read(game_id, after, upto)
        if not envelopes and not self.store.exists(game_id):
            raise GameNotFound(game_id)
        return [redact_envelope(env, seat, self.registry) for env in envelopes]

    def import_record(self, record: dict[str, Any]) -> Created:
        """Store a verified, finished record under its own game id (the id is part of every hash).

        Its provenance (provenance.py) comes from its signature: only a record signed by a trusted
        key passes for a genuine game; any other is stored marked as unsigned or foreign."""
        game_id = record.get("game_id") if isinstance(record, dict) else None
        if not isinstance(game_id, str) or not keys.valid_game_id(game_id):
            raise RecordMalformed("game_id: a record names its game (1-64 letters, digits, '_' or '-')")
        if not isinstance(record.get("events"), list) or not record["events"]:
            raise RecordMalformed("events: a record holds the list of its events")
        verdict = verify_record(record, self.registry)
        if not verdict.ok:
            raise RecordRejected(verdict.reason, verdict.version)
        if verdict.foreign is not None:         # intact, but its moves cannot be decided again here
            raise RecordRejected(f"the game was decided under rules {verdict.foreign}, which this server does not hold")
        if signing.statement(record) is None:
            raise RecordUnfinished("the game has not ended: only finished games are imported")
        origin = provenance.of_import(signing.check(record, signing.trusted_keys()), record)
        redis = self.store.redis
        if game_ids.in_use(redis, game_id) or not game_ids.reserve(redis, game_id, "import"):
            raise GameExists(game_id)           # a game, a waiting one, a lobby table: nothing is stored
        envelopes = [Envelope.from_dict(e) for e in record["events"]]
        try:
            provenance.mark(redis, game_id, origin, envelopes[-1].hash)
            version = self.store.append(game_id, 0, envelopes)
        except ConflictError:
            raise GameExists(game_id) from None
        except BaseException:
            redis.delete(keys.meta(game_id, provenance.MARKER))
            game_ids.release(redis, game_id)
            raise
        return Created(game_id, version)

    def provenance(self, game_id: str) -> provenance.Provenance:
        return provenance.read(self.store.redis, game_id)

    def export_record(self, game_id: str, *, allow_unfinished: bool = False) -> dict[str, Any]:
        """The game's full record for `python -m events.verify`: every event unredacted.

        Only once the game is over, unless allowed (an operator's export of a running game then
        holds the seed and every hidden card). A finished game played here is signed with this
        server's key; an imported one keeps the signature it came with, if it was a valid one."""
        envelopes = self.store.read(game_id)
        if not envelopes:
            raise GameNotFound(game_id)
        state = engine.replay([engine_event(e, self.registry) for e in envelopes])
        over = state.get("phase") == "over"
        if not over and not allow_unfinished:
            raise GameNotOver(game_id)
        record = build_record(game_id, envelopes, state, seed=None if over else state["rng"]["seed"],
                              engine=self.fingerprint)
        origin = self.provenance(game_id)
        record["provenance"] = origin.view()
        if over:
            signature = signing.sign(record, signing.server_key()) if origin.origin == "local" else origin.signature
            if signature:
                record["signature"] = signature
        return record

    # --- changing ----------------------------------------------------------------------------------

    def execute(self, game_id: str, seat: int, command: dict[str, Any], *, expected_version: int | None = None,
                idempotency_key: str | None = None, actor: Actor | None = None,
                drops_replies: bool = False) -> CommandResult:
        """Decide `command` for `seat` against the latest state and append its events.

        With `expected_version`, a game at another version raises ConflictError (after checking
        whether this very command, by its idempotency key, is what moved it on). Without, a
        conflict is retried against the new state. An idempotency key makes a retry return the
        first result; the same key with another body raises IdempotencyKeyReused. `drops_replies`:
        the seat moves itself, so the conditional replies it queued go, with the append.
        """
        if isinstance(command, dict):
            command = {**command, "seat": seat}          # the authenticated seat wins over the body's
        if idempotency_key is not None and not keys.valid_idempotency_key(idempotency_key):
            raise keys.InvalidKeyPart(f"invalid idempotency key {idempotency_key!r}")
        request = _Request(game_id, seat, command, expected_version, idempotency_key,
                           fingerprint(seat, command, expected_version) if idempotency_key is not None else "",
                           seat if actor is None else actor, replies_of=seat if drops_replies else None)
        for _ in range(self.max_attempts):
            # 1. the state to decide on: cached (brought up to date if the caller knows of later
            #    versions), else loaded and cached
            loaded = self._latest.get(game_id)
            if loaded is not None and expected_version is not None and loaded.version < expected_version \
                    and self._bring_up_to_date(loaded):
                loaded = self._latest.get(game_id)
            if loaded is None or (expected_version is not None and loaded.version != expected_version):
                loaded = self.load(game_id)
                self._latest.put(loaded)
            if expected_version is not None and loaded.version != expected_version:
                return self._answer_stale(request, loaded.version)
            # 2. decide: a refusal stands unless the state it came from is no longer current
            try:
                events = engine.decide(loaded.state, command)
            except engine.RuleError:
                if self._outdated(loaded):
                    continue
                prior = self._prior_result(request)
                if prior is None:
                    raise
                return prior
            if not events:
                return CommandResult(game_id, loaded.version, [], state=loaded.state)
            # 3. append at the version decided on; a conflict means deciding again
            result = self._append(request, loaded, events)
            if result is not None:
                return result
        raise ConflictError(game_id, loaded.version, self.store.version(game_id))

    def play_turn(self, game_id: str, seat: int, commands: list[dict[str, Any]], *, expected_version: int,
                  idempotency_key: str, via: str) -> CommandResult:
        """Play `commands` for `seat` in order as one step, all or none: each is decided on the
        state the ones before it lead to, and their events are appended together at
        `expected_version`, each envelope marked `via` (a conditional reply, events/conditionals.py).
        A game at another version raises ConflictError, unless this very turn (its idempotency
        key) is what moved it on: then the first result, replayed. A refusal raises RuleError."""
        if not keys.valid_idempotency_key(idempotency_key):
            raise keys.InvalidKeyPart(f"invalid idempotency key {idempotency_key!r}")
        body = {"type": "turn", "via": via, "commands": commands}
        request = _Request(game_id, seat, body, expected_version, idempotency_key,
                           fingerprint(seat, body, expected_version), seat, via)
        loaded = self.load(game_id)
        if loaded.version != expected_version:
            return self._answer_stale(request, loaded.version)
        state, events = loaded.state, []
        for command in commands:
            decided = engine.decide(state, {**command, "seat": seat})
            state, events = engine.replay(decided, state), events + decided
        if not events:
            return CommandResult(game_id, loaded.version, [], state=state)
        result = self._append(request, loaded, events)
        if result is None:              # not reached: a named version's conflict raises
            raise ConflictError(game_id, expected_version, self.store.version(game_id))
        return result

    def _append(self, request: _Request, loaded: Loaded, events: list[dict[str, Any]]) -> CommandResult | None:
        """Append the decided events; None when another writer came first and no version was named."""
        batch = self._seal(loaded, events, request.actor, loaded.state, request.via)
        record = None
        if request.key is not None:
            record = IdempotencyRecord(request.key, request.body_print, request.seat, loaded.version + 1,
                                       loaded.version + len(events))
        try:
            appended = self.store.appended(request.game_id, loaded.version, batch.envelopes, record, follow_up=True,
                                           replies_of=request.replies_of)
        except DuplicateCommand as dup:
            return self._replay(request, dup.record)
        except ConflictError:
            if request.expected_version is not None:
                self._latest.drop(request.game_id)
                raise
            self._bring_up_to_date(loaded)
            return None
        version = appended.version
        self._keep_snapshots(request.game_id, batch)
        self._latest.put(Loaded(request.game_id, version, batch.state, batch.envelopes[-1].hash, version))
        redacted = [redact_envelope(e, request.seat, self.registry) for e in batch.envelopes]
        result = CommandResult(request.game_id, version, redacted, state=batch.state, replies=appended.replies)
        self._follow(request.game_id, result, version)
        return result

    def _answer_stale(self, request: _Request, actual: int) -> CommandResult:
        """The game moved past the expected version: by this very command (a retry), or a conflict."""
        prior = self._prior_result(request)
        if prior is None:
            raise ConflictError(request.game_id, request.expected_version, actual)
        return prior

    def _outdated(self, loaded: Loaded) -> bool:
        """Whether a cached state another process has since moved on from was used (then brought
        up to date)."""
        return self._latest.get(loaded.game_id) is loaded and self._bring_up_to_date(loaded)

    def _bring_up_to_date(self, loaded: Loaded) -> bool:
        """Fold the events other processes appended since `loaded` onto it and cache the result: one
        read of those few events, instead of a load that decodes a snapshot and folds from it.
        False when there were none."""
        newer = self.store.read(loaded.game_id, loaded.version)
        if not newer:
            return False
        if newer[0].prev_hash != loaded.head_hash:          # not its continuation: load afresh
            self._latest.drop(loaded.game_id)
            return True
        state = engine.replay([engine_event(env, self.registry) for env in newer], loaded.state)
        self._latest.put(Loaded(loaded.game_id, newer[-1].version, state, newer[-1].hash, newer[-1].version))
        return True

    # --- after a change: the follow-up hook ---------------------------------------------------------

    def _follow(self, game_id: str, result: CommandResult | None, version: int) -> None:
        """The fast path of the follow-up owed since the append; a failure is left to the loops."""
        crash_points.reached(APPENDED)
        if self.follow_up is None:
            return
        try:
            self.follow_up(self, game_id, result)
        except Exception:               # noqa: BLE001 - the change is stored; a deadline loop runs it again
            log.exception("the follow-up of game %s at version %s failed; a deadline loop will retry", game_id, version)
            return
        if self._settler is not None:
            self._settler.later(game_id, version)
        else:
            followup.settle(self.store.redis, game_id, version)

    def settle_now(self) -> None:
        """Clear at once the follow-up debts whose hooks ran and that wait to be cleared (settle_later)."""
        if self._settler is not None:
            self._settler.flush()

    def catch_up(self, game_id: str) -> bool:
        """The slow path: run the follow-up the game still owes (its hook died or failed), then mark
        it done; False when nothing was owed. Raises what the hook raised (the debt stays)."""
        owed = followup.owed(self.store.redis, game_id)
        if owed is None:
            return False
        if self.follow_up is None:
            raise RuntimeError("this GameService was made without a follow-up hook")
        self.follow_up(self, game_id, None)
        followup.settle(self.store.redis, game_id, owed)
        return True

    # --- inside ------------------------------------------------------------------------------------

    def _seal(self, loaded: Loaded, events: list[dict[str, Any]], actor: Actor, state_before: dict[str, Any] | None,
              via: str | None = None) -> _Batch:
        """Envelopes for `events` after `loaded`, hash-chained; plus the states they lead to."""
        if not (actor == SYSTEM or (isinstance(actor, int) and not isinstance(actor, bool))):
            raise ValueError("actor must be a seat number or 'system'")
        for event in events:
            (self.registry.validate if self.validate_events else self.registry.check)(event)
        state, passed = snapshots.fold(state_before, events, loaded.version + 1, self.snapshot_every)
        out = seal(loaded.game_id, loaded.version, loaded.head_hash, events, state["rng"]["seed"], actor,
                   format_time(self.clock()), self.registry, via)
        return _Batch(out, state, passed)

    def _keep_snapshots(self, game_id: str, batch: _Batch) -> None:
        if batch.snapshots:
            self._store_snapshots(game_id, batch.snapshots, batch.envelopes, batch.envelopes[0].version)

    def _store_snapshots(self, game_id: str, states: dict[int, dict[str, Any]], envelopes: list[Envelope],
                         first_version: int, archived: bool = False) -> None:
        encoded = {v: snapshots.encode(v, envelopes[v - first_version].hash, s) for v, s in states.items()}
        self.store.put_snapshots(game_id, self.fingerprint, encoded, archived)

    def _prior_result(self, request: _Request) -> CommandResult | None:
        if request.key is None:
            return None
        record = self.store.idempotency_record(request.game_id, request.key)
        return self._replay(request, record) if record else None

    def _replay(self, request: _Request, record: IdempotencyRecord) -> CommandResult:
        if record.fingerprint != request.body_print:
            raise IdempotencyKeyReused(request.game_id, record.key)
        envelopes = self.store.read(request.game_id, record.first_version - 1, record.version)
        redacted = [redact_envelope(e, request.seat, self.registry) for e in envelopes]
        return CommandResult(request.game_id, record.version, redacted, replayed=True)


def seal(game_id: str, version: int, head_hash: str, events: list[dict[str, Any]], seed: str, actor: Actor, moment: str,
         registry: SchemaRegistry, via: str | None = None) -> list[Envelope]:
    """Envelopes for `events` appended after `version` (whose hash is `head_hash`), hash-chained with
    the game's seed: what the store appends, and what `arena bots` writes its games' records from.
    `via`: how the commands came (events/envelope.py), on every envelope of the batch."""
    prev, out = head_hash, []
    for offset, event in enumerate(events):
        at = version + 1 + offset
        body = {"game_id": game_id, "version": at, "type": event["type"],
                "schema_version": registry.version_of(event["type"]), "time": moment, "actor": actor,
                "payload": {k: v for k, v in event.items() if k != "type"}, "prev_hash": prev}
        if at == 1:
            body["commitment"] = seed_commitment(seed)
        if via is not None:
            body["via"] = via
        prev = event_hash(seed, body)
        out.append(Envelope(**body, hash=prev))
    return out


@dataclass(frozen=True)
class _Request:
    """One call of `execute`, as its helpers need it."""
    game_id: str
    seat: int
    command: Any
    expected_version: int | None
    key: str | None
    body_print: str
    actor: Actor
    via: str | None = None
    replies_of: int | None = None


class LatestStates:
    """The latest state of recently changed games, kept in this process so that a command
    usually needs no load: the append's version check catches a state another process has
    outdated, and the command is then decided again on a fresh load. A state held here is never
    changed: each command folds its events into a copy (snapshots.fold), and the readers it is
    shared with (the rules deciding, the follow-up hook) only read it, so threads share it as is."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._games: OrderedDict[str, Loaded] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Loaded | None:
        with self._lock:
            loaded = self._games.get(game_id)
            if loaded is not None:
                self._games.move_to_end(game_id)
            return loaded

    def put(self, loaded: Loaded) -> None:
        if self.size <= 0:
            return
        with self._lock:
            known = self._games.get(loaded.game_id)
            if known is None or known.version < loaded.version:
                self._games[loaded.game_id] = loaded
                self._games.move_to_end(loaded.game_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)
