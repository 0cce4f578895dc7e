"""Rules releases: what each deliberate change of the rules decides differently, by release.

Why: a stored game is decided for ever under the rules it was created with (`rules` in its first
event, engine/version.py), so its moves replay, continue and verify as they were played after the
rules change. A deliberate change of a rule is made here, not in place: give `Release` a field whose
default is what every earlier release decides, register a new release that decides otherwise, point
engine/version.py RULES_RELEASE at it, and read the field where the rule is decided through
`release_of(state)`. Old games keep their release; new games take the new one.

The state names its release only when it is not the first (`release`, set from the creation event's
stamp), so every state folded before releases existed is unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .state import State


@dataclass(frozen=True)
class Release:
    """One rules release: its name and the value of every rule a release has changed."""
    name: str
    actions_per_turn: int = 2       # actions of every turn after the first (RULES.md 8.3)


FIRST = Release("1")
RELEASES: dict[str, Release] = {FIRST.name: FIRST}


def release_of(state: State) -> Release:
    """The release a game is decided under."""
    return RELEASES[state.get("release", FIRST.name)]


def release_named(stamp: Mapping[str, str] | None) -> str:
    """The release a creation event's `rules` stamp names (a game older than the stamp: the first)."""
    return stamp.get("engine", FIRST.name) if stamp else FIRST.name
