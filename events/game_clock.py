"""A game's clock now: the fold of events/clocks.py, cached beside the game and brought up to date.

The cache (keys.clock) holds the clock folded up to a version; bringing it up to date folds one
Mark per batch appended since: usually the caller's own batch, whose state it already has (an
`Appended`), else the envelopes since, replayed by the engine. Claiming a wait (keys.wait_claim)
is how the follow-up work (workers/turns.py) does what happens once per wait exactly once.

    clock = game_clock.current(redis, service, game_id, seating.tc)
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from engine.evolve import apply
from engine.state import active_seat

from . import clocks, keys, pauses
from .clocks import Clock, Mark, TimeControl
from .redaction import engine_event
from .roster import seating_of
from .scripts import lua, run_script

_SAVE_AND_CLAIM = lua("save_clock_claim_wait.lua")


def current(redis: Any, service: Any, game_id: str, tc: TimeControl) -> Clock:
    """The game's clock now: the cached fold, brought up to date (and cached again)."""
    return refresh(redis, service, game_id, tc, claim=False)[0]


@dataclass(frozen=True)
class Appended:
    """What a caller knows of the batch it just appended (from its events.CommandResult): its first
    version and recorded time, its last version, and the full state after it."""
    first: int
    version: int
    time: str
    state: dict[str, Any]

    @classmethod
    def of(cls, result: Any) -> "Appended | None":
        if result is None or getattr(result, "state", None) is None or not result.events:
            return None
        return cls(result.events[0]["version"], result.version, result.events[0]["time"], result.state)

    def mark(self) -> Mark:
        return _mark(self.first, self.version, self.time, self.state)


def refresh(redis: Any, service: Any, game_id: str, tc: TimeControl, claim: bool,
            appended: Appended | None = None,
            before_claim: Callable[[Clock, Clock], None] | None = None) -> tuple[Clock, Any]:
    """The clock brought up to date and cached; with `claim`, also claim its wait (once per wait,
    atomically): the answer is then the previous wait and seat, or None when it was claimed before.
    `before_claim(latest, cached)` runs just before the claim (workers/turns.py pledges the wait's
    announcement there, so a crash after the claim cannot lose it)."""
    raw = redis.hget(keys.clock(game_id), "json")
    cached = Clock.from_json(json.loads(raw)) if raw else Clock()
    if appended is not None and cached.version == appended.first - 1:
        new_marks = [appended.mark()]                   # the usual case: no need to read the log
    else:
        new_marks = marks(service, game_id, cached.version, service.store.read(game_id, after=cached.version))
    paused = pauses.paused_for(redis, seating_of(redis, game_id)) if new_marks else None   # nothing to fold: no read
    latest = clocks.fold(cached, new_marks, tc, paused)
    if latest.version == 0 or (not new_marks and not claim):
        return latest, None                         # no such game, or nothing new to keep
    seat = "" if latest.seat is None else str(latest.seat)
    if claim and before_claim is not None:
        before_claim(latest, cached)
    claimed = run_script(redis, _SAVE_AND_CLAIM, [keys.clock(game_id), keys.wait_claim(game_id)],
                         [latest.version, json.dumps(latest.to_json()), latest.wait if claim else "", seat])
    return latest, claimed


def marks(service: Any, game_id: str, after: int, envelopes: list[Any]) -> list[Mark]:
    """One Mark per batch of `envelopes` (those after version `after`), replayed by the engine."""
    batches: list[list[Any]] = []
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
        out.append(_mark(batch[0].version, batch[-1].version, batch[0].time, state))
    return out


def _mark(first: int, version: int, time: str, state: dict[str, Any]) -> Mark:
    """The Mark of a batch (versions `first`..`version`, recorded at `time`) that left `state`."""
    turn = state.get("turn")
    return Mark(first, version, time, active_seat(state), turn["number"] if turn else 0, len(state["seats"]),
                state.get("phase") == "over")
