"""The follow-up hook of the GameService: given once by the web app (server/context.py) and once
by the workers (workers/runtime.py), run after every change to a game (events/service.py).

It lists a running game among the games to watch, plays the conditional reply a seat queued for
the turn that just came to it (events/conditionals.py), and does what happens once per wait
(workers/turns.py: timeouts, reminders, bots, notifications, the end of the game), then writes how
the game stands into its players' desks (events/desk.py). It raises on
failure: the change's follow-up then stays owed and a deadline loop runs it again
(events/followup.py). This module is what the HTTP layer imports of the workers: scheduling only.

    service = GameService(redis, follow_up=followup.hook)     # the web app's (server/context.py)
    service = followup.service(redis)                          # the workers': one per connection
"""
from __future__ import annotations

import threading
from typing import Any

from events import GameService, conditionals, desk, presence, roster
from events.clocks import parse_time

from . import notify, runtime, turns


_services: dict[int, tuple[Any, GameService]] = {}
_lock = threading.Lock()


def service(redis: Any) -> GameService:
    """The workers' GameService on `redis`, one per connection (its cache of latest states is per
    process, so it serves every job), with the hook."""
    with _lock:
        known = _services.get(id(redis))
        if known is None or known[0] is not redis:
            known = (redis, GameService(redis, follow_up=hook))
            _services[id(redis)] = known
        return known[1]


def hook(service: Any, game_id: str, result: Any) -> None:
    """After a change to `game_id` (`result`: its events.CommandResult, None after a creation or
    when a deadline loop catches up)."""
    redis = service.store.redis
    fresh = result is not None and result.state is not None and bool(result.events)
    loaded = None if fresh else service.load(game_id)
    state = result.state if fresh else loaded.state
    if state.get("phase") != "over":
        presence.mark_live(redis, game_id)          # the end-of-game job takes a finished game off
    told = conditionals.fire(service, game_id, state, None if result is None else result.replies)
    if told:
        tell(redis, game_id, told)
    if any(t.appended for t in told):
        return                                      # a reply was played: its own append's follow-up ran
    clock = turns.after_change(redis, service, game_id, result, settings=runtime.settings())
    if fresh:
        first = result.events[0]
        actor = first.get("actor")
        desk.index(redis, service, game_id, state, result.version, parse_time(first["time"]), clock,
                   actor if isinstance(actor, int) else None)
    else:
        desk.index(redis, service, game_id, state, loaded.version, clock=clock)


def tell(redis: Any, game_id: str, told: list[conditionals.Told]) -> None:
    """Tell each registered player what became of its conditional replies (once: by the version)."""
    seating = roster.seating_of(redis, game_id)
    for t in told:
        player = seating.players.get(t.seat)
        if player is None:
            continue
        played = t.outcome["played"]
        text = (f"Your conditional reply {played + 1} was played for you in {seating.against(t.seat)}." if played is not None
                else f"None of your conditional replies could be played in {seating.against(t.seat)}: see why on its page.")
        notify.send(redis, player, notify.notification("conditional_reply", game_id, t.seat, t.outcome["version"] or 0,
                                                       played=played, text=text))
