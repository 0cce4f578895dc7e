"""The tiers run apart: `arena stream` answers the stream endpoints and /health, nothing else,
while the moves go to another process (`arena web`);
an event appended through one arrives on a stream of the other."""
from __future__ import annotations

import asyncio
import random

import httpx

from .conftest import SSE, new_game, play_move


def test_the_stream_tier_serves_streams_and_health_and_follows_moves_made_on_the_web_tier(redis_server, start_front):
    web = start_front(redis_server.url, "web", **{"WEB_CONCURRENCY": "1"})
    stream = start_front(redis_server.url, "stream")

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=web.url, timeout=30) as moves, \
                httpx.AsyncClient(base_url=stream.url, timeout=30) as streams:
            game = await new_game(moves)
            assert (await streams.get("/health")).json()["redis"] is True
            refused = await streams.post("/games", json={})
            assert refused.status_code == 404 and refused.headers["content-type"] == "application/problem+json"
            watcher = await SSE.open(stream.port, f"/games/{game['id']}/stream", {"Last-Event-ID": str(game["version"])})
            following = asyncio.create_task(watcher.follow())
            assert (await play_move(moves, game, random.Random(3))).status_code == 200
            latest = (await moves.get(f"/games/{game['id']}")).json()["version"]
            for _ in range(200):
                if watcher.ids[-1:] == [latest]:
                    break
                await asyncio.sleep(0.05)
            assert watcher.ids == list(range(game["version"] + 1, latest + 1))
            watcher.close()
            following.cancel()
    asyncio.run(scenario())
