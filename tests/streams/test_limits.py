"""Slow and hostile clients on `arena web`: caps on open streams per address and per token (429 +
Retry-After), header and body deadlines and sizes, keep-alive timeout, heartbeats; 200 clients
sending their headers slowly block no one."""
from __future__ import annotations

import asyncio
import json
import resource
import time

import httpx
import pytest

from events.settings import Settings
from server.streams.front import raise_fd_limit
from server.streams.tier import next_beat

from .conftest import SSE, Front, new_game
from tests.conftest import OPERATOR

LIMITS = {"ARENA_STREAMS_PER_ADDRESS": "4", "ARENA_STREAMS_PER_TOKEN": "2", "ARENA_HEADER_TIMEOUT": "2",
          "ARENA_MAX_HEADER_BYTES": "4096", "ARENA_MAX_BODY": "4096", "ARENA_MAX_IMPORT_BODY": "4096", "ARENA_BODY_TIMEOUT": "1",
          "ARENA_HEARTBEAT_SECONDS": "0.5", "ARENA_KEEPALIVE_TIMEOUT": "1", "ARENA_RETRY_AFTER": "7"}


@pytest.fixture(scope="module")
def front(redis_server, tmp_path_factory):
    server = Front(redis_server.url, LIMITS, tmp_path_factory.mktemp("front") / "front.log")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def game(front) -> dict:
    async def create() -> dict:
        async with httpx.AsyncClient(base_url=front.url) as http:
            return await new_game(http)
    return asyncio.run(create())


def test_streams_beyond_the_caps_per_token_and_per_address_get_429_with_retry_after(front, game):
    async def scenario() -> None:
        path = f"/games/{game['id']}/stream"
        seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        held = [await SSE.open(front.port, path, seat) for _ in range(2)]
        by_token = await SSE.open(front.port, path, seat)
        held += [await SSE.open(front.port, path) for _ in range(2)]
        by_address = await SSE.open(front.port, path)
        assert [s.status for s in held] == [200] * 4
        for refused in (by_token, by_address):
            problem = json.loads(await refused.body())
            assert refused.status == 429 and refused.headers["retry-after"] == "7"
            assert refused.headers["content-type"] == "application/problem+json" and problem["code"] == "too_many_streams"
        held.pop().close()                                        # one closed: room for one more
        again = await open_when_given_back(front.port, path)
        for stream in held + [again]:
            stream.close()
        await all_given_back(front.url)                           # before the next test opens its own
    asyncio.run(scenario())


async def all_given_back(url: str) -> None:
    deadline = time.monotonic() + 10
    async with httpx.AsyncClient(base_url=url) as http:
        while (await http.get("/health", headers=OPERATOR)).json()["checks"]["streams"]["open_streams"]:
            assert time.monotonic() < deadline, "closed streams were not given back"
            await asyncio.sleep(0.05)


async def open_when_given_back(port: int, path: str, headers: dict | None = None) -> SSE:
    """A stream opened once the server has noticed that earlier ones closed (429 until then)."""
    deadline = time.monotonic() + 10
    while (stream := await SSE.open(port, path, headers)).status == 429:
        stream.close()
        assert time.monotonic() < deadline, "closed streams were not given back"
        await asyncio.sleep(0.05)
    return stream


def test_a_quiet_stream_gets_heartbeat_comments(front, game):
    async def scenario() -> None:
        stream = await open_when_given_back(front.port, f"/games/{game['id']}/stream", {"Last-Event-ID": "12"})
        following = asyncio.create_task(stream.follow())
        await asyncio.sleep(1.8)
        assert stream.comments >= 3 and not stream.closed          # ": connected", then one per 0.5 s
        stream.close()
        following.cancel()
    asyncio.run(scenario())


def test_two_hundred_slow_header_clients_block_no_one_and_are_cut_after_the_header_timeout(front):
    async def scenario() -> None:
        slow = [await asyncio.open_connection("127.0.0.1", front.port) for _ in range(200)]
        for _, writer in slow:
            writer.write(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        started = time.monotonic()
        async with httpx.AsyncClient(base_url=front.url, timeout=5) as http:
            answers = await asyncio.gather(*(http.get("/health") for _ in range(20)), http.post(
                "/games", json={"form": "duel", "players": [{"name": "A", "school": "northern"},
                                                            {"name": "B", "school": "sylvan"}]}))
        assert all(a.status_code in (200, 201) for a in answers)
        assert time.monotonic() - started < 2, "answered while the slow clients were still within their time"
        replies = await asyncio.gather(*(asyncio.wait_for(reader.read(), 10) for reader, _ in slow))
        assert all(reply.startswith(b"HTTP/1.1 408") for reply in replies)
        for _, writer in slow:
            writer.close()
    asyncio.run(scenario())


def test_oversized_heads_and_bodies_and_slow_bodies_are_refused(front):
    async def raw(data: bytes, then: bytes = b"", wait: float = 0) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        writer.write(data)
        await asyncio.sleep(wait)
        writer.write(then)
        reply = await asyncio.wait_for(reader.read(), 10)
        writer.close()
        return reply

    async def scenario() -> None:
        big_head = await raw(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 5000 + b"\r\n\r\n")
        assert big_head.startswith(b"HTTP/1.1 431") and b'"headers_too_large"' in big_head
        body = json.dumps({"form": "duel", "pad": "x" * 5000}).encode()
        big_body = await raw(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             b"Content-Length: %d\r\n\r\n" % len(body) + body)
        assert big_body.startswith(b"HTTP/1.1 413") and b'"body_too_large"' in big_body
        slow_body = await raw(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                              b"Content-Length: 100\r\n\r\n{", b"", wait=0)
        assert slow_body.startswith(b"HTTP/1.1 408") and b'"request_timeout"' in slow_body
        game = json.dumps({"form": "duel", "players": [{"name": "A", "school": "northern"},
                                                       {"name": "B", "school": "sylvan"}]}).encode()
        chunked = await raw(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                            b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(game), game))
        assert chunked.startswith(b"HTTP/1.1 201"), chunked[:300]            # a chunked body is read, not lost
    asyncio.run(scenario())


def test_an_idle_keep_alive_connection_is_closed_after_the_keep_alive_timeout(front):
    async def scenario() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        writer.write(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        started = time.monotonic()
        reply = await asyncio.wait_for(reader.read(), 10)           # the answer, then the close
        assert reply.startswith(b"HTTP/1.1 200") and 0.8 < time.monotonic() - started < 5
        writer.close()
    asyncio.run(scenario())


def test_a_limit_that_is_not_positive_is_refused_at_start(monkeypatch):
    """A zero heartbeat would spin the stream loop (every stream of the process would stop)."""
    monkeypatch.setenv("ARENA_HEARTBEAT_SECONDS", "0")
    with pytest.raises(ValueError, match="ARENA_HEARTBEAT_SECONDS must be a positive number"):
        Settings.load()
    assert next_beat(10.0, 10.0, 2.0) == 12.0 and next_beat(10.0, 15.5, 2.0) == 16.0 and next_beat(13.0, 12.0, 2.0) == 13.0


def test_the_front_lifts_its_open_files_limit_to_the_hard_one():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 256), hard))
    try:
        lifted = raise_fd_limit()
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == lifted
        assert lifted == hard or hard == resource.RLIM_INFINITY
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
