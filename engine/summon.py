"""The summon action (RULES.md 5): check the pattern, handle piece shortage, put the being on the
board, score a legend, let the player pick the orientation, then run the card's effect.

The steps that need the player (which piece to pick up, which colour scores a melee legend,
which orientation) are pending decisions kept in a `summon` frame until the effect starts; the
questions of a card's effect are `effect` decisions (all declared here, engine/pending.py).
"""
from __future__ import annotations

from typing import Any, Iterator, cast

from . import etherweave, frost, gateway, pieces, teams, turns
from .cards import CARDS, RANK_NAMES, Being, Orientation
from .context import Context
from .effects.frame import new_frame
from .effects.interpreter import advance, pending_ask
from .effects.ops_turn import UNDER_DECK
from .effects.words import all_steps, selectors, where_names
from .errors import RuleError
from .geometry import offset
from .patterns import Fit, being_square_ok, fits_at
from .pending import Decision, Options, close, decision, raise_decision
from .shapes import Board, Command
from .state import LEGENDARY, State, color_of, current_effect, current_turn, enemy_colors, improvisations, supply

WAR_SUMMONING = "borrow-enemy-piece"
POSSESSION = "use-color-of"          # Possessed Summoner: the pattern is built from another colour
# Marked kinds the effect itself lets the player swap (Crystal Mirror picks its source side), so
# orientations differing only by them are one choice
SAME_MARK = {"mirror-target": "mirror-source"}


def pattern_color(state: State, seat: int) -> int:
    """The colour whose pieces must form the next pattern: the seat's own, unless possessed."""
    return next((m["color"] for m in current_turn(state)["modifiers"] if m["modifier"] == POSSESSION),
                color_of(state, seat))


def lend_colors(state: State, seat: int, improvise: int | None) -> frozenset[int]:
    """Enemy colours that may lend one pattern piece to this summoning."""
    color = color_of(state, seat)
    if any(m["modifier"] == WAR_SUMMONING for m in current_turn(state)["modifiers"]):
        return frozenset(enemy_colors(state, color))
    return frozenset({improvise}) if improvise is not None else frozenset()


def _fits(state: State, being: Being, target: str, color: int, lend: frozenset[int], empties: int,
          improvise: int | None) -> list[Fit]:
    """The fits at `target`; an improvised summoning keeps only those that borrow its piece."""
    fits = fits_at(state["board"], being, target, color, lend, empties)
    return [f for f in fits if f.borrowed is not None] if improvise is not None else fits


def usable_fits(state: State, seat: int, being: Being, target: str, improvise: int | None) -> list[Fit]:
    return _fits(state, being, target, pattern_color(state, seat), lend_colors(state, seat, improvise),
                 etherweave.empty_allowance(state), improvise)


def shortage_pickups(state: State, seat: int, being: Being, target: str, fits: list[Fit]) -> list[str] | None:
    """None when no shortage applies; else the squares of own pieces that may be picked up (5.5)."""
    color = color_of(state, seat)
    legendary = being.rank == LEGENDARY
    if supply(state, color)[legendary] > 0:
        return None
    return pickups(state["board"], color, legendary, target, fits)


def pickups(board: Board, color: int, legendary: bool, target: str, fits: list[Fit]) -> list[str] | None:
    """`shortage_pickups` once the supply is known to be out of the being's kind of piece."""
    found = _pickups(own_of_kind(board, color, legendary), target, fits)
    return None if found is None else sorted(found)


def own_of_kind(board: Board, color: int, legendary: bool) -> list[str]:
    """The squares of `color`'s legendary pieces, or of its other pieces: what a summoning short
    of that kind of piece may pick up (5.5)."""
    return [sq for sq, p in board.items() if p[1] == color and (p[2] == LEGENDARY) == legendary]


def may_pick_up(kind: list[str], target: str, fits: list[Fit]) -> bool:
    """Whether a summoning short of pieces can go ahead (`pickups` is not an empty list), given
    `own_of_kind`: surely so when there are more such pieces than the squares of one fit."""
    if fits and len(kind) > len(fits[0].squares):
        return True
    found = _pickups(kind, target, fits)
    return found is None or next(found, None) is not None


def _pickups(kind: list[str], target: str, fits: list[Fit]) -> Iterator[str] | None:
    if target in kind:
        return None                                  # the piece on the target becomes the being
    locked = set(fits[0].squares).intersection(*(f.squares for f in fits[1:])) if fits else set()
    return (sq for sq in kind if sq not in locked)


def check(state: State, seat: int, card: str, target: str, improvise: int | None) -> tuple[Being, list[Fit], list[str] | None]:
    being = CARDS.beings[card]
    if improvise is not None:
        if state["form"] != "melee":
            raise RuleError("improvisation_not_available", "Improvised summoning exists only in a melee; summon with your own pieces.", "RULES 5.8")
        if improvise not in enemy_colors(state, color_of(state, seat)) or not improvisations(state, seat)[improvise]:
            raise RuleError("improvisation_used", "You have already used your improvised summoning with that colour; borrow from another colour or summon with your own pieces.", "RULES 5.8")
    fits = usable_fits(state, seat, being, target, improvise)
    if not fits:
        raise RuleError("pattern_not_matched", f"The pattern of {being.name} does not fit with its being square on {target}; pick a square the board highlights.",
                        "RULES 5.2 pattern")
    if not being_square_ok(state["board"], being, target):
        raise RuleError("being_square_blocked", f"{target} holds a piece of higher rank than {being.name}, so it cannot be summoned there; choose another square.",
                        "RULES 5.3 being square")
    pickups = shortage_pickups(state, seat, being, target, fits)
    if pickups is not None and not pickups:
        raise RuleError("piece_shortage", "No piece of the needed kind is in your supply and none can be picked up from the board; choose another action.",
                        "RULES 5.5 piece shortage")
    return being, fits, pickups


def start(ctx: Context, seat: int, card: str, target: str, improvise: int | None) -> None:
    being, fits, pickups = check(ctx.state, seat, card, target, improvise)
    lend = sorted(lend_colors(ctx.state, seat, improvise))     # before the War Summoner bonus is used up
    possessed = pattern_color(ctx.state, seat)
    empties = etherweave.empty_allowance(ctx.state)
    ctx.emit("ActionTaken", seat=seat, action="summon", actions_left=current_turn(ctx.state)["actions"] - 1)
    if improvise is not None:
        ctx.emit("ImprovisationUsed", seat=seat, color=improvise)
    for kind in (WAR_SUMMONING, POSSESSION, etherweave.VOID_SUMMONING):
        used = next((m for m in current_turn(ctx.state)["modifiers"] if m["modifier"] == kind), None)
        if used:
            ctx.emit("SummonModifierUsed", seat=seat, modifier=used)
    frame = new_frame(seat, card, ["steps"], kind="summon", target=target, lend=lend, improvise=improvise,
                      pattern_color=possessed, empties=empties)
    if pickups:
        _ask(ctx, frame, PICKUP)
        return
    _place(ctx, frame, being, None)


def _ask(ctx: Context, frame: dict[str, Any], stage: Decision) -> None:
    """The summoning waits at `stage` for its seat (or the teammate holding control)."""
    frame["stage"] = stage.kind
    raise_decision(ctx, stage, frame, teams.decider(ctx.state, frame["seat"]))


def current_fits(state: State, frame: dict[str, Any]) -> list[Fit]:
    """The fits at the frame's target with the lenders fixed when the summoning began."""
    return _fits(state, CARDS.beings[frame["card"]], frame["target"],
                 frame.get("pattern_color", color_of(state, frame["seat"])), frozenset(frame["lend"]),
                 frame.get("empties", 0), frame.get("improvise"))


def picked_up(ctx: Context, square: str) -> None:
    frame = dict(current_effect(ctx.state))
    pid, color, rank = ctx.state["board"][square]
    ctx.emit("PiecePickedUp", square=square, piece=pid, color=color, rank=RANK_NAMES[rank],
             cause="shortage")
    _place(ctx, frame, CARDS.beings[frame["card"]], square)


def _pickup_options(state: State) -> Options:
    frame = current_effect(state)
    squares = shortage_pickups(state, frame["seat"], CARDS.beings[frame["card"]], frame["target"],
                               current_fits(state, frame))
    return Options([{"type": "choose", "square": sq} for sq in squares or []])


PICKUP = decision("pickup", _pickup_options, lambda ctx, answer: picked_up(ctx, answer["square"]),
                  ask="square", prompt="Choose one of your pieces to pick up (piece shortage)", shows_card=True)


def _place(ctx: Context, frame: dict[str, Any], being: Being, picked: str | None) -> None:
    s, seat, target = ctx.state, frame["seat"], frame["target"]
    color = color_of(s, seat)
    fits = current_fits(s, frame)
    frame["fits"] = [[f.orientation, list(f.squares)] for f in fits]
    there = s["board"].get(target)
    legendary = being.rank == LEGENDARY
    reuse = there is not None and there[1] == color and supply(s, color)[legendary] == 0 and picked is None \
        and (there[2] == LEGENDARY) == legendary
    if there is not None and not reuse:
        victim_color, _ = pieces.destroy(ctx, target, seat, cause="oversummon")
        frame["flags"]["summon_killed"] = True
        frame["flags"]["summon_killed_enemy"] = victim_color != color
    pid = there[0] if reuse and there is not None else ctx.new_piece_id()
    ctx.emit("BeingSummoned", seat=seat, card=being.id, square=target, color=color,
             rank=RANK_NAMES[being.rank], piece=pid, reused=reuse)
    frame["being"] = pid
    gateway.summoned(ctx, frame, there)
    etherweave.summoned(ctx, seat, being.id)
    if legendary and s["form"] == "duel":
        turns.score_points(ctx, seat, 1, "legend summoned", None)
    if legendary and s["form"] == "melee":
        _ask(ctx, frame, LEGEND_COLOR)
        return
    orient(ctx, frame)


def legend_scored(ctx: Context, color: int) -> None:
    frame = dict(current_effect(ctx.state))
    turns.score_points(ctx, frame["seat"], 1, "legend summoned", color)
    orient(ctx, frame)


LEGEND_COLOR = decision(
    "legend_color",
    lambda state: Options([{"type": "choose", "color": c}
                           for c in enemy_colors(state, color_of(state, current_effect(state)["seat"]))]),
    lambda ctx, answer: legend_scored(ctx, answer["color"]),
    ask="color", prompt="Choose the colour in which your legend scores", shows_card=True)


def orientation_groups(frame: dict[str, Any]) -> dict[int, list[int]]:
    """Orientation index -> the fits sharing its marked squares and, when the effect acts on the
    pattern pieces, those pieces (5.6): fits the effect cannot tell apart are not asked about."""
    being = CARDS.beings[frame["card"]]
    pieces_matter = uses_pattern_pieces(being)
    by_key: dict[tuple[Any, ...], list[int]] = {}
    for index, squares in frame["fits"]:
        o = next(o for o in being.orientations if o.index == index)
        marks = tuple(sorted((sq, SAME_MARK.get(kind, kind)) for sq, kind in _marked(frame["target"], o)))
        key = (marks, tuple(sorted(squares)) if pieces_matter else ())
        by_key.setdefault(key, []).append(index)
    return {group[0]: group for group in by_key.values()}


def uses_pattern_pieces(being: Being) -> bool:
    """Whether the effect refers to the pieces the summoning was built from ('pattern-piece')."""
    return any(kind == "pattern-piece" for o in being.orientations for *_, kind in o.marked) \
        or any("pattern-piece" in where_names(sel.where)
               for step in all_steps(being.steps) for sel in selectors(step) if sel.where)


def _marked(target: str, o: Orientation) -> list[tuple[str, str]]:
    out = []
    for dx, dy, kind in o.marked:
        sq = offset(target, dx, dy)
        if sq:
            out.append((sq, kind))
    return out


def orient(ctx: Context, frame: dict[str, Any], chosen: int | None = None) -> None:
    groups = orientation_groups(frame)
    if chosen is None:
        if len(groups) > 1:
            _ask(ctx, frame, ORIENTATION)
            return
        chosen = next(iter(groups))
    begin_effect(ctx, frame, chosen)


def begin_effect(ctx: Context, frame: dict[str, Any], index: int) -> None:
    being = CARDS.beings[frame["card"]]
    o = next(o for o in being.orientations if o.index == index)
    squares = next(sq for i, sq in frame["fits"] if i == index)
    board = ctx.state["board"]
    frame.update(stage="steps", origin=frame["target"], orientation=index,
                 marked=[list(m) for m in _marked(frame["target"], o)],
                 pattern=[board[sq][0] for sq in squares if sq != frame["target"] and sq in board])
    frame["flags"]["marked_empty"] = all(sq not in board for sq, k in frame["marked"] if k == "target")
    run_effect(ctx, frame)


ORIENTATION = decision(
    "orientation",
    lambda state: Options([{"type": "choose", "orientation": k} for k in sorted(orientation_groups(current_effect(state)))]),
    lambda ctx, answer: begin_effect(ctx, dict(current_effect(ctx.state)), answer["orientation"]),
    ask="orientation", prompt="Choose the orientation of the pattern", shows_card=True)


def run_effect(ctx: Context, frame: dict[str, Any], answer: Command | None = None) -> None:
    """Advance a card's effect to its next question (an `effect` decision of the seat whose effect
    it is, or the teammate holding control); when it ends, the card goes to its discard pile."""
    ctx.state["effect"] = frame
    question = advance(ctx, cast("dict[str, Any] | None", answer))     # the effects read answers as plain dicts
    if question is not None:
        raise_decision(ctx, EFFECT, frame, teams.decider(ctx.state, frame["seat"]), ask=question.kind,
                       prompt=question.prompt, can_skip=question.can_skip, info=question.info)
        return
    close(ctx)
    finish_card(ctx, frame)


def _effect_options(state: State) -> Options:
    question = pending_ask(state)
    return Options(cast("list[Command]", question.options), question.can_skip)


EFFECT = decision("effect", _effect_options, lambda ctx, answer: run_effect(ctx, dict(current_effect(ctx.state)), answer),
                  shows_card=True)


def finish_card(ctx: Context, frame: dict[str, Any]) -> None:
    card = frame["card"]
    if frame.get("kind") == etherweave.WARP_FRAME:
        return                                   # a played warp: the card stays in hand, pending
    if frame["flags"].get(UNDER_DECK):
        ctx.emit("CardPutUnderDeck", seat=frame["seat"], card=card)
        return
    if frame.get("kind") == "summon" and frost.freezes(card):
        frost.keep(ctx, frame["seat"], card)
        return
    if card in CARDS.flares:
        deck = "flares"
    else:
        deck = "legends" if CARDS.beings[card].is_legend else "school"
    ctx.emit("CardDiscarded", seat=frame["seat"], card=card, deck=deck, from_hand=False)
