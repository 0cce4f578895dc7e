"""Chat on the game's own stream (`/games/{id}/stream?chat=1`) on the real async front: each channel
to whom may read it, ids that resume the game and the chat alike (nothing repeated, nothing
missed), mutes honoured, open after the game's end for the chat after it, and the stream of old
clients (no chat=1) unchanged; a seat's open stream adds the spectators' chat when the game ends,
and the news of its rematch offer."""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from urllib.parse import quote

import redis

from events import keys
from server import chat, merged, sse

from .conftest import SSE
from .test_people_streams import account, until


@dataclass
class Frames(SSE):
    """Keeps every frame as (id, event, data), ids as sent (cursors, not numbers)."""
    frames: list[tuple[str, str, dict]] = field(default_factory=list)

    def _take(self, block: str) -> None:
        fields = dict(line.split(": ", 1) for line in block.split("\n") if line and not line.startswith(":"))
        if "id" in fields:
            self.frames.append((fields["id"], fields["event"], json.loads(fields["data"])))
        else:
            self.comments += 1

    def chat(self) -> list[str]:
        return [data["text"] for _, event, data in self.frames if event == "chat"]

    def game(self) -> list[int]:
        return [data["version"] for _, event, data in self.frames if event != "chat"]


async def opened(port: int, path: str, token: str, **headers: str) -> tuple[Frames, asyncio.Task]:
    stream = await Frames.open(port, path, {"Authorization": f"Bearer {token}", **headers})
    assert stream.status == 200, (stream.status, await stream.body())
    return stream, asyncio.create_task(stream.follow())


async def two_seated_and_a_watcher(url: str) -> tuple[tuple, tuple, tuple, str]:
    """Three accounts: the first two seated at a lobby duel (its game id), the third not."""
    ann, bob, cid = [await account(url) for _ in range(3)]
    table = (await ann[0].post("/lobby/tables", json={"form": "duel"})).json()
    return ann, bob, cid, (await bob[0].post(f"/lobby/tables/{table['id']}/join")).json()["game_id"]


async def play_one(client, game_id: str) -> None:
    """The first legal command of whoever holds the active seat, if it is this client."""
    legal = (await client.get(f"/games/{game_id}/legal")).json()
    answer = await client.post(f"/games/{game_id}/commands", json={**legal["commands"][0],
                                                                    "expected_version": legal["version"]})
    assert answer.status_code == 200, answer.text


def test_chat_rides_on_the_game_stream_and_resumes_with_it(redis_server, start_front):
    front = start_front(redis_server.url)

    async def scenario() -> None:
        (ann, ann_me), (bob, bob_me), (cid, cid_me), game_id = await two_seated_and_a_watcher(front.url)
        path = f"/games/{game_id}/stream"
        seat_a, task_a = await opened(front.port, path + "?chat=1", ann_me["token"])
        watcher, task_w = await opened(front.port, path + "?chat=1", cid_me["token"])
        old, task_o = await opened(front.port, path, bob_me["token"])
        await until(lambda: seat_a.frames and old.frames)
        version = max(seat_a.game())

        await bob.post(f"/games/{game_id}/chat", json={"text": "good luck"})
        await cid.post(f"/games/{game_id}/chat", json={"channel": "spectators", "text": "popcorn"})
        await until(lambda: seat_a.chat() and watcher.chat())
        assert seat_a.chat() == ["good luck"] and watcher.chat() == ["popcorn"]     # each channel to its readers
        [said] = [d for _, e, d in seat_a.frames if e == "chat"]
        assert said["channel"] == "players" and said["name"] == bob_me["name"] and said["seat"] in (0, 1)
        last_id = seat_a.frames[-1][0]
        assert last_id == f"{version};players={said['id']}"                       # the game's and the chat's place
        assert all(e != "chat" and i.isdigit() for i, e, _ in old.frames)          # old clients: as before

        # away: a move and a message come meanwhile; back with the last id: exactly those, once
        seat_a.close()
        task_a.cancel()
        view = (await ann.get(f"/games/{game_id}")).json()
        mover = ann if view["players"][view["active_seat"]]["player"] == ann_me["id"] else bob
        await play_one(mover, game_id)
        await bob.post(f"/games/{game_id}/chat", json={"text": "are you there?"})
        back, task_b = await opened(front.port, path + "?chat=1", ann_me["token"], **{"Last-Event-ID": last_id})
        await until(lambda: back.chat() and back.game())
        await asyncio.sleep(0.3)
        assert back.chat() == ["are you there?"] and min(back.game()) == version + 1
        assert len(back.game()) == len(set(back.game()))
        # the same place given as `cursor=` (for clients that cannot set the header)
        again, task_c = await opened(front.port, f"{path}?chat=1&follow=0&cursor={quote(last_id)}", ann_me["token"])
        await asyncio.wait_for(task_c, 10)
        assert again.chat() == ["are you there?"] and again.game() == back.game()

        # a muted player's messages are left out: an open stream ends rather than send one, and the
        # stream resumed (or opened anew) leaves them out
        assert (await ann.post("/accounts/me/mutes", json={"player": bob_me["id"]})).status_code == 200
        await bob.post(f"/games/{game_id}/chat", json={"text": "muted now"})
        await until(lambda: back.closed)
        assert "muted now" not in back.chat()
        muted, task_m = await opened(front.port, path + "?chat=1&follow=0", ann_me["token"])
        await asyncio.wait_for(task_m, 10)
        assert muted.chat() == [] and muted.game()
        resume = {"Last-Event-ID": back.frames[-1][0]}
        back, task_b = await opened(front.port, path + "?chat=1", ann_me["token"], **resume)

        # the game ends: the chat's stream stays open for the words after it; the old one closes
        assert (await bob.post(f"/games/{game_id}/resign")).status_code == 200
        await until(lambda: "GameEnded" in [e for _, e, _ in back.frames] and old.closed)
        await cid.post(f"/games/{game_id}/chat", json={"channel": "spectators", "text": "well played"})
        await until(lambda: "well played" in watcher.chat())
        assert not back.closed and not watcher.closed

        bad = await Frames.open(front.port, path + "?chat=1", {"Authorization": f"Bearer {ann_me['token']}",
                                                              "Last-Event-ID": "12;nobody=1-0"})
        assert bad.status == 400
        for s in (back, watcher, old, bad):
            s.close()
        for t in (task_w, task_o, task_b):
            t.cancel()
        for c in (ann, bob, cid):
            await c.aclose()

    asyncio.run(scenario())


def test_a_seats_open_stream_adds_the_spectators_chat_when_the_game_ends(redis_server, start_front):
    """No reconnection: right after GameEnded come the spectators' words said during the game, then
    the words after it; the ids name the spectators' chat from then on, and resume it exactly."""
    front = start_front(redis_server.url)

    async def scenario() -> None:
        (ann, ann_me), (bob, bob_me), (cid, _), game_id = await two_seated_and_a_watcher(front.url)
        path = f"/games/{game_id}/stream?chat=1"
        seat, task = await opened(front.port, path, ann_me["token"])
        await until(lambda: seat.frames)
        await cid.post(f"/games/{game_id}/chat", json={"channel": "spectators", "text": "she will lose"})
        await bob.post(f"/games/{game_id}/chat", json={"text": "hello"})
        await until(lambda: seat.chat())
        assert seat.chat() == ["hello"]                                   # no outside help while it runs
        assert "spectators" not in seat.frames[-1][0]

        assert (await bob.post(f"/games/{game_id}/resign")).status_code == 200
        await until(lambda: "she will lose" in seat.chat())
        await cid.post(f"/games/{game_id}/chat", json={"channel": "spectators", "text": "well played"})
        await until(lambda: "well played" in seat.chat())
        events = [e for _, e, _ in seat.frames]
        ended = events.index("GameEnded")
        assert [d["text"] for _, e, d in seat.frames[ended:] if e == "chat"] == ["she will lose", "well played"]
        assert [d["channel"] for _, e, d in seat.frames if e == "chat"] == ["players", "spectators", "spectators"]
        last_id = seat.frames[-1][0]
        said = seat.frames[-1][2]["id"]
        assert last_id.endswith(f";spectators={said};rematch=0-0") and ";players=" in last_id and not seat.closed

        # resumed from that id: nothing again; from the id before the game ended: the same frames
        # (each channel in its own order; the game's end then names the spectators' chat from its start)
        await bob.post(f"/games/{game_id}/chat", json={"text": "gg"})
        again, task_a = await opened(front.port, path + "&follow=0", ann_me["token"], **{"Last-Event-ID": last_id})
        await asyncio.wait_for(task_a, 10)
        assert again.chat() == ["gg"] and again.game() == []
        before = seat.frames[ended - 1][0]
        replay, task_r = await opened(front.port, path + "&follow=0", ann_me["token"], **{"Last-Event-ID": before})
        await asyncio.wait_for(task_r, 10)
        await until(lambda: "gg" in seat.chat())
        assert replay.game() == [seat.frames[ended][2]["version"]]
        assert sorted(replay.chat()) == sorted(d["text"] for _, e, d in seat.frames[ended:] if e == "chat")

        # a rematch offer rides on the same stream at each change: who has accepted, never a token
        assert (await bob.post(f"/games/{game_id}/rematch")).status_code == 202
        await until(lambda: any(e == "rematch" for _, e, _ in seat.frames))
        offered = next(d for _, e, d in seat.frames if e == "rematch")
        assert offered["status"] == "offered" and offered["rematch_id"]
        assert sorted((s["name"], s["accepted"]) for s in offered["seats"]) == sorted([(bob_me["name"], True), (ann_me["name"], False)])
        assert (await ann.post(f"/games/{game_id}/rematch")).status_code == 201
        await until(lambda: [d["status"] for _, e, d in seat.frames if e == "rematch"] == ["offered", "started"])
        assert "token" not in json.dumps([d for _, e, d in seat.frames if e == "rematch"])
        assert seat.frames[-1][0].split(";")[-1].startswith("rematch=")
        for s in (seat, again, replay):
            s.close()
        task.cancel()
        for c in (ann, bob, cid):
            await c.aclose()

    asyncio.run(scenario())
