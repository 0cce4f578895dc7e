"""The scratch space of one `decide` call: a private copy of the state and the events so far.

Every fact is emitted through `emit`, which applies it to the copy at once, so later rule checks
in the same call see the board as it now is, and replaying the emitted events reproduces the copy
exactly. After each fact, `gateway.follow` takes the Nethervoid mark off a piece that lost it.
"""
from __future__ import annotations

import random
from typing import Any

from . import gateway
from .evolve import Event, apply
from .state import State, clone


class Context:
    def __init__(self, state: State) -> None:
        self.state = clone(state)
        self.events: list[Event] = []

    @classmethod
    def view(cls, state: State) -> "Context":
        """A context over the state itself, for questions that change nothing (legal commands)."""
        ctx = cls.__new__(cls)
        ctx.state = state
        ctx.events = []
        return ctx

    def emit(self, type_: str, **payload: Any) -> Event:
        event = clone({"type": type_, **payload})     # no event shares a list with the scratch state
        apply(self.state, event)
        self.events.append(event)
        gateway.follow(self, event)
        return event

    def rng(self) -> random.Random:
        """A generator seeded by the game seed and how many shuffles came before: no global state."""
        rng = self.state["rng"]
        return random.Random(f"{rng['seed']}:{rng['draws']}")

    def new_piece_id(self) -> int:
        return self.state["next_piece"]
