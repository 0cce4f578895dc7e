"""The clock kept in Redis follows the engine: whom the game waits for, after every command."""
from __future__ import annotations

import random

import engine
from engine.selfplay import pick
from engine.state import active_seat
from events import GameService
from events import game_clock
from workers import turns
from events.clocks import Clock, TimeControl, fold

MOVE = TimeControl("move", 60)


def test_the_cached_clock_waits_for_the_engines_active_seat_after_every_command(redis_db):
    service = GameService(redis_db)
    game = service.create_game({"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "seed": "c"})
    rng = random.Random(3)
    waits = set()
    for n in range(60):
        state = service.load(game.game_id).state
        if state["phase"] == "over":
            break
        clock = game_clock.current(redis_db, service, game.game_id, MOVE)
        assert (clock.seat, clock.version) == (active_seat(state), service.store.version(game.game_id))
        waits.add(clock.wait)
        seat = active_seat(state)
        service.execute(game.game_id, seat, pick(rng, engine.legal_commands(state, seat)))
    assert len(waits) > 10


def test_a_clock_brought_up_to_date_in_steps_equals_one_folded_from_the_start(redis_db):
    service = GameService(redis_db)
    game = service.create_game({"form": "duel", "seats": [{"school": "highland"}, {"school": "sylvan"}], "seed": "d"})
    rng = random.Random(4)
    for n in range(40):
        state = service.load(game.game_id).state
        seat = active_seat(state)
        service.execute(game.game_id, seat, pick(rng, engine.legal_commands(state, seat)))
        if n % 7 == 0:
            game_clock.current(redis_db, service, game.game_id, MOVE)           # caches part of the way
    stepped = game_clock.current(redis_db, service, game.game_id, MOVE)
    envelopes = service.store.read(game.game_id)
    assert stepped == fold(Clock(), game_clock.marks(service, game.game_id, 0, envelopes), MOVE)
