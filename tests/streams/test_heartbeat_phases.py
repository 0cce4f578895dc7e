"""Streams opened together beat apart: each stream's heartbeats keep a phase of its own within the
interval (server/streams/tier.py beat_phase), on the real async front, before and after an event
that every one of them receives at once."""
from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

import httpx

from .conftest import SSE, new_game, play_move

INTERVAL = 2.0
STREAMS = 6


@dataclass
class Beats(SSE):
    """Also keeps the loop time of every keep-alive comment."""
    beats: list[float] = field(default_factory=list)

    def _take(self, block: str) -> None:
        if block.strip() == ": keep-alive":
            self.beats.append(asyncio.get_running_loop().time())
        super()._take(block)


def spread(offsets: list[float]) -> float:
    return max(offsets) - min(offsets)


def test_streams_opened_together_get_their_heartbeats_spread_over_the_interval(redis_server, start_front):
    front = start_front(redis_server.url, ARENA_HEARTBEAT_SECONDS=str(INTERVAL))

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=front.url, timeout=20) as http:
            game = await new_game(http)
            streams, opened_at = [], []
            for _ in range(STREAMS):
                streams.append(await Beats.open(front.port, f"/games/{game['id']}/stream"))
                opened_at.append(asyncio.get_running_loop().time())
            assert [s.status for s in streams] == [200] * STREAMS
            tasks = [asyncio.create_task(s.follow()) for s in streams]
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 3 * INTERVAL + 5
            while not all(s.beats for s in streams):
                assert loop.time() < deadline, "a stream got no heartbeat"
                await asyncio.sleep(0.05)
            first = [s.beats[0] - t for s, t in zip(streams, opened_at)]
            assert all(0 < f <= INTERVAL + 1.0 for f in first), first
            assert spread(first) >= INTERVAL / 3, first          # not all in one tick

            # an event every stream receives at once does not line their heartbeats up again
            seen = [len(s.ids) for s in streams]
            assert (await play_move(http, game, random.Random(1))).status_code == 200
            moved = loop.time()
            while not all(len(s.ids) > n and any(b > moved for b in s.beats) for s, n in zip(streams, seen)):
                assert loop.time() < deadline + 2 * INTERVAL, "a stream stopped beating"
                await asyncio.sleep(0.05)
            after = [next(b for b in s.beats if b > moved) - moved for s in streams]
            assert spread(after) >= INTERVAL / 3, after
            for stream, task in zip(streams, tasks):
                stream.close()
                task.cancel()

    asyncio.run(scenario())
