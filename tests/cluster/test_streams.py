"""The stream hub on a Cluster: one reader follows game logs in every slot, told of appends by each
master, and keeps delivering, in order and once, after a master is killed and its replica took over."""
from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from engine import legal_commands
from engine.state import active_seat
from events import GameService, keys
from events.redis_process import start_cluster
from events.replication import Replication
from server.sse import Frame, Source, parse_id
from server.streams.hub import StreamHub

DUEL = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}]}
DELIVERY_SECONDS = 3
FAILOVER_SECONDS = 20


def versions(entries, viewer) -> list[Frame]:
    return [Frame(parse_id(entry_id), str(parse_id(entry_id)[0])) for entry_id, _ in entries]


def move(service: GameService, game_id: str) -> int:
    """One legal move; retried while the game's master is failing over (it is not acknowledged then)."""
    give_up = time.monotonic() + FAILOVER_SECONDS
    while True:
        try:
            state = service.load(game_id).state
            return service.execute(game_id, active_seat(state), legal_commands(state, active_seat(state))[0]).version
        except Exception:                                   # noqa: BLE001 - the failover: try again
            if time.monotonic() > give_up:
                raise
            time.sleep(0.2)


@pytest.fixture
def cluster(tmp_path, monkeypatch):
    running = start_cluster(tmp_path, masters=3, replicas=1, node_timeout=1000)
    monkeypatch.setenv("REDIS_CLUSTER_URL", running.url)
    yield running
    running.stop()


def test_streams_in_every_slot_arrive_through_a_failover(cluster):
    client = cluster.client()
    service = GameService(client, replication=Replication(1, 1000))
    games = [service.create_game(DUEL) for _ in range(6)]
    victim_port = client.get_node_from_key(keys.log(games[0].game_id)).port
    assert len({client.get_node_from_key(keys.log(g.game_id)).port for g in games}) > 1

    async def scenario() -> None:
        hub = StreamHub(cluster.url, block_ms=20_000)
        subs = {g.game_id: hub.subscribe(Source(keys.log(g.game_id), (g.version, 0), versions), (g.version, 0))
                for g in games}
        await asyncio.sleep(0.3)                            # the listeners subscribe
        for g in games:
            expected = await asyncio.to_thread(move, service, g.game_id)
            await arrived(subs[g.game_id], expected)
        victim = next(p for p in cluster.nodes if p.port == victim_port)
        os.kill(victim.process.pid, signal.SIGKILL)
        expected = await asyncio.to_thread(move, service, games[0].game_id)     # on the promoted replica
        await arrived(subs[games[0].game_id], expected, within=FAILOVER_SECONDS)  # the reader may still be backing off
        await hub.stop()

    asyncio.run(scenario())
    client.close()


async def arrived(sub, version: int, within: float = DELIVERY_SECONDS) -> None:
    """The frames up to `version`, in order and each once, each read within `within` seconds."""
    got: list[int] = []
    while not got or got[-1] < version:
        frames = await asyncio.wait_for(sub.next(), within)
        got += [f.id[0] for f in frames]
    assert got == sorted(set(got)) and got[-1] == version
