"""A stream trusts its token for ARENA_STREAM_RECHECK_SECONDS, not longer: a token gone from Redis
without a word (deleted there) stops receiving within that bound, and one revoked through the API
stops at once (server/streams/standing.py), on the real async front."""
from __future__ import annotations

import asyncio

import redis

from events import keys, tokens

from .test_chat_on_game_stream import opened, two_seated_and_a_watcher
from .test_people_streams import until

RECHECK = 4.0
SLACK = 1.5                 # a loaded machine's delay between a message's post and its delivery


def test_a_revoked_token_stops_receiving_within_the_recheck_bound_and_at_once_through_the_api(redis_server, start_front):
    front = start_front(redis_server.url, ARENA_STREAM_RECHECK_SECONDS=str(RECHECK))
    store = redis.Redis.from_url(redis_server.url)

    async def scenario() -> None:
        (ann, _), (bob, _), (cid, _), game_id = await two_seated_and_a_watcher(front.url)
        made = [(await ann.post("/accounts/me/tokens", json={"label": label})).json() for label in ("quiet", "api")]
        quiet, by_api = [await opened(front.port, f"/games/{game_id}/stream?chat=1", m["token"]) for m in made]
        loop = asyncio.get_running_loop()
        posted: dict[str, float] = {}

        async def chatter() -> None:
            for n in range(400):
                text = f"m{n}"
                assert (await bob.post(f"/games/{game_id}/chat", json={"text": text})).status_code == 201
                posted[text] = loop.time()
                await asyncio.sleep(0.05)
        talking = asyncio.create_task(chatter())
        await until(lambda: quiet[0].chat() and by_api[0].chat())

        # through the API: the stream is told, and ends before it delivers what comes after
        tid = next(t["id"] for t in (await ann.get("/accounts/me/tokens")).json()["tokens"] if t["label"] == "api")
        assert (await ann.delete(f"/accounts/me/tokens/{tid}")).status_code == 204
        revoked = loop.time()
        await until(lambda: by_api[0].closed, timeout=RECHECK + SLACK)
        assert loop.time() - revoked < RECHECK / 2
        assert all(posted.get(t, 0) <= revoked + 0.5 for t in by_api[0].chat())

        # gone from Redis behind the streams' back: no news, so the bound is what holds
        store.delete(keys.player_token(tokens.token_hash(made[0]["token"])))
        deleted = loop.time()
        await until(lambda: quiet[0].closed, timeout=RECHECK + 2 * SLACK)
        assert not talking.done()
        late = [t for t in quiet[0].chat() if posted.get(t, 0) > deleted + RECHECK + SLACK]
        assert late == [], f"delivered after the bound: {late}"

        talking.cancel()
        for stream, task in (quiet, by_api):
            stream.close()
            task.cancel()
        for client in (ann, bob, cid):
            await client.aclose()

    asyncio.run(scenario())
