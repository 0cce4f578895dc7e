"""Turn deadlines: the timeout of a wait, the reminder before it, and the sweeper behind both.

RQ's scheduler polls once a second and keeps due times in whole seconds (rounded down), so a job
scheduled for a deadline may start up to a second early or late. The timeout therefore judges the
wait against the deadline recorded in the game (workers/clock.py), never against the job's time:
a job that starts early waits out a remainder of at most WAIT_OUT seconds, or else re-schedules
itself for the deadline (whose whole second has then passed, so the scheduler's next poll, within
a second, picks it up). A turn is never timed out before its deadline, and is timed out within
about a second after it.

The timeout goes through GameService.execute as the system, with the version it judged: if the
game moved on meanwhile, it judges again; if the seat already moved, it returns quietly.
"""
from __future__ import annotations

import logging
import threading
from typing import Any, Callable

import engine
from events import SYSTEM, ConflictError, GameNotFound, keys

from . import clock as clocks
from . import notify, queues, turns
from .settings import Settings

log = logging.getLogger(__name__)
WAIT_OUT = 0.3                      # seconds: shorter remainders are waited out, longer re-scheduled
MAX_JUDGEMENTS = 4
SWEEP_BATCH = 500


def apply_timeout(redis: Any, service: Any, game_id: str, wait: int, attempt: int, settings: Settings,
                  now: Callable[[], float], pause: Callable[[float], Any] | None = None) -> str:
    """Time out the wait `wait` of the game if its recorded deadline has passed. Returns what it did:
    'timed_out', 'moved' (the wait is over), 'early' (re-scheduled), 'untimed', or 'busy'."""
    pause = pause or threading.Event().wait
    for _ in range(MAX_JUDGEMENTS):
        seating = turns.seating_of(redis, game_id)
        clock = turns.current(redis, service, game_id, seating.tc)
        if clock.over or clock.seat is None or clock.wait != wait:
            turns.after_change(redis, service, game_id, settings=settings)
            return "moved"
        end = clocks.deadline(clock, seating.tc)
        if end is None:
            return "untimed"
        left = end - now()
        if left > WAIT_OUT:
            return _reschedule(redis, game_id, wait, attempt, end, settings)
        if left > 0:
            pause(left)
            continue
        try:
            result = service.execute(game_id, clock.seat, {"type": "timeout"}, expected_version=clock.version,
                                     actor=SYSTEM)
        except ConflictError:
            continue                    # something was appended: judge again on the new version
        except engine.RuleError as err:
            if err.code in ("not_timed_out", "game_over"):
                return "moved"
            raise
        turns.after_change(redis, service, game_id, result, settings=settings)
        return "timed_out"
    return "busy"


def _reschedule(redis: Any, game_id: str, wait: int, attempt: int, end: float, settings: Settings) -> str:
    if attempt >= queues.MAX_EARLY_ATTEMPTS:
        log.warning("timeout of game %s wait %s keeps starting early; leaving it to the sweeper", game_id, wait)
        return "early"
    queues.schedule(queues.game_queue(redis, settings), end, "workers.jobs.timeout", game_id, wait, attempt + 1,
                    job_id=queues.job_id("timeout", game_id, wait, attempt + 1))
    return "early"


def remind(redis: Any, service: Any, game_id: str, wait: int, settings: Settings, now: float) -> str:
    """'deadline soon' to the player waited for, unless the wait is over."""
    seating = turns.seating_of(redis, game_id)
    clock = turns.current(redis, service, game_id, seating.tc)
    if clock.over or clock.wait != wait or clock.seat not in seating.players:
        return "moved"
    end = clocks.deadline(clock, seating.tc)
    if end is None:
        return "untimed"
    note = notify.notification("deadline_soon", game_id, clock.seat, wait, version=clock.version,
                               deadline=clocks.format_epoch(end), remaining=round(max(0.0, end - now), 3),
                               text=f"Your time in game {game_id} runs out in {_duration(end - now)}.")
    notify.send(redis, seating.players[clock.seat], note, settings, now=now)
    return "reminded"


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


# --- the sweeper ---------------------------------------------------------------------------------------

def sweep(redis: Any, service: Any, settings: Settings, now: float) -> list[str]:
    """Enqueue the timeout (or bot move) of every game overdue in the deadline index whose job is
    not waiting in a queue or running (lost, failed, deleted, or its scheduler down). Returns them."""
    limit = now - settings.sweep_grace
    rescued = []
    for raw in redis.zrangebyscore(keys.deadlines(), "-inf", limit, start=0, num=SWEEP_BATCH):
        game_id = raw.decode() if isinstance(raw, bytes) else raw
        try:
            if _rescue(redis, service, game_id, settings, limit):
                rescued.append(game_id)
        except GameNotFound:
            redis.zrem(keys.deadlines(), game_id)
        except Exception:               # noqa: BLE001 - one broken game must not stop the sweep
            log.exception("sweeping game %s failed", game_id)
    return rescued


def _rescue(redis: Any, service: Any, game_id: str, settings: Settings, limit: float) -> bool:
    if not service.store.exists(game_id):
        raise GameNotFound(game_id)
    clock = turns.after_change(redis, service, game_id, settings=settings)     # claims a missed wait
    seating = turns.seating_of(redis, game_id)
    if clock is None or clock.over or clock.seat is None:
        return False
    queue = queues.game_queue(redis, settings)
    end = clocks.deadline(clock, seating.tc)
    if end is not None and end <= limit:
        if not queues.waiting(redis, queues.timeout_job_ids(game_id, clock.wait)):
            queues.enqueue(queue, "workers.jobs.timeout", game_id, clock.wait,
                           job_id=queues.job_id("sweep", game_id, clock.wait))
            return True
        return False
    if clock.seat in seating.bots and (clock.since or 0) + settings.bot_delay + turns.BOT_GRACE <= limit:
        if not queues.waiting(redis, [queues.job_id("bot", game_id, clock.wait)]):
            queues.enqueue(queue, "workers.jobs.bot_move", game_id, clock.wait,
                           job_id=queues.job_id("bot", game_id, clock.wait))
            return True
    return False
