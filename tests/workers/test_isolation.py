"""A slow webhook receiver never delays a deadline: deliveries run on their own queue in a worker
process of their own (as `arena serve` and the Procfile run them), deadlines in the game worker."""
from __future__ import annotations

from .helpers import TWO_SECONDS, Receiver, all_timed_out, deadlines_of, new_game, register
from .processes import START_SECONDS, pulses, wait_for

HOLD = 3.0                          # seconds the receiver holds every delivery


def test_turns_time_out_on_time_while_a_slow_receiver_holds_the_webhook_deliveries(
        durable_client, durable_redis, worker_processes, monkeypatch):
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1/32")              # the workers inherit it
    hook = Receiver([200], hold=HOLD)
    try:
        worker_processes()
        worker_processes("arena-notify")
        wait_for(lambda: len(pulses(durable_redis.client())) == 2, START_SECONDS, "both workers")
        bob = register(durable_client, "Bob", webhook_url=hook.url)
        games = [new_game(durable_client, time_control=TWO_SECONDS, seed=f"slow{i}",
                          players=[{"name": "Ann", "school": "northern"},
                                   {"name": "Bob", "school": "sylvan", "player": bob["id"]}]) for i in range(3)]
        due = deadlines_of(durable_client, games)
        seen = wait_for(lambda: all_timed_out(durable_client, due), TWO_SECONDS["seconds"] + 2.0, "every timeout", step=0.1)
        late = sorted(seen[g] - due[g] for g in due)
        assert 0 <= late[0] and late[-1] < 1.0, late
        assert hook.times and hook.times[0] < min(seen.values()), "the receiver was holding a delivery meanwhile"
    finally:
        hook.close()
