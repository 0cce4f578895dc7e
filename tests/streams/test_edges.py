"""The remaining edges on the real async front (`arena web`): a signed-in browser's streams share the
per-token cap, a mute ends the chat-only stream at once, and spectators count once per viewer."""
from __future__ import annotations

import asyncio

from .conftest import SSE
from .test_people_streams import account, until


def test_cookie_caps_mutes_on_the_chat_stream_and_distinct_spectators(redis_server, start_front):
    front = start_front(redis_server.url)

    async def scenario() -> None:
        ann, ann_me = await account(front.url)
        bob, bob_me = await account(front.url)
        cookie = {"Cookie": f"arena_session={ann.cookies['arena_session']}"}

        # one browser session: at most ARENA_STREAMS_PER_TOKEN (16) streams, as a token
        tabs = [await SSE.open(front.port, "/players/me/stream", cookie) for _ in range(17)]
        assert [t.status for t in tabs] == [200] * 16 + [429]
        for t in tabs:
            t.close()

        table = (await ann.post("/lobby/tables", json={"form": "duel"})).json()
        game_id = (await bob.post(f"/lobby/tables/{table['id']}/join")).json()["game_id"]
        chat = await SSE.open(front.port, f"/games/{game_id}/chat/stream?channel=players", cookie)
        assert chat.status == 200
        chat.data = []
        reading = asyncio.create_task(chat.follow())
        await bob.post(f"/games/{game_id}/chat", json={"text": "hello"})
        await until(lambda: chat.data)
        assert (await ann.post("/accounts/me/mutes", json={"player": bob_me["id"]})).status_code == 200
        await bob.post(f"/games/{game_id}/chat", json={"text": "still there?"})
        await until(lambda: chat.closed)           # the mute, told at once, ends it before that delivery
        again = await SSE.open(front.port, f"/games/{game_id}/chat/stream?channel=players&follow=false", cookie)
        again.data = []
        await again.follow()
        assert [m["text"] for m in chat.data] == ["hello"] and again.data == []

        # three anonymous streams from one address are one spectator
        watchers = [await SSE.open(front.port, f"/games/{game_id}/stream") for _ in range(3)]
        following = [asyncio.create_task(w.follow()) for w in watchers]

        async def spectators() -> int:
            games = (await ann.get("/games/live")).json()["games"]
            return next(g["spectators"] for g in games if g["id"] == game_id)
        seen = 0
        for _ in range(100):
            seen = await spectators()
            if seen:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.6)                                   # every join flushed
        assert seen == 1 and await spectators() == 1
        for w in watchers:
            w.close()
        for t in [reading, *following]:
            t.cancel()
        for c in (ann, bob):
            await c.aclose()

    asyncio.run(scenario())
