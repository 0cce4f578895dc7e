"""What the deadline loop does with each due member of the deadline index (events/due.py):
time a wait out, remind the player before it, see that a bot's move and a game's end get done,
make a wait's announcement whose claimer died before it made it (workers/turns.py), and hand over
the e-mail and webhook of notifications whose sender died first (workers/notify.py).

The timeout judges the wait against the deadline recorded in the game (events/clocks.py), never
against the time the member was due: a member claimed early waits out a remainder of at most
WAIT_OUT seconds, or else is indexed again at the deadline. A turn is never timed out before its
deadline. The timeout goes through GameService.execute as the system, with the version it judged:
if the game moved on meanwhile, it judges again; if the seat already moved, it returns quietly. So
a member dealt with twice (a loop that died after applying it, before releasing it) changes
nothing the second time.

    handle(redis, service, item, settings, now)      # -> when to look at the member again, or None
"""
from __future__ import annotations

import logging
import threading
from typing import Any, Callable

import engine
from events import SYSTEM, ConflictError, GameNotFound, clocks, due, game_clock, pauses, roster

from . import email, endgame, invitations, notify, queues, turns
from events.settings import Settings

log = logging.getLogger(__name__)
WAIT_OUT = 0.3                      # seconds: shorter remainders are waited out, longer indexed again
MAX_JUDGEMENTS = 4
BUSY_RETRY = 0.1                    # seconds before a timeout that lost every race is judged again


def handle(redis: Any, service: Any, item: due.Due, settings: Settings, now: Callable[[], float]) -> float | None:
    """Deal with a due member; when the loop should look at it again (None: it is done)."""
    if item.kind == "finish":
        return _see_finished(redis, service, item.game_id, settings, now())
    if item.kind == "digest":                   # `game_id` is a player's id: their daily e-mail
        return email.digest(redis, service, settings, item.game_id, now())
    if item.kind == "invitation":               # a game not created yet: it waits for invited players
        return invitations.expire(redis, item.game_id, settings, now())
    if item.kind == "outbox":                   # `game_id` is a player's id: notifications owed mail and webhook
        notify.hand_over_owed(redis, item.game_id, settings)
        return None
    if not service.store.exists(item.game_id):
        raise GameNotFound(item.game_id)
    if item.kind == "announce":
        turns.announce_again(redis, service, item.game_id, item.wait, settings)
        return None
    if item.kind == "timeout":
        _, again = apply_timeout(redis, service, item.game_id, item.wait, settings, now)
        return again
    if item.kind == "remind":
        return remind(redis, service, item.game_id, item.wait, settings, now())[1]
    return _see_bot_played(redis, service, item.game_id, item.wait, settings, now())


def apply_timeout(redis: Any, service: Any, game_id: str, wait: int, settings: Settings,
                  now: Callable[[], float], pause: Callable[[float], Any] | None = None) -> tuple[str, float | None]:
    """Time out the wait `wait` of the game if its recorded deadline has passed. Returns what it did
    ('timed_out', 'moved' (the wait is over), 'early', 'untimed' or 'busy') and when to judge again
    (the deadline, when early; soon, when busy; else None)."""
    pause = pause or threading.Event().wait
    for _ in range(MAX_JUDGEMENTS):
        seating = roster.seating_of(redis, game_id)
        clock = game_clock.current(redis, service, game_id, seating.tc)
        if clock.over or clock.seat is None or clock.wait != wait:
            _catch_up(redis, service, game_id, settings)
            return "moved", None
        end = pauses.deadline(redis, clock, seating)
        if end is None:
            return "untimed", None
        left = end - now()
        if left > WAIT_OUT:
            return "early", end
        if left > 0:
            pause(left)
            continue
        try:                            # the service's hook does the timeout's follow-up
            service.execute(game_id, clock.seat, {"type": "timeout"}, expected_version=clock.version, actor=SYSTEM)
        except ConflictError:
            continue                    # something was appended: judge again on the new version
        except engine.RuleError as err:
            if err.code in ("not_timed_out", "game_over"):
                return "moved", None
            raise
        return "timed_out", None
    return "busy", now() + BUSY_RETRY


def remind(redis: Any, service: Any, game_id: str, wait: int, settings: Settings,
           now: float) -> tuple[str, float | None]:
    """'deadline soon' to the player waited for, unless the wait is over; never while the player is
    on vacation (their clock stands still): then it is due again when its time has come."""
    seating = roster.seating_of(redis, game_id)
    clock = game_clock.current(redis, service, game_id, seating.tc)
    if clock.over or clock.wait != wait or clock.seat not in seating.players:
        return "moved", None
    end = pauses.deadline(redis, clock, seating)
    if end is None:
        return "untimed", None
    when = pauses.reminder(redis, clock, seating, settings.reminder_fraction)
    if when is not None and when > now:
        return "later", when
    back = pauses.away(redis, seating, now).get(clock.seat)
    if back is not None:
        return "away", back             # due before the vacation began, not sent yet: told on return
    note = notify.notification("deadline_soon", game_id, clock.seat, wait, version=clock.version,
                               deadline=clocks.format_epoch(end), remaining=round(max(0.0, end - now), 3),
                               text=f"Your time in {seating.against(clock.seat)} runs out in {_duration(end - now)}.")
    notify.send(redis, seating.players[clock.seat], note, settings, now=now)
    return "reminded", None


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def _catch_up(redis: Any, service: Any, game_id: str, settings: Settings) -> None:
    """A member of a wait that is over came due: see that the wait now under way is planned (the
    process that began it may have died before it claimed it, or before it indexed it)."""
    turns.after_change(redis, service, game_id, settings=settings)
    turns.replan(redis, service, game_id, settings)


def _see_bot_played(redis: Any, service: Any, game_id: str, wait: int, settings: Settings, now: float) -> float | None:
    """While the game still waits for the bot in this wait, see that its job is queued or running."""
    seating = roster.seating_of(redis, game_id)
    clock = game_clock.current(redis, service, game_id, seating.tc)
    if clock.over or clock.wait != wait or clock.seat not in seating.bots:
        _catch_up(redis, service, game_id, settings)
        return None
    if not queues.waiting(redis, [queues.job_id("bot", game_id, wait)]):
        turns.enqueue_bot(queues.bot_queue(redis, settings), game_id, wait)
    return now + turns.BOT_GRACE


def _see_finished(redis: Any, service: Any, game_id: str, settings: Settings, now: float) -> float | None:
    """Until the game's end-of-game work is done, see that its job is queued or running."""
    if endgame.done(redis, game_id) or not service.store.exists(game_id):
        return None
    if not queues.waiting(redis, [queues.job_id("finish", game_id)]):
        queues.enqueue(queues.game_queue(redis, settings), "workers.jobs.finish_game", game_id,
                       job_id=queues.job_id("finish", game_id))
    return now + turns.FINISH_RECHECK
