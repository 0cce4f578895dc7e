"""The deadline loop: a thread in every worker process that applies what is due, when it is due.

Each round (every ARENA_DEADLINE_POLL seconds at most, sooner when the earliest member of the
index is due sooner) it claims the due members of the deadline index (events/due.py) and deals
with each (workers/deadlines.py): a timeout is applied through the GameService at once, a reminder
sent, a bot's or an end-of-game job enqueued when missing. It also claims the games of the follow-up
index (events/followup.py) and runs the follow-up a change still owes because the process that made
it died (or its hook failed) before it was done. Once a second it also renews its
process's pulse, hands the jobs of dead workers back to RQ and moves due scheduled jobs into their
queues (workers/recovery.py); a loop that tends the index also sweeps the lobby (expired tables,
workers/lobby_sweep.py) and, once a minute, moves the finished games ended ARENA_ARCHIVE_AFTER
ago out of Redis into the archive (events/archive/). Nothing here waits on RQ's scheduler or on a job being worked.

Several loops (one per worker process, on any number of machines) share the index: a member is
claimed by one loop for ARENA_DEADLINE_LEASE seconds, and offered again if that loop died. A loop
survives Redis going away: it retries every few tenths of a second and carries on when it is back,
so everything overdue meanwhile is applied at once.

    loop = DeadlineLoop(redis, settings, queues, name=lambda: worker.name)
    loop.start()            # a daemon thread; loop.stop() ends it
    loop.drain()            # in this thread: deal with everything due now (burst workers, tests)
"""
from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable

import redis as redis_py
from rq import Queue

from events import GameNotFound, due, followup, pulses
from events.archive import archiver
from events.connection import queue_for

from . import deadlines, lobby_sweep, recovery, runtime
from .followup import service as service_of
from events.settings import Settings

log = logging.getLogger(__name__)
BATCH = 32                          # members claimed per round at most
HANDLERS = 4                        # members dealt with at once (their Redis round trips overlap)
RETRY_SECONDS = 1.0                 # a member whose handling failed is looked at again this much later
OUTAGE_WAIT_MAX = 0.5               # seconds between attempts while Redis is unreachable, at most
DRAIN_ROUNDS = 1000
ARCHIVE_EVERY = 60.0                # seconds between two archive sweeps of a loop


class DeadlineLoop:
    def __init__(self, redis: Any, settings: Settings, queues: list[Queue], name: Callable[[], str],
                 tend: bool = True, now: Callable[[], float] = runtime.now) -> None:
        self.redis, self.settings, self.queues, self.name = redis, settings, queues, name
        self.tend, self.now = tend, now
        self.service = service_of(redis)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._next_chores = 0.0
        self._next_archive = 0.0
        self._handlers = ThreadPoolExecutor(HANDLERS, thread_name_prefix="deadline")
        self._archiver = ThreadPoolExecutor(1, thread_name_prefix="archive")     # slow work, off the loop
        self._archiving: Future[Any] | None = None

    def start(self) -> threading.Thread:
        self._thread = threading.Thread(target=self.run, name="deadline-loop", daemon=True)
        self._thread.start()
        return self._thread

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._handlers.shutdown(wait=False)
        self._archiver.shutdown(wait=False)

    def run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                _, wait = self.tick()
                if failures:
                    log.warning("deadline loop: Redis is back")
                failures = 0
            except (redis_py.ConnectionError, redis_py.TimeoutError) as exc:
                if not failures:
                    log.warning("deadline loop: Redis unreachable (%s); retrying", exc)
                failures += 1
                wait = min(OUTAGE_WAIT_MAX, 0.05 * 2 ** failures)
            except Exception:           # noqa: BLE001 - the loop must outlive any one failure
                log.exception("deadline loop: a round failed")
                wait = RETRY_SECONDS
            self._stop.wait(wait)

    def drain(self) -> int:
        """Deal with everything due now, in this thread; how many members."""
        self._next_chores = 0.0
        self._next_archive = 0.0
        total = 0
        for _ in range(DRAIN_ROUNDS):
            handled, _ = self.tick()
            total += handled
            if not handled:
                break
        return total

    def tick(self) -> tuple[int, float]:
        """One round: the chores when due, then the due members. (members dealt with, seconds to sleep)"""
        now = self.now()
        if now >= self._next_chores:
            self._chores(now)
            self._next_chores = now + pulses.PULSE_SECONDS
        if not self.tend:
            return 0, min(pulses.PULSE_SECONDS, max(0.0, self._next_chores - now))
        claimed = due.claim(self.redis, now, self.settings.deadline_lease, BATCH)
        for name in claimed.unknown:
            log.warning("deadline loop: dropping unknown member %r of the deadline index", name)
            due.release(self.redis, name)
        for _ in self._handlers.map(self._deal, claimed.items):
            pass                        # each member's outcome is its own; a lost connection raises here
        owed = followup.claim(self.redis, now, self.settings.deadline_lease, BATCH)
        for _ in self._handlers.map(self._catch_up, owed.games):
            pass
        handled = len(claimed.items) + len(claimed.unknown) + len(owed.games)
        if handled >= BATCH:
            return handled, 0.0
        wait = self.settings.deadline_poll
        for next_at in (claimed.next_at, owed.next_at):
            if next_at is not None:
                wait = min(wait, max(0.0, next_at - self.now()))
        return handled, min(wait, max(0.0, self._next_chores - self.now()))

    def _chores(self, now: float) -> None:
        jobs = queue_for(self.redis)                # RQ's Redis (the same one unless data is on a Cluster)
        pulses.pulse(jobs, self.name())
        recovery.rescue_abandoned(jobs, self.queues)
        for queue in self.queues:
            recovery.promote_scheduled(jobs, queue, now)
        if self.tend:                               # game work: the loops of the game queue's workers
            lobby_sweep.sweep(self.redis, now, self.settings)
            if now >= self._next_archive and (self._archiving is None or self._archiving.done()):
                self._next_archive = now + ARCHIVE_EVERY
                self._archiving = self._archiver.submit(self._archive, now)

    def _archive(self, now: float) -> None:
        """One sweep of the archive index, in its own thread: archiving a game (writing, reading back
        and replaying its record) takes a tenth of a second or more, which deadlines must not wait for."""
        try:
            archiver.sweep(self.redis, self.service, now, self.settings.archive_after,
                           plain_records=self.settings.archive_dir)
        except Exception:               # noqa: BLE001 - the next sweep tries again
            log.exception("archive sweep failed; trying again in %s s", ARCHIVE_EVERY)

    def _catch_up(self, game_id: str) -> None:
        """Run the follow-up the game still owes, if any (events/followup.py)."""
        def run() -> None:              # done once run: catch_up's answer (was anything owed) is not a time
            self.service.catch_up(game_id)
        again = self._settled(f"the follow-up of {game_id}", run)
        followup.release(self.redis, game_id, again)

    def _deal(self, item: due.Due) -> None:
        again = self._settled(item.member, lambda: deadlines.handle(self.redis, self.service, item, self.settings,
                                                                    self.now))
        # an outbox's entry is pushed later by every sender before its script: a retry must not pull it sooner
        due.release(self.redis, item.member, again, later=item.kind == "outbox")

    def _settled(self, what: str, work: Callable[[], float | None]) -> float | None:
        """`work()`: when to look again (None: done; a game gone is done, one that failed is looked at
        again RETRY_SECONDS later). A lost connection raises: the lease lapses and it is offered again."""
        try:
            return work()
        except GameNotFound:
            return None
        except (redis_py.ConnectionError, redis_py.TimeoutError):
            raise
        except Exception:               # noqa: BLE001 - one broken game must not stop the others
            log.exception("deadline loop: %s failed; trying again in %s s", what, RETRY_SECONDS)
            return self.now() + RETRY_SECONDS
