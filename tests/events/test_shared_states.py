"""States shared between threads: a process caches each game's latest state and hands that very
object to the rules deciding the next command and to the follow-up hook, instead of a copy per
command. That holds only while nothing changes a state once cached; here four threads race for
every command of a game (on one GameService, exactly one wins each), while the hook reads every
result as each seat sees it, and each state handed out is checked to be still what it was, and
what the log replays to.
"""
from __future__ import annotations

import threading

import engine
from engine.state import clone
from events.errors import ConflictError
from events.redaction import state_view
from events.service import GameService

from .games import random_script

THREADS = 4
COMMANDS = 30


def test_threads_racing_on_one_game_never_change_a_state_once_cached(redis_client, game_id):
    script = random_script("duel", "shared")
    service = GameService(redis_client, follow_up=lambda _service, _game, result: [
        state_view(result.state, seat) for seat in (0, 1, None)])       # the hook reads what it is handed
    version = service.create_game(script.options, game_id=game_id).version
    start, handed, errors = threading.Barrier(THREADS), [], []

    def play() -> None:
        nonlocal version
        for command in script.commands[:COMMANDS]:
            expected = version
            start.wait()
            try:
                result = service.execute(game_id, command["seat"], command, expected_version=expected)
            except ConflictError:
                pass                                    # another thread won this one
            except Exception as exc:                    # noqa: BLE001 - reported below
                errors.append(exc)
            else:
                handed.append((result.version, result.state, clone(result.state)))
                version = result.version
            start.wait()

    threads = [threading.Thread(target=play) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    assert [v for v, _, _ in handed] == sorted({v for v, _, _ in handed}) and len(handed) == COMMANDS   # one winner each
    for at, shared, copied in handed:
        assert shared == copied                         # nobody changed it after it was handed out
        assert shared == engine.replay(script.events[:at])      # and it is what the log says
    assert service.load(game_id).state == handed[-1][1]
