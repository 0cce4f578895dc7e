"""Following a merged stream (server/merged.py) on the async tier: each part with the tier's own
follower (its backlog, the hub, heartbeats, lag and revocation checks), interleaved here.

Parts the viewer may read once the game is over (`Merged.joining`) start after the log's
GameEnded, without the client reconnecting.

A part's follower only ends when something went wrong for the client (it read too slowly, its
credentials lapsed, Redis went away) or the stream's terms changed (`Merged.unchanged`: the
viewer muted someone): the merged stream then ends too, and the client resumes
every part from the last id it saw. A bounded hand-over queue keeps a slow client's backlog in
the hub, where it is capped, rather than here.
"""
from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, AsyncIterator, Callable

from .. import sse
from ..merged import Merged, Positions

if TYPE_CHECKING:
    from .tier import Opened

FollowPart = Callable[["Opened"], AsyncIterator[str]]


async def follow(opened: "Opened", follow_part: FollowPart) -> AsyncIterator[str]:
    merged: Merged = opened.source              # type: ignore[assignment]
    backlogs: list[sse.Backlog] = opened.backlog  # type: ignore[assignment]
    opened.backlog = None                       # sent once, then let go (as tier._first_chunk does)
    positions = Positions(merged)
    first = sse.CONNECTED + "".join(positions.relabel(i, "".join(item.text for item in backlog.frames))
                                    for i, backlog in enumerate(backlogs))

    def part_of(source: sse.Source, backlog: sse.Backlog) -> AsyncIterator[str]:
        return follow_part(replace(opened, source=source, backlog=backlog))    # one Standing for all parts
    parts = [part_of(part, replace(backlog, frames=[])) for part, backlog in zip(merged.parts, backlogs)]
    del backlogs
    yield first
    del first
    if not opened.follow:
        return
    queue: asyncio.Queue[tuple[int, str]] = asyncio.Queue(maxsize=1)
    pumps = [asyncio.create_task(_pump(i, part, queue)) for i, part in enumerate(parts)]

    def join() -> None:
        """Parts the viewer may read from now on (after GameEnded): followed from their place,
        their stored entries read by their follower as what came meanwhile."""
        for source in positions.joined():
            pumps.append(asyncio.create_task(_pump(len(pumps), part_of(source, sse.Backlog(source, source.after)), queue)))
    join()
    getter: asyncio.Future | None = None
    try:
        while True:
            getter = getter or asyncio.ensure_future(queue.get())
            done, _ = await asyncio.wait([getter, *pumps], return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                return                          # a part ended: the client resumes from its last id
            i, text = getter.result()
            getter = None
            if i > 0 and text == sse.KEEP_ALIVE:
                continue                        # one heartbeat is enough: the first part's
            text = positions.relabel(i, text)
            if text:
                yield text
            join()
    finally:
        for task in [*pumps, *([getter] if getter else [])]:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)


async def _pump(i: int, part: AsyncIterator[str], queue: asyncio.Queue) -> None:
    try:
        async for text in part:
            await queue.put((i, text))
    finally:
        await part.aclose()                     # type: ignore[attr-defined]  # its hub subscription ends
