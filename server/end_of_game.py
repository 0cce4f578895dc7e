"""The end of a game at the table: per-player statistics and the result explained (rematches: server/rematch.py)."""
from __future__ import annotations

from flask_smorest import Blueprint

from events import roster

from . import auth
from .context import Arena
from .games import problems
from .results import stats_and_result
from .schemas import StatsOut

# "table": the API tag (and endpoint prefix) clients already know, kept as it is.
blp = Blueprint("table", __name__, url_prefix="/games", description="Statistics and results")


@blp.route("/<game_id>/stats")
@blp.response(200, StatsOut)
@problems(401, 404)
def stats(game_id: str):
    """Per-player statistics (pieces placed, beings summoned, enemy pieces destroyed by rank,
    upgrades, flares, tasks, timeouts, undos, points by reason) and, once the game is over, the
    result with each score broken down and the tie-break that decided."""
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id)
    loaded = arena.service.load(game_id)
    summary, result = stats_and_result(game_id, caller.seat, loaded.state)
    names = roster.names(arena.redis, game_id)
    players = [{**p, "name": names.get(p["seat"], f"Seat {p['seat'] + 1}")} for p in summary["players"]]
    return {"version": loaded.version, "players": players, "result": result}
