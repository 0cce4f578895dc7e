"""A game's clock kept up to date in Redis, and what happens once per wait: schedule and announce.

`after_change` is called after every change to a game (by the HTTP layer after a command or a
creation, and by the workers after theirs). It brings the game's clock up to date (a fold,
workers/clock.py, cached beside the game: usually extended by the caller's own batch, whose state
it already has; else by the envelopes appended since, replayed) and, when a new wait has begun,
claims that wait (once, atomically: a wait is named by its first version, which only grows), then
in one transaction: drops the previous wait's members of the deadline index (workers/due.py) and
its queued bot job, indexes the new wait's timeout at its recorded deadline and its reminder,
enqueues (or indexes, after ARENA_BOT_DELAY) a bot's move when a bot is to act, and, once the game
is over, enqueues the end-of-game job. Then it notifies players. The deadline loops of the workers
(workers/deadline_loop.py) act on the index when each member is due.

Games with no time control, no bot and no registered player skip all this until they end.
Nothing here raises into the caller's request: a failure is logged, and the deadline loop repairs
it when the previous wait's member comes due (it brings the clock up to date first).
"""
from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from engine.evolve import apply
from engine.state import active_seat
from events import keys
from events.redaction import engine_event

from . import clock as clocks
from . import due, notify, queues, runtime, vacation
from .clock import Clock, Mark, TimeControl
from .settings import Settings

log = logging.getLogger(__name__)
BOT_GRACE = 30.0                    # seconds a bot's move may take before a deadline loop enqueues it again
FINISH_RECHECK = 10.0               # seconds after which a loop looks whether the end-of-game work got done
CLOCK, TURN = "clock", "turn"

_SAVE_AND_CLAIM = runtime.lua("save_clock_claim_wait.lua")


# --- who sits where: the roster the HTTP layer saved (server/roster.py), read-only here ------------

@dataclass(frozen=True)
class Seating:
    tc: TimeControl
    seats: tuple[dict, ...]

    @property
    def players(self) -> dict[int, str]:
        return {i: s["player"] for i, s in enumerate(self.seats) if s.get("player") and not s.get("bot")}

    @property
    def bots(self) -> set[int]:
        return {i for i, s in enumerate(self.seats) if s.get("bot")}

    @property
    def quiet(self) -> bool:
        """Nothing to schedule or tell while the game runs."""
        return not self.tc.timed and not self.bots and not self.players

    def name(self, seat: int | None) -> str:
        if seat is None or seat >= len(self.seats):
            return "Nobody"
        return self.seats[seat].get("name") or f"Seat {seat + 1}"


class _Seatings:
    """Rosters never change once saved, so each process keeps the ones it has read."""

    def __init__(self, size: int = 4096) -> None:
        self.size, self._known, self._lock = size, OrderedDict(), threading.Lock()

    def get(self, redis: Any, game_id: str) -> Seating:
        with self._lock:
            if game_id in self._known:
                return self._known[game_id]
        pipe = redis.pipeline(transaction=False)
        pipe.get(keys.meta(game_id, "info"))
        pipe.hgetall(keys.meta(game_id, "seats"))
        info, raw = pipe.execute()
        info = json.loads(info) if info else {}
        seats = tuple(json.loads(raw[k]) for k in sorted(raw, key=int))
        seating = Seating(TimeControl.from_info(info.get("time_control")), seats)
        if seats:
            with self._lock:
                self._known[game_id] = seating
                while len(self._known) > self.size:
                    self._known.popitem(last=False)
        return seating


seating_of = _Seatings().get


# --- the clock, cached beside the game ---------------------------------------------------------------

def current(redis: Any, service: Any, game_id: str, tc: TimeControl) -> Clock:
    """The game's clock now: the cached fold, brought up to date (and cached again)."""
    return _refresh(redis, service, game_id, tc, claim=False)[0]


@dataclass(frozen=True)
class Appended:
    """What a caller knows of the batch it just appended (from its events.CommandResult): its first
    version and recorded time, its last version, and the full state after it."""
    first: int
    version: int
    time: str
    state: dict

    @classmethod
    def of(cls, result: Any) -> "Appended | None":
        if result is None or getattr(result, "state", None) is None or not result.events:
            return None
        return cls(result.events[0]["version"], result.version, result.events[0]["time"], result.state)

    def mark(self) -> Mark:
        turn = self.state.get("turn")
        return Mark(self.first, self.version, self.time, active_seat(self.state), turn["number"] if turn else 0,
                    len(self.state["seats"]), self.state.get("phase") == "over")


def _refresh(redis: Any, service: Any, game_id: str, tc: TimeControl, claim: bool,
             appended: Appended | None = None) -> tuple[Clock, Any]:
    raw = redis.hget(keys.meta(game_id, CLOCK), "json")
    cached = Clock.from_json(json.loads(raw)) if raw else Clock()
    if appended is not None and cached.version == appended.first - 1:
        new_marks = [appended.mark()]                   # the usual case: no need to read the log
    else:
        new_marks = marks(service, game_id, cached.version, service.store.read(game_id, after=cached.version))
    latest = clocks.fold(cached, new_marks, tc, vacation.paused_for(redis, seating_of(redis, game_id)))
    if latest.version == 0 or (not new_marks and not claim):
        return latest, None                         # no such game, or nothing new to keep
    seat = "" if latest.seat is None else str(latest.seat)
    claimed = runtime.run_script(redis, _SAVE_AND_CLAIM, [keys.meta(game_id, CLOCK), keys.meta(game_id, TURN)],
                                 [latest.version, json.dumps(latest.to_json()), latest.wait if claim else "", seat])
    return latest, claimed


def marks(service: Any, game_id: str, after: int, envelopes: list) -> list[Mark]:
    """One Mark per batch of `envelopes` (those after version `after`), replayed by the engine."""
    batches: list[list] = []
    for env in envelopes:
        if not batches or clocks.batch_starts(env.type, env.version, env.payload):
            batches.append([])
        batches[-1].append(env)
    if not batches:
        return []
    state = service.load(game_id, at=after).state if after else {}
    out = []
    for batch in batches:
        for env in batch:
            apply(state, engine_event(env))
        turn = state.get("turn")
        out.append(Mark(batch[0].version, batch[-1].version, batch[0].time, active_seat(state),
                        turn["number"] if turn else 0, len(state["seats"]), state.get("phase") == "over"))
    return out


# --- once per wait --------------------------------------------------------------------------------------

def after_change(redis: Any, service: Any, game_id: str, result: Any = None,
                 settings: Settings | None = None) -> Clock | None:
    """Schedule and announce the game's new wait, if one began; never raises (logs instead).

    `result`: the events.CommandResult of the caller's own command, when it has one (its state
    spares reading the log and replaying)."""
    try:
        return _after_change(redis, service, game_id, Appended.of(result), settings or runtime.settings())
    except Exception:                   # noqa: BLE001 - the command is stored; a deadline loop repairs the rest
        log.exception("scheduling after a change to game %s failed", game_id)
        return None


def _after_change(redis: Any, service: Any, game_id: str, appended: Appended | None,
                  settings: Settings) -> Clock | None:
    seating = seating_of(redis, game_id)
    if seating.quiet and appended is not None:
        if appended.state.get("phase") == "over":
            jobs, index = queues.pipelines(redis)
            follow_up_finish(queues.game_queue(redis, settings), game_id, jobs, index)
            queues.execute(jobs, index)
        return None
    clock, claimed = _refresh(redis, service, game_id, seating.tc, claim=True, appended=appended)
    if not claimed:
        return clock
    previous_wait = int(_text(claimed[0]))
    previous_seat = int(_text(claimed[1])) if _text(claimed[1]) else None
    _plan(redis, game_id, seating, clock, previous_wait, settings)
    _announce(redis, game_id, seating, clock, previous_seat, settings)
    return clock


def _plan(redis: Any, game_id: str, seating: Seating, clock: Clock, previous_wait: int, settings: Settings) -> None:
    """In one transaction (two on a Cluster, see queues.pipelines): the previous wait's index members
    and queued bot job go; the new wait's timeout, reminder and bot are indexed (workers/due.py), or
    the end-of-game work is set going."""
    queue = queues.game_queue(redis, settings)
    pipe, index = queues.pipelines(redis)
    if previous_wait > 0:
        queues.cancel(pipe, queue, [queues.job_id("bot", game_id, previous_wait)])
        due.drop(index, due.wait_members(game_id, previous_wait))
    if clock.over:
        follow_up_finish(queue, game_id, pipe, index)
    else:
        bot = schedule_bot(queue, game_id, clock, settings, pipe) if clock.seat in seating.bots else None
        due.add(index, _members(redis, game_id, seating, clock, settings, bot))
    queues.execute(pipe, index)


def replan(redis: Any, service: Any, game_id: str, settings: Settings) -> None:
    """Index the current wait's members that are missing, e.g. when the process that claimed the
    wait died before it indexed them (found when a member of the wait before comes due). Members
    already there keep their time; one indexed twice changes nothing (its work is idempotent)."""
    seating = seating_of(redis, game_id)
    clock = current(redis, service, game_id, seating.tc)
    if clock.over:
        items = {due.member("finish", game_id): runtime.now()}
    else:
        bot = runtime.now() if clock.seat in seating.bots else None
        items = _members(redis, game_id, seating, clock, settings, bot)
    due.add(redis, items, only_new=True)


def _members(redis: Any, game_id: str, seating: Seating, clock: Clock, settings: Settings, bot: float | None) -> dict:
    items = {}
    end = vacation.deadline(redis, clock, seating)
    if end is not None:
        items[due.member("timeout", game_id, clock.wait)] = end
        if clock.seat in seating.players:
            items[due.member("remind", game_id, clock.wait)] = vacation.reminder(redis, clock, seating,
                                                                                settings.reminder_fraction)
    if bot is not None:
        items[due.member("bot", game_id, clock.wait)] = bot
    return items


def follow_up_finish(queue: Any, game_id: str, pipe: Any, index: Any) -> None:
    """Enqueue the end-of-game job, and index a look at it FINISH_RECHECK seconds on, in case it is lost."""
    queues.enqueue(queue, "workers.jobs.finish_game", game_id, job_id=queues.job_id("finish", game_id), pipeline=pipe)
    due.add(index, {due.member("finish", game_id): runtime.now() + FINISH_RECHECK})


def schedule_bot(queue: Any, game_id: str, clock: Clock, settings: Settings, pipe: Any = None) -> float:
    """Have the bot play this wait: its job is enqueued now, or by a deadline loop once
    ARENA_BOT_DELAY has passed. Returns when the deadline loop should look at it (and enqueue it
    again if it was lost)."""
    when = (clock.since or runtime.now()) + settings.bot_delay
    if settings.bot_delay > 0:
        return when
    enqueue_bot(queue, game_id, clock.wait, pipe)
    return when + BOT_GRACE


def enqueue_bot(queue: Any, game_id: str, wait: int, pipe: Any = None) -> None:
    queues.enqueue(queue, "workers.jobs.bot_move", game_id, wait, job_id=queues.job_id("bot", game_id, wait),
                   pipeline=pipe)


def _announce(redis: Any, game_id: str, seating: Seating, clock: Clock, mover: int | None,
              settings: Settings) -> None:
    """'your turn' to the seat now waited for; 'opponent moved' to the other players but the mover."""
    if clock.over or clock.seat is None:
        return                          # the end-of-game job tells everyone
    end = vacation.deadline(redis, clock, seating)
    common = {"version": clock.version, "since": clocks.format_epoch(clock.since),
              "deadline": clocks.format_epoch(end) if end is not None else None}
    for seat, pid in seating.players.items():
        if seat == clock.seat:
            note = notify.notification("your_turn", game_id, seat, clock.wait, **common,
                                       text=f"It is your turn in game {game_id}.")
        elif mover is not None and seat != mover:
            note = notify.notification("opponent_moved", game_id, seat, clock.wait, **common, by=mover,
                                       text=f"{seating.name(mover)} has moved in game {game_id}; "
                                            f"{seating.name(clock.seat)} is to play.")
        else:
            continue
        notify.send(redis, pid, note, settings)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else ("" if value is None else str(value))
