"""Durable follow-up: what must happen after a game changed (clocks, bots, notifications, the end
of the game) is owed from the moment the change is stored, whoever then dies. A transactional outbox:

1. The game goes into the follow-up index (keys.follow_ups, sharded like the deadline index;
   member: the game id, due GRACE seconds later): only ever later, never sooner. On a single Redis
   the append script does it (one round trip for the whole move); on a Cluster, where the index
   lies in another slot, `owe` does it just before the append.
2. The append itself (events/lua/append.lua) sets the game's marker (keys.follow_up) to the new
   version: the events and the debt are stored together or not at all.
3. The fast path: GameService runs its follow-up hook right after the append, then clears the
   marker if no later append owes more (events/lua/follow_up_done.lua). A web process clears them
   a moment later, many games in one round trip (`Settler`): a debt cleared late only means a loop
   may run an idempotent follow-up once more, never that one is lost.
4. The slow path: a worker's deadline loop claims the games of the index when due (a lease, as
   for deadlines) and, for each whose marker is still set, runs the follow-up itself and clears it.

On a Cluster the index entry is written before the append (a game in the index owing nothing costs
one look), because no single script may write both the game's slot and an index shard there.
It is moved later by every append (ZADD GT), and a loop's retry never moves it sooner: so no loop
claims the game within GRACE of an append's `owe`, and an append that lands within GRACE is seen
by the loop's look (catch_up reads the marker after the claim). Had `owe` left an earlier entry
alone (NX), a loop could claim that entry between `owe` and the append, find nothing owed yet and
drop it: the append's debt would then wait, unindexed, for the game's next append.
Every follow-up job is idempotent (a wait is planned once, notifications go once by id, the
end-of-game job leaves markers), so the hook and a loop both running it changes nothing more.

    ARENA_FOLLOW_UP_GRACE   seconds before a loop looks at a change's follow-up (default 5)
"""
from __future__ import annotations

import itertools
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from . import keys
from .replies import text
from .scripts import lua, run_script
from .settings import current

_DONE = lua("follow_up_done.lua")
_CLAIM = lua("claim_deadlines.lua")          # the index and its leases work as the deadline index's
_RELEASE = lua("release_deadline.lua")
_turns = itertools.count()
log = logging.getLogger(__name__)


def grace() -> float:
    """ARENA_FOLLOW_UP_GRACE."""
    return current().follow_up_grace


def due_at(now: float | None = None) -> float:
    """When a loop may look at the follow-up of a change made `now`."""
    return (time.time() if now is None else now) + grace()


def owe(redis: Any, game_id: str, now: float | None = None) -> None:
    """Index the game for a loop to look at a grace from now, or later if it is due later already
    (before an append on a Cluster: the loops leave it alone until the append has landed)."""
    redis.zadd(index_key(game_id), {game_id: due_at(now)}, gt=True)


def index_key(game_id: str) -> str:
    return keys.follow_ups(keys.deadline_shard(game_id))


def owed(redis: Any, game_id: str) -> int | None:
    """The version whose follow-up is not known to be done, None when nothing is owed."""
    raw = redis.get(keys.follow_up(game_id))
    return int(raw) if raw is not None else None


def settle(redis: Any, game_id: str, version: int) -> None:
    """The follow-up of everything up to `version` is done (a later append's debt stays)."""
    run_script(redis, _DONE, [keys.follow_up(game_id)], [version])


class Settler:
    """Clears settled debts a moment after their hooks ran (at most `delay` seconds, well within the
    grace), those of every game of the process in one pipeline: a game played quickly settles only
    its latest version, and a move costs no round trip of its own for it. Debts still pending when
    the process dies stay owed, and a loop runs their (idempotent) follow-up again."""

    def __init__(self, redis: Any, delay: float) -> None:
        self.redis, self.delay = redis, delay
        self._pending: dict[str, int] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def later(self, game_id: str, version: int) -> None:
        with self._lock:
            if self._pending.get(game_id, 0) < version:
                self._pending[game_id] = version
            if self._thread is None or not self._thread.is_alive():         # none yet, or forked since
                self._thread = threading.Thread(target=self._run, name="follow-up settler", daemon=True)
                self._thread.start()

    def flush(self) -> None:
        """Clear every pending debt now."""
        with self._lock:
            pending, self._pending = self._pending, {}
        if pending:
            pipe = self.redis.pipeline(transaction=False)
            for game_id, version in pending.items():        # EVAL: a Cluster pipeline takes no script object
                pipe.execute_command("EVAL", _DONE, 1, keys.follow_up(game_id), version)
            pipe.execute()

    def _run(self) -> None:
        """Flush every `delay` seconds while there is anything to clear; then end (`later` starts
        another thread when a debt comes)."""
        while True:
            time.sleep(self.delay)
            try:
                self.flush()
            except Exception as exc:    # noqa: BLE001 - left owed: a deadline loop follows them up again
                # one line, no traceback: formatting one in this thread while the main thread parses
                # (Python 3.11's traceback locations use the ast module) can fail that parse
                log.warning("settling follow-up debts failed (%s); deadline loops will run them again", exc)
            with self._lock:
                if not self._pending:
                    self._thread = None
                    return


@dataclass(frozen=True)
class Claimed:
    games: list[str]
    next_at: float | None               # when the earliest game left in the index is due


def claim(redis: Any, now: float, lease: float, count: int) -> Claimed:
    """Claim up to `count` games due at `now`, each for `lease` seconds, from every shard in turn."""
    games: list[str] = []
    heads: list[float] = []
    first = next(_turns) % keys.DEADLINE_SHARDS
    for shard in [(first + i) % keys.DEADLINE_SHARDS for i in range(keys.DEADLINE_SHARDS)]:
        if len(games) >= count:
            heads.append(now)
            break
        answer = run_script(redis, _CLAIM, [keys.follow_ups(shard), keys.follow_up_leases(shard)],
                            [f"{now:.6f}", lease, count - len(games)])
        if text(answer[0]):
            heads.append(float(text(answer[0])))
        games += [text(raw) for raw in answer[1::2]]
    return Claimed(games, min(heads) if heads else None)


def release(redis: Any, game_id: str, again: float | None = None) -> None:
    """A loop has dealt with the game; `again`: look at it anew then (e.g. after a failure), or
    later if an append's `owe` meanwhile made it due later."""
    shard = keys.deadline_shard(game_id)
    run_script(redis, _RELEASE, [keys.follow_ups(shard), keys.follow_up_leases(shard)],
               [game_id, "" if again is None else f"{again:.6f}", "later"])
