"""A game's statistics and explained result, counted from the events a seat may read."""
from __future__ import annotations

from engine.stats import explain_result, game_stats

from .context import Arena


def stats_and_result(game_id: str, seat: int | None, state: dict) -> tuple[dict, dict | None]:
    """(per-player statistics, the result explained or None while the game runs) at `state`."""
    envelopes = Arena.of().service.events(game_id, seat)
    summary = game_stats([{"type": e["type"], **e["payload"]} for e in envelopes])
    return summary, explain_result(state, summary)
