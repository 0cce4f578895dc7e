"""Undo and redo within a turn: the commands, when they are allowed, and the events they cause.

    {"type": "undo"}                      one decision back
    {"type": "undo", "to_version": 212}   back to the position that stood at version 212
    {"type": "redo"} / {"type": "redo", "to_version": 215}

Only the seat the game waits for may step, only among the checkpoints engine/checkpoints.py kept
for it (so never across a draw, a shuffle, another seat's decision or the end of the turn). An
undo appends TurnStepUndone (a redo TurnStepRedone) naming the version returned to and the
version left; the fold puts that position back, and nothing in the log is erased.
"""
from __future__ import annotations

from typing import Sequence

from .checkpoints import UNDO_COMMANDS as UNDO_COMMANDS, current_index, versions
from .context import Context
from .errors import RuleError, malformed
from .evolve import Event
from .shapes import Command
from .state import State, active_seat
from .view_shapes import SeenEvent

EVENTS = {"undo": "TurnStepUndone", "redo": "TurnStepRedone"}


def targets(state: State, seat: int, kind: str) -> list[int]:
    """Versions `seat` may step to by `kind` ('undo' or 'redo'), nearest first."""
    record = state.get("undo")
    if not record or record["seat"] != seat or state.get("phase") != "play" or active_seat(state) != seat:
        return []
    here = current_index(record)
    kept = versions(record)
    return kept[:here][::-1] if kind == "undo" else kept[here + 1:]


def commands(state: State, seat: int) -> list[Command]:
    """The undo and redo commands `seat` may send now, each naming the version it returns to."""
    return [{"type": kind, "to_version": v} for kind in UNDO_COMMANDS for v in targets(state, seat, kind)]


def decide(state: State, seat: int, command: Command) -> list[Event]:
    kind = command["type"]
    allowed = targets(state, seat, kind)
    wanted = command.get("to_version")
    if wanted is not None and (not isinstance(wanted, int) or isinstance(wanted, bool)):
        raise malformed("The point to go back to must be given as a whole number, as the undo options list it.")
    code = "no_undo" if kind == "undo" else "no_redo"
    if not allowed:
        raise RuleError(code, _NOTHING[kind], "RULES 15.6 undo within a turn")
    target = allowed[0] if wanted is None else wanted
    if target not in allowed:
        raise RuleError(code, f"You cannot {kind} to that point of your turn; {kind} to one of the points offered "
                        f"({', '.join(map(str, allowed))}).", "RULES 15.6 undo within a turn")
    ctx = Context(state)
    ctx.emit("CommandAccepted", seat=seat, command={k: v for k, v in command.items() if k != "seat"})
    ctx.emit(EVENTS[kind], seat=seat, to_version=target, from_version=state["version"])
    return ctx.events


_NOTHING = {
    "undo": "There is nothing you can take back now: undo works only within your own turn, and never "
            "past a card drawn, a shuffle or another player's decision.",
    "redo": "There is nothing to redo: redo replays a step you have just taken back.",
}


def undone_moves(events: Sequence[tuple[int, Event | SeenEvent]]) -> set[int]:
    """The versions of the commands whose moves stand undone after `events` ((version, event) in
    order): taken back by an undo and not replayed by a redo. The log greys these out."""
    live: list[int] = []            # commands in force, oldest first
    redoable: list[int] = []        # taken back, still replayable by a redo
    gone: set[int] = set()          # taken back for good (a new decision followed)
    for version, event in events:
        if event["type"] == "CommandAccepted" and event["command"].get("type") not in UNDO_COMMANDS:
            gone.update(redoable)
            redoable = []
            live.append(version)
        elif event["type"] == "TurnStepUndone":
            redoable = [v for v in live if v > event["to_version"]] + redoable
            live = [v for v in live if v <= event["to_version"]]
        elif event["type"] == "TurnStepRedone":
            live += [v for v in redoable if v <= event["to_version"]]
            redoable = [v for v in redoable if v > event["to_version"]]
    return gone | set(redoable)
