"""Finished games for the archive tests: corpus games played again through the service, with a
roster, seat tokens and chat, their follow-up and end-of-game work marked done."""
from __future__ import annotations

import json
from pathlib import Path

from engine.moves import move_spans

from events import chat, followup, keys, moves, roster, tokens
from events.archive import index

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"


def corpus_names() -> list[str]:
    return sorted(p.stem for p in CORPUS.glob("*.json"))


def finished_game(service, name: str, game_id: str) -> list[str]:
    """The corpus game `name` played again as `game_id`, done with: its seat tokens."""
    redis = service.store.redis
    record = json.loads((CORPUS / f"{name}.json").read_text())
    created = service.create_game(record["options"], game_id=game_id) if "options" in record \
        else service.create_from_position(record["position"], game_id=game_id)
    events = record["events"]
    for begin, _ in move_spans(events):
        accepted = events[begin]
        service.execute(created.game_id, accepted["seat"], accepted["command"])
    seats = len(service.load(game_id).state["seats"])
    roster.save(redis, game_id, [{"name": f"Player {i}"} for i in range(seats)], {"form": service.load(game_id).state["form"]})
    issued = tokens.issue_seat_tokens(redis, game_id, seats)
    chat.post(redis, game_id, "players", {"player": None, "name": "Player 0", "seat": 0, "text": "good game"})
    chat.post(redis, game_id, "spectators", {"player": None, "name": "Kibitzer", "seat": None, "text": "well played"})
    done_with(service, game_id)
    return issued


def done_with(service, game_id: str) -> None:
    """What the end-of-game job leaves behind (its follow-up settled, its work marked done)."""
    redis = service.store.redis
    followup.settle(redis, game_id, service.store.version(game_id))
    redis.hset(keys.finish_marks(game_id), "done", "2026-01-01T00:00:00.000000Z")
    index.mark(redis, game_id, 1767225600.0)



from tests.events.conftest import any_redis, redis_db, redis_url  # noqa: E402,F401 - the event store's backends and emptied database

def seen(service, game_id: str) -> dict:
    """What reading the game gives through the service, the moves index and the chat."""
    redis = service.store.redis
    return {"view": service.view(game_id, None).view, "seat": service.view(game_id, 0).view,
            "rewind": service.view(game_id, 1, at=service.store.version(game_id) // 2).view,
            "events": service.events(game_id, 1), "record": service.export_record(game_id),
            "moves": moves.read(service.store, game_id),
            "chat": [chat.read(redis, game_id, c) for c in chat.CHANNELS]}
