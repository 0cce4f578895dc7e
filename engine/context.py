"""The scratch space of one `decide` call: a private copy of the state and the events so far.

Every fact is emitted through `emit`, which applies it to the copy at once, so later rule checks
in the same call see the board as it now is, and replaying the emitted events reproduces the copy
exactly. After each fact the context's watchers run: rules that look at every fact, given by the
caller (engine/watchers.py), such as the Nethervoid mark leaving a piece that lost it.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence, cast

from .evolve import Event, apply
from .state import State, clone

Watcher = Callable[["Context", Event], None]
PLAIN = (str, int, float, type(None))          # immutable: an event may share them with the state


class Context:
    def __init__(self, state: State, watchers: Sequence[Watcher] = (), undoable: bool = True) -> None:
        self.state = clone(state)
        self.events: list[Event] = []
        self.watchers = tuple(watchers)
        self.undoable = undoable            # False: the scratch state keeps no undo checkpoints (search)
        if not undoable:
            self.state.pop("undo", None)

    @classmethod
    def view(cls, state: State) -> "Context":
        """A context over the state itself, for questions that change nothing (legal commands)."""
        ctx = cls.__new__(cls)
        ctx.state = state
        ctx.events = []
        ctx.watchers = ()
        ctx.undoable = True
        return ctx

    def emit(self, type_: str, **payload: Any) -> Event:
        """Record the fact `type_` (an event of engine/shapes.py, whose shape tests/engine/test_shapes.py
        checks for every event the corpus and random games emit) and apply it to the scratch state."""
        # no event shares a list with the scratch state: its lists and dicts are copied (its strings
        # and numbers need not be, and most events hold nothing else, so search copies little)
        event = cast("Event", {"type": type_, **{k: v if isinstance(v, PLAIN) else clone(v) for k, v in payload.items()}})
        apply(self.state, event, self.undoable)
        self.events.append(event)
        for watch in self.watchers:
            watch(self, event)
        return event

    def rng(self) -> random.Random:
        """A generator seeded by the game seed and how many shuffles came before: no global state."""
        rng = self.state["rng"]
        return random.Random(f"{rng['seed']}:{rng['draws']}")

    def new_piece_id(self) -> int:
        return self.state["next_piece"]
