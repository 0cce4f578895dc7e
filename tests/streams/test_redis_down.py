"""Redis killed under `arena web`: a move, a view and a stream get 503 with Retry-After (never a
500), /health says Redis is down; Redis back on the same port (AOF): moves work again, a stream
that stayed open carries on, and a stream resumed with Last-Event-ID gets the rest, none missed
or repeated."""
from __future__ import annotations

import asyncio
import json
import random
import time

import httpx

from .conftest import SSE, RestartableRedis, new_game, play_move
from tests.conftest import OPERATOR

RECOVER_SECONDS = 20


def test_redis_down_means_503_and_everything_resumes_when_it_is_back(tmp_path, start_front):
    redis = RestartableRedis(tmp_path / "redis")
    redis.start()
    try:
        front = start_front(redis.url)
        asyncio.run(_outage(front.url, front.port, redis))
    finally:
        redis.kill()


async def _outage(url: str, port: int, redis: RestartableRedis) -> None:
    rng = random.Random(6)
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        game = await new_game(http)
        path = f"/games/{game['id']}/stream"
        watcher = await SSE.open(port, path)
        watching = asyncio.create_task(watcher.follow())
        assert (await play_move(http, game, rng)).status_code == 200
        version = (await http.get(f"/games/{game['id']}")).json()["version"]
        await _until(lambda: watcher.ids[-1:] == [version])

        seat = (await http.get(f"/games/{game['id']}")).json()["active_seat"]
        token = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
        command = (await http.get(f"/games/{game['id']}/legal", headers=token)).json()["commands"][0]

        redis.kill()
        move = await http.post(f"/games/{game['id']}/commands", json=command, headers=token)
        view = await http.get(f"/games/{game['id']}")
        refused = await SSE.open(port, path, {"Last-Event-ID": str(version)})
        for status, headers, body in ((move.status_code, move.headers, move.json()),
                                      (view.status_code, view.headers, view.json()),
                                      (refused.status, refused.headers, json.loads(await refused.body()))):
            assert status == 503 and int(headers["retry-after"]) > 0 and body["code"] == "store_unavailable"
        assert "application/problem+json" in move.headers["content-type"]
        health = await http.get("/health")
        assert health.status_code == 503 and "redis" in health.json()["down"] and health.headers["retry-after"]

        redis.start()
        await _until_ok(http)
        for _ in range(3):
            assert (await play_move(http, game, rng)).status_code == 200
        events = (await http.get(f"/games/{game['id']}/events")).json()["events"]
        latest = [e["version"] for e in events]
        await _until(lambda: watcher.ids[-1:] == latest[-1:])
        assert watcher.ids == latest and not watcher.closed              # stayed open: every event, once
        resumed = await SSE.open(port, path, {"Last-Event-ID": str(version)})
        resuming = asyncio.create_task(resumed.follow())
        await _until(lambda: resumed.ids[-1:] == latest[-1:])
        assert resumed.ids == [v for v in latest if v > version]
        health = (await http.get("/health", headers=OPERATOR)).json()
        assert health["checks"]["streams"]["reader"] == "connected" and health["redis"] is True
        for stream, task in ((watcher, watching), (resumed, resuming)):
            stream.close()
            task.cancel()


async def _until(check, seconds: float = RECOVER_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def _until_ok(http: httpx.AsyncClient) -> None:
    deadline = time.monotonic() + RECOVER_SECONDS
    while (await http.get("/health")).status_code != 200:
        assert time.monotonic() < deadline, "the front did not see Redis come back"
        await asyncio.sleep(0.05)
