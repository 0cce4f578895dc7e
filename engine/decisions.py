"""Pending decisions: the options a waiting decision offers, and applying the chosen one.

Options are never stored; they are recomputed from the state, so the listed commands and the
accepted commands come from the same function.
"""
from __future__ import annotations

from typing import Any

from . import frost, pieces, schools, setup, summon, turns
from .cards import CARDS, RANK_NAMES
from .context import Context
from .effects.interpreter import pending_ask
from .errors import RuleError
from .state import LEGENDARY, State, color_of, enemy_colors


def _own_non_legendary(state: State, seat: int, besides: str | None = None) -> list[str]:
    color = color_of(state, seat)
    return sorted(sq for sq, p in state["board"].items() if p[1] == color and p[2] != LEGENDARY and sq != besides)


def options(state: State) -> tuple[list[dict[str, Any]], bool]:
    """(complete answer commands, whether 'skip' is allowed) for the pending decision."""
    pending, frame = state["pending"], state["effect"]
    kind = pending["kind"]
    if kind == "effect":
        ask = pending_ask(state)
        return ask.options, ask.can_skip
    if kind == "pickup":
        being_fits = summon.current_fits(state, frame)
        squares = summon.shortage_pickups(state, frame["seat"], CARDS.beings[frame["card"]], frame["target"], being_fits)
        return [{"type": "choose", "square": sq} for sq in squares or []], False
    if kind == "place_pickup":
        return [{"type": "choose", "square": sq} for sq in _own_non_legendary(state, frame["seat"], frame["target"])], False
    if kind == "orientation":
        return [{"type": "choose", "orientation": k} for k in sorted(summon.orientation_groups(frame))], False
    if kind == "legend_color":
        return [{"type": "choose", "color": c} for c in enemy_colors(state, color_of(state, frame["seat"]))], False
    if kind == "leftover_color":
        return [{"type": "choose", "color": c} for c in frame["colors"]], False
    if kind == "start_pieces":
        return [{"type": "choose", "square": sq} for sq in setup.start_piece_squares(state)], False
    if kind == "school":
        return schools.options(state), False
    if kind == frost.CHOICE:
        return frost.choice_options(state), False
    raise ValueError(f"unknown decision {kind}")


def answer(ctx: Context, command: dict[str, Any]) -> None:
    """Apply an answer to the pending decision, after checking it is one of the options."""
    state = ctx.state
    listed, can_skip = options(state)
    cmd = {k: v for k, v in command.items() if k != "seat"}
    if cmd.get("type") == "skip":
        if not can_skip:
            raise RuleError("step_not_optional", "This step is mandatory and cannot be skipped; choose one of the options.",
                            "RULES 6.3 mandatory parts")
    elif cmd not in listed:
        raise RuleError("not_an_option", f"That is not one of the options of this question ({state['pending']['prompt']}); pick one of those offered.",
                        "RULES 6 resolving effects")
    frame = dict(state["effect"])
    kind = state["pending"]["kind"]
    if kind == "effect":
        summon.run_effect(ctx, frame, cmd)
    elif kind == "pickup":
        summon.picked_up(ctx, cmd["square"])
    elif kind == "place_pickup":
        _place_after_pickup(ctx, frame, cmd["square"])
    elif kind == "orientation":
        summon.begin_effect(ctx, frame, cmd["orientation"])
    elif kind == "legend_color":
        summon.legend_scored(ctx, cmd["color"])
    elif kind == "leftover_color":
        turns.leftover_chosen(ctx, cmd["color"])
    elif kind == "start_pieces":
        setup.start_piece_chosen(ctx, cmd["square"])
    elif kind == "school":
        setup.school_chosen(ctx, cmd["school"])
    elif kind == frost.CHOICE:
        frost.choice_made(ctx, cmd["card"])


def _place_after_pickup(ctx: Context, frame: dict[str, Any], square: str) -> None:
    pid, color, rank = ctx.state["board"][square]
    ctx.emit("PiecePickedUp", square=square, piece=pid, color=color, rank=RANK_NAMES[rank], cause="shortage")
    ctx.emit("ResolutionAdvanced", effect=None, pending=None)
    pieces.place(ctx, frame["target"], color, 1, cause="place")
