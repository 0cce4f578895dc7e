"""The caps on open streams per address and per token hold across stream processes (they are
counted in Redis), leases keep an open stream's slot while it lasts, and the slots of a process
killed with -9 lapse with their leases instead of leaking."""
from __future__ import annotations

import asyncio
import json
import time

import httpx
import redis.asyncio as aioredis

from events import keys
from server.streams.slots import StreamSlots, owner

from .conftest import SSE, new_game

LEASE = 3.0                     # seconds; each process renews its slots every LEASE / 3
CAPS = {"ARENA_STREAMS_PER_ADDRESS": "4", "ARENA_STREAMS_PER_TOKEN": "2", "ARENA_STREAM_SLOT_LEASE": str(LEASE)}


async def status(port: int, path: str, headers: dict | None = None) -> tuple[int, SSE]:
    stream = await SSE.open(port, path, headers)
    if stream.status == 429:
        assert json.loads(await stream.body())["code"] == "too_many_streams"
        assert stream.headers["retry-after"]
        stream.close()
    return stream.status, stream


def test_the_caps_count_every_process_and_a_killed_process_gives_its_slots_back(redis_server, start_front):
    web = start_front(redis_server.url, "web", **CAPS)            # the API and streams
    stream_tier = start_front(redis_server.url, "stream", **CAPS)  # streams only

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=web.url) as http:
            game = await new_game(http)
        path = f"/games/{game['id']}/stream"
        seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}

        # the token's cap of 2: one stream on each process, the third refused on either
        held = [(await status(web.port, path, seat))[1], (await status(stream_tier.port, path, seat))[1]]
        assert [s.status for s in held] == [200, 200]
        assert (await status(web.port, path, seat))[0] == 429
        assert (await status(stream_tier.port, path, seat))[0] == 429

        # the address's cap of 4 (the token's streams count too): one more on each process
        held += [(await status(web.port, path))[1], (await status(stream_tier.port, path))[1]]
        assert [s.status for s in held] == [200] * 4
        await asyncio.sleep(LEASE * 1.5)                          # leases renewed: the slots are still held
        assert (await status(web.port, path))[0] == 429
        assert (await status(stream_tier.port, path))[0] == 429

        # a stream closed gives its slot back at once, whichever process held it
        held.pop().close()                                        # the address-only one on the stream tier
        deadline = time.monotonic() + 5
        while (answer := await status(web.port, path))[0] == 429:
            assert time.monotonic() < deadline, "a closed stream's slot was not given back"
            await asyncio.sleep(0.05)
        held.append(answer[1])

        # kill -9 of the stream tier: its token stream's slot lapses within a lease, not before
        killed = time.monotonic()
        stream_tier.kill()
        assert (await status(web.port, path, seat))[0] == 429
        assert time.monotonic() - killed < LEASE / 3, "too slow to tell a lapsed lease from a held one"
        while (answer := await status(web.port, path, seat))[0] == 429:
            assert time.monotonic() - killed < LEASE + 5, "a killed process's slot did not lapse"
            await asyncio.sleep(0.1)
        held.append(answer[1])
        assert (await status(web.port, path))[0] == 429            # 4 open again on the address: full
        for stream in held:
            stream.close()
    asyncio.run(scenario())


def test_a_burst_of_claims_holds_the_cap_exactly_and_survives_a_script_flush(redis_server):
    """Claims of one turn of the loop go in one pipeline: 50 at once against a cap of 20 give 20,
    and after Redis forgot its scripts (a restart) the next claims still work."""
    async def scenario() -> None:
        redis = aioredis.Redis.from_url(redis_server.url)
        slots = StreamSlots(redis, per_address=20, per_token=5, lease=30)
        claims = await asyncio.gather(*(slots.claim("198.51.100.7", None) for _ in range(50)))
        assert sum(c is not None for c in claims) == 20
        await redis.script_flush()
        for claim in [c for c in claims if c is not None][:3]:
            await claim.release()
        again = await asyncio.gather(*(slots.claim("198.51.100.7", None) for _ in range(5)))
        assert sum(c is not None for c in again) == 3
        await slots.stop()
        assert await redis.zcard(keys.stream_slots(owner("a", "198.51.100.7"))) == 0      # all given back
        await redis.aclose()
    asyncio.run(scenario())
