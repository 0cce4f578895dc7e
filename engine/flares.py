"""Flares (RULES.md 8.5-8.6): which halves a flare would resolve, and invoking one."""
from __future__ import annotations

from . import summon, teams, turns
from .cards import CARDS
from .context import Context
from .effects.frame import new_frame
from .shapes import Command
from .state import State, color_of, counts, enemy_colors, seats_of


def halves(state: State, seat: int, card: str, against: int) -> list[str]:
    """The halves whose criterion holds against colour `against`, upper first."""
    flare = CARDS.flares[card]
    mine_total, mine_up = counts(state, color_of(state, seat))
    their_total, their_up = counts(state, against)
    out = []
    if their_up - mine_up >= flare.upper.threshold:
        out.append("upper")
    if their_total - mine_total >= flare.lower.threshold:
        out.append("lower")
    return out


def invocations(state: State, seat: int) -> list[Command]:
    """Every flare command open to `seat` now (melee: one per opponent compared with); none once
    the turn has been handed to a teammate."""
    out: list[Command] = []
    if teams.control_passed(state):
        return out
    color = color_of(state, seat)
    for card in state["hands"][seat]:
        if card not in CARDS.flares:
            continue
        for against in enemy_colors(state, color):
            if halves(state, seat, card, against):
                cmd: Command = {"type": "flare", "card": card}
                if state["form"] == "melee":
                    cmd["against"] = against
                out.append(cmd)
    return out


def invoke(ctx: Context, seat: int, card: str, against: int) -> None:
    s = ctx.state
    parts = halves(s, seat, card, against)
    ctx.emit("FlareInvoked", seat=seat, card=card, against=against, upper="upper" in parts, lower="lower" in parts)
    if s["form"] == "melee":
        turns.score_points(ctx, against, 1, "flare", color_of(s, seat))
    elif s["form"] == "duel":
        turns.score_points(ctx, seats_of(s, against)[0], 1, "flare", None)
    summon.run_effect(ctx, new_frame(seat, card, parts, kind="flare"))
