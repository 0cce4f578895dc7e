"""The end of a game at the table: per-player statistics, the result explained, and a rematch."""
from __future__ import annotations

from flask_smorest import Blueprint

from events import roster

from . import auth
from .context import Arena
from .errors import ApiError
from .games import create_claimed, game_spec, problems
from .results import stats_and_result
from .schemas import CreatedOut, StatsOut

blp = Blueprint("table", __name__, url_prefix="/games", description="Statistics, results and rematches")


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


@blp.route("/<game_id>/rematch", methods=["POST"])
@blp.response(201, CreatedOut)
@problems(401, 403, 404, 409)
def rematch(game_id: str):
    """A new game with the same players, schools, teams and time limit; the next seat starts
    (everyone moves one seat forward). Any seated player of the finished game may ask; the
    answer holds the new seats' tokens, as creating a game does."""
    arena = Arena.of()
    caller = auth.caller_for_game(arena.redis, game_id, required=True)
    if caller.seat is None:
        raise ApiError(403, "not_your_seat", "Only a player of this game can ask for a rematch; start a new game instead.")
    state = arena.service.load(game_id).state
    if state.get("phase") != "over":
        raise ApiError(409, "game_not_over", "The game is still being played; a rematch can start once it is over.")
    seats = roster.seats(arena.redis, game_id)
    info = roster.info(arena.redis, game_id)
    order = list(range(1, len(seats))) + [0]
    players = []
    for old in order:
        entry = {"name": seats[old]["name"], "school": state["seats"][old]["school"], **roster.seat_fields(seats[old])}
        if seats[old].get("player"):
            entry["player"] = seats[old]["player"]
        players.append(entry)
    data = {"form": state["form"], "players": players, "teams": bool(state.get("teams"))}
    if info.get("time_control"):
        data["time_control"] = info["time_control"]
    return create_claimed(game_spec(data, None))  # every seat claimed: they have just played
