"""Pending decisions as one protocol: the frame a waiting decision is stored as, the registry of
its kinds, and the one way to raise, hand over or close a decision.

Every choice a player makes inside a command (a piece to pick up, an orientation, an effect's
target, a school to draft...) is a pending decision: `state["pending"]` (a `Pending`, its fields
documented in engine/shapes.py) says who answers and what is asked, `state["effect"]` keeps the
frame of the rule waiting for the answer.
Both are written only by the ResolutionAdvanced events this module emits, so replay needs no rule.

Each kind is declared once, with `decision(...)`, in the module of the rule that raises it: its
options (complete answer commands, recomputed from the state, never stored, so the listed and
the accepted answers come from one function) and its answer (what the chosen option does).
engine/decisions.py routes `legal_commands` and `decide` through the registry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from .context import Context
from .shapes import Command, Pending as Pending
from .state import State, current_pending

class Options(NamedTuple):
    """The answers a pending decision accepts now."""

    commands: list[Command]         # complete commands, e.g. {"type": "choose", "square": "e5"}
    can_skip: bool = False


@dataclass(frozen=True)
class Decision:
    """One kind of pending decision, declared beside the rule that raises it."""

    kind: str
    options: Callable[[State], Options]
    answer: Callable[[Context, Command], None]    # apply a listed answer (without "seat")
    ask: str | None = None          # the fixed `ask` word; None when each raise names it (effects)
    prompt: str | None = None       # the fixed prompt; None when each raise words it
    shows_card: bool = False        # the frame's card is shown as `card`


DECISIONS: dict[str, Decision] = {}


def decision(kind: str, options: Callable[[State], Options], answer: Callable[[Context, Command], None], *,
             ask: str | None = None, prompt: str | None = None, shows_card: bool = False) -> Decision:
    """Declare and register a kind of pending decision; a second declaration of a kind is refused."""
    if kind in DECISIONS:
        raise ValueError(f"the decision kind {kind!r} is declared twice")
    DECISIONS[kind] = Decision(kind, options, answer, ask, prompt, shows_card)
    return DECISIONS[kind]


def raise_decision(ctx: Context, decision: Decision, effect: dict[str, Any], seat: int, *,
                   ask: str | None = None, prompt: str | None = None, can_skip: bool = False,
                   info: dict[str, Any] | None = None) -> None:
    """The one constructor of a pending decision: `seat` must answer `decision`, the rule waits in
    `effect`. `ask` and `prompt` are given only for kinds that do not fix them; `info` only by effects."""
    if DECISIONS.get(decision.kind) is not decision:
        raise ValueError(f"the decision kind {decision.kind!r} is not registered")
    asked, worded = ask or decision.ask, prompt or decision.prompt
    if asked is None or worded is None:
        raise ValueError(f"a {decision.kind!r} decision needs an ask and a prompt")
    frame: Pending = {"seat": seat, "kind": decision.kind, "ask": asked, "prompt": worded, "can_skip": can_skip}
    if decision.shows_card:
        frame["card"] = effect["card"]
    if info is not None:
        frame["info"] = info
    ctx.emit("ResolutionAdvanced", effect=effect, pending=frame)


def hand_over(ctx: Context, seat: int) -> None:
    """The open decision, unchanged, now answered by `seat` (control passed to a teammate)."""
    ctx.emit("ResolutionAdvanced", effect=ctx.state["effect"], pending={**current_pending(ctx.state), "seat": seat})


def close(ctx: Context) -> None:
    """No decision waits and no rule frame stands any more (the answer is taken, the effect ended)."""
    ctx.emit("ResolutionAdvanced", effect=None, pending=None)
