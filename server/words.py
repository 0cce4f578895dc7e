"""Words a player reads for what the API keeps as codes: a game's form ("2 v 2", "3-player melee")."""
from __future__ import annotations

FORM_WORDS = {"duel": "duel", "high_form": "High Form"}


def form_words(form: str, players: int, teams: bool = False) -> str:
    """How a game's form reads: "duel", "High Form", "2 v 2" (a team game), "3-player melee"."""
    if teams:
        return "2 v 2" + ("" if form == "duel" else f" {FORM_WORDS.get(form, form)}")
    if form == "melee":
        return f"{players}-player melee"
    return FORM_WORDS.get(form, form.replace("_", " "))


def duration_words(seconds: float) -> str:
    """A span as a player says it: "2 days", "5 hours", "12 minutes", "less than a minute"."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return "less than a minute"
