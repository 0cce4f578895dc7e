"""A wait's notifications survive kill -9 of the process that claimed the wait: killed after the
claim and before announcing, a deadline loop announces within seconds of the next worker's start;
killed after announcing and before dropping its pledge, the player is still told once. Real
processes (a worker held at a named point, killed with -9 by its pid), real time for the 2 s wait."""
from __future__ import annotations

import pytest

from events import due, inbox, keys
from workers import notify, turns

from .helpers import TWO_SECONDS, new_game, register
from .processes import START_SECONDS, pulses, wait_for

GRACE = turns.ANNOUNCE_GRACE + 3.0     # the pledge comes due, then a loop's next round picks it up


def notes(redis, player_id: str, note_id: str) -> int:
    return sum(1 for _, n in inbox.read(redis, player_id) if n["id"] == note_id)


@pytest.mark.parametrize("point", ["turn.claimed", "turn.announced"])
def test_a_wait_announced_once_though_its_claimer_was_killed(point, durable_client, durable_redis, worker_processes,
                                                             tmp_path):
    flag = tmp_path / "paused"
    first = worker_processes(ARENA_PAUSE_AT=point, ARENA_PAUSE_FLAG=str(flag))
    server = durable_redis.client()
    wait_for(lambda: pulses(server), START_SECONDS, "the worker's deadline loop")
    ann, bob = register(durable_client, "Ann"), register(durable_client, "Bob")
    game = new_game(durable_client, time_control=TWO_SECONDS,
                    players=[{"name": "Ann", "school": "northern", "player": ann["id"]},
                             {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    # nobody moves: the worker's loop times the first seat out and claims the next one's wait, then
    # halts at `point`
    wait_for(flag.exists, START_SECONDS, f"the worker to time a seat out and reach {point}")
    claim = server.hgetall(keys.wait_claim(game["id"]))
    wait, seat = int(claim[b"wait"]), int(claim[b"seat"])
    told = [ann, bob][seat]["id"]
    note_id = notify.notification("your_turn", game["id"], seat, wait)["id"]
    pledge = due.member("announce", game["id"], wait)
    assert due.when(server, pledge) is not None, "the announcement was not pledged before the claim"
    assert notes(server, told, note_id) == (0 if point == "turn.claimed" else 1)
    first.kill9()

    before = pulses(server)
    worker_processes()
    wait_for(lambda: pulses(server) - before, START_SECONDS, "the restarted worker's pulse")
    wait_for(lambda: notes(server, told, note_id), GRACE, "the 'your turn' after the claimer died", step=0.1)
    wait_for(lambda: due.when(server, pledge) is None, GRACE, "the pledge dealt with and dropped", step=0.1)
    assert notes(server, told, note_id) == 1                      # told once, not twice
