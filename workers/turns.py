"""What happens once per wait: schedule and announce. The follow-up work of every change to a game.

`after_change` is the follow-up of a change (workers/followup.py runs it as the GameService's
hook, after every command and creation, in the web app and the workers alike; the deadline loops
run it too, for a change whose hook never finished). It brings the game's clock up to date
(events/game_clock.py: usually extended by the caller's own batch, whose state it already has;
else by the envelopes appended since, replayed) and, when a new wait has begun, claims that wait
(once, atomically: a wait is named by its first version, which only grows), then in one
transaction: drops the previous wait's members of the deadline index (events/due.py) and its
queued bot job, indexes the new wait's timeout at its recorded deadline and its reminder, enqueues
(or indexes, after ARENA_BOT_DELAY) a bot's move when a bot is to act, and, once the game is over,
enqueues the end-of-game job. Then it notifies players. The deadline loops of the workers
(workers/deadline_loop.py) act on the index when each member is due.

A wait's announcement is pledged before the wait is claimed: an `announce` member of the index,
due ANNOUNCE_GRACE seconds on, which the claimer drops once it has announced. If the claimer dies
in between (or is slower than that), a deadline loop makes the announcement (`announce_again`),
and each notification is delivered once by its id (workers/notify.py), so none is lost or doubled.

Games with no time control, no bot and no registered player skip all this until they end.
A failure raises: the change's follow-up is then still owed (events/followup.py) and a deadline
loop runs it again; running it twice changes nothing more.
"""
from __future__ import annotations

from typing import Any

from events import clocks, crash_points, due, game_clock, keys, pauses
from events.clocks import Clock
from events.game_clock import Appended
from events.replies import text
from events.roster import Seating, seating_of

from . import notify, queues, runtime
from events.settings import Settings

BOT_GRACE = 30.0                    # seconds a bot's move may take before a deadline loop enqueues it again
FINISH_RECHECK = 10.0               # seconds after which a loop looks whether the end-of-game work got done
ANNOUNCE_GRACE = 3.0                # seconds a wait's claimer has to announce it before a deadline loop does


def after_change(redis: Any, service: Any, game_id: str, result: Any = None,
                 settings: Settings | None = None) -> Clock | None:
    """Schedule and announce the game's new wait, if one began; the clock (None for a quiet game).

    `result`: the events.CommandResult of the change, when the caller has it (its state spares
    reading the log and replaying)."""
    return _after_change(redis, service, game_id, Appended.of(result), settings or runtime.settings())


def _after_change(redis: Any, service: Any, game_id: str, appended: Appended | None,
                  settings: Settings) -> Clock | None:
    seating = seating_of(redis, game_id)
    if seating.quiet and appended is not None:
        if appended.state.get("phase") == "over":
            jobs, index = queues.pipelines(redis)
            follow_up_finish(queues.game_queue(redis, settings), game_id, jobs, index)
            queues.execute(jobs, index)
        return None
    pledge = Pledge(redis, game_id, seating)
    clock, claimed = game_clock.refresh(redis, service, game_id, seating.tc, claim=True, appended=appended,
                                        before_claim=pledge)
    if not claimed:
        return clock
    pledge.make(clock)                  # if the fold did not show the wait as new (another process cached it)
    crash_points.reached("turn.claimed")
    previous_wait = int(text(claimed[0]))
    previous_seat = int(text(claimed[1])) if text(claimed[1]) else None
    end = None if clock.over else pauses.deadline(redis, clock, seating)    # read once, for the index and the notes
    _plan(redis, game_id, seating, clock, previous_wait, settings, end)
    _announce(redis, game_id, seating, clock, previous_seat, settings, end)
    crash_points.reached("turn.announced")
    pledge.kept()
    return clock


class Pledge:
    """A wait's announcement, indexed (as `announce:<game>:<wait>`) before the wait is claimed and
    dropped once made; a deadline loop makes it if it is still there ANNOUNCE_GRACE seconds on."""

    def __init__(self, redis: Any, game_id: str, seating: Seating) -> None:
        self.redis, self.game_id, self.seating = redis, game_id, seating
        self.member: str | None = None

    def __call__(self, latest: Clock, cached: Clock) -> None:
        if latest.wait != cached.wait:                  # a new wait in this fold: it is about to be claimed
            self.make(latest)

    def make(self, clock: Clock) -> None:
        players = self.seating.players
        if self.member is not None or clock.over or clock.seat is None or not (
                clock.seat in players or len(players) > 1):
            return                                      # pledged already, or nobody to tell
        self.member = due.member("announce", self.game_id, clock.wait)
        due.add(self.redis, {self.member: runtime.now() + ANNOUNCE_GRACE}, only_new=True)

    def kept(self) -> None:
        if self.member is not None:
            pipe = self.redis.pipeline(transaction=False)
            due.drop(pipe, [self.member])
            pipe.execute()


def announce_again(redis: Any, service: Any, game_id: str, wait: int, settings: Settings) -> None:
    """A pledged announcement came due: its claimer died (or was slow). Claim the wait if nobody
    has; else plan what may be missing and make the announcement again (a notification already
    delivered is not delivered twice). A wait that is over needs none."""
    claim = {text(k): text(v) for k, v in redis.hgetall(keys.wait_claim(game_id)).items()}
    claimed = int(claim.get("wait") or -1)
    if claimed < wait:
        _after_change(redis, service, game_id, None, settings)
        return
    seating = seating_of(redis, game_id)
    clock = game_clock.current(redis, service, game_id, seating.tc)
    if claimed > wait or clock.wait != wait:
        return
    _replan(redis, game_id, seating, clock, settings)
    _announce(redis, game_id, seating, clock, int(claim["mover"]) if claim.get("mover") else None, settings,
              pauses.deadline(redis, clock, seating))


def _plan(redis: Any, game_id: str, seating: Seating, clock: Clock, previous_wait: int, settings: Settings,
          end: float | None) -> None:
    """In one transaction (two on a Cluster, see queues.pipelines): the previous wait's index members
    and queued bot job go; the new wait's timeout, reminder and bot are indexed (events/due.py), or
    the end-of-game work is set going."""
    queue, bots = queues.game_queue(redis, settings), queues.bot_queue(redis, settings)
    pipe, index = queues.pipelines(redis)
    if previous_wait > 0:
        queues.cancel(pipe, bots, [queues.job_id("bot", game_id, previous_wait)])
        due.drop(index, due.wait_members(game_id, previous_wait))
    if clock.over:
        follow_up_finish(queue, game_id, pipe, index)
    else:
        bot = schedule_bot(bots, game_id, clock, settings, pipe) if clock.seat in seating.bots else None
        due.add(index, _members(redis, game_id, seating, clock, settings, bot, end))
    queues.execute(pipe, index)


def replan(redis: Any, service: Any, game_id: str, settings: Settings) -> None:
    """Index the current wait's members that are missing, e.g. when the process that claimed the
    wait died before it indexed them (found when a member of the wait before comes due). Members
    already there keep their time; one indexed twice changes nothing (its work is idempotent)."""
    seating = seating_of(redis, game_id)
    _replan(redis, game_id, seating, game_clock.current(redis, service, game_id, seating.tc), settings)


def _replan(redis: Any, game_id: str, seating: Seating, clock: Clock, settings: Settings) -> None:
    if clock.over:
        items = {due.member("finish", game_id): runtime.now()}
    else:
        bot = runtime.now() if clock.seat in seating.bots else None
        items = _members(redis, game_id, seating, clock, settings, bot, pauses.deadline(redis, clock, seating))
    due.add(redis, items, only_new=True)


def _members(redis: Any, game_id: str, seating: Seating, clock: Clock, settings: Settings, bot: float | None,
             end: float | None) -> dict[str, Any]:
    """The wait's members of the index; `end`: its deadline (pauses.deadline)."""
    items = {}
    if end is not None:
        items[due.member("timeout", game_id, clock.wait)] = end
        if clock.seat in seating.players:
            items[due.member("remind", game_id, clock.wait)] = pauses.reminder(redis, clock, seating,
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
              settings: Settings, end: float | None) -> None:
    """'your turn' to the seat now waited for; 'opponent moved' to the other players but the mover
    (`end`: the wait's deadline, pauses.deadline)."""
    if clock.over or clock.seat is None:
        return                          # the end-of-game job tells everyone
    common = {"version": clock.version, "since": clocks.format_epoch(clock.since),
              "deadline": clocks.format_epoch(end) if end is not None else None}
    for seat, pid in seating.players.items():
        if seat == clock.seat:
            note = notify.notification("your_turn", game_id, seat, clock.wait, **common,
                                       text=f"It is your turn in {seating.against(seat)}.")
        elif mover is not None and seat != mover:
            note = notify.notification("opponent_moved", game_id, seat, clock.wait, **common, by=mover,
                                       text=f"{seating.name(mover)} has moved in {seating.against(seat)}; "
                                            f"{seating.name(clock.seat)} is to play.")
        else:
            continue
        notify.send(redis, pid, note, settings)
