"""What happened in a game, per player, and why it ended as it did: a pure fold over events.

    summary = game_stats(events)          # events in order, as any seat may read them (redacted is fine)
    explained = explain_result(state, summary)

`game_stats` counts, for each seat, what the seat's own decisions did: pieces placed, beings
summoned (legends among them), enemy pieces destroyed by rank, upgrades, flares invoked, tasks
claimed, timeouts, undos; and every point scored by reason (in a melee, by colour). Steps taken
back by an undo count for nothing. `explain_result` turns the final standings into what an end
screen says: each player's score broken down (High Form tasks and legends; Deathmatch destroyed
pieces, flares and legends; melee points in each colour, the weakest marked) and the tie-break
that decided, if any.
"""
from __future__ import annotations

from typing import Any, Sequence, TypedDict, cast

from .cards import CARDS
from .shapes import GameEvent, GameResult, PointsScored, Standing
from .state import LEGENDARY, State, color_of, pieces, task_points, threshold, two_sided
from .undo import undone_moves
from .view_shapes import SeenEvent
from .vocabulary import RANKS

Event = GameEvent | SeenEvent           # the full events or a seat's redacted ones


class PlayerStats(TypedDict):
    """What one seat's own decisions did (steps it took back count for nothing)."""

    seat: int
    pieces_placed: int
    beings_summoned: int
    legends_summoned: int
    destroyed: dict[str, int]       # enemy pieces by rank name
    upgrades: int
    flares: int
    tasks: int
    timeouts: int
    undos: int
    points: dict[str, Any]          # by reason; melee: by colour ("0", ...), then by reason


class GameStats(TypedDict):
    players: list[PlayerStats]      # by seat


class TaskScored(TypedDict):
    task: str
    name: str
    points: int


class Breakdown(TypedDict, total=False):
    """How a standing's score is made, by form (each form has its own keys)."""

    by_color: dict[str, int]        # melee: points in each other colour ("0", ...)
    weakest: int                    # melee: the colour that is the score
    score: int                      # melee
    by_reason: dict[str, Any]       # melee and Deathmatch: the player's points by reason (PlayerStats.points)
    tasks: list[TaskScored]         # High Form: the tasks claimed
    task_points: int                # High Form
    legends_on_board: int           # High Form
    other_points: int               # High Form (the Etherweave causality penalty)
    points: int                     # Deathmatch
    destroyed: dict[str, int]       # Deathmatch: enemy pieces destroyed by rank name


class Tiebreak(TypedDict):
    tied_on: str                    # the key the first two standings share
    decided_by: str | None          # the key that separated them (None: shared)
    values: dict[str, list[int]]    # seat ("0", ...) -> its keys
    shared: bool


class ExplainedStanding(Standing):
    breakdown: Breakdown


class ExplainedResult(TypedDict):
    """The result an end screen shows: GameResult's keys, each standing broken down, and more."""

    reason: str
    winners: list[int]
    standings: list[ExplainedStanding]
    target: int                     # the score that triggered the end
    tiebreak: Tiebreak | None

TIE_KEYS_TWO_SIDED = ("score", "upgraded pieces on the board", "pieces on the board")


def _blank(seat: int) -> PlayerStats:
    return {"seat": seat, "pieces_placed": 0, "beings_summoned": 0, "legends_summoned": 0,
            "destroyed": dict.fromkeys(RANKS, 0), "upgrades": 0, "flares": 0, "tasks": 0,
            "timeouts": 0, "undos": 0, "points": {}}


def game_stats(events: Sequence[Event]) -> GameStats:
    """Per-seat statistics of a game from its events (version = position in the list + 1)."""
    undone = undone_moves(list(enumerate(events, start=1)))
    players: list[PlayerStats] = []
    colors: dict[int, int] = {}
    melee = False
    actor, skipping = None, False
    for version, event in enumerate(events, start=1):
        if event["type"] == "GameCreated":
            players = [_blank(i) for i in range(len(event["seats"]))]
            colors = {i: s["color"] for i, s in enumerate(event["seats"])}
            melee = event["form"] == "melee"
        elif event["type"] == "PositionSet":
            seats = event["state"]["seats"]
            players = [_blank(i) for i in range(len(seats))]
            colors = {i: s["color"] for i, s in enumerate(seats)}
            melee = event["state"]["form"] == "melee"
        elif event["type"] == "CommandAccepted":
            actor, skipping = event["seat"], version in undone
            if event["command"].get("type") == "undo":
                players[actor]["undos"] += 1
        if skipping or not players:
            continue
        _count(players, colors, melee, actor, event)
    return {"players": players}


def _count(players: list[PlayerStats], colors: dict[int, int], melee: bool, actor: int | None, e: Event) -> None:
    if e["type"] == "TurnTimedOut":
        players[e["seat"]]["timeouts"] += 1
    elif e["type"] == "BeingSummoned":
        players[e["seat"]]["beings_summoned"] += 1
        players[e["seat"]]["legends_summoned"] += e["rank"] == "legendary"
    elif e["type"] == "FlareInvoked":
        players[e["seat"]]["flares"] += 1
    elif e["type"] == "TaskClaimed":
        players[e["seat"]]["tasks"] += 1
    elif e["type"] == "PointsScored":
        _points(players, colors, melee, e)
    elif actor is None:
        return
    elif e["type"] == "PiecePlaced" and e["color"] == colors[actor]:
        players[actor]["pieces_placed"] += 1
    elif e["type"] == "PieceDestroyed" and e.get("credited"):
        players[actor]["destroyed"][e["rank"]] += 1
    elif e["type"] == "PieceConverted" and e.get("credited"):
        players[actor]["destroyed"][e["from_rank"]] += 1
    elif e["type"] == "PieceRankChanged" and e.get("cause") == "upgrade" and e["color"] == colors[actor]:
        players[actor]["upgrades"] += 1


def _points(players: list[PlayerStats], colors: dict[int, int], melee: bool, e: PointsScored) -> None:
    """A melee side is a seat with a track per colour; a two-sided side is a colour (its seats share)."""
    if melee:
        track = players[e["side"]]["points"].setdefault(str(e["track"]), {})
        track[e["reason"]] = track.get(e["reason"], 0) + e["points"]
        return
    for seat, color in colors.items():
        if color == e["side"]:
            book = players[seat]["points"]
            book[e["reason"]] = book.get(e["reason"], 0) + e["points"]


def explain_result(state: State, summary: GameStats) -> ExplainedResult | None:
    """The result with each standing's score broken down and the tie-break that decided."""
    result = state.get("result")
    if not result:
        return None
    rows: list[ExplainedStanding] = []
    for row in result["standings"]:
        seat = row["seat"]
        rows.append({**row, "breakdown": _breakdown(state, seat, summary["players"][seat])})
    explained = {**result, "standings": rows, "target": threshold(state), "tiebreak": _tiebreak(state, result)}
    return cast("ExplainedResult", explained)        # every key of the result kept, standings replaced


def _breakdown(state: State, seat: int, player: PlayerStats) -> Breakdown:
    color = color_of(state, seat)
    if state["form"] == "melee":
        tracks = {str(c): p for c, p in enumerate(state["points"][seat]) if c != color}
        weakest = min(tracks, key=lambda c: (tracks[c], int(c)))
        return {"by_color": tracks, "weakest": int(weakest), "score": tracks[weakest],
                "by_reason": player["points"]}
    if state["form"] == "high_form":
        claimed = state["tasks"]["claimed"][color] if state["tasks"] else []
        legends = sum(1 for *_, rank in pieces(state, color) if rank == LEGENDARY)
        return {"tasks": [{"task": t, "name": CARDS.tasks[t].name, "points": CARDS.tasks[t].points} for t in claimed],
                "task_points": task_points(state, color), "legends_on_board": legends,
                "other_points": state["points"][color]}
    return {"points": state["points"][color], "by_reason": player["points"], "destroyed": player["destroyed"]}


def _tiebreak(state: State, result: GameResult) -> Tiebreak | None:
    """Which key of the standings separated the winners from the next player, when the score did not."""
    rows = result["standings"]
    if len(rows) < 2 or result["reason"] in ("resignation", "abandonment") or "key" not in rows[0]:
        return None
    first, second = rows[0]["key"], rows[1]["key"]
    if first[0] != second[0]:
        return None
    names = TIE_KEYS_TWO_SIDED if two_sided(state) else _melee_keys(len(first))
    index = next((i for i, (a, b) in enumerate(zip(first, second)) if a != b), None)
    return {"tied_on": names[0], "decided_by": names[index] if index is not None else None,
            "values": {str(r["seat"]): r["key"] for r in rows}, "shared": index is None}


def _melee_keys(length: int) -> tuple[str, ...]:
    tracks = length - 2
    ordinals = ("lowest", "second-lowest", "third-lowest")
    return tuple(f"{ordinals[i]} colour" for i in range(tracks)) + ("upgraded pieces on the board", "pieces on the board")
