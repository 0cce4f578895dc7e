"""Creating a game for real: its log, its roster, its expiry while nobody moves, and its first wait.

Used at once by POST /games when every seat is claimed, and by the last acceptance of a game that
waited for invitations (server/invitations.py): the log (and so the clock) only begins then.

A `spec` is what creation needs, as JSON: engine `options`, an optional `setup` position, the
roster `seats` and `info`, the `owners` whose cap of unmoved games it counts against, and `ttl`.
Each registered player's seat starts with the options their account asks for (events/table_prefs.py).
"""
from __future__ import annotations

from engine import RuleError
from events import GameExists, roster, table_prefs, unmoved
from events.clocks import now

from .context import Arena


def unmoved_ttl(config_ttl: int, time_control: dict | None) -> int:
    """How long a game nobody moves in is kept: the configured time, plus its first move's time limit."""
    extra = int(time_control.get("seconds") or 0) if time_control and time_control.get("kind") != "none" else 0
    return config_ttl + extra


def launch(game_id: str, spec: dict) -> tuple[str, int]:
    """Create the game under `game_id`; (its id, its version).

    Safe to run twice for one pending game: a game that exists already is left as it is."""
    arena = Arena.of()
    options = spec["options"]
    unmoved.mark(arena.redis, game_id, spec["owners"], spec["ttl"])     # from here on a first move keeps it
    roster.save(arena.redis, game_id, spec["seats"], spec["info"])      # before the log: its follow-up reads it
    try:
        if spec.get("setup") is not None:
            created = arena.service.create_from_position({**options, **spec["setup"]}, game_id=game_id)
        else:
            created = arena.service.create_game(options, game_id=game_id)
        game_id, version = created.game_id, created.version
    except GameExists:
        version = arena.service.store.version(game_id)
    except Exception:
        roster.forget(arena.redis, game_id, spec["seats"])             # refused (or failed): no roster of no game
        raise
    if unmoved.arm(arena.redis, game_id, spec["ttl"]):         # after the clock's keys exist
        moment = now()
        unmoved.count(arena.redis, spec["owners"], game_id, until=moment + spec["ttl"], now=moment)
    for seat, command in table_prefs.opening_options(arena.redis, spec["seats"]).items():
        try:
            version = arena.service.execute(game_id, seat, command).version     # the account's own preference
        except RuleError:
            break                       # a start that is over already: no turn to confirm
    return game_id, version
