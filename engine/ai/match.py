"""A whole game between players, each seeing only its own seat: what bench/bots.py and the
`arena bots` command run. Pure: the players are callables, and the seeds come from the caller.

A player is called with the true state, its seat's knowledge, its legal commands and a seed; the
levels (engine/ai) read only the knowledge, while the baselines measured against (random play,
the old greedy bot) read the state, as they always did.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from ..decide import decide
from ..evolve import replay
from ..legal import legal_commands
from ..setup import new_game
from ..shapes import Command, GameEvent
from ..state import State, active_seat, color_of
from ..views import redact
from . import play
from .knowledge import Knowledge

Player = Callable[[State, Knowledge, list[Command], str], Command]
MAX_DECISIONS = 3000


@dataclass
class Played:
    events: list[GameEvent]
    state: State
    illegal: int = 0
    decisions: Counter[int] = field(default_factory=Counter)     # by seat
    summons: Counter[int] = field(default_factory=Counter)
    legends: Counter[int] = field(default_factory=Counter)
    flares: Counter[int] = field(default_factory=Counter)
    flare_chances: Counter[int] = field(default_factory=Counter)     # decisions where a flare was open

    def winning_sides(self) -> set[int]:
        """The colours (two-sided) or seats (melee) that won; empty when the game did not end."""
        result = self.state["result"] if self.state["phase"] == "over" else None
        if not result:
            return set()
        if self.state["form"] == "melee":
            return set(result["winners"])
        return {color_of(self.state, s) for s in result["winners"]}


def level_player(level: int) -> Player:
    def player(state: State, knowledge: Knowledge, options: list[Command], seed: str) -> Command:
        return play(knowledge, options, level, seed)
    return player


def play_game(options: dict[str, object], players: list[Player], seed: str, limit: int = MAX_DECISIONS) -> Played:
    """Play the game `options` describes with one player per seat, for at most `limit` decisions;
    each decision's seed is made from `seed`, the seat and the game's version."""
    events = new_game(options)
    state = replay(events)
    seats = len(state["seats"])
    knowledge = [Knowledge(i) for i in range(seats)]
    told = [0] * seats
    out = Played(events, state)
    while state["phase"] != "over" and sum(out.decisions.values()) < limit:
        seat = active_seat(state)
        if seat is None:
            break
        knowledge[seat].observe(redact(e, seat) for e in events[told[seat]:])
        told[seat] = len(events)
        offered = legal_commands(state, seat)
        command = players[seat](state, knowledge[seat], offered, f"{seed}:{seat}:{len(events)}")
        out.decisions[seat] += 1
        out.flare_chances[seat] += any(c["type"] == "flare" for c in offered)
        try:
            new = decide(state, {**command, "seat": seat})
        except Exception:          # noqa: BLE001 - an illegal command is counted, then the game is abandoned
            out.illegal += 1
            break
        events.extend(new)
        state = replay(new, state)
        for event in new:
            if event["type"] == "BeingSummoned":
                out.summons[event["seat"]] += 1
                out.legends[event["seat"]] += event["rank"] == "legendary"
            elif event["type"] == "FlareInvoked":
                out.flares[event["seat"]] += 1
    out.state = state
    return out
