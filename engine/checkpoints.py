"""Checkpoints of the current turn, kept in the state so that undo and redo are a pure fold.

Board Game Arena snapshots every decision inside a turn and lets the active player step back and
forth until the turn ends (RULES.md 15.6). Here the fold does the snapshotting: before each
command of the seat on turn, the position it was decided on is kept in `state["undo"]`; an undo
or redo event puts a kept position back. Nothing random or hidden may be crossed, so anything the
player could not know before the step (a shuffle, a card drawn, a task dealt, an automatic move,
another seat's decision, the end of the turn) drops every checkpoint.

Layout, present only while there is something to return to:

    undo = {"seat": s, "anchor": packed position, "steps": [{"version": v, "events": [...]}, ...],
            "at": i | None, "head": v (only while at is not None)}

`anchor` is a copy of the position the seat's first kept decision was taken on: the fold pays for
one copy per turn, not one per command, and `replay` of a whole log only for the turns it can still
step back into (`usable`: the open turn at the end, and turns where someone undid). Step k was decided on the position that stood at `steps[k]["version"]`,
which is the anchor with the events of the steps before it; each step keeps the events it caused
(references to the folded events, not copies). `at` is None at the live head; after an undo it is
the step the game stands at, and `head` the version of the position the first undo left.

`state["version"]` counts the events folded so far (the store's version): `apply` keeps it while
the game is in play; a finished game's state carries none, so it is what it was before undo
existed (records exported then still verify against their final state).
"""
from __future__ import annotations

from typing import Callable, Sequence, cast

from .shapes import CommandAccepted, GameEvent, UndoRecord
from .state import State, clone, reset
from .vocabulary import STEP_COMMANDS

UNDO_COMMANDS = STEP_COMMANDS                   # the commands that step, defined once in engine/vocabulary.py

META_KEYS = ("undo", "version")

# Anything after which the seat knows what it could not know before, or is no longer deciding.
BARRIERS = frozenset({
    "GameCreated", "PositionSet", "TurnStarted", "TurnEnded", "DeckShuffled", "CardsDrawn", "SchoolDrawn",
    "TasksDealt", "TurnTimedOut", "SeatAbandoned", "PlayerResigned", "LegendsPassed", "GameEnded",
})


STEP_EVENTS = frozenset({"TurnStepUndone", "TurnStepRedone"})

Reducers = dict[str, Callable[[State, GameEvent], None]]


def position(state: State) -> State:
    """The state without the bookkeeping of undo, copied: what the anchor keeps."""
    return cast("State", clone({k: v for k, v in state.items() if k not in META_KEYS}))


def count(state: State, event: GameEvent, version: int) -> None:
    """Keep `state["version"]` (a finished game's state carries none)."""
    if event["type"] == "GameEnded":
        state.pop("version", None)
    else:
        state["version"] = version


def follow(state: State, event: GameEvent, version: int) -> None:
    """Called by the fold (engine/evolve.py: `apply` and `replay`) after each event: count it, keep or drop checkpoints."""
    count(state, event, version)
    kind = event["type"]
    if kind in BARRIERS:
        state.pop("undo", None)
        return
    if event["type"] == "CommandAccepted":
        stepping = event["command"].get("type") in UNDO_COMMANDS
        if not stepping:
            _command(state, event, version)
    else:
        stepping = kind in STEP_EVENTS
    record = state.get("undo")
    if record is not None and record["at"] is None and not stepping:
        record["steps"][-1]["events"].append(event)


def _command(state: State, event: CommandAccepted, version: int) -> None:
    if event.get("auto") or state.get("phase") != "play" or not state.get("turn"):
        state.pop("undo", None)
        return
    record = state.get("undo")
    if record is None or record["seat"] != event["seat"]:
        record = {"seat": event["seat"], "anchor": position(state), "steps": [], "at": None}
    elif record["at"] is not None:                  # a new decision after an undo: the redo branch goes
        record["steps"] = record["steps"][:record["at"]]
        record["at"] = None
        del record["head"]
    record["steps"].append({"version": version - 1, "events": []})
    state["undo"] = record


def usable(events: Sequence[GameEvent]) -> list[bool]:
    """For each event of a log folded in one go, whether the checkpoints it keeps can still be
    used: a barrier drops every checkpoint, so what a turn kept before a later barrier (with no
    undo or redo in between) is dropped unused. `replay` follows only the events marked True and
    merely counts the others, which gives the same state: the fold pays for undo only in the turn
    still open at the end of the log and in turns where someone stepped back."""
    marks = [True] * len(events)
    keep = True
    for i in range(len(events) - 1, -1, -1):
        kind = events[i]["type"]
        if kind in BARRIERS:
            keep = False
        else:
            marks[i] = keep
            if kind in STEP_EVENTS:
                keep = True
    return marks


def unkept(kinds: list[str]) -> int:
    """How many events at the start of a log folded in one go (given by their types) keep
    nothing `usable` would let them keep: those up to the last barrier ahead of the first undo
    or redo. They are either barriers or marked False."""
    first_step = min((kinds.index(kind) for kind in STEP_EVENTS if kind in kinds), default=len(kinds))
    for i in range(first_step - 1, -1, -1):
        if kinds[i] in BARRIERS:
            return i + 1
    return 0


def versions(record: UndoRecord) -> list[int]:
    """The versions of the positions kept, oldest first (the head last, once undone)."""
    kept = [step["version"] for step in record["steps"]]
    return kept + [record["head"]] if record["at"] is not None else kept


def current_index(record: UndoRecord) -> int:
    """Where the game stands among `versions` (len(steps) at the live head)."""
    return len(record["steps"]) if record["at"] is None else int(record["at"])


def restore(state: State, to_version: int, from_version: int, reducers: Reducers) -> None:
    """Put back the position that stood at `to_version`: the anchor and the steps before it,
    folded again (reducer of undo and redo)."""
    record = state["undo"]
    if record["at"] is None:
        record["head"] = from_version
    index = versions(record).index(to_version)
    version = state["version"]
    reset(state, clone(record["anchor"]))
    for step in record["steps"][:index]:
        for event in step["events"]:
            reducers[event["type"]](state, event)
    state["undo"], state["version"] = record, version
    if index == len(record["steps"]):               # back at the head: live again
        record["at"] = None
        del record["head"]
    else:
        record["at"] = index
