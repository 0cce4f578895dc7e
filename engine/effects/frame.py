"""The effect being resolved: where in the card's steps we are, and what earlier steps did.

A frame is plain data kept in `state["effect"]` (so it survives in snapshots and replays); the
`Resolution` object wraps it with the context of one `decide` call and answers the questions op
handlers ask: where is the being now, which pieces did step s1 touch, which squares are marked.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping, cast

from ..card_steps import Part, Step
from ..cards import CARDS
from ..context import Context
from ..state import State, clone, color_of, square_of
from .outcomes import Outcome

Frame = dict[str, Any]
RESULT_KEYS = ("pieces", "squares", "colors", "ranks", "destroyed", "dir", "vacated", "ranks_after")


def new_frame(seat: int, card: str, parts: list[str], **extra: Any) -> Frame:
    """A frame about to run `parts` ('steps', 'upper', 'lower', ...) of `card` for `seat`."""
    frame = {
        "seat": seat, "card": card, "parts": parts[1:], "part": parts[0],
        "stack": [{"path": [], "i": 0, "prog": None, "bind": {}}],
        "results": {}, "destroyed": 0, "being": None, "origin": None, "marked": [], "pattern": [],
        "flags": {}, "stage": "steps",
    }
    frame.update(extra)
    return frame


def open_block(frame: Frame, key: list[Any], bind: dict[str, Any]) -> None:
    """Enter the steps nested under the current step (`key`, e.g. ["options", 1, "steps"])."""
    top = frame["stack"][-1]
    frame["stack"].append({"path": top["path"] + [top["i"]] + key, "i": 0, "prog": None, "bind": bind})


def current_step(frame: Frame) -> Step | None:
    top = frame["stack"][-1]
    steps = steps_at(frame, top["path"])
    return steps[top["i"]] if top["i"] < len(steps) else None


def finish_step(res: "Resolution", step: Step, did: bool) -> None:
    """Record what the step did (for later steps that refer to it) and move past it."""
    prog = res.top["prog"] or {}
    outcome = {k: prog[k] for k in RESULT_KEYS if k in prog}
    if isinstance(outcome.get("dir"), list):
        outcome["dir"] = outcome["dir"][-1]
    res.record(step, did=did, **outcome)
    res.top["prog"] = None
    res.top["i"] += 1


def root_steps(frame: Frame) -> tuple[Step, ...]:
    card, part = frame["card"], frame["part"]
    part, _, other = part.partition("@")         # "warp@<card>": another card's warp, copied (Etherweave)
    card = other or card
    if card in CARDS.flares:
        return cast(Part, getattr(CARDS.flares[card], part)).steps
    being = CARDS.beings[card]
    return being.steps if part == "steps" else cast(Part, getattr(being, part)).steps


def steps_at(frame: Frame, path: list[Any]) -> tuple[Step, ...]:
    """The steps a stack entry walks: the root steps, or options/steps nested in them (a path like
    [2, "options", 1, "steps"]: step 2, its option 1, that option's steps)."""
    steps: Any = root_steps(frame)
    for key in path:
        steps = getattr(steps, key) if isinstance(key, str) else steps[key]
    return cast("tuple[Step, ...]", steps)


class Resolution:
    """One frame being advanced inside one `decide` call (or inspected by `legal_commands`), with
    the op table (effects/registry.py) its steps run on."""

    def __init__(self, ctx: Context, frame: Frame, ops: Mapping[str, Callable[..., Outcome]]) -> None:
        self.ctx = ctx
        self.frame = frame
        self.ops = ops

    def run(self, step: Step, prog: dict[str, Any], answer: dict[str, Any] | None) -> Outcome:
        """Run the op of `step` as it stands: what it asks (answer None) or what the answer does."""
        return self.ops[step.op](self, step, prog, answer)

    def trial(self) -> "Resolution":
        """A throwaway copy of the state and frame, to try an answer on without changing anything."""
        ctx = Context(self.ctx.state, self.ctx.watchers, self.ctx.undoable)
        frame = clone(self.frame)
        ctx.state["effect"] = frame
        return Resolution(ctx, frame, self.ops)

    @property
    def state(self) -> State:
        return self.ctx.state

    @property
    def seat(self) -> int:
        return cast("int", self.frame["seat"])

    @property
    def color(self) -> int:
        return color_of(self.ctx.state, self.frame["seat"])

    @property
    def top(self) -> dict[str, Any]:
        return cast("dict[str, Any]", self.frame["stack"][-1])

    def being_square(self) -> str | None:
        pid = self.frame["being"]
        return square_of(self.state, pid) if pid is not None else None

    def bind(self, key: str) -> Any:
        for entry in reversed(self.frame["stack"]):
            if key in entry["bind"]:
                return entry["bind"][key]
        return None

    @contextmanager
    def binding(self, bind: dict[str, Any]) -> Iterator[None]:
        """Look at the board as if inside a nested block bound to `bind` (for previews)."""
        self.frame["stack"].append({"path": [], "i": 0, "prog": None, "bind": bind})
        try:
            yield
        finally:
            self.frame["stack"].pop()

    def result(self, step_id: str) -> dict[str, Any]:
        return cast("dict[str, Any]", self.frame["results"].get(step_id, {}))

    def record(self, step: Step, **outcome: Any) -> None:
        if step.id is not None:
            self.frame["results"][step.id] = outcome

    def marked(self, kind: str | None = None) -> list[str]:
        return [sq for sq, k in self.frame["marked"] if kind is None or k == kind]

    def pattern_squares(self) -> list[str]:
        out = []
        for pid in self.frame["pattern"]:
            sq = square_of(self.state, pid)
            if sq:
                out.append(sq)
        return out
