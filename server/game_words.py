"""A game of yours in words, for "Your games" and the header: who you play, the form, how it stands.

Display fields only, beside the codes the API keeps (`status`, `form`): `form_text` ("2 v 2",
"3-player melee"), `opponents` (names, never yours), `partners` (your teammates in 2 v 2),
`status_text` ("your turn, 2 days left", "Bob to play", "you won on the tie-break") and, while
you are to play against a clock, `seconds_left`.
"""
from __future__ import annotations

from functools import lru_cache

from events.desk import Row

from .words import duration_words, form_words


def described(row: Row, now: float) -> dict:
    """The display fields of a game of yours (events/desk.py's row of it) at `now`."""
    fixed = _fixed(row)
    if not row.your_turn or row.deadline is None:
        return fixed
    left = max(0.0, row.deadline - now)
    return {**fixed, "seconds_left": round(left), "status_text": f"your turn, {duration_words(left)} left"}


@lru_cache(maxsize=8192)
def _fixed(row: Row) -> dict:
    """What a row says whatever the time (kept per row: rows are shared objects; never change the answer)."""
    mine = row.side(row.seat)
    out = {"form_text": form_words(row.form, len(row.names), row.teams),
           "opponents": [n for i, n in enumerate(row.labels) if i != row.seat and row.side(i) != mine],
           "partners": [n for i, n in enumerate(row.labels) if i != row.seat and row.side(i) == mine],
           "seconds_left": None}
    if row.over:
        return {**out, "status_text": _result_words(row)}
    if not row.your_turn:
        return {**out, "status_text": f"{row.names[row.active] if row.active is not None else 'nobody'} to play"}
    return {**out, "status_text": "your turn"}


def _result_words(row: Row) -> str:
    if row.seat in row.winners:
        return f"you won{row.how}"
    if not row.winners:
        return "over"
    return f"{' and '.join(row.names[w] for w in row.winners)} won{row.how}"


def waiting(view: dict, seat: int | None) -> dict:
    """A game still waiting for its invited players, in the same words."""
    players = view.get("players") or []
    return {"form_text": form_words(view["form"], len(players), bool(view.get("teams"))),
            "opponents": [p["name"] for p in players if p["seat"] != seat], "partners": [],
            "seconds_left": None, "status_text": view.get("status_text") or view["status"]}
