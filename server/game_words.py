"""A game of yours in words, for "Your games" and the header: who you play, the form, how it stands.

Display fields only, beside the codes the API keeps (`status`, `form`): `form_text` ("2 v 2",
"3-player melee"), `opponents` (names, never yours), `partners` (your teammates in 2 v 2),
`status_text` ("your turn, 2 days left", "Bob to play", "you won on the tie-break") and, while
you are to play against a clock, `seconds_left`.
"""
from __future__ import annotations

from datetime import datetime

from engine.state import active_seat
from events import roster
from events.clocks import now

from .clocks import clocks_view
from .context import Arena
from .words import duration_words, form_words

HOW = {"resignation": " by resignation", "abandonment": " by abandonment"}


def _side(state: dict, seat: int) -> int:
    """The seat's side: its team in 2 v 2 (seats 0 and 2, 1 and 3), else the seat itself."""
    return seat % 2 if state.get("teams") else seat


def described(game_id: str, seat: int | None, state: dict) -> dict:
    redis = Arena.of().redis
    seats = roster.seats(redis, game_id)
    names = [s.get("name") or f"Seat {i + 1}" for i, s in enumerate(seats)]
    labels = [roster.labelled({**s, "name": n}) for s, n in zip(seats, names)]      # the computer's level
    mine = _side(state, seat) if seat is not None else None
    out = {"form_text": form_words(state["form"], len(seats), bool(state.get("teams"))),
           "opponents": [n for i, n in enumerate(labels) if i != seat and _side(state, i) != mine],
           "partners": [n for i, n in enumerate(labels) if i != seat and _side(state, i) == mine],
           "seconds_left": None}
    if state["phase"] == "over":
        return {**out, "status_text": _result_words(state, seat, names)}
    active = active_seat(state)
    if active != seat:
        return {**out, "status_text": f"{names[active] if active is not None else 'nobody'} to play"}
    clocks = clocks_view(game_id, roster.info(redis, game_id).get("time_control"))
    deadline = (clocks or {}).get("deadline")
    if not deadline:
        return {**out, "status_text": "your turn"}
    left = max(0.0, datetime.fromisoformat(deadline.replace("Z", "+00:00")).timestamp() - now())
    return {**out, "seconds_left": round(left), "status_text": f"your turn, {duration_words(left)} left"}


def _result_words(state: dict, seat: int | None, names: list[str]) -> str:
    result = state.get("result") or {}
    winners = result.get("winners") or []
    how = HOW.get(result.get("reason", ""), "")
    rows = result.get("standings") or []
    if not how and len(rows) > 1 and "key" in rows[0] and rows[0]["key"][0] == rows[1]["key"][0]:
        how = " on the tie-break"
    if seat is not None and seat in winners:
        return f"you won{how}"
    if not winners:
        return "over"
    return f"{' and '.join(names[w] for w in winners)} won{how}"


def waiting(view: dict, seat: int | None) -> dict:
    """A game still waiting for its invited players, in the same words."""
    players = view.get("players") or []
    return {"form_text": form_words(view["form"], len(players), bool(view.get("teams"))),
            "opponents": [p["name"] for p in players if p["seat"] != seat], "partners": [],
            "seconds_left": None, "status_text": view.get("status_text") or view["status"]}
