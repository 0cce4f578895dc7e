"""The live stream of a game that left Redis, on the async tier (`arena web`): a spectator opening
it, or a client resuming it with Last-Event-ID, gets the events it is owed from the archive, the
same frames as before, and the stream ends (the game is over); its chat streams send the archived
messages, then what is written since."""
from __future__ import annotations

import asyncio
import json
import uuid

from events import chat
from events.archive import archiver
from events.service import GameService
from tests.streams.conftest import SSE, start_front  # noqa: F401 - the async front as a subprocess

from .conftest import finished_game


class Frames(SSE):
    """Keeps every frame's id as sent (a number, or a cursor with the chat), event and data."""

    def _take(self, block: str) -> None:
        fields = dict(line.split(": ", 1) for line in block.split("\n") if line and not line.startswith(":"))
        if "id" in fields:
            self.ids.append(fields["id"])
            self.events.append(fields["event"])
            self.data.append(json.loads(fields["data"]))


async def frames(port: int, path: str, headers: dict | None = None) -> tuple[list[str], list[str], list[dict], bool]:
    stream = await Frames.open(port, path, headers)
    assert stream.status == 200, await stream.body()
    stream.data = []
    try:
        await asyncio.wait_for(stream.follow(), 30)
    except TimeoutError:
        pass                                    # still open: what came is what it was owed
    stream.close()
    return stream.ids, stream.events, stream.data, stream.closed


def test_streams_of_an_archived_game_send_what_is_owed_from_the_archive_and_end(redis_server, redis_client, start_front):
    front = start_front(redis_server.url)
    service = GameService(redis_client)
    game_id = f"s{uuid.uuid4().hex[:12]}"
    tokens = finished_game(service, "resign-duel", game_id)
    version = service.store.version(game_id)
    seat = {"Authorization": f"Bearer {tokens[0]}"}
    opened = {"whole": (f"/games/{game_id}/stream", None),
              "resumed": (f"/games/{game_id}/stream", {"Last-Event-ID": str(version // 2)}),
              "seat, resumed": (f"/games/{game_id}/stream", {**seat, "Last-Event-ID": "3"}),
              "with chat": (f"/games/{game_id}/stream?chat=1&follow=0", seat),
              "spectators' chat": (f"/games/{game_id}/chat/stream?channel=spectators&follow=0", None)}

    def read_all() -> dict:
        return {name: asyncio.run(frames(front.port, path, headers)) for name, (path, headers) in opened.items()}
    before = read_all()
    assert before["whole"][0] == [str(v) for v in range(1, version + 1)] and before["whole"][1][-1] == "GameEnded"
    assert before["with chat"][1].count("chat") == 2 and before["spectators' chat"][1] == ["chat"]
    assert archiver.archive_game(redis_client, service, game_id) == "archived"
    assert read_all() == before
    ended = asyncio.run(frames(front.port, f"/games/{game_id}/stream", {"Last-Event-ID": str(version)}))
    assert ended == ([], [], [], True)                      # owed nothing: the stream ends at once
    later = chat.post(redis_client, game_id, "spectators", {"player": None, "name": "Late", "seat": None, "text": "gg"})
    ids, _, data, _ = asyncio.run(frames(front.port, *opened["spectators' chat"]))
    assert data[:-1] == before["spectators' chat"][2] and ids[-1] == data[-1]["id"] == later["id"]
