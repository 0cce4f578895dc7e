"""What each seat may see: `player_view` of a state and `redact` of an event.

Secret: the cards in another seat's hand, the order of every deck (its owner's too), the game
seed until the game ends; the legends teammates pass each other are shown to the two of them only.
Spectators (seat None) see only public facts.
"""
from __future__ import annotations

from typing import Any

from . import decisions, etherweave, frost, gateway, tasks, teams
from .cards import RANK_NAMES
from .notation import to_text
from .state import State, active_seat, color_of, melee_scores, score, supply, threshold, two_sided

Seat = int | None


def board_list(state: State) -> list[dict[str, Any]]:
    """The board as [{square, seat, rank}] with `seat` the owner (its colour's first seat)."""
    owner = {s["color"]: i for i, s in reversed(list(enumerate(state["seats"])))}
    return [{"square": sq, "seat": owner[p[1]], "color": p[1], "rank": RANK_NAMES[p[2]]}
            for sq, p in sorted(state["board"].items())]


def _scores(state: State) -> list[dict[str, Any]]:
    out = []
    for seat in range(len(state["seats"])):
        color = color_of(state, seat)
        if two_sided(state):
            entry: dict[str, Any] = {"seat": seat, "score": score(state, color)}
            if state["tasks"]:
                entry["tasks"] = list(state["tasks"]["claimed"][color])
        else:
            by_color = {str(c): p for c, p in enumerate(state["points"][seat]) if c != color}
            entry = {"seat": seat, "score": min(melee_scores(state, seat)), "by_color": by_color,
                     "improvisations": [c for c, ok in enumerate(state["impro"][seat]) if ok]}
        out.append(entry)
    return out


def _pending(state: State, seat: Seat) -> dict[str, Any] | None:
    pending = state["pending"]
    if not pending:
        return None
    view = {k: pending[k] for k in ("seat", "kind", "ask", "prompt", "can_skip") if k in pending}
    if "card" in pending:
        view["card"] = pending["card"]
    if pending.get("info"):
        view["info"] = pending["info"]
    if seat == pending["seat"]:
        view["options"] = decisions.options(state)[0]
    return view


def _effect(state: State) -> dict[str, Any] | None:
    frame = state["effect"]
    if not frame or "card" not in frame:
        return None
    return {k: frame.get(k) for k in ("seat", "card", "kind", "part", "origin", "marked") if k in frame}


def player_view(state: State, seat: Seat) -> dict[str, Any]:
    """The state as `seat` may see it (None: a spectator)."""
    over = state["phase"] == "over"
    seats = []
    for i, s in enumerate(state["seats"]):
        color = s["color"]
        nonleg, leg = supply(state, color)
        entry = {"seat": i, "school": s["school"], "color": color, "hand_size": len(state["hands"][i]),
                 "deck_size": len(state["decks"][i]), "discard": list(state["discards"][i]),
                 "supply": {"non_legendary": nonleg, "legendary": leg}, "frozen": frost.frozen_card(state, i),
                 **etherweave.view_fields(state, i)}
        if teams.team_play(state):
            entry["sideways"] = teams.sideways(state, i)
        if i == seat or over:
            entry["hand"] = list(state["hands"][i])
        seats.append(entry)
    view: dict[str, Any] = {
        "form": state["form"], "teams": teams.team_play(state),
        "status": "finished" if over else ("setup" if state["phase"] == "setup" else "playing"),
        "board": board_list(state), "notation": to_text(state["board"]), "seats": seats, "scores": _scores(state),
        "legends": {"deck_size": len(state["legends"]["deck"]), "discard": list(state["legends"]["discard"])},
        "flares": {"deck_size": len(state["flares"]["deck"]), "discard": list(state["flares"]["discard"])},
        "turn": _turn(state), "active_seat": active_seat(state), "pending": _pending(state, seat),
        "effect": _effect(state), "final_round": state["final"], "result": state["result"], "target": threshold(state),
        **gateway.view_fields(state),
    }
    if state["tasks"]:
        t = state["tasks"]
        view["tasks"] = {"current": list(t["current"]), "next": t["next"], "deck_size": len(t["deck"])}
        if seat is not None and state["turn"] and state["turn"]["seat"] == seat and not over:
            view["tasks"]["claimable"] = tasks.claimable(state, color_of(state, seat))
    return view


def _turn(state: State) -> dict[str, Any] | None:
    turn = state["turn"]
    if not turn:
        return None
    return {"seat": turn["seat"], "number": turn["number"], "actions_left": turn["actions"],
            "discarded": turn["discarded"], "extra": turn["extra"], "control": turn.get("control")}


def redact(event: dict[str, Any], seat: Seat) -> dict[str, Any]:
    """`event` as `seat` may see it: hidden cards become counts, deck orders and the seed vanish."""
    kind = event["type"]
    if kind == "GameCreated":
        return {k: v for k, v in event.items() if k != "seed"}
    if kind == "DeckShuffled":
        return {**{k: v for k, v in event.items() if k != "cards"}, "count": len(event["cards"])}
    if kind == "TasksDealt":
        return {**{k: v for k, v in event.items() if k != "deck"}, "deck_size": len(event["deck"])}
    if kind == "LegendsPassed" and seat not in (event["seat"], event["to"]):
        return {**{k: v for k, v in event.items() if k != "cards"}, "count": len(event["cards"])}
    if kind in ("CardsDrawn", "CardsReturned") and event["seat"] != seat:
        hidden = {k: v for k, v in event.items() if k != "cards"}
        hidden["count"] = len(event["cards"])
        if kind == "CardsReturned":
            hidden["decks"] = [d for d, _ in event["cards"]]
        return hidden
    if kind == "CommandAccepted" and event["seat"] != seat and event["command"].get("returns"):
        command = dict(event["command"], returns=len(event["command"]["returns"]))
        return {**event, "command": command}
    if kind == "PositionSet":
        return {**event, "state": player_view(event["state"], seat)}
    if kind == "ResolutionAdvanced":
        return {"type": kind, "effect": _effect({"effect": event["effect"]}) if event["effect"] else None,
                "pending": _pending_public(event["pending"])}
    return event


def _pending_public(pending: dict[str, Any] | None) -> dict[str, Any] | None:
    if not pending:
        return None
    return {k: pending[k] for k in ("seat", "kind", "ask", "prompt", "can_skip", "card") if k in pending}


def hidden_cards(state: State, seat: Seat) -> set[str]:
    """Card ids `seat` may not know now: other seats' hands (but face-up pending beings), every
    deck's cards (the owner's too) and the task deck; a card being summoned is announced to all."""
    out: set[str] = set()
    for i, hand in enumerate(state.get("hands", [])):
        if i != seat:
            out.update(c for c in hand if c != etherweave.pending_being(state, i))
    for deck in state.get("decks", []):
        out.update(deck)
    for shared in ("legends", "flares"):
        out.update(state.get(shared, {}).get("deck", []))
    if state.get("tasks"):
        out.update(state["tasks"]["deck"])
    if state.get("effect") and state["effect"].get("card"):
        out.discard(state["effect"]["card"])
    return out
