"""The turn's flow (RULES.md 8.3, 9, 10): end-of-turn scoring and drawing, end triggers, the final
round, the next turn, and the result with its tie-breakers.
"""
from __future__ import annotations

from typing import Any

from collections import Counter

from . import drawing, etherweave, frost, tasks, teams
from .context import Context
from .pending import Options, close, decision, raise_decision
from .releases import release_of
from .shapes import GameResult, Standing
from .state import COMMON, LEGENDARY, State, color_of, colors, counts, current_effect, current_turn, melee_scores, score, threshold, two_sided


def start_turn(ctx: Context, seat: int, extra: bool = False, triggered: str | None = None) -> None:
    """`triggered`: an end trigger met before this extra turn, checked again when it ends. Actions an
    effect took from this colour's next turn (Everfrost Sentinel) are taken at once."""
    previous = ctx.state["turn"]
    number = previous["number"] + 1 if previous else 1
    actions = 1 if number == 1 else release_of(ctx.state).actions_per_turn
    more = {"triggered": triggered} if triggered else {}
    ctx.emit("TurnStarted", seat=seat, number=number, actions=actions, extra=extra, **more)
    frost.charge_lost_actions(ctx, seat)


def destruction_points(destroyed: list[list[int]]) -> tuple[dict[int, int], list[int]]:
    """Points per enemy colour for the pieces destroyed this turn, and colours with an odd common."""
    points: Counter[Any] = Counter()
    commons: Counter[Any] = Counter()
    for color, rank in destroyed:
        if rank == COMMON:
            commons[color] += 1
        else:
            points[color] += 2 if rank == LEGENDARY else 1
    for color, n in commons.items():
        points[color] += n // 2
    return dict(points), sorted(c for c, n in commons.items() if n % 2)


def end_turn(ctx: Context, claim: str | None = None) -> None:
    """Claim, score and, unless a melee leftover point needs a colour, finish the turn."""
    s = ctx.state
    seat = current_turn(s)["seat"]
    color = color_of(s, seat)
    if claim:
        ctx.emit("TaskClaimed", seat=seat, color=color, task=claim)
        tasks.replace_claimed(ctx)
    if s["form"] != "high_form":
        points, odd = destruction_points(current_turn(s)["destroyed"])
        for victim, n in sorted(points.items()):
            if n:
                score_points(ctx, seat, n, "destruction", victim)
        if s["form"] == "melee" and len(odd) >= 2:
            raise_decision(ctx, LEFTOVER_COLOR, {"kind": "leftover", "seat": seat, "colors": odd}, seat)
            return
    finish_turn(ctx)


def score_points(ctx: Context, seat: int, points: int, reason: str, track: int | None) -> None:
    """Points for `seat`'s side; in a melee they go on the track of colour `track`."""
    s = ctx.state
    if s["form"] == "melee":
        ctx.emit("PointsScored", side=seat, points=points, reason=reason, track=track)
    else:
        ctx.emit("PointsScored", side=color_of(s, seat), points=points, reason=reason, track=None)


def leftover_chosen(ctx: Context, color: int) -> None:
    seat = current_turn(ctx.state)["seat"]
    close(ctx)
    score_points(ctx, seat, 1, "unpaired commons", color)
    finish_turn(ctx)


LEFTOVER_COLOR = decision(
    "leftover_color", lambda state: Options([{"type": "choose", "color": c} for c in current_effect(state)["colors"]]),
    lambda ctx, answer: leftover_chosen(ctx, answer["color"]),
    ask="color", prompt="Choose the colour in which to score your unpaired commons")


def finish_turn(ctx: Context) -> None:
    """Pass the legends (team play), draw, close the turn, look at the end triggers, and start the
    next turn or end the game."""
    s = ctx.state
    turn = current_turn(s)
    seat = turn["seat"]
    teams.pass_legends(ctx, seat)
    drawing.refill(ctx, seat, teams.legend_drawer(s, seat))
    ctx.emit("TurnEnded", seat=seat, number=turn["number"])
    reason = None
    if s["final"] is None:
        reason = trigger(s, seat) or turn["triggered"] or None
        if reason and not turn["extra_turn"]:
            ctx.emit("FinalRoundStarted", seat=seat, turn=turn["number"], reason=reason)
    final = s["final"]
    if final and seat == final["seat"] and turn["number"] > final["turn"] and not turn["extra_turn"]:
        end_game(ctx, "end_of_game")
        return
    if turn["extra_turn"]:
        # BGA 15.5: a trigger met in a turn granting an extra turn counts from the extra turn,
        # so every other player still plays once more afterwards (Time Elemental)
        start_turn(ctx, seat, extra=True, triggered=reason)
    else:
        start_turn(ctx, (seat + 1) % len(s["seats"]))


def trigger(s: State, seat: int) -> str | None:
    """RULES 10.1: why the end is triggered at the end of this turn, if it is."""
    if teams.deck_exhausted(s, seat):
        return "deck_exhausted"
    limit = threshold(s)
    if s["form"] == "melee":
        if any(max(melee_scores(s, p), default=0) - etherweave.trigger_penalty(s, color_of(s, p)) >= limit
               for p in range(len(s["seats"]))):
            return "threshold"
    elif any(score(s, c) - etherweave.trigger_penalty(s, c) >= limit for c in colors(s)):
        return "threshold"
    return None


def standings(s: State) -> list[Standing]:
    """Every seat with its score and tie-break keys, best first (RULES 10.3)."""
    rows: list[Standing] = []
    for seat in range(len(s["seats"])):
        color = color_of(s, seat)
        total, upgraded = counts(s, color)
        if two_sided(s):
            key = [score(s, color), upgraded, total]
        else:
            key = [*melee_scores(s, seat), upgraded, total]
        rows.append({"seat": seat, "score": key[0], "key": key, "place": 0})     # placed below
    rows.sort(key=lambda r: r["key"], reverse=True)
    for r in rows:
        r["place"] = 1 + sum(1 for o in rows if o["key"] > r["key"])
    return rows


def end_game(ctx: Context, reason: str, loser_color: int | None = None) -> None:
    s = ctx.state
    if loser_color is None:                      # Etherweave: a pending being costs its causality penalty
        for seat, track in etherweave.penalties(s):
            score_points(ctx, seat, -etherweave.CAUSALITY_PENALTY, "causality penalty", track)
    rows = standings(s)
    if loser_color is not None:
        winners = [i for i in range(len(s["seats"])) if color_of(s, i) != loser_color]
        for r in rows:
            r["place"] = 1 if r["seat"] in winners else 2
        rows.sort(key=lambda r: r["place"])
    else:
        winners = [r["seat"] for r in rows if r["place"] == 1]
    result: GameResult = {"reason": reason, "winners": winners, "standings": rows}
    ctx.emit("GameEnded", result=result, seed=s["rng"]["seed"])
