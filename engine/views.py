"""What each seat may see: `player_view` of a state and `redact` of an event.

Secret: the cards in another seat's hand, the order of every deck (its owner's too), the game
seed until the game ends; the legends teammates pass each other are shown to the two of them only.
Spectators (seat None) see only public facts.
"""
from __future__ import annotations

from typing import Any, Mapping, cast

from . import confirm, decisions, etherweave, frost, gateway, tasks, teams
from .cards import RANK_NAMES
from .notation import to_text
from .shapes import GameCreatedPublic, GameEvent
from .tracker import deck_tracker
from .state import State, active_seat, color_of, improvisations, melee_scores, score, supply, threshold, two_sided
from .view_shapes import (BoardSquare, CardsHidden, CardsReturnedHidden, CommandAcceptedSeen, DeckShuffledSeen,
                          DiscardSeen, EffectView, PendingPublic, PendingView, PlayerView,
                          PositionSetSeen, ResolutionAdvancedSeen, Score, SeatView, SeenEvent, TasksDealtSeen, TurnView)

Seat = int | None

PUBLIC_PENDING = ("seat", "kind", "ask", "prompt", "can_skip", "card")
PUBLIC_EFFECT = ("seat", "card", "kind", "part", "origin", "marked")


def board_list(state: State) -> list[BoardSquare]:
    """The board as [{square, seat, rank}] with `seat` the owner (its colour's first seat)."""
    owner = {s["color"]: i for i, s in reversed(list(enumerate(state["seats"])))}
    return [{"square": sq, "seat": owner[p[1]], "color": p[1], "rank": RANK_NAMES[p[2]]}
            for sq, p in sorted(state["board"].items())]


def _scores(state: State) -> list[Score]:
    out = []
    for seat in range(len(state["seats"])):
        color = color_of(state, seat)
        entry: Score
        if two_sided(state):
            entry = {"seat": seat, "score": score(state, color)}
            if state["tasks"]:
                entry["tasks"] = list(state["tasks"]["claimed"][color])
        else:
            by_color = {str(c): p for c, p in enumerate(state["points"][seat]) if c != color}
            entry = {"seat": seat, "score": min(melee_scores(state, seat)), "by_color": by_color,
                     "improvisations": [c for c, ok in enumerate(improvisations(state, seat)) if ok]}
        out.append(entry)
    return out


def _pending(state: State, seat: Seat) -> PendingView | None:
    pending = state["pending"]
    if not pending:
        return None
    view = cast("PendingView", _pending_public(pending))
    if pending.get("info"):
        view["info"] = pending["info"]
    if seat == pending["seat"]:
        view["options"] = decisions.options(state).commands
    return view


def _effect(frame: Mapping[str, Any] | None) -> EffectView | None:
    """The public part of an effect frame (a frame for no card, such as a timeout's, shows none)."""
    if not frame or "card" not in frame:
        return None
    return cast("EffectView", _only(frame, PUBLIC_EFFECT))


def player_view(state: State, seat: Seat) -> PlayerView:
    """The state as `seat` may see it (None: a spectator); engine/view_shapes.py says what is hidden."""
    over = state["phase"] == "over"
    seats = []
    for i, entry in enumerate(state["seats"]):
        color = entry["color"]
        nonleg, leg = supply(state, color)
        seen: SeatView = {
            "seat": i, "school": entry["school"], "color": color, "hand_size": len(state["hands"][i]),
            "deck_size": len(state["decks"][i]), "discard": list(state["discards"][i]),
            "supply": {"non_legendary": nonleg, "legendary": leg}, "frozen": frost.frozen_card(state, i),
            "pending_being": etherweave.pending_being(state, i), "stasis": etherweave.stasis_view(state, i),
            "confirm_turn_end": confirm.confirms(state, i)}
        if teams.team_play(state):
            seen["sideways"] = teams.sideways(state, i)
        if "banned" in entry:
            seen["banned"] = entry["banned"]
        if "chosen_by" in entry:
            seen["chosen_by"] = entry["chosen_by"]
        if i == seat or over:
            seen["hand"] = list(state["hands"][i])
        seats.append(seen)
    gateways = gateway.squares(state)
    view: PlayerView = {
        "form": state["form"], "teams": teams.team_play(state),
        "status": "finished" if over else ("setup" if state["phase"] == "setup" else "playing"),
        "board": board_list(state), "notation": to_text(state["board"]), "seats": seats, "scores": _scores(state),
        "legends": {"deck_size": len(state["legends"]["deck"]), "discard": list(state["legends"]["discard"])},
        "flares": {"deck_size": len(state["flares"]["deck"]), "discard": list(state["flares"]["discard"])},
        "turn": _turn(state), "active_seat": active_seat(state), "pending": _pending(state, seat),
        "effect": _effect(state["effect"]), "final_round": state["final"], "result": state["result"], "target": threshold(state),
        "gateways": gateways, "gateway": gateway.sole(gateways), "deck_tracker": [],
    }
    if state["tasks"]:
        t = state["tasks"]
        view["tasks"] = {"current": list(t["current"]), "next": t["next"], "deck_size": len(t["deck"])}
        if seat is not None and state["turn"] and state["turn"]["seat"] == seat and not over:
            view["tasks"]["claimable"] = tasks.claimable(state, color_of(state, seat))
    view["deck_tracker"] = deck_tracker(view)
    return view


def _turn(state: State) -> TurnView | None:
    turn = state["turn"]
    if not turn:
        return None
    return {"seat": turn["seat"], "number": turn["number"], "actions_left": turn["actions"],
            "discarded": turn["discarded"], "extra": turn["extra"], "control": turn.get("control")}


def redact(event: GameEvent, seat: Seat) -> SeenEvent:
    """`event` as `seat` may see it: hidden cards become counts, deck orders and the seed vanish
    (engine/view_shapes.py: SeenEvent)."""
    if event["type"] == "GameCreated":
        return cast("GameCreatedPublic", _without(event, "seed"))
    if event["type"] == "DeckShuffled":
        return cast("DeckShuffledSeen", {**_without(event, "cards"), "count": len(event["cards"])})
    if event["type"] == "TasksDealt":
        return cast("TasksDealtSeen", {**_without(event, "deck"), "deck_size": len(event["deck"])})
    if (event["type"] == "LegendsPassed" and seat not in (event["seat"], event["to"])
            or event["type"] == "CardsDrawn" and event["seat"] != seat):
        return cast("CardsHidden", {**_without(event, "cards"), "count": len(event["cards"])})
    if event["type"] == "CardsReturned" and event["seat"] != seat:
        return cast("CardsReturnedHidden", {**_without(event, "cards"), "count": len(event["cards"]),
                                            "decks": [d for d, _ in event["cards"]]})
    if event["type"] == "CommandAccepted" and event["seat"] != seat and event["command"].get("returns"):
        command = cast("DiscardSeen", {**event["command"], "returns": len(event["command"].get("returns", []))})
        return cast("CommandAcceptedSeen", {**event, "command": command})
    if event["type"] == "PositionSet":
        return cast("PositionSetSeen", {**event, "state": player_view(event["state"], seat)})
    if event["type"] == "ResolutionAdvanced":
        return cast("ResolutionAdvancedSeen", {"type": "ResolutionAdvanced", "effect": _effect(event["effect"]),
                                               "pending": _pending_public(event["pending"])})
    return event


def _pending_public(pending: Mapping[str, Any] | None) -> PendingPublic | None:
    if not pending:
        return None
    return cast("PendingPublic", _only(pending, PUBLIC_PENDING))


def _only(mapping: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """The entries of `mapping` under `keys`, those it has."""
    return {k: mapping[k] for k in keys if k in mapping}


def _without(mapping: Mapping[str, object], key: str) -> dict[str, object]:
    return {k: v for k, v in mapping.items() if k != key}


def hidden_cards(state: State, seat: Seat) -> set[str]:
    """Card ids `seat` may not know now: other seats' hands (but face-up pending beings), every
    deck's cards (the owner's too) and the task deck; a card being summoned is announced to all."""
    out: set[str] = set()
    for i, hand in enumerate(state.get("hands", [])):
        if i != seat:
            out.update(c for c in hand if c != etherweave.pending_being(state, i))
    for deck in state.get("decks", []):
        out.update(deck)
    for pile in (state.get("legends"), state.get("flares")):
        out.update(pile["deck"] if pile else [])
    tasks = state.get("tasks")
    if tasks:
        out.update(tasks["deck"])
    effect = state.get("effect")
    if effect and effect.get("card"):
        out.discard(effect["card"])
    return out
