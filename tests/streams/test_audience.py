"""A real audience on `arena web`: 1,000 open streams and 100 slow-header clients while 200 moves
are played. Every move is answered, and every stream gets every event of its game, in order, once,
redacted as the Flask API redacts it for the same token."""
from __future__ import annotations

import asyncio
import random
import time

import httpx

from .conftest import SSE, new_game, play_move, slow_headers
from tests.conftest import OPERATOR

GAMES = 20
STREAMS = 1000
SLOW = 100
MOVES = 200
SETTLE_SECONDS = 20
HEADER_TIMEOUT = 4          # long enough for a loaded 2-core machine to read a prompt client's head


def test_a_thousand_streams_and_a_hundred_slow_clients_while_two_hundred_moves_are_played(redis_server, start_front):
    front = start_front(redis_server.url, ARENA_STREAMS_PER_ADDRESS="5000", ARENA_HEADER_TIMEOUT=str(HEADER_TIMEOUT),
                        ARENA_STREAM_SHARD_KEYS="6")                 # 20 games: four readers
    asyncio.run(_audience(front.url, front.port))


async def _audience(url: str, port: int) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        games = [await new_game(http) for _ in range(GAMES)]
        plans = [_plan(i, games[i % GAMES]) for i in range(STREAMS)]
        streams: list[SSE] = []
        for start in range(0, STREAMS, 100):
            streams += await asyncio.gather(*(SSE.open(port, path, headers) for _, path, headers, _ in
                                              plans[start:start + 100]))
        assert {s.status for s in streams} == {200}
        for stream in streams[2:8:3]:
            stream.data = []
        following = [asyncio.create_task(s.follow()) for s in streams]
        stop, cut = asyncio.Event(), []
        slow = [asyncio.create_task(slow_headers(port, stop, cut)) for _ in range(SLOW)]

        rng = random.Random(10)
        answers = [await play_move(http, games[n % GAMES], rng) for n in range(MOVES)]
        assert [a.status_code for a in answers if a is not None] == [200] * MOVES

        expected = {}
        for game, _, headers, _ in plans:
            key = (game["id"], headers.get("Authorization"))
            if key not in expected:
                answer = await http.get(f"/games/{game['id']}/events", headers=headers)
                expected[key] = [e["version"] for e in answer.json()["events"]]
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline and any(
                s.ids[-1:] != expected[(p[0]["id"], p[2].get("Authorization"))][-1:] for s, p in zip(streams, plans)):
            await asyncio.sleep(0.1)
        for stream, (game, _, headers, after) in zip(streams, plans):
            versions = expected[(game["id"], headers.get("Authorization"))]
            assert stream.ids == [v for v in versions if v > after], f"stream of {game['id']} after {after}"
        assert not any(s.closed for s in streams)
        await _same_redaction(http, streams, plans)
        assert (await http.get("/health", headers=OPERATOR)).json()["checks"]["streams"]["readers"] == 4

        cut_by = time.monotonic() + HEADER_TIMEOUT + 2
        while not cut and time.monotonic() < cut_by:
            await asyncio.sleep(0.1)
        stop.set()
        for task in following + slow:
            task.cancel()
        for stream in streams:
            stream.close()
        await asyncio.gather(*following, *slow, return_exceptions=True)
        assert cut, "no slow-header client was cut off after ARENA_HEADER_TIMEOUT"


def _plan(i: int, game: dict) -> tuple[dict, str, dict, int]:
    """Every third stream resumes from version 5, every third other one holds a seat's token."""
    after = 5 if i % 3 == 1 else 0
    headers = {"Last-Event-ID": str(after)} if after else {}
    if i % 3 == 2:
        headers["Authorization"] = f"Bearer {game['seats'][(i // GAMES) % 2]['token']}"
    return game, f"/games/{game['id']}/stream", headers, after


async def _same_redaction(http: httpx.AsyncClient, streams: list[SSE], plans: list) -> None:
    """A seat's stream carries exactly what GET /events shows that seat (its hand, no one else's)."""
    for stream, (game, _, headers, _) in list(zip(streams, plans))[2:8:3]:
        answer = await http.get(f"/games/{game['id']}/events", headers=headers)
        assert stream.data == answer.json()["events"]
