"""The lobby's live list, a game's chat and spectator presence on the real async front (`arena web`)."""
from __future__ import annotations

import asyncio
import uuid

import httpx

from .conftest import SSE

PASSWORD = "correct horse battery"


async def account(front_url: str) -> tuple[httpx.AsyncClient, dict]:
    client = httpx.AsyncClient(base_url=front_url, timeout=20)
    made = await client.post("/accounts", json={"name": f"s{uuid.uuid4().hex[:10]}", "password": PASSWORD})
    assert made.status_code == 201, made.text
    token = (await client.post("/accounts/me/tokens", json={"label": "test"},
                               headers={"X-CSRF-Token": made.json()["csrf"]})).json()["token"]
    client.headers["Authorization"] = f"Bearer {token}"
    return client, {**made.json(), "token": token}


async def until(check, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


def test_lobby_changes_chat_messages_and_spectators_arrive_on_the_front(redis_server, start_front):
    front = start_front(redis_server.url)

    async def scenario() -> None:
        ann, ann_me = await account(front.url)
        bob, _ = await account(front.url)
        cid, cid_me = await account(front.url)
        lobby = await SSE.open(front.port, "/lobby/stream?after=" + (await ann.get("/lobby/tables")).json()["feed"])
        assert lobby.status == 200
        lobby.data = []
        reading = asyncio.create_task(lobby.follow())
        table = (await ann.post("/lobby/tables", json={"form": "duel"})).json()
        await until(lambda: "opened" in lobby.events)
        game_id = (await bob.post(f"/lobby/tables/{table['id']}/join")).json()["game_id"]
        await until(lambda: "started" in lobby.events)
        assert lobby.data[-1]["table"]["game_id"] == game_id

        # the players' chat on its stream, for a seat; the spectators' for a watcher
        players_chat = await SSE.open(front.port, f"/games/{game_id}/chat/stream?channel=players",
                                      {"Authorization": f"Bearer {ann_me['token']}"})
        players_chat.data = []
        watcher_chat = await SSE.open(front.port, f"/games/{game_id}/chat/stream?channel=spectators",
                                      {"Authorization": f"Bearer {cid_me['token']}"})
        watcher_chat.data = []
        refused = await SSE.open(front.port, f"/games/{game_id}/chat/stream?channel=players",
                                 {"Authorization": f"Bearer {cid_me['token']}"})
        assert (players_chat.status, watcher_chat.status, refused.status) == (200, 200, 403)
        refused.close()
        tasks = [asyncio.create_task(s.follow()) for s in (players_chat, watcher_chat)]
        await bob.post(f"/games/{game_id}/chat", json={"text": "good luck"})
        await cid.post(f"/games/{game_id}/chat", json={"channel": "spectators", "text": "popcorn"})
        await until(lambda: players_chat.data and watcher_chat.data)
        assert [m["text"] for m in players_chat.data] == ["good luck"]
        assert [m["text"] for m in watcher_chat.data] == ["popcorn"]

        # a spectator's open game stream counts on the list of live games, and stops counting when closed
        watching = await SSE.open(front.port, f"/games/{game_id}/stream", {"Authorization": f"Bearer {cid_me['token']}"})
        follow = asyncio.create_task(watching.follow())

        async def spectators() -> int:
            games = (await cid.get("/games/live")).json()["games"]
            return next(g["spectators"] for g in games if g["id"] == game_id)

        counts = []
        for _ in range(100):
            counts.append(await spectators())
            if counts[-1] == 1:
                break
            await asyncio.sleep(0.05)
        assert counts[-1] == 1
        watching.close()
        for _ in range(100):
            if await spectators() == 0:
                break
            await asyncio.sleep(0.05)
        assert await spectators() == 0
        for s in (lobby, players_chat, watcher_chat):
            s.close()
        for t in [reading, follow, *tasks]:
            t.cancel()
        for c in (ann, bob, cid):
            await c.aclose()

    asyncio.run(scenario())


def test_a_stream_ends_when_its_token_is_revoked_or_its_session_signed_out(redis_server, start_front):
    front = start_front(redis_server.url, ARENA_HEARTBEAT_SECONDS="0.3")

    async def scenario() -> None:
        ann, ann_me = await account(front.url)
        bob, bob_me = await account(front.url)
        session = {"Cookie": f"arena_session={ann.cookies['arena_session']}"}
        by_token = await SSE.open(front.port, "/players/me/stream", {"Authorization": f"Bearer {ann_me['token']}"})
        by_cookie = await SSE.open(front.port, "/players/me/stream", session)
        assert (by_token.status, by_cookie.status) == (200, 200)
        for s in (by_token, by_cookie):
            s.data = []
        tasks = [asyncio.create_task(s.follow()) for s in (by_token, by_cookie)]
        del ann.headers["Authorization"]                  # the session's own writes: cookie and CSRF
        csrf = {"X-CSRF-Token": ann.cookies["arena_csrf"]}
        tid = next(t["id"] for t in (await ann.get("/accounts/me/tokens")).json()["tokens"])
        assert (await ann.delete(f"/accounts/me/tokens/{tid}", headers=csrf)).status_code == 204
        assert (await ann.post("/accounts/me/sign-out-everywhere", headers=csrf)).status_code == 200
        await until(lambda: by_token.closed and by_cookie.closed)
        await bob.post("/games", json={"form": "duel", "players": [
            {"name": bob_me["name"], "school": "northern", "player": bob_me["id"]},
            {"name": ann_me["name"], "school": "sylvan", "player": ann_me["id"]}]})
        assert by_token.data == [] and by_cookie.data == []        # the invitation reached neither
        for t in tasks:
            t.cancel()
        for c in (ann, bob):
            await c.aclose()

    asyncio.run(scenario())
