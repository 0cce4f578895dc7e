"""What an op handler answers when the interpreter runs it.

A handler is called with `answer=None` to learn what it needs (that call never changes the
state); when the player answers, it is called again with the answer, applies it and returns
`None` to be asked again, or `Done`. `Push` opens a nested list of steps (a chosen branch).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union


@dataclass
class Ask:
    kind: str                       # square | move | direction | option | card
    options: list[dict[str, Any]]             # complete commands
    can_skip: bool
    prompt: str
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class Done:
    did: bool


@dataclass
class Push:
    key: list[Any]                       # path below the current step, e.g. ["options", 1, "steps"]
    bind: dict[str, Any]


Outcome = Union[Ask, Done, Push, None]

SKIP = {"type": "skip"}


def is_skip(answer: Any) -> bool:
    return isinstance(answer, dict) and answer.get("type") == "skip"
