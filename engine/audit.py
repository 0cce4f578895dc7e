"""Re-deciding a game: do the rules it was created under give, for every recorded move, exactly the recorded events?

Why: a deploy must never change what a stored game means. The recorded-games corpus
(tests/data/corpus) and `arena check-rules` run every stored game through `redecide`, which
rebuilds the creation events from the game's options (when it has them), then decides every move's
command again on the state before it and compares event by event. The rules stamp a game was
created with (`rules` in its first event) names the rules, not their outcome, and is left out of
the comparison.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Mapping, cast

from .decide import decide
from .errors import RuleError
from .evolve import Event, apply
from .moves import move_spans
from .position import from_position
from .setup import new_game
from .shapes import Command, CommandAccepted, GameCreated
from .releases import release_named
from .state import State
from .version import reproducible

STAMP = "rules"


@dataclass(frozen=True)
class Divergence:
    """The first event (0-based index) the rules no longer give, and why."""
    index: int
    reason: str


def creation_options(created: GameCreated) -> dict[str, Any]:
    """The options a GameCreated event was made from (what `new_game` needs to make it again)."""
    return {"form": created["form"], "seats": [{"school": s["school"]} for s in created["seats"]],
            "seed": created["seed"], "teams": created["teams"], **created.get("options", {})}


def without_stamp(event: Mapping[str, object]) -> Mapping[str, object]:
    return {k: v for k, v in event.items() if k != STAMP} if STAMP in event else event


def _same(want: Event, got: Event) -> bool:
    return want == got or without_stamp(want) == without_stamp(got)


def _first_difference(expected: list[Event], recorded: list[Event], offset: int, what: str) -> Divergence | None:
    for i, (want, got) in enumerate(zip(expected, recorded)):
        if not _same(want, got):
            return Divergence(offset + i, f"{what}: {got['type']} is now {want['type']} {_diff(want, got)}")
    if len(expected) != len(recorded):
        at = offset + min(len(expected), len(recorded))
        return Divergence(at, f"{what}: {len(recorded)} events recorded, {len(expected)} now")
    return None


def _diff(want: Mapping[str, object], got: Mapping[str, object]) -> str:
    keys = sorted(k for k in want.keys() | got.keys() if k != STAMP and want.get(k) != got.get(k))
    return f"(differs in {', '.join(keys)})" if keys else ""


def _moves_only(events: list[Event]) -> list[Event]:
    """The recorded events a move's command gave: a seat's options (engine/confirm.py) are set
    between moves, by no command of the game, and are folded in as recorded."""
    return [e for e in events if e["type"] != "SeatOptionsSet"]


def foreign_rules(events: list[Event]) -> dict[str, str] | None:
    """The rules stamp of a game this engine cannot decide again (a release it does not hold, or
    other card data), so its record can be told apart from a forged one; None when it can."""
    stamp = rules_of(events[0]) if events else None
    return None if reproducible(stamp) else dict(stamp or {})


def rules_of(first: Event) -> dict[str, str] | None:
    """The rules stamp of a game's first event (None: a game older than the stamp)."""
    return cast("dict[str, str] | None", first.get(STAMP))


def redecide(events: list[Event], position: dict[str, Any] | None = None) -> Divergence | None:
    """None when the rules give every recorded event again, else the first that differs. The game
    is decided under the release it was created with (engine/releases.py): its creation events are
    made again under it, and its state names it for every move after.

    `position`: the description a PositionSet game was made from, when known (else its creation
    event is taken as given)."""
    if not events:
        return Divergence(0, "no events")
    spans = move_spans(events)
    creation = events[:spans[0][0]] if spans else events
    expected = _creation(creation[0], position)
    if isinstance(expected, Divergence):
        return expected
    if expected is not None:
        found = _first_difference(expected, _moves_only(creation), 0, "creation")
        if found:
            return found
    state = cast("State", {})                   # filled by the creation events
    for event in creation:
        apply(state, event)
    for begin, end in spans:
        accepted = cast("CommandAccepted", events[begin])     # every move begins with one (move_spans)
        try:
            command: Command = {"seat": accepted["seat"], **accepted["command"]}
            expected = decide(state, command)
        except RuleError as exc:
            return Divergence(begin, f"the rules now refuse this move: {exc.code}: {exc.message}")
        except (KeyError, TypeError, ValueError) as exc:       # a malformed command (an imported record)
            return Divergence(begin, f"the rules cannot read this move: {exc!r}")
        found = _first_difference(expected, _moves_only(events[begin:end]), begin, f"move at event {begin + 1}")
        if found:
            return found
        for event in events[begin:end]:
            apply(state, event)
    return None


def _creation(first: Event, position: dict[str, Any] | None) -> list[Event] | Divergence | None:
    """The creation events today's engine makes for this game; None when they cannot be rebuilt."""
    release = release_named(rules_of(first))
    try:
        if first["type"] == "GameCreated":
            return new_game(creation_options(first), release)
        if first["type"] == "PositionSet" and position is not None:
            return from_position(position, release)
    except RuleError as exc:
        return Divergence(0, f"the game's options are now refused: {exc.code}: {exc.message}")
    return None if first["type"] == "PositionSet" else Divergence(0, "a game starts with GameCreated or PositionSet")



def state_digest(state: State) -> str:
    """A hash of a whole state, to prove a replay ends where a recording ended."""
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
