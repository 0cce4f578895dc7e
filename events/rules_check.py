"""Before a deploy: would today's engine decide every stored game exactly as it was played?

`arena check-rules` runs this against a running server's Redis. Every stored game is read from
its log and its moves decided again (engine.audit.redecide), each under the rules release it was
created with (engine/releases.py); a game whose moves would now decide differently is listed with
the first event that differs and the rules version it was created with (`rules` in its first event;
games older than the stamp have none). A game created under rules this engine does not hold (an
unknown release, other card data) is not decided again and is listed as such, as `arena verify`
reports its record. Read-only: nothing is written.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from engine.audit import Divergence, foreign_rules, redecide

from . import keys
from .redaction import engine_event
from .schemas import REGISTRY, SchemaError, SchemaRegistry
from .store import EventStore


@dataclass(frozen=True)
class GameCheck:
    game_id: str
    events: int
    rules: dict[str, str] | None           # the rules version the game was created with, if stamped
    divergence: Divergence | None           # None: every move decides as recorded (or was not decided)
    held: bool = True                       # False: created under rules this engine does not hold, not decided

def stored_games(redis: Any) -> list[str]:
    """The id of every game in this Redis, sorted."""
    return sorted({keys.game_of_head(k) for k in redis.scan_iter(match=keys.head_pattern(), count=500)})


def check_game(store: EventStore, game_id: str, registry: SchemaRegistry = REGISTRY) -> GameCheck:
    envelopes = store.read(game_id)
    if not envelopes:
        return GameCheck(game_id, 0, None, Divergence(0, "no events stored"))
    try:
        events = [engine_event(env, registry) for env in envelopes]
    except SchemaError as exc:
        return GameCheck(game_id, len(envelopes), None, Divergence(0, f"a stored payload cannot be read: {exc}"))
    if foreign_rules(events) is not None:
        return GameCheck(game_id, len(events), events[0].get("rules"), None, held=False)
    try:
        found = redecide(events)
    except (KeyError, ValueError, IndexError, TypeError) as exc:    # a log the engine cannot even replay
        found = Divergence(0, f"the engine cannot replay this game: {exc!r}")
    return GameCheck(game_id, len(events), events[0].get("rules"), found)


def check_all(redis: Any, registry: SchemaRegistry = REGISTRY) -> Iterator[GameCheck]:
    store = EventStore(redis)
    for game_id in stored_games(redis):
        yield check_game(store, game_id, registry)
