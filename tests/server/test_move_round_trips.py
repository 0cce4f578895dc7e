"""What a move costs in Redis round trips, counted on the real redis-server: every request the
request's own thread sends (authentication, rate limits, idempotency, the append, the follow-up),
with the shipped rate limits counting and with them off.

A move by a guest's seat token, once its process has seen the token (a seat token of a registered
player, a player token and a session are asked every time, so revoking one takes effect at once):
one round trip, the append script (events/lua/append.lua: log, head, moves index, idempotency
record, follow-up debt and its index entry); three more when rate limits count (flask-limiter: a
sliding window per address and per person, and the window read back for the X-RateLimit headers).
A move whose events pass a snapshot version writes the snapshot too, one trip more. The debt the
follow-up hook settles is cleared a moment later, with every other game's, in one trip. The clocks
stand still (freezegun, and every events.memo.Memo's), so that nothing a process remembers for a
while lapses mid-test on a slow machine: a game's live mark (once per 2 s), a guest game's
seating, a guest token's seat (once a minute) each cost a trip when they do.
"""
from __future__ import annotations

import gc
import random
import threading
import time

import pytest
import redis
from freezegun import freeze_time

from engine.selfplay import pick
from events import followup, snapshots
from events.memo import Memo
from events.scripts import lua
from server import create_app

from .conftest import bearer

MOVES = 12
APPEND_ONLY = 1
LIMITER_TRIPS = 3


class CountingConnection(redis.Connection):
    """A connection that counts what it sends (one send per command or pipeline: a round trip),
    but for its handshake: a pool opens another connection when the settler's thread holds one."""

    sent: dict[int, int] = {}
    connecting = False

    def on_connect_check_health(self, *args, **kwargs):
        self.connecting = True
        try:
            super().on_connect_check_health(*args, **kwargs)
        finally:
            self.connecting = False

    def send_packed_command(self, command, check_health=True):
        if not self.connecting:
            thread = threading.get_ident()
            self.sent[thread] = self.sent.get(thread, 0) + 1
        super().send_packed_command(command, check_health)


def trips() -> int:
    return CountingConnection.sent.get(threading.get_ident(), 0)


@pytest.fixture
def memories_kept():
    """Every memory a process keeps for a while (events/memo.py) with its clock stopped."""
    now = time.monotonic()
    memos = [o for o in gc.get_objects() if isinstance(o, Memo)]
    clocks = [memo.clock for memo in memos]
    for memo in memos:
        memo.clock = lambda: now
    yield
    for memo, clock in zip(memos, clocks):
        memo.clock = clock


@pytest.mark.parametrize("limits_on", [True, False])
@freeze_time()
def test_a_move_costs_one_round_trip_and_the_shipped_limits_three_more(redis_server, limits_on, memories_kept):
    client = redis.Redis.from_url(redis_server.url, connection_class=CountingConnection)
    client.script_load(lua("put_snapshots.lua"))         # a script's first run on a server loads it: not a move's
    app = create_app({"REDIS_CLIENT": client, "TESTING": True, "ARENA_RATE_LIMITS": limits_on})
    http = app.test_client()
    game = http.post("/games", json={"form": "duel", "seed": "trips", "players": [
        {"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]}).json
    tokens, rng, counted = [s["token"] for s in game["seats"]], random.Random(5), []
    for move in range(MOVES + 2):               # the first two: each token looked up once, the game kept
        seat = http.get(f"/games/{game['id']}").json["active_seat"]
        command = pick(rng, http.get(f"/games/{game['id']}/legal", headers=bearer(tokens[seat])).json["commands"])
        before = trips()
        answer = http.post(f"/games/{game['id']}/commands", json=command, headers=bearer(tokens[seat]))
        assert answer.status_code == 200, answer.json
        first = answer.json["version"] - len(answer.json["events"]) + 1
        snapshot = bool(snapshots.due(first - 1, answer.json["version"], snapshots.DEFAULT_EVERY))
        if move >= 2:
            counted.append((trips() - before, snapshot))
    expected = APPEND_ONLY + (LIMITER_TRIPS if limits_on else 0)
    assert counted == [(expected + snapshot, snapshot) for _, snapshot in counted]

    app.extensions["arena"].service.settle_now()            # what the settler does a moment later
    assert followup.owed(client, game["id"]) is None
