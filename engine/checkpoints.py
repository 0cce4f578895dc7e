"""Checkpoints of the current turn, kept in the state so that undo and redo are a pure fold.

Board Game Arena snapshots every decision inside a turn and lets the active player step back and
forth until the turn ends (RULES.md 15.6). Here the fold does the snapshotting: before each
command of the seat on turn, the position it was decided on is kept in `state["undo"]`; an undo
or redo event puts a kept position back. Nothing random or hidden may be crossed, so anything the
player could not know before the step (a shuffle, a card drawn, a task dealt, an automatic move,
another seat's decision, the end of the turn) drops every checkpoint.

Layout, present only while there is something to return to:

    undo = {"seat": s, "steps": [{"version": v, "state": position}, ...], "at": i | None}

`steps` are the positions the seat decided on, oldest first; `version` is the store version at
which that position stood. `at` is None while the game is at its live head; after an undo it is
the index of the current position, and the last step is the head the undo left (for redo).

`state["version"]` counts the events folded so far (the store's version): `apply` keeps it while
the game is in play; a finished game's state carries none, so it is what it was before undo
existed (records exported then still verify against their final state).
"""
from __future__ import annotations

from typing import Any

from .state import State, clone

UNDO_COMMANDS = ("undo", "redo")
META_KEYS = ("undo", "version")

# Anything after which the seat knows what it could not know before, or is no longer deciding.
BARRIERS = frozenset({
    "GameCreated", "PositionSet", "TurnStarted", "TurnEnded", "DeckShuffled", "CardsDrawn", "SchoolDrawn",
    "TasksDealt", "TurnTimedOut", "SeatAbandoned", "PlayerResigned", "LegendsPassed", "GameEnded",
})


def position(state: State) -> State:
    """The state without the bookkeeping of undo: what a checkpoint keeps."""
    return clone({k: v for k, v in state.items() if k not in META_KEYS})


def follow(state: State, event: dict[str, Any], version: int) -> None:
    """Called by `apply` after each event: count it, keep or drop checkpoints."""
    kind = event["type"]
    if kind == "GameEnded":
        state.pop("version", None)
    else:
        state["version"] = version
    if kind in BARRIERS:
        state.pop("undo", None)
    elif kind == "CommandAccepted":
        _command(state, event, version)


def _command(state: State, event: dict[str, Any], version: int) -> None:
    if event["command"].get("type") in UNDO_COMMANDS:
        return
    if event.get("auto") or state.get("phase") != "play" or not state.get("turn"):
        state.pop("undo", None)
        return
    record = state.get("undo")
    if record is None or record["seat"] != event["seat"]:
        record = {"seat": event["seat"], "steps": [], "at": None}
    elif record["at"] is not None:                  # a new decision after an undo: the redo branch goes
        record["steps"] = record["steps"][:record["at"]]
        record["at"] = None
    record["steps"].append({"version": version - 1, "state": position(state)})
    state["undo"] = record


def current_index(record: dict[str, Any]) -> int:
    """Where the game stands among the steps (len(steps) at the live head)."""
    return len(record["steps"]) if record["at"] is None else record["at"]


def restore(state: State, to_version: int, from_version: int) -> None:
    """Put back the kept position that stood at `to_version` (reducer of undo and redo)."""
    record = state["undo"]
    if record["at"] is None:
        record["steps"].append({"version": from_version, "state": position(state)})
    index = next(i for i, step in enumerate(record["steps"]) if step["version"] == to_version)
    kept = {"undo": record, "version": state["version"]}
    state.clear()
    state.update(clone(record["steps"][index]["state"]))
    state.update(kept)
    if index == len(record["steps"]) - 1:           # back at the head: live again
        record["steps"].pop()
        record["at"] = None
    else:
        record["at"] = index
