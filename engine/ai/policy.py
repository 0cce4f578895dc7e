"""The move policy: one command for a seat, chosen by trying the promising ones and judging the
position each leaves. Search builds whole turns with it; alone it is the cheaper levels' player.

Every summon, flare, answer and claim is tried (sampled down to `width` when there are more); of
the places, the squares next to the seat's own pieces are tried first, and the position after a
place also counts how many beings in hand could then be summoned, since a place is worth what it
makes possible. A discard is tried only when nothing else is open. `noise` makes the natural
mistakes of a weaker player: a random pick among the tried commands with that probability, and
a blur on the judged values otherwise.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..decide import advance
from ..errors import RuleError
from ..geometry import CENTRE, SQUARES, distance
from ..legal import legal_commands, summons
from ..shapes import Command
from ..state import State, active_seat, color_of, current_turn
from .evaluate import DEFAULT, Weights, chance

SKIPPED = frozenset({"resign", "undo", "redo", "pass_control", "timeout"})
NEIGHBOURS: dict[str, tuple[str, ...]] = {sq: tuple(o for o in SQUARES if 0 < distance(sq, o) <= 1) for sq in SQUARES}
CENTRALITY: dict[str, float] = {sq: 0.4 * (4 - distance(sq, CENTRE)) for sq in SQUARES}   # room to build patterns
READY = 0.04                        # chance added per distinct being in hand that could be summoned next


@dataclass
class Work:
    """Positions judged so far (each a command tried on a copy): what a search's cost is counted in,
    beside its simulations, so the dearest decisions are capped by work, never by the clock."""
    steps: int = 0


@dataclass(frozen=True)
class Style:
    """How the policy plays: how many commands of a kind it tries, how many places, how it errs."""

    width: int = 10
    places: int = 6
    noise: float = 0.0              # probability of a random pick among the tried commands
    blur: float = 0.0               # spread added to each judged value
    ready: bool = True              # count the beings a place makes summonable (costly: a pattern search)
    weights: Weights = DEFAULT


def playable(state: State, seat: int) -> list[Command]:
    """The seat's legal commands a bot considers (never resigning, stepping back or passing control).
    The discards, many and tried only when no place or summon is open, are listed only then."""
    listed = [c for c in legal_commands(state, seat, discards=False) if c["type"] not in SKIPPED]
    if any(c["type"] in ("place", "summon") for c in listed):
        return listed
    return listed + [c for c in legal_commands(state, seat) if c["type"] == "discard"]


def _place_order(state: State, seat: int, places: list[Command], rng: random.Random) -> list[Command]:
    """Places best first by a cheap look: own pieces around the square, then enemy ones, then the centre."""
    mine = color_of(state, seat)
    own: dict[str, int] = {}
    other: dict[str, int] = {}
    for square, (_, color, _) in state["board"].items():        # one pass over the pieces, not the squares
        near = own if color == mine else other
        for n in NEIGHBOURS[square]:
            near[n] = near.get(n, 0) + 1

    def look(command: Command) -> float:
        square = command["square"]
        return 2.0 * min(own.get(square, 0), 3) + other.get(square, 0) + CENTRALITY[square] + rng.random()
    return sorted(places, key=look, reverse=True)


def candidates(state: State, seat: int, options: list[Command], rng: random.Random, style: Style) -> list[Command]:
    """The commands worth trying among `options`."""
    by_type: dict[str, list[Command]] = {}
    for c in options:
        by_type.setdefault(c["type"], []).append(c)
    out: list[Command] = []
    for kind, listed in by_type.items():
        if kind == "place":
            ordered = _place_order(state, seat, listed, rng)
            out += ordered[:style.places] + (rng.sample(ordered[style.places:], 1) if len(ordered) > style.places else [])
        elif kind == "discard":
            if len(by_type) == 1 or set(by_type) <= {"discard", "flare"}:
                out += rng.sample(listed, min(2, len(listed)))
        else:
            out += listed if len(listed) <= style.width else rng.sample(listed, style.width)
    return out


def ready(state: State, seat: int) -> int:
    """How many distinct beings in the seat's hand could be summoned on this board now."""
    return len({c["card"] for c in summons(state, seat)})


def judge(after: State, seat: int, command: Command, style: Style) -> float:
    value = chance(after, seat, style.weights)
    if style.ready and command["type"] == "place" and after["phase"] == "play" and active_seat(after) == seat \
            and after["turn"] and current_turn(after)["actions"] > 0:
        value += READY * ready(after, seat)
    return value


def forced(options: list[Command]) -> Command | None:
    """The command there is nothing to weigh about: a claim of the win, or the only option."""
    for command in options:
        if command["type"] == "claim_win":
            return command
    return options[0] if len(options) == 1 else None


def choose(state: State, seat: int, rng: random.Random, style: Style, options: list[Command] | None = None,
           work: Work | None = None) -> Command:
    """The policy's command for `seat` (complete, with the seat); `work` counts the positions judged."""
    listed = playable(state, seat) if options is None else options
    if not listed:
        raise ValueError("no command to play")
    plain = forced(listed)
    if plain is not None:
        return plain
    tried = candidates(state, seat, listed, rng, style)
    if style.noise and rng.random() < style.noise:
        return rng.choice(tried)
    best, best_value = tried[0], float("-inf")
    if work is not None:
        work.steps += len(tried)
    for command in tried:
        try:
            after = advance(state, command)
        except RuleError:
            continue
        value = judge(after, seat, command, style) + (rng.gauss(0.0, style.blur) if style.blur else 0.0)
        if value > best_value:
            best, best_value = command, value
    return best

