"""Finished games for the archive tests: corpus games stored again through the service, with a
roster, seat tokens and chat, their follow-up and end-of-game work marked done (or done by the
end-of-game job itself)."""
from __future__ import annotations

import json
from pathlib import Path

from engine.moves import move_spans

from events import chat, followup, keys, moves, roster, tokens
from events.archive import index
from events.envelope import SYSTEM
from events.schemas import REGISTRY
from events.service import seal
from tests.events.conftest import any_redis, redis_db, redis_url  # noqa: F401 - the event store's backends and emptied database

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
MOMENT = "2026-01-01T00:00:00.000000Z"


def corpus_names() -> list[str]:
    return sorted(p.stem for p in CORPUS.glob("*.json"))


def finished_game(service, name: str, game_id: str, players: list[dict] | None = None, finish=None) -> list[str]:
    """The corpus game `name` stored again as `game_id`, done with: its seat tokens.

    Created by the service from the record's options (or position), then every recorded move's
    events sealed and appended as the service does after deciding them (the corpus tests decide
    them again; here only what is stored matters). `players` sit in its seats (else guests);
    `finish(game_id)` runs the end-of-game work (else it is marked done)."""
    redis = service.store.redis
    record = json.loads((CORPUS / f"{name}.json").read_text())
    if "options" in record:
        service.create_game(record["options"], game_id=game_id)
    else:
        service.create_from_position(record["position"], game_id=game_id)
    loaded = service.load(game_id)
    events, sealed, head = record["events"], [], loaded.head_hash
    spans = move_spans(events)
    assert not spans or spans[0][0] == loaded.version, f"{name}: created otherwise than recorded"
    for begin, end in spans:
        actor = SYSTEM if events[begin]["command"]["type"] == "timeout" else events[begin]["seat"]
        sealed += seal(game_id, loaded.version + len(sealed), head, events[begin:end], loaded.state["rng"]["seed"],
                       actor, MOMENT, REGISTRY)
        head = sealed[-1].hash
    service.store.append(game_id, loaded.version, sealed)
    seats = len(loaded.state["seats"])
    roster.save(redis, game_id, (players or [{"name": f"Player {i}"} for i in range(seats)])[:seats],
                {"form": loaded.state["form"]})
    issued = tokens.issue_seat_tokens(redis, game_id, seats)
    chat.post(redis, game_id, "players", {"player": None, "name": "Player 0", "seat": 0, "text": "good game"})
    chat.post(redis, game_id, "spectators", {"player": None, "name": "Kibitzer", "seat": None, "text": "well played"})
    if finish is not None:
        finish(game_id)
        followup.settle(redis, game_id, service.store.version(game_id))
    else:
        done_with(service, game_id)
    return issued


def done_with(service, game_id: str) -> None:
    """What the end-of-game job leaves behind (its follow-up settled, its work marked done)."""
    redis = service.store.redis
    followup.settle(redis, game_id, service.store.version(game_id))
    redis.hset(keys.finish_marks(game_id), "done", MOMENT)
    index.mark(redis, game_id, 1767225600.0)


def seen(service, game_id: str) -> dict:
    """What reading the game gives through the service, the moves index and the chat."""
    redis = service.store.redis
    return {"view": service.view(game_id, None).view, "seat": service.view(game_id, 0).view,
            "rewind": service.view(game_id, 1, at=service.store.version(game_id) // 2).view,
            "events": service.events(game_id, 1), "record": service.export_record(game_id),
            "moves": moves.read(service.store, game_id),
            "chat": [chat.read(redis, game_id, c) for c in chat.CHANNELS]}
